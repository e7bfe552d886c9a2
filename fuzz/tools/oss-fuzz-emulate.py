#!/usr/bin/env python3
"""Builds fuzz/oss-fuzz/ (projects/ond-conform upstream) the way OSS-Fuzz does, without Docker.

For each build (libFuzzer + ASan, libFuzzer + UBSan, AFL++ + ASan, coverage):
  1. presubmit: the checks OSS-Fuzz's presubmit makes of a projects/ folder (licence lines,
     project.yaml sections and values, main_repo, no -lFuzzingEngine, no committed zips);
  2. the image: the Dockerfile is followed step by step with the project folder alone as the
     build context. `git clone` of main_repo is served from this checkout's HEAD (commit first:
     uncommitted changes are not in the clone); other clones are optional sources and are
     skipped; apt-get and pip steps are the builder image's business and are checked only for
     the tools they provide; COPY and WORKDIR are applied, relative to the base image's $SRC;
  3. compile: $SRC/build.sh runs with bash -eu from the WORKDIR, with only the variables
     OSS-Fuzz sets ($SRC $OUT $WORK $CC $CXX $CCC $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
     $SANITIZER $SANITIZER_FLAGS $FUZZING_ENGINE $FUZZING_LANGUAGE $ARCHITECTURE) and clang-14
     (AFL++: Debian's afl-clang-fast with its libAFLDriver.a). Every compiler call is recorded;
  4. the checks a build must pass to be accepted: every fuzzer of fuzz/ is in $OUT and is an
     executable fuzz target instrumented for its build and engine; no compiler call has a
     sanitizer, coverage or fuzzer flag that the variables did not give it; the engine is
     linked after the objects; seed zips are valid zips named after a fuzzer; .options parse
     and name files that exist;
  5. every fuzzer runs on its seed corpus: libFuzzer and AFL++ for SECONDS each, the coverage
     build replays the corpus and writes an llvm-cov report (text and HTML).

It reports, per build, the fuzzers built, the build time and each fuzzer's executions per
second, and exits 1 if anything failed.

  fuzz/tools/oss-fuzz-emulate.py [--builds address,undefined,afl,coverage] [--seconds 3]
                           [--afl-seconds 5] [--jobs N] [--work DIR]

OND_EMULATE_LAUNCHER (e.g. ccache) is put in front of the real compiler by the recording
wrapper, outside what build.sh sees.
"""

import argparse
import configparser
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    import yaml
except ImportError:  # python3-yaml (scripts/install-deps.sh)
    sys.exit("oss-fuzz-emulate: needs python3-yaml")

ROOT = Path(__file__).resolve().parents[2]
CONTEXT = ROOT / "fuzz" / "oss-fuzz"
PROJECT = "ond-conform"
LICENSE_URL = "http://www.apache.org/licenses/LICENSE-2.0"

# What OSS-Fuzz's presubmit accepts in a project.yaml.
YAML_SECTIONS = {"architectures", "auto_ccs", "blackbox", "builds_per_day", "coverage_extra_args",
                 "disabled", "fuzzing_engines", "help_url", "homepage", "language", "labels",
                 "main_repo", "primary_contact", "run_tests", "sanitizers", "selective_unpack",
                 "vendor_ccs", "view_restrictions", "file_github_issue"}
YAML_CONSTANTS = {
    "sanitizers": {"address", "none", "memory", "undefined", "thread", "coverage", "introspector",
                   "hwaddress"},
    "architectures": {"i386", "x86_64", "aarch64"},
    "fuzzing_engines": {"libfuzzer", "afl", "honggfuzz", "centipede", "none", "wycheproof"},
}
LANGUAGES = {"c", "c++", "go", "javascript", "jvm", "python", "rust", "swift", "ruby"}
LICENSE_NAMES = {"Dockerfile"}
LICENSE_SUFFIXES = {".bash", ".c", ".cc", ".cpp", ".h", ".py", ".sh", ".yaml"}

# The flags of OSS-Fuzz's base-clang image for x86_64.
BASE_FLAGS = "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
# OSS-Fuzz adds -stdlib=libc++ to $CXXFLAGS. Debian's libFuzzer runtime is built against
# libstdc++ and cannot link with libc++, so here only the AFL++ build (whose driver is C) uses
# libc++; the libFuzzer builds use libstdc++.
CXX_EXTRA = "-stdlib=libc++"
ASAN = "-fsanitize=address -fsanitize-address-use-after-scope"
UBSAN_CHECKS = ("array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,"
                "null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,"
                "unsigned-integer-overflow,unreachable,vla-bound,vptr")
UBSAN = ("-fsanitize=" + UBSAN_CHECKS + " -fno-sanitize-recover="
         + UBSAN_CHECKS.replace("unsigned-integer-overflow,", ""))
LIBFUZZER_COV = "-fsanitize=fuzzer-no-link"
PROFILE = ("-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl "
           "-Wl,-lm -Wno-unused-command-line-argument")
AFL_DRIVER = "/usr/lib/afl/libAFLDriver.a"

BUILDS = {
    # name: (SANITIZER, FUZZING_ENGINE, sanitizer flags, coverage flags, CC, CXX, engine, C++ only)
    "address": ("address", "libfuzzer", ASAN, LIBFUZZER_COV, "clang", "clang++", "-fsanitize=fuzzer", ""),
    "undefined": ("undefined", "libfuzzer", UBSAN, LIBFUZZER_COV, "clang", "clang++", "-fsanitize=fuzzer", ""),
    "afl": ("address", "afl", ASAN, "", "afl-clang-fast", "afl-clang-fast++", AFL_DRIVER, CXX_EXTRA),
    "coverage": ("coverage", "libfuzzer", "", PROFILE, "clang", "clang++", "-fsanitize=fuzzer", ""),
}
REAL_COMPILERS = {"clang": "clang-14", "clang++": "clang++-14",
                  "afl-clang-fast": "afl-clang-fast", "afl-clang-fast++": "afl-clang-fast++"}

# ClusterFuzz-like run-time options.
ASAN_OPTIONS = ("alloc_dealloc_mismatch=0:allocator_may_return_null=1:detect_leaks=1:"
                "detect_stack_use_after_return=1:detect_odr_violation=0:handle_abort=1:"
                "handle_segv=1:handle_sigill=1:symbolize=1:dedup_token_length=3")
UBSAN_OPTIONS = "print_stacktrace=1:print_summary=1:silence_unsigned_overflow=1:halt_on_error=1"

errors = []


def fail(msg):
    errors.append(msg)
    print("  ERROR: " + msg, flush=True)


def say(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------------------------------------
# 1. presubmit

def presubmit(context):
    names = sorted(p.name for p in context.iterdir())
    for need in ("Dockerfile", "build.sh", "project.yaml"):
        if need not in names:
            fail(f"{context.name}/{need} is missing")
    for p in sorted(context.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(context)
        if p.suffix == ".zip":
            fail(f"{rel}: seed corpora must not be committed to the projects/ folder")
        if (p.name in LICENSE_NAMES or p.suffix in LICENSE_SUFFIXES) and LICENSE_URL not in p.read_text():
            fail(f"{rel}: missing licence header ({LICENSE_URL})")
    build_sh = context / "build.sh"
    if build_sh.exists():
        for n, line in enumerate(build_sh.read_text().splitlines(), 1):
            if "-lFuzzingEngine" in line.split("#")[0]:
                fail(f"build.sh:{n}: -lFuzzingEngine; use $LIB_FUZZING_ENGINE")
        if not os.access(build_sh, os.X_OK):
            fail("build.sh is not executable")
    data = yaml.safe_load((context / "project.yaml").read_text()) or {}
    if not isinstance(data, dict):
        fail("project.yaml is not a mapping")
        return {}
    for key in data:
        if key not in YAML_SECTIONS:
            fail(f"project.yaml: {key} is not a valid section")
    if "main_repo" not in data:
        fail("project.yaml: main_repo section is missing")
    if data.get("language") not in LANGUAGES:
        fail(f"project.yaml: language {data.get('language')!r} is missing or not supported")
    for section, allowed in YAML_CONSTANTS.items():
        for value in data.get(section, []) or []:
            if isinstance(value, str):
                ok = value in allowed
            elif isinstance(value, dict):
                ok = (len(value) == 1 and next(iter(value)) in allowed
                      and next(iter(value.values())) == {"experimental": True})
            else:
                ok = False
            if not ok:
                fail(f"project.yaml: {value!r} is not allowed in {section}")
    mails = ([data["primary_contact"]] if data.get("primary_contact") else []) + list(data.get("auto_ccs") or [])
    for mail in mails:
        if "@" not in mail or "." not in mail:
            fail(f"project.yaml: {mail} is not an e-mail address")
    return data


# ---------------------------------------------------------------------------------------------
# 2. the image

def dockerfile_steps(text):
    steps, cur = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not cur and (not line or line.startswith("#")):
            continue
        if cur and line.startswith("#"):
            continue
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        cur += line
        instr, _, args = cur.strip().partition(" ")
        steps.append((instr.upper(), args.strip()))
        cur = ""
    if cur:
        fail("Dockerfile ends inside a continued line")
    return steps


def norm_url(url):
    url = url.rstrip("/")
    return url[:-4] if url.endswith(".git") else url


class Image:
    def __init__(self, base, main_repo, log):
        self.src, self.out, self.work = base / "src", base / "out", base / "work"
        for d in (self.src, self.out, self.work):
            d.mkdir(parents=True)
        self.env = {"SRC": str(self.src), "OUT": str(self.out), "WORK": str(self.work)}
        self.workdir = self.src  # the base-builder image's WORKDIR
        self.main_repo = norm_url(main_repo)
        self.log = log
        self.cloned_main = False

    def expand(self, word):
        for literal, var in (("/src", "SRC"), ("/out", "OUT"), ("/work", "WORK")):
            if word == literal or word.startswith(literal + "/"):
                word = "$" + var + word[len(literal):]
        word = re.sub(r"\$\{(\w+)\}|\$(\w+)",
                      lambda m: self.env.get(m.group(1) or m.group(2), m.group(0)), word)
        return word

    def path(self, word):
        p = Path(self.expand(word))
        return p if p.is_absolute() else self.workdir / p

    def run(self, args):
        lexer = shlex.shlex(args, posix=True, punctuation_chars="&|;")
        lexer.whitespace_split = True
        commands, cur = [], []
        for tok in lexer:
            if tok in ("&&", ";", "||", "|"):
                commands.append(cur)
                cur = []
            else:
                cur.append(tok)
        commands.append(cur)
        for cmd in filter(None, commands):
            self.run_command(cmd)

    def run_command(self, cmd):
        prog = cmd[0]
        if prog in ("apt-get", "apt"):
            packages = [w for w in cmd[2:] if not w.startswith("-")] if cmd[1:2] == ["install"] else []
            for tool in packages:
                if tool in ("zip", "unzip", "cmake", "ninja-build", "make") and not shutil.which(
                        "ninja" if tool == "ninja-build" else tool):
                    fail(f"the image installs {tool}, which this machine lacks")
            self.log(f"    (image) {' '.join(cmd)}")
        elif prog in ("pip", "pip3") or cmd[:3] == ["python3", "-m", "pip"]:
            for req in cmd:
                tool = re.match(r"^(cmake|ninja)\b", req)
                if tool and not shutil.which(tool.group(1)):
                    fail(f"the image installs {tool.group(1)}, which this machine lacks")
            self.log(f"    (image) {' '.join(cmd)}")
        elif cmd[:2] == ["git", "clone"]:
            opts, pos, i = [], [], 2
            while i < len(cmd):
                w = cmd[i]
                if w in ("--depth", "--branch", "-b", "--origin", "-o", "--jobs", "-j"):
                    opts += [w, cmd[i + 1]]
                    i += 2
                    continue
                (opts if w.startswith("-") else pos).append(w)
                i += 1
            url = self.expand(pos[0])
            dest = self.path(pos[1]) if len(pos) > 1 else self.workdir / Path(norm_url(url)).name
            if norm_url(url) == self.main_repo:
                if "--depth" in opts:  # a local clone honours --depth only through file://
                    source = "file://" + str(ROOT)
                else:
                    source = str(ROOT)
                r = subprocess.run(["git", "clone", "-q", *opts, source, str(dest)],
                                   capture_output=True, text=True)
                if r.returncode:
                    fail(f"git clone of main_repo (served from {ROOT}) failed: {r.stderr.strip()}")
                self.cloned_main = True
                head = subprocess.run(["git", "-C", str(dest), "rev-parse", "--short", "HEAD"],
                                      capture_output=True, text=True).stdout.strip()
                self.log(f"    git clone {url} -> {dest.relative_to(self.src.parent)} (this checkout, {head})")
            else:
                self.log(f"    skipped, optional source: git clone {url}")
        else:
            fail(f"Dockerfile RUN: the emulation does not know how to run {' '.join(cmd)!r}")

    def copy(self, args, context):
        words = [w for w in shlex.split(args) if not w.startswith("--")]
        if len(words) < 2:
            fail(f"COPY {args}: needs a source and a destination")
            return
        *sources, dest_word = words
        dest = self.path(dest_word)
        to_dir = dest_word.endswith("/") or len(sources) > 1
        for s in sources:
            rel = os.path.normpath(s)
            if os.path.isabs(s) or rel == ".." or rel.startswith("../"):
                fail(f"COPY {s}: outside the build context (the project folder)")
                continue
            matches = sorted(context.glob(rel)) if rel != "." else [context]
            if not matches:
                fail(f"COPY {s}: not in the build context (the project folder)")
            for m in matches:
                target = dest / m.name if to_dir and m != context else dest
                if m.is_dir():
                    shutil.copytree(m, target, dirs_exist_ok=True)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(m, target)
                self.log(f"    COPY {m.relative_to(context.parent)} -> {target.relative_to(self.src.parent)}")


def build_image(base, context, project, log):
    img = Image(base, project.get("main_repo", ""), log)
    steps = dockerfile_steps((context / "Dockerfile").read_text())
    if not steps or steps[0][0] != "FROM":
        fail("Dockerfile: the first instruction must be FROM")
    for n, (instr, args) in enumerate(steps):
        if instr == "FROM":
            if n:
                fail("Dockerfile: one FROM only (the base-builder image)")
            if not re.fullmatch(r"gcr\.io/oss-fuzz-base/base-builder(@sha256:[0-9a-f]+|:[\w.-]+)?", args):
                fail(f"Dockerfile: FROM {args}: a C++ project builds on gcr.io/oss-fuzz-base/base-builder")
        elif instr == "RUN":
            img.run(args)
        elif instr in ("COPY", "ADD"):
            if instr == "ADD" and "://" in args:
                fail(f"ADD {args}: remote sources are not allowed")
            img.copy(args, context)
        elif instr == "WORKDIR":
            img.workdir = img.path(args)
            img.workdir.mkdir(parents=True, exist_ok=True)
            log(f"    WORKDIR {img.workdir.relative_to(img.src.parent)}")
        elif instr == "ENV":
            if "=" in args.split()[0]:
                for kv in shlex.split(args):
                    k, _, v = kv.partition("=")
                    img.env[k] = img.expand(v)
            else:
                k, _, v = args.partition(" ")
                img.env[k] = img.expand(v.strip())
        elif instr in ("ARG", "LABEL"):
            pass
        else:
            fail(f"Dockerfile: {instr} is not something a project image does")
    if not img.cloned_main:
        fail(f"Dockerfile: no git clone of main_repo ({project.get('main_repo')})")
    if not (img.src / "build.sh").is_file():
        fail("the image has no $SRC/build.sh")
    elif (img.src / "build.sh").read_bytes() != (context / "build.sh").read_bytes():
        fail("$SRC/build.sh is not the project folder's build.sh")
    return img


# ---------------------------------------------------------------------------------------------
# 3. compile

def make_wrappers(bindir, log_file):
    bindir.mkdir(parents=True)
    launcher = os.environ.get("OND_EMULATE_LAUNCHER", "")
    for name, real in REAL_COMPILERS.items():
        path = shutil.which(real)
        if not path:
            fail(f"{real} is not installed (scripts/install-deps.sh)")
            continue
        script = bindir / name
        script.write_text(
            "#!/bin/sh\n"
            f"{{ printf '%s\\037' \"$PWD\" \"$@\"; printf '\\036'; }} >> '{log_file}'\n"
            f"exec {launcher} '{path}' \"$@\"\n")
        script.chmod(0o755)


def compile_build(name, img, base, log):
    sanitizer, engine, san_flags, cov_flags, cc, cxx, lib, cxx_extra = BUILDS[name]
    cflags = " ".join(f for f in (BASE_FLAGS, san_flags, cov_flags) if f)
    cxxflags = " ".join(f for f in (cflags, cxx_extra) if f)
    bindir, cc_log = base / "bin", base / "compiler-calls"
    make_wrappers(bindir, cc_log)
    env = {
        "PATH": f"{bindir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8",
        "SRC": str(img.src), "OUT": str(img.out), "WORK": str(img.work),
        "CC": cc, "CXX": cxx, "CCC": cxx, "CFLAGS": cflags, "CXXFLAGS": cxxflags,
        "LIB_FUZZING_ENGINE": lib, "SANITIZER": sanitizer, "SANITIZER_FLAGS": san_flags,
        "FUZZING_ENGINE": engine, "FUZZING_LANGUAGE": "c++", "ARCHITECTURE": "x86_64",
    }
    if engine == "afl":
        env["AFL_QUIET"] = "1"
    env.update({k: v for k, v in img.env.items() if k not in ("SRC", "OUT", "WORK")})
    start = time.monotonic()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(base / "compile.log", "w") as out:
        r = subprocess.run(["bash", "-eu", str(img.src / "build.sh")], cwd=img.workdir, env=env,
                           stdout=out, stderr=subprocess.STDOUT)
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = time.monotonic() - start
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    if r.returncode:
        fail(f"{name}: $SRC/build.sh failed (exit {r.returncode}); last lines of its log:")
        say("\n".join((base / "compile.log").read_text().splitlines()[-40:]))
    calls = []
    if cc_log.exists():
        for rec in cc_log.read_text().split("\036"):
            if rec:
                calls.append(rec.split("\037")[:-1])
    return env, calls, seconds, cpu


def controlled(arg):
    return (arg.startswith(("-fsanitize", "-fno-sanitize", "-fprofile", "-fcoverage"))
            or arg in ("-stdlib=libc++", "-stdlib=libstdc++"))


def check_flags(name, env, calls, img):
    allowed = set((env["CFLAGS"] + " " + env["CXXFLAGS"] + " " + env["LIB_FUZZING_ENGINE"]).split())
    engine = env["LIB_FUZZING_ENGINE"].split()
    srcroot = str(img.src) + "/"
    bad, compiled, linked = set(), 0, 0
    for call in calls:
        cwd, args = call[0], call[1:]
        for a in args:
            if controlled(a) and a not in allowed:
                bad.add(a)
        sources = [a for a in args if re.search(r"\.(c|cc|cpp|cxx)$", a)]
        own = [s for s in sources if (s if s.startswith("/") else cwd + "/" + s).startswith(srcroot)
               and "/CMakeFiles/CMakeTmp" not in s and "CMakeScratch" not in s]
        if "-c" in args and own:
            compiled += 1
            want = env["CXXFLAGS"] if re.search(r"\.(cc|cpp|cxx)$", own[0]) else env["CFLAGS"]
            missing = [f for f in want.split() if f not in args]
            if missing:
                fail(f"{name}: {own[0]} compiled without {' '.join(missing)}")
        if "-o" in args and "-c" not in args and args[args.index("-o") + 1].endswith("_fuzzer"):
            linked += 1
            out = Path(args[args.index("-o") + 1]).name
            objs = [i for i, a in enumerate(args) if a.endswith(".o")]
            pos = [i for i, a in enumerate(args) if a in engine]
            if not pos:
                fail(f"{name}: {out} linked without $LIB_FUZZING_ENGINE")
            elif objs and min(pos) < max(objs):
                fail(f"{name}: {out}: $LIB_FUZZING_ENGINE comes before the objects on the link line")
    for a in sorted(bad):
        fail(f"{name}: the build adds {a}, which OSS-Fuzz's variables did not give it")
    if not compiled:
        fail(f"{name}: no compiler call for the project's sources went through $CC/$CXX")
    return compiled, linked


# ---------------------------------------------------------------------------------------------
# 4. what OSS-Fuzz checks of $OUT

NOT_TARGETS = (".options", ".dict", ".zip", ".so", ".a", ".o", ".txt", ".json", ".py", ".sh", ".jar",
               ".class", ".profdata", ".profraw", ".html", ".xml")


def fuzz_targets(out):
    found = []
    for p in sorted(out.iterdir()):
        if not p.is_file() or not os.access(p, os.X_OK) or p.name.endswith(NOT_TARGETS):
            continue
        if b"LLVMFuzzerTestOneInput" in p.read_bytes():
            found.append(p)
    return found


def check_out(name, img, expected):
    sanitizer, engine = BUILDS[name][0], BUILDS[name][1]
    targets = fuzz_targets(img.out)
    names = {t.name for t in targets}
    if not targets:
        fail(f"{name}: no executable fuzz targets in $OUT")
    for e in sorted(expected - names):
        fail(f"{name}: {e} is missing from $OUT")
    need, never = [], []
    if sanitizer == "address":
        need.append(b"__asan_report_load")  # (the ASan runtime carries UBSan's handlers too)
        never.append(b"__msan_warning")
    elif sanitizer == "undefined":
        need.append(b"__ubsan_handle_")
        never += [b"__asan_report_load", b"__msan_warning"]
    elif sanitizer == "coverage":
        need.append(b"__llvm_profile_runtime")
        never += [b"__asan_report_load", b"__msan_warning"]
    libfuzzer_runtime = b"_ZN6fuzzer6Fuzzer"  # libFuzzer's engine (AFL++'s driver has LLVMFuzzerRunDriver too)
    if engine == "libfuzzer":
        need.append(libfuzzer_runtime)
    elif engine == "afl":
        need += [b"__afl_area_ptr", b"__afl_manual_init"]
        never.append(libfuzzer_runtime)
    for t in targets:
        data = t.read_bytes()
        for sym in need:
            if sym not in data:
                fail(f"{name}: {t.name} lacks {sym.decode()} (not built for {sanitizer}/{engine})")
        for sym in never:
            if sym in data:
                fail(f"{name}: {t.name} has {sym.decode()}, which a {sanitizer}/{engine} build must not")
    for z in sorted(img.out.glob("*.zip")):
        if not z.name.endswith("_seed_corpus.zip") or z.name[:-len("_seed_corpus.zip")] not in names:
            fail(f"{name}: {z.name} is not <fuzzer>_seed_corpus.zip of a fuzzer in $OUT")
            continue
        try:
            with zipfile.ZipFile(z) as zf:
                if zf.testzip() is not None or not zf.namelist():
                    fail(f"{name}: {z.name} is empty or corrupt")
        except zipfile.BadZipFile:
            fail(f"{name}: {z.name} is not a zip file")
    for t in targets:
        if not (img.out / f"{t.name}_seed_corpus.zip").exists():
            fail(f"{name}: {t.name} has no seed corpus zip")
        opts = img.out / f"{t.name}.options"
        if opts.exists():
            cp = configparser.ConfigParser()
            try:
                cp.read(opts)
            except configparser.Error as e:
                fail(f"{name}: {opts.name} does not parse: {e}")
                continue
            for section in cp.sections():
                if section not in ("libfuzzer", "afl", "honggfuzz", "asan", "msan", "ubsan"):
                    fail(f"{name}: {opts.name}: unknown section [{section}]")
            if cp.has_option("libfuzzer", "dict") and not (img.out / cp.get("libfuzzer", "dict")).exists():
                fail(f"{name}: {opts.name} names {cp.get('libfuzzer', 'dict')}, which is not in $OUT")
    return targets


# ---------------------------------------------------------------------------------------------
# 5. runs

def libfuzzer_options(out, target):
    args, dict_path = [], None
    opts = out / f"{target.name}.options"
    if opts.exists():
        cp = configparser.ConfigParser()
        cp.read(opts)
        if cp.has_section("libfuzzer"):
            for k, v in cp.items("libfuzzer"):
                if k == "dict":
                    dict_path = out / v
                    v = str(dict_path)
                args.append(f"-{k}={v}")
    return args, dict_path


def unpack_seeds(out, target, dest):
    dest.mkdir(parents=True)
    z = out / f"{target.name}_seed_corpus.zip"
    if z.exists():
        with zipfile.ZipFile(z) as zf:
            zf.extractall(dest)
    return sum(1 for p in dest.rglob("*") if p.is_file())


def stat(text, key):
    m = re.findall(rf"{key}:\s*([0-9.]+)", text)
    return float(m[-1]) if m else 0.0


def run_libfuzzer(img, target, run_dir, seconds, coverage):
    corpus = run_dir / "corpus"
    files = unpack_seeds(img.out, target, corpus)
    args, _ = libfuzzer_options(img.out, target)
    env = dict(os.environ, ASAN_OPTIONS=ASAN_OPTIONS, UBSAN_OPTIONS=UBSAN_OPTIONS)
    if coverage:
        env["LLVM_PROFILE_FILE"] = str(run_dir.parent / "profiles" / f"{target.name}.%p.profraw")
        cmd = [str(target), *args, "-runs=0", "-timeout=100", "-print_final_stats=1", str(corpus)]
    else:
        cmd = [str(target), *args, f"-max_total_time={seconds}", "-timeout=25", "-rss_limit_mb=2560",
               "-print_final_stats=1", f"-artifact_prefix={run_dir}/", str(corpus)]
    start = time.monotonic()
    r = subprocess.run(cmd, cwd=run_dir, env=env, capture_output=True, text=True, errors="replace")
    elapsed = time.monotonic() - start
    log = r.stdout + r.stderr
    (run_dir / "fuzz.log").write_text(log)
    execs = stat(log, "stat::number_of_executed_units")
    rate = stat(log, "stat::average_exec_per_sec") if not coverage else execs / max(elapsed, 1e-3)
    ok = r.returncode == 0 and "stat::number_of_executed_units" in log
    return ok, int(execs), rate, files, log


def run_afl(img, target, run_dir, seconds):
    seeds = run_dir / "seeds"
    files = unpack_seeds(img.out, target, seeds)
    _, dict_path = libfuzzer_options(img.out, target)
    env = dict(os.environ, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1", AFL_FAST_CAL="1",
               AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_NO_CRASH_README="1",
               ASAN_OPTIONS=ASAN_OPTIONS.replace("symbolize=1", "symbolize=0").replace(
                   "detect_leaks=1", "detect_leaks=0") + ":abort_on_error=1")
    cmd = ["afl-fuzz", "-i", str(seeds), "-o", str(run_dir / "findings"), "-V", str(seconds),
           "-m", "none", "-t", "2000+"]
    if dict_path:
        cmd += ["-x", str(dict_path)]
    cmd += ["--", str(target)]
    r = subprocess.run(cmd, cwd=run_dir, env=env, capture_output=True, text=True, errors="replace")
    log = r.stdout + r.stderr
    (run_dir / "fuzz.log").write_text(log)
    stats_file = run_dir / "findings" / "default" / "fuzzer_stats"
    stats = {}
    if stats_file.exists():
        for line in stats_file.read_text().splitlines():
            k, _, v = line.partition(":")
            stats[k.strip()] = v.strip()
    crashes = int(stats.get("saved_crashes", stats.get("unique_crashes", "0")) or 0)
    ok = r.returncode == 0 and bool(stats) and crashes == 0
    if crashes:
        log += f"\n{crashes} crashes saved in {run_dir / 'findings' / 'default' / 'crashes'}"
    return ok, int(stats.get("execs_done", 0) or 0), float(stats.get("execs_per_sec", 0) or 0), files, log


def coverage_report(base, targets, src_dir):
    prof = base / "runs" / "profiles"
    raws = sorted(prof.glob("*.profraw"))
    if not raws:
        fail("coverage: the fuzzers wrote no profiles")
        return
    merged = base / "coverage.profdata"
    r = subprocess.run(["llvm-profdata-14", "merge", "-sparse", *map(str, raws), "-o", str(merged)],
                       capture_output=True, text=True)
    if r.returncode:
        fail("coverage: llvm-profdata merge failed: " + r.stderr.strip())
        return
    objects = [str(targets[0])] + [a for t in targets[1:] for a in ("-object", str(t))]
    ignore = "-ignore-filename-regex=(/fuzz/|/usr/)"
    report = subprocess.run(["llvm-cov-14", "report", f"-instr-profile={merged}", *objects, ignore],
                            capture_output=True, text=True)
    html = base / "coverage-report"
    show = subprocess.run(["llvm-cov-14", "show", "-format=html", f"-output-dir={html}",
                           f"-instr-profile={merged}", *objects, ignore], capture_output=True, text=True)
    if report.returncode or show.returncode or not (html / "index.html").exists():
        fail("coverage: llvm-cov failed: " + (report.stderr + show.stderr).strip()[-500:])
        return
    (base / "coverage-report.txt").write_text(report.stdout)
    total = [l for l in report.stdout.splitlines() if l.startswith("TOTAL")]
    if not total:
        fail("coverage: llvm-cov report has no TOTAL line")
        return
    cols = total[0].split()
    # TOTAL regions missed cover functions missed executed lines missed cover branches missed cover
    say(f"  coverage of the codec (seed corpora): lines {cols[9]}, functions {cols[6]}, "
        f"branches {cols[12]}, regions {cols[3]}; report {html}/index.html")
    if float(cols[9].rstrip("%")) < 50:
        fail(f"coverage: only {cols[9]} of the codec's lines covered by the seed corpora")


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builds", default="address,undefined,afl,coverage")
    ap.add_argument("--seconds", type=int, default=3, help="libFuzzer run per fuzzer")
    ap.add_argument("--afl-seconds", type=int, default=5, help="afl-fuzz run per fuzzer")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="fuzzers run at once")
    ap.add_argument("--work", default=str(ROOT / "build" / "oss-fuzz-emulate"))
    args = ap.parse_args()
    builds = [b for b in args.builds.split(",") if b]
    for b in builds:
        if b not in BUILDS:
            sys.exit(f"unknown build {b} (one of {', '.join(BUILDS)})")
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    if dirty:
        say("note: uncommitted changes are not part of the clone of main_repo:\n" + dirty)

    # The context is copied so that nothing outside the project folder can be reached.
    context = work / "context"
    shutil.copytree(CONTEXT, context, symlinks=True)
    say(f"== presubmit: {CONTEXT.relative_to(ROOT)}/ as projects/{PROJECT}/")
    project = presubmit(context)
    if errors:
        return finish([])
    say(f"   ok: licence lines, project.yaml (main_repo {project['main_repo']}, "
        f"engines {', '.join(map(str, project.get('fuzzing_engines', [])))}, sanitizers "
        f"{', '.join(s if isinstance(s, str) else next(iter(s)) + ' (experimental)' for s in project.get('sanitizers', []))})")
    for e in ("libfuzzer", "afl"):
        if e not in project.get("fuzzing_engines", ["libfuzzer"]):
            fail(f"project.yaml does not list {e}, which this emulation builds")

    summary = []
    for name in builds:
        base = work / name
        say(f"\n== build {name}: SANITIZER={BUILDS[name][0]} FUZZING_ENGINE={BUILDS[name][1]}")
        before = len(errors)
        img = build_image(base, context, project, say)
        if len(errors) > before:
            summary.append((name, 0, 0, 0, 0, []))
            continue
        expected = {p.stem for p in (img.workdir / "fuzz").glob("*_fuzzer.cpp")}
        if (img.workdir / "fuzz").is_dir() and not expected:
            fail(f"{name}: the checkout has no fuzz/*_fuzzer.cpp")
        env, calls, seconds, cpu = compile_build(name, img, base, say)
        compiled, linked = check_flags(name, env, calls, img)
        targets = check_out(name, img, expected)
        say(f"  built {len(targets)} fuzzers in {seconds:.0f} s, {cpu:.0f} s of CPU ({compiled} compiler calls on the "
            f"project's sources, {linked} fuzzer links checked)")
        runs_dir = base / "runs"
        (runs_dir / "profiles").mkdir(parents=True)

        def one(t):
            d = runs_dir / t.name
            d.mkdir()
            if BUILDS[name][1] == "afl":
                return t, run_afl(img, t, d, args.afl_seconds)
            return t, run_libfuzzer(img, t, d, args.seconds, name == "coverage")

        rows, run_start = [], time.monotonic()
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for t, (ok, execs, rate, files, log) in pool.map(one, targets):
                rows.append((t.name, ok, execs, rate, files))
                if ok:
                    say(f"  {t.name:<24} ok  {files:5d} seeds  {execs:9d} execs  {rate:9.0f} execs/s")
                else:
                    fail(f"{name}: {t.name} failed on its seed corpus; last lines:")
                    say("\n".join(log.splitlines()[-30:]))
        if name == "coverage" and targets:
            coverage_report(base, targets, img.workdir)
        summary.append((name, seconds, cpu, time.monotonic() - run_start, len(targets), rows))
    return finish(summary)


def finish(summary):
    if summary:
        say("\n== summary")
        for name, seconds, cpu, run_seconds, count, rows in summary:
            rates = ", ".join(f"{r[0].replace('_fuzzer', '')} {r[3]:.0f}" for r in rows)
            say(f"  {name:<9} {count:2d} fuzzers; build {seconds:.0f} s ({cpu:.0f} s CPU), runs {run_seconds:.0f} s; "
                f"execs/s: {rates}")
    if errors:
        say(f"\nOSS-FUZZ EMULATION FAILED: {len(errors)} error(s)")
        for e in errors:
            say("  " + e)
        return 1
    say("\nOSS-FUZZ EMULATION PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
