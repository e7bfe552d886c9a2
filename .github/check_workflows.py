#!/usr/bin/env python3
"""Checks .github/workflows/*.yml, action.yml and .clusterfuzzlite/, since GitHub cannot run here.

Every workflow must parse as YAML and have a name, triggers and jobs whose steps either run a
shell command or use an action this repository knows (pinned to the major version it is written
for), with only that action's inputs. ClusterFuzzLite: run_fuzzers modes are the documented four
(code-change on pull requests; batch, prune and coverage on a schedule) and all four are used;
every run_fuzzers step follows a build_fuzzers step of the same sanitizer; sanitizers are the
ones fuzz/oss-fuzz/project.yaml lists (plus coverage, with the coverage mode only); the language
is .clusterfuzzlite/project.yaml's. Fuzz power (fuzz/power/power.sh): a scheduled workflow runs the full
table (no --ci); every call passes only options fuzz/power/power.py accepts, with values where they need
one; its job has a time limit; and the --report table and --keep folder it writes are uploaded by
a later upload-artifact step of the same job, even when the run fails. The composite action: its steps, the inputs and step outputs
it references, and the script subcommands it calls. Exits 1 with one line per problem.

  .github/check_workflows.py [REPO_ROOT]
"""

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
CFL = "google/clusterfuzzlite/actions/"
ACTIONS = {
    "actions/checkout@v4": {"fetch-depth", "ref", "submodules", "path"},
    "actions/cache@v4": {"path", "key", "restore-keys"},
    "actions/upload-artifact@v4": {"name", "path", "if-no-files-found", "retention-days"},
    CFL + "build_fuzzers@v1": {"language", "github-token", "sanitizer", "upload-build", "dry-run",
                               "allowed-broken-targets-percentage", "keep-unaffected-fuzz-targets",
                               "bad-build-check", "storage-repo", "storage-repo-branch",
                               "storage-repo-branch-coverage", "architecture"},
    CFL + "run_fuzzers@v1": {"github-token", "fuzz-seconds", "mode", "sanitizer", "output-sarif",
                             "report-unreproducible-crashes", "report-timeouts", "report-ooms",
                             "minimize-crashes", "parallel-fuzzing", "storage-repo",
                             "storage-repo-branch", "storage-repo-branch-coverage", "dry-run"},
}
MODES = {"code-change": "pull_request", "batch": "schedule", "prune": "schedule", "coverage": "schedule"}
TRIGGERS = {"push", "pull_request", "schedule", "workflow_dispatch", "release"}
problems = []
full_power_runs = []  # the steps that run the whole fuzz-power table on a schedule


def problem(where, msg):
    problems.append(f"{where}: {msg}")


def load(path):
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        problem(path.relative_to(ROOT), f"not valid YAML: {e}")
        return None
    if not isinstance(data, dict):
        problem(path.relative_to(ROOT), "not a mapping")
        return None
    return data


def cron_ok(expr):
    fields = expr.split()
    if len(fields) != 5:
        return False
    limits = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 6)]
    for f, (lo, hi) in zip(fields, limits):
        for part in f.split(","):
            m = re.fullmatch(r"(\*|(\d+)(?:-(\d+))?)(?:/(\d+))?", part)
            if not m:
                return False
            for n in (m.group(2), m.group(3)):
                if n is not None and not lo <= int(n) <= hi:
                    return False
    return True


def sanitizers_allowed():
    data = load(ROOT / "fuzz" / "oss-fuzz" / "project.yaml") or {}
    out = set()
    for s in data.get("sanitizers", []):
        out.add(s if isinstance(s, str) else next(iter(s)))
    return out


def expand(value, matrix):
    """The values an expression takes over the job's matrix."""
    value = str(value)
    m = re.fullmatch(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", value)
    if m:
        return [str(v) for v in matrix.get(m.group(1), [])]
    return [value]


def check_workflow(path, allowed_sanitizers, language, modes_used):
    where = path.relative_to(ROOT)
    wf = load(path)
    if wf is None:
        return
    triggers = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    if not wf.get("name"):
        problem(where, "no name")
    if not triggers:
        problem(where, "no triggers (on:)")
        triggers = {}
    if isinstance(triggers, str):
        triggers = {triggers: None}
    elif isinstance(triggers, list):
        triggers = {t: None for t in triggers}
    for t in triggers:
        if t not in TRIGGERS:
            problem(where, f"unexpected trigger {t}")
    for entry in triggers.get("schedule") or []:
        if not cron_ok(str(entry.get("cron", ""))):
            problem(where, f"bad cron expression {entry.get('cron')!r}")
    jobs = wf.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        problem(where, "no jobs")
        return
    for job_name, job in jobs.items():
        jw = f"{where} job {job_name}"
        if not job.get("runs-on"):
            problem(jw, "no runs-on")
        matrix = ((job.get("strategy") or {}).get("matrix") or {})
        steps = job.get("steps") or []
        if not steps:
            problem(jw, "no steps")
        built = set()
        check_power_steps(jw, job, triggers, full_power_runs)
        for i, step in enumerate(steps):
            sw = f"{jw} step {i + 1} ({step.get('name', step.get('uses', 'run'))})"
            if ("uses" in step) == ("run" in step):
                problem(sw, "needs exactly one of uses and run")
                continue
            if "run" in step:
                continue
            uses, inputs = step["uses"], step.get("with") or {}
            if uses == "./":
                check_action(sw, inputs)
                continue
            if uses not in ACTIONS:
                problem(sw, f"uses {uses}, which is not one of {', '.join(sorted(ACTIONS))}")
                continue
            for key in inputs:
                if key not in ACTIONS[uses]:
                    problem(sw, f"{uses} has no input {key}")
            sans = expand(inputs.get("sanitizer", "address"), matrix)
            if uses.startswith(CFL):
                for lang in expand(inputs.get("language", "c++"), matrix):
                    if "build_fuzzers" in uses and lang != language:
                        problem(sw, f"language {lang}, .clusterfuzzlite/project.yaml says {language}")
                for s in sans:
                    if s not in allowed_sanitizers | {"coverage"}:
                        problem(sw, f"sanitizer {s} is not in fuzz/oss-fuzz/project.yaml")
            if uses.endswith("build_fuzzers@v1"):
                built.update(sans)
            elif uses.endswith("run_fuzzers@v1"):
                mode = str(inputs.get("mode", "code-change"))
                if mode not in MODES:
                    problem(sw, f"mode {mode} is not one of {', '.join(MODES)}")
                    continue
                modes_used.add(mode)
                if MODES[mode] not in triggers:
                    problem(sw, f"mode {mode} belongs in a workflow triggered by {MODES[mode]}")
                if (mode == "coverage") != (sans == ["coverage"]):
                    problem(sw, "the coverage mode runs the coverage build, and only it")
                for s in sans:
                    if s not in built:
                        problem(sw, f"runs the {s} fuzzers, which no earlier step of the job built")
                secs = inputs.get("fuzz-seconds", 600)
                if not isinstance(secs, int) or secs <= 0:
                    problem(sw, f"fuzz-seconds {secs!r} is not a positive number")
                if "github-token" not in inputs:
                    problem(sw, "no github-token (needed to download builds and corpora)")


def power_options():
    """fuzz/power/power.py's options: name -> whether it takes a value."""
    text = (ROOT / "fuzz" / "power" / "power.py").read_text()
    out = {}
    for m in re.finditer(r'add_argument\("(--[\w-]+)"([^\n]*)', text):
        out[m.group(1)] = 'action="store_true"' not in m.group(2)
    return out


def check_power_steps(where, job, triggers, full_runs):
    """The fuzz-power steps of one job (see the module's docstring)."""
    options = power_options()
    steps = job.get("steps") or []
    for i, step in enumerate(steps):
        run = step.get("run")
        if not isinstance(run, str) or "fuzz/power/power.sh" not in run:
            continue
        sw = f"{where} step {i + 1} ({step.get('name', 'run')})"
        for call in re.findall(r"fuzz/power/power\.sh([^\n]*)", run):
            words = call.split()
            given = {}
            k = 0
            while k < len(words):
                w = words[k]
                if w not in options:
                    problem(sw, f"fuzz/power/power.sh has no option {w}")
                    k += 1
                    continue
                if options[w]:
                    if k + 1 >= len(words) or words[k + 1].startswith("--"):
                        problem(sw, f"{w} needs a value")
                        k += 1
                        continue
                    given[w] = words[k + 1]
                    k += 2
                else:
                    given[w] = True
                    k += 1
            if "--ci" not in given and "schedule" in triggers:
                full_runs.append(sw)
            if not job.get("timeout-minutes"):
                problem(sw, "a fuzz-power job needs timeout-minutes")
            for opt in ("--report", "--keep"):
                if opt not in given:
                    problem(sw, f"runs fuzz power without {opt}: its table and findings would be lost")
                    continue
                uploaded = False
                for later in steps[i + 1:]:
                    if later.get("uses") != "actions/upload-artifact@v4":
                        continue
                    paths = str((later.get("with") or {}).get("path", "")).split()
                    if given[opt] in paths and str(later.get("if", "")).strip() == "always()":
                        uploaded = True
                if not uploaded:
                    problem(sw, f"{opt} {given[opt]} is not uploaded by a later actions/upload-artifact step with if: always()")


def check_action(where, given=None):
    path = ROOT / "action.yml"
    if not path.exists():
        problem(where, "uses ./ but there is no action.yml")
        return
    action = load(path)
    if action is None:
        return
    inputs = action.get("inputs") or {}
    for key in (given or {}):
        if key not in inputs:
            problem(where, f"action.yml has no input {key}")
    if given is not None:
        return
    aw = "action.yml"
    for key in ("name", "description", "runs"):
        if key not in action:
            problem(aw, f"no {key}")
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        problem(aw, "runs.using must be composite")
    script = ROOT / "scripts" / "conform-action.sh"
    commands = set(re.findall(r"^  (\w+)\) cmd_", script.read_text(), re.M)) if script.exists() else set()
    ids = set()
    text = path.read_text()
    for ref in re.findall(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", text):
        if ref not in inputs:
            problem(aw, f"refers to inputs.{ref}, which is not declared")
    for i, step in enumerate(runs.get("steps") or []):
        sw = f"{aw} step {i + 1} ({step.get('name', '')})"
        if ("uses" in step) == ("run" in step):
            problem(sw, "needs exactly one of uses and run")
            continue
        for ref in re.findall(r"steps\.([\w-]+)\.outputs", yaml.safe_dump(step)):
            if ref not in ids:
                problem(sw, f"refers to steps.{ref}, which no earlier step defines")
        if "run" in step:
            if step.get("shell") != "bash":
                problem(sw, "a composite action's run step needs shell: bash")
            for sub in re.findall(r"scripts/conform-action\.sh\"? (\w+)", step["run"]):
                if sub not in commands:
                    problem(sw, f"scripts/conform-action.sh has no subcommand {sub}")
        elif step["uses"] not in ACTIONS:
            problem(sw, f"uses {step['uses']}, which is not one of {', '.join(sorted(ACTIONS))}")
        else:
            for key in step.get("with") or {}:
                if key not in ACTIONS[step["uses"]]:
                    problem(sw, f"{step['uses']} has no input {key}")
        if step.get("id"):
            ids.add(step["id"])
    for name, out in (action.get("outputs") or {}).items():
        m = re.search(r"steps\.([\w-]+)\.outputs", str(out.get("value", "")))
        if not m or m.group(1) not in ids:
            problem(aw, f"output {name} does not come from a step of the action")


def check_clusterfuzzlite():
    cfl = ROOT / ".clusterfuzzlite"
    for need in ("Dockerfile", "build.sh", "project.yaml"):
        if not (cfl / need).exists():
            problem(".clusterfuzzlite", f"no {need}")
            return ""
    docker = (cfl / "Dockerfile").read_text()
    if not re.search(r"^FROM gcr\.io/oss-fuzz-base/base-builder\s*$", docker, re.M):
        problem(".clusterfuzzlite/Dockerfile", "does not build on gcr.io/oss-fuzz-base/base-builder")
    for src in re.findall(r"^COPY\s+(\S+)\s+\S+\s*$", docker, re.M):
        if not (ROOT / src).exists():  # ClusterFuzzLite's context is the repository
            problem(".clusterfuzzlite/Dockerfile", f"COPY {src}: not in the repository")
    if "build.sh" not in docker:
        problem(".clusterfuzzlite/Dockerfile", "does not copy build.sh into $SRC")
    return (load(cfl / "project.yaml") or {}).get("language", "")


def main():
    language = check_clusterfuzzlite()
    allowed = sanitizers_allowed()
    modes_used = set()
    files = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
    if not files:
        problem(".github/workflows", "no workflow files")
    for f in files:
        check_workflow(f, allowed, language, modes_used)
    check_action("action.yml")
    for mode in MODES:
        if mode not in modes_used:
            problem(".github/workflows", f"no ClusterFuzzLite {mode} job")
    if not full_power_runs:
        problem(".github/workflows", "no scheduled workflow runs the full fuzz-power table (fuzz/power/power.sh without --ci)")
    for p in problems:
        print(p)
    if problems:
        print(f"workflows: {len(problems)} problem(s)")
        return 1
    print(f"workflows: ok ({len(files)} workflow files, action.yml, .clusterfuzzlite; "
          f"ClusterFuzzLite modes {', '.join(sorted(modes_used))}; full fuzz power in {', '.join(full_power_runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
