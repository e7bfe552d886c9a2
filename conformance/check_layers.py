#!/usr/bin/env python3
"""No #include inside the runner's sources points up its layers, and none reaches the CLI.

The layers of conformance/src, lowest first: transport/ (processes, frames, the process
testees), suite/ (the cases and the stages plan, execute, settle), report/ (every format, and
escaping), then adapters/ (programs: `ond serve` and the test adapters). A file may include its
own layer and those below it. The files at the top of src/ have the layer the table below gives.
Nothing in src/ may include a header of the CLI (cli/), which sits above the whole library.

usage: check_layers.py SRC_DIR CLI_DIR      (exit 0: clean; 1: the offending lines are listed)
       check_layers.py --self-test          (the check finds each kind of fault in a made-up tree)
"""
import os
import re
import sys
import tempfile

LAYERS = {"transport": 0, "suite": 1, "report": 2, "adapters": 3}
TOP_LEVEL = {"test_fixture.hpp": 1, "test_fixture.cpp": 1, "writer_judge_dump.cpp": 3}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE = (".cpp", ".hpp", ".h", ".cc")


def layer_of(rel):
    parts = rel.split("/")
    if len(parts) == 1:
        return TOP_LEVEL.get(parts[0])
    return LAYERS.get(parts[0])


def cli_headers(cli_dir):
    names = set()
    for root, _dirs, files in os.walk(cli_dir):
        for f in files:
            if f.endswith(SOURCE):
                names.add(os.path.relpath(os.path.join(root, f), cli_dir))
    return names


def check(src_dir, cli_dir):
    problems = []
    cli = cli_headers(cli_dir)
    for root, _dirs, files in os.walk(src_dir):
        for f in sorted(files):
            if not f.endswith(SOURCE):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src_dir).replace(os.sep, "/")
            own = layer_of(rel)
            if own is None:
                problems.append(f"{rel}: in no layer (give it one in {os.path.basename(__file__)})")
                continue
            with open(path, encoding="utf-8") as text:
                for n, line in enumerate(text, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    name = m.group(1)
                    if name.startswith("cli/") or name in cli:
                        problems.append(f"{rel}:{n}: includes the CLI's {name}")
                        continue
                    if not os.path.exists(os.path.join(src_dir, name)):
                        continue  # another folder's header (codec, json, corpus, the public ones)
                    target = layer_of(name)
                    if target is None or target > own:
                        problems.append(f"{rel}:{n}: includes {name}, a layer above its own")
    return problems


def self_test():
    faults = {
        "transport/a.cpp": '#include "suite/b.hpp"\n',      # up one layer
        "suite/b.hpp": '#include "report/c.hpp"\n',         # up one layer
        "report/c.hpp": '#include "conform_cli.hpp"\n',     # the CLI
        "report/d.cpp": '#include "report/c.hpp"\n#include "suite/b.hpp"\n#include "ond/x.hpp"\n',  # clean
        "stray.cpp": "",                                    # in no layer
    }
    with tempfile.TemporaryDirectory() as tmp:
        src, cli = os.path.join(tmp, "src"), os.path.join(tmp, "cli")
        for rel, text in faults.items():
            os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
            with open(os.path.join(src, rel), "w", encoding="utf-8") as f:
                f.write(text)
        os.makedirs(cli)
        open(os.path.join(cli, "conform_cli.hpp"), "w").close()
        got = sorted(check(src, cli))
    want = sorted([
        "transport/a.cpp:1: includes suite/b.hpp, a layer above its own",
        "suite/b.hpp:1: includes report/c.hpp, a layer above its own",
        "report/c.hpp:1: includes the CLI's conform_cli.hpp",
        f"stray.cpp: in no layer (give it one in {os.path.basename(__file__)})",
    ])
    if got != want:
        print("check_layers.py --self-test: expected\n  " + "\n  ".join(want) + "\ngot\n  " + "\n  ".join(got))
        return 1
    print("check_layers.py --self-test: each fault found, the clean file passed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-2].strip())
        return 2
    problems = check(argv[1], argv[2])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} includes out of the layer order (conformance/README.md, \"Layout\")")
        return 1
    print("layers: every include points down or within its layer")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
