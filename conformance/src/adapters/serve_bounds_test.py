#!/usr/bin/env python3
"""`ond serve` judges decode and stream requests as their bytes arrive (serve.cpp).

A request that is wrong early is answered before the rest of its frame is sent, the rest is read
and dropped (the next request is still understood), and the process's peak RSS stays small
whatever the frame's length: 2 GiB of decode input and 1 GiB of stream input go through a pipe,
never held. The answers carry the code and the offset (docs/protocol.md, "Rejections"), the same
as `ond decode` / `ond stream` give for the same bytes.

Usage: serve_bounds_test.py OND
"""

import os
import re
import select
import struct
import subprocess
import sys
import time

OND = sys.argv[1]
MIB = 1 << 20
PEAK_BOUND_KB = 48 * 1024  # the process's whole VmHWM, its start-up included
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def frame(payload_size, head=b""):
    return struct.pack("<I", payload_size) + head


class Serve:
    def __init__(self):
        self.p = subprocess.Popen([OND, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.number = 0
        self.write(frame(2, b"V2"))
        check(self.answer(10) == b"\x002", "the hello is answered with version 2")

    def write(self, b):
        os.write(self.p.stdin.fileno(), b)

    def read_exact(self, n, timeout):
        out = b""
        deadline = time.monotonic() + timeout
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.p.stdout.fileno(), n - len(out))
            if not chunk:
                return None
            out += chunk
        return out

    def answer(self, timeout):
        length = self.read_exact(4, timeout)
        if length is None:
            return None
        return self.read_exact(struct.unpack("<I", length)[0], timeout)

    # Starts a version-2 request of `size` input bytes with `first` of them; returns its number.
    def begin(self, op, size, first):
        self.number += 1
        self.write(frame(1 + 4 + size, op + struct.pack("<I", self.number)) + first)
        return self.number

    def send_zeros(self, n):
        block = bytes(MIB)
        view = memoryview(block)
        while n > 0:
            k = min(n, MIB)
            self.write(view[:k])
            n -= k

    def peak_kb(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return -1

    def close(self):
        self.p.stdin.close()
        rest = self.p.stdout.read()
        return self.p.wait(), rest


def ond(*args, stdin):
    return subprocess.run([OND, *args], input=stdin, capture_output=True)


def reject(number, report, lines=b""):
    return struct.pack("<I", number) + b"\x01" + report + (b"\n" + lines if lines else b"")


ONDC = b"ONDC\x01\x00\x00\x00"


def big_early(s, op, size, first, want, what):
    """A request of `size` bytes whose fault is in `first`: answered before the rest is sent."""
    t0 = time.monotonic()
    n = s.begin(op, size, first)
    got = s.answer(10)
    check(got == reject(n, want), f"{what}: answered {got!r} before the rest of the {size}-byte frame was sent")
    s.send_zeros(size - len(first))
    seconds = time.monotonic() - t0
    peak = s.peak_kb()
    print(f"{what}: {size / MIB:.0f} MiB in {seconds:.1f} s, peak RSS {peak / 1024:.1f} MiB")
    check(0 < peak <= PEAK_BOUND_KB, f"{what}: peak RSS {peak} kB within {PEAK_BOUND_KB} kB")


def main():
    # A small valid ONDC, to follow the large requests (the process must still be in step).
    one = ond("encode", stdin=b'{"format":"ONDC","crc":false,"doc":{"text":"hi","tokens":[],"ents":null,"cats":null,"spans":[]}}')
    check(one.returncode == 0, "ond encode writes the small document")
    small = one.stdout
    line = ond("stream", stdin=small).stdout
    check(line.endswith(b"\n") and line.count(b"\n") == 1, "ond stream gives one line for one container")

    s = Serve()
    # 1.5 GiB of decode input, wrong at byte 0.
    big_early(s, b"D", 1536 * MIB, b"XNDC" + bytes(8), b"header.bad-magic at byte 0", "decode, bad magic")
    # A sound header that declares more than the frame holds: decode()'s size check, at once.
    big_early(s, b"D", 256 * MIB, ONDC + struct.pack("<I", 0xFFFFFF00), b"container.truncated at byte 268435456",
              "decode, a declared size past the input")
    # A header whose size is the frame's, then a body of zeros: the first section frame is wrong.
    body = 256 * MIB - 12
    ref = ond("validate", "-", stdin=ONDC + struct.pack("<I", body) + bytes(24)).stdout  # its fault comes before its end
    fault = re.search(rb"invalid at byte (\d+): ([a-z0-9.-]+) ", ref)
    check(fault is not None and fault.group(2) != b"container.truncated", f"ond validate finds the fault of a zero body: {ref!r}")
    if fault:
        big_early(s, b"D", 256 * MIB, ONDC + struct.pack("<I", body) + bytes(24), fault.group(2) + b" at byte " + fault.group(1),
                  "decode, a zero body")
    # 1 GiB of stream: one sound container, then one whose header is wrong: the line of the first
    # and the fault's offset, from the stream's start.
    big_early(s, b"S", 1024 * MIB, small + b"ONDX" + bytes(8),
              b"header.bad-magic at byte %d\n" % len(small) + line, "stream, a bad second header")
    # Still in step: a small request after the large ones.
    n = s.begin(b"D", len(small), small)
    got = s.answer(10)
    check(got is not None and got[:5] == struct.pack("<I", n) + b"\x00", f"a small decode after the large requests is accepted: {got!r}")
    status, rest = s.close()
    check(status == 0 and rest == b"", f"ond serve ends with status 0 and nothing more ({status}, {rest!r})")

    # Parity with `ond stream` (StreamReader::next, which holds a container before it checks it):
    # a container the stream cuts short gives stream.truncated at the end, even after a fault in it.
    s = Serve()
    for name, stream in [
        ("cut short after a fault", small + ONDC + struct.pack("<I", 1000) + b"\x00" * 40),
        ("a fault, then the declared end", small + ONDC + struct.pack("<I", 40) + b"\x00" * 40),
        ("clean", small + small),
        ("a short header", small + b"ONDC\x01"),
    ]:
        ref = ond("stream", stdin=stream)
        n = s.begin(b"S", len(stream), stream)
        got = s.answer(10)
        first = ref.stderr.split(b"\n")[0]
        if ref.returncode == 0:
            want = struct.pack("<I", n) + b"\x00" + ref.stdout
        else:
            want = reject(n, first[len(b"error: "):], ref.stdout)
        check(got == want, f"stream {name}: serve {got!r}, ond stream {ref.returncode} {first!r} {ref.stdout!r}")
    # Decode parity, the same way (`ond decode` reads the whole input first).
    for name, data in [
        ("trailing bytes", small + b"\x00"),
        ("cut short", small[:-1]),
        ("a short header", b"ONDC\x01"),
        ("empty", b""),
        ("sound", small),
    ]:
        ref = ond("decode", stdin=data)
        n = s.begin(b"D", len(data), data)
        got = s.answer(10)
        first = ref.stderr.split(b"\n")[0]
        want = struct.pack("<I", n) + b"\x00" + ref.stdout if ref.returncode == 0 else reject(n, first[len(b"error: "):])
        check(got == want, f"decode {name}: serve {got!r}, ond decode {ref.returncode} {first!r}")
    status, _ = s.close()
    check(status == 0, "ond serve ends with status 0")

    # A frame cut short by the end of stdin: status 1, said on stderr.
    p = subprocess.run([OND, "serve"], input=frame(2, b"V2") + frame(100, b"D\x01\x00\x00\x00ON"), capture_output=True)
    check(p.returncode == 1 and b"truncated frame" in p.stderr, f"a truncated frame ends serve with 1 ({p.returncode}, {p.stderr!r})")

    if failures:
        print(f"SERVE BOUNDS FAILED: {len(failures)} checks")
        return 1
    print("SERVE BOUNDS PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
