"""Run an implementation over the corpus with nothing but Python's standard library.

    python3 run_corpus.py [--corpus DIR] --decoder CMD [--encoder CMD] [--stream-decoder CMD]
                          [--profile spec|strict] [--only REGEX] [--show-recommended]

The commands are the testee protocol's per-case mode (docs/protocol.md): the input on stdin, the
answer on stdout, exit status 0 to accept, 1 to reject (the first stderr line may say
`error: CODE`), anything else a crash. A run gets --timeout seconds and may print 1 MiB + 64 x its
input; past either it fails, and its process group is killed. Unlike the conformance runner this
harness does not follow processes that leave that group, nor measure memory. The checks are the corpus README's own ("Running the corpus
with only a JSON parser"): its Python block is read from DIR/README.md and executed with the
helpers below bound, so what the README says is what runs. Each required failure prints as
`id  # why`; the last line is `N passed, N failed`; the exit status is 1 when a case failed.
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import shlex
import signal
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_json  # noqa: E402
import ond_format  # noqa: E402
import writer_rules  # noqa: E402

README_BLOCK = re.compile(r"## Running the corpus with only a JSON parser\n.*?```python\n(.*?)```", re.S)

OUTPUT_BASE = 1 << 20  # a run may print 1 MiB + 64 x its input; more fails the case as a flood
STDERR_KEPT = 1 << 16  # of stderr only the first line is read

# An encode-impl case's refusal code -> the reader check its content meets when written as it is.
READER_CHECK_OF_REFUSAL = {"content.score-out-of-range": "categories.score-out-of-range",
                           "content.duplicate-group": "spans.duplicate-group-name"}


class Result:
    def __init__(self, ok, content=None, data=None, error=None, lines=None, fault=None):
        self.ok, self.content, self.bytes, self.error = ok, content, data, error
        self.lines, self.fault = lines, fault


def readme_checks(corpus):
    with open(os.path.join(corpus, "README.md"), encoding="utf-8") as f:
        m = README_BLOCK.search(f.read())
    if not m:
        raise SystemExit("run_corpus: README.md has no Python block under 'Running the corpus with only a JSON parser'")
    return m.group(1)


class Harness:
    """The helpers the README's block calls, and the tally of what it found."""

    def __init__(self, corpus, commands, strict, only, timeout):
        self.corpus, self.commands, self.strict = corpus, commands, strict
        self.only, self.timeout = re.compile(only) if only else None, timeout
        self.rules = writer_rules.load_rules()
        self.case, self.failed, self.recommended, self.passed, self.skipped = None, {}, [], 0, 0
        self.ahead = {}  # (op, input) -> futures of its raw runs, started before the block asks

    # -- running ahead: the block asks one case at a time, the runs go in parallel -----------------
    def start_ahead(self, manifest, jobs):
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
        for case in manifest.cases:
            if (self.only and not self.only.search(case.id)) or case.kind not in self.commands:
                continue
            data = self.read_bytes(case.input)
            if case.kind == "encode":  # as my_encode sends it
                data = corpus_json.dump_json(corpus_json.parse_json(data.decode("utf-8"))).encode("utf-8")
            if case.kind == "decode" and case.verdict in ("valid", "noncanonical") and "encode" in self.commands:
                self.ahead.setdefault(("decode", data), []).append(pool.submit(self.decode_then_encode, data, pool))
            else:
                self.ahead.setdefault((case.kind, data), []).append(pool.submit(self.raw_run, case.kind, data))
        return pool

    def decode_then_encode(self, data, pool):
        # The round trip's encode request is the decoded content as my_encode will send it.
        raw = self.raw_run("decode", data)
        if raw[0] == 0:
            try:
                again = corpus_json.dump_json(corpus_json.parse_json(raw[1].decode("utf-8"))).encode("utf-8")
                self.ahead.setdefault(("encode", again), []).append(pool.submit(self.raw_run, "encode", again))
            except (UnicodeDecodeError, ValueError):
                pass
        return raw

    # -- the case loop ----------------------------------------------------------------------------
    def begin(self, case):
        """Starts a case; False when it is to be skipped (filtered, or its operation has no command)."""
        self.finish()
        if self.only and not self.only.search(case.id):
            return False
        op = {"decode": "decode", "encode": "encode", "stream": "stream"}[case.kind]
        if op not in self.commands:
            self.skipped += 1
            return False
        self.case = case
        return True

    def finish(self):
        if self.case is not None and self.case.id not in self.failed:
            self.passed += 1
        self.case = None

    def require(self, condition, why):
        if not condition:
            self.failed.setdefault(self.case.id, []).append(why)

    def recommend(self, condition, why):
        if not condition:
            self.recommended.append((self.case.id, why))

    # -- files ----------------------------------------------------------------------------------
    def path(self, rel):
        return os.path.join(self.corpus, rel)

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def read_bytes(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read()

    def read_lines(self, rel):
        return [line for line in self.read(rel).split("\n") if line]

    # -- the implementation -----------------------------------------------------------------------
    def raw_run(self, op, data):
        """(exit status, stdout, stderr) of one run: status None on a time-out, "output" on a flood.
        The testee's whole process group is killed on either, so nothing it started outlives it."""
        limit = OUTPUT_BASE + 64 * len(data)
        p = subprocess.Popen(self.commands[op], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        out, err, flood, late = bytearray(), bytearray(), threading.Event(), False

        def feed():
            try:
                p.stdin.write(data)
                p.stdin.close()
            except OSError:  # the testee stopped reading (an early answer): allowed
                pass

        def drain(stream, buf, cap, is_stdout):
            while chunk := stream.read1(1 << 16):
                if len(buf) + len(chunk) <= cap:
                    buf += chunk
                elif is_stdout and not flood.is_set():
                    flood.set()
                    self.kill(p)

        threads = [threading.Thread(target=feed, daemon=True),
                   threading.Thread(target=drain, args=(p.stdout, out, limit, True), daemon=True),
                   threading.Thread(target=drain, args=(p.stderr, err, STDERR_KEPT, False), daemon=True)]
        for t in threads:
            t.start()
        try:
            p.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            late = True
            self.kill(p)
            p.wait()
        self.kill(p)  # whatever the testee left behind in its group
        for t in threads:
            t.join(timeout=2)  # a process that left the group may hold a pipe: stop listening to it
        if flood.is_set():
            return "output", b"", f"more than {limit} bytes of output".encode()
        return (None if late else p.returncode), bytes(out), bytes(err)

    @staticmethod
    def kill(p):
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def run(self, op, data):
        """(status, stdout, error code) of one per-case run; a crash is a failure of the case."""
        futures = self.ahead.get((op, data))
        status, out, err = futures.pop(0).result() if futures else self.raw_run(op, data)
        if status is None:
            self.require(False, f"{op}: no answer within {self.timeout} s")
            return None, b"", None
        if status == "output":
            self.require(False, f"{op}: {err.decode()}")
            return None, b"", None
        first = err.split(b"\n", 1)[0].decode("utf-8", "replace")
        code = first[len("error: "):].strip() if first.startswith("error: ") else None
        if status not in (0, 1):
            self.require(False, f"{op}: crashed (exit status {status}): {first[:200]}")
            return None, b"", None
        return status, out, code

    def parse_answer(self, op, text):
        try:
            return corpus_json.parse_json(text.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            self.require(False, f"{op}: the answer is not content JSON ({e})")
            return None

    def my_decode(self, data):
        status, out, code = self.run("decode", data)
        if status == 0:
            content = self.parse_answer("decode", out)
            return Result(content is not None, content=content)
        return Result(False, error=code)

    def my_encode(self, content):
        status, out, code = self.run("encode", corpus_json.dump_json(content).encode("utf-8"))
        return Result(status == 0, data=out, error=code)

    def my_stream_decode(self, data):
        status, out, code = self.run("stream", data)
        if status is None:
            return [], "crash"
        lines = [self.parse_answer("stream", line) for line in out.split(b"\n") if line.strip()]
        return lines, None if status == 0 else (code or "rejected")

    def supports(self, op):
        return op in self.commands

    # -- a reader and the writer rules, for written bytes ------------------------------------------
    def decode(self, data, relax=()):
        """The content of some bytes by ond_format's reader; None when they do not read."""
        try:
            return ond_format.to_content(ond_format.read(data, relax))
        except ond_format.FormatError:
            return None

    def writer_findings(self, written, canonical, relax=()):
        return writer_rules.judge(canonical, written, self.rules, relax)

    def reader_check_of(self, refusal):
        return READER_CHECK_OF_REFUSAL[refusal]

    def sha256(self, data):
        return hashlib.sha256(data).hexdigest()

    def bindings(self):
        names = ("begin", "require", "recommend", "read", "read_bytes", "read_lines", "my_decode", "my_encode",
                 "my_stream_decode", "supports", "decode", "writer_findings", "reader_check_of", "sha256")
        b = {n: getattr(self, n) for n in names}
        b.update(parse_json=corpus_json.parse_json, same_content=corpus_json.same_content,
                 strict_profile=self.strict)
        return b


def run(corpus, commands, strict=False, only=None, timeout=10.0, show_recommended=False, jobs=4, out=sys.stdout):
    """Runs the README's checks; returns (passed, failed)."""
    h = Harness(corpus, commands, strict, only, timeout)
    pool = h.start_ahead(corpus_json.parse_json(h.read("manifest.json")), jobs)
    try:
        exec(compile(readme_checks(corpus), os.path.join(corpus, "README.md"), "exec"), h.bindings())
    finally:
        pool.shutdown(cancel_futures=True)
    h.finish()
    for case_id, whys in sorted(h.failed.items()):
        print(f"{case_id}  # {'; '.join(whys)}", file=out)
    if show_recommended:
        for case_id, why in h.recommended:
            print(f"recommended: {case_id}  # {why}", file=out)
    if h.skipped:
        print(f"{h.skipped} skipped (no command for their operation)", file=out)
    print(f"{h.passed} passed, {len(h.failed)} failed", file=out)
    return h.passed, len(h.failed)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--decoder")
    ap.add_argument("--encoder")
    ap.add_argument("--stream-decoder")
    ap.add_argument("--profile", choices=("spec", "strict"), default="spec")
    ap.add_argument("--only", help="run only the cases whose id matches this regular expression")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=4, help="runs of the implementation at once")
    ap.add_argument("--show-recommended", action="store_true", help="also list recommended-level findings")
    a = ap.parse_args(argv)
    commands = {op: shlex.split(cmd) for op, cmd in
                (("decode", a.decoder), ("encode", a.encoder), ("stream", a.stream_decoder)) if cmd}
    if "decode" not in commands:
        ap.error("--decoder is required")
    passed, failed = run(a.corpus, commands, a.profile == "strict", a.only, a.timeout, a.show_recommended, a.jobs)
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
