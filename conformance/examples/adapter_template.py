#!/usr/bin/env python3
"""Adapter template for `ond conform`, in Python (standard library only).

Copy this file, replace the three functions under "YOUR IMPLEMENTATION" with calls into your
reader and writer, and run:

    ond conform --persistent "python3 adapter_template.py serve"          (fast: one process per job)
    ond conform --decoder "python3 adapter_template.py decode" \\
                --encoder "python3 adapter_template.py encode" \\
                --stream-decoder "python3 adapter_template.py stream"     (one process per case)

As shipped, the three functions forward to the reference codec (`ond decode|encode|stream`; the
program named by $OND, else `ond` on the PATH), so the template passes the suite as it is. The
protocol, all of it in one document: docs/protocol.md (operations, content JSON, and the framing
of persistent mode, version 2: the runner's hello `V2`, then numbered requests).
You may answer a request before reading all of it, but read the rest before the next frame.
"""

import os
import struct
import subprocess
import sys

# ---- YOUR IMPLEMENTATION ----------------------------------------------------------------------
# Each function returns (ok, output, code):
#   ok      True to accept, False to reject
#   output  bytes: decode -> the content JSON; encode -> the container's bytes;
#           stream -> one JSON line per container read (on a reject: those before the fault)
#   code    on a reject, the error code (docs/error-codes.md) or "" if you do not map your errors

OND = os.environ.get("OND", "ond")


def reference(operation, data):
    """Runs the reference codec on one input: the stand-in for your implementation."""
    p = subprocess.run([OND, operation], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{OND} {operation} exited with {p.returncode}: {p.stderr.decode(errors='replace')}")
    first = p.stderr.decode(errors="replace").partition("\n")[0]
    code = first[len("error: "):] if first.startswith("error: ") else ""
    return p.returncode == 0, p.stdout, code


def decode(container: bytes):
    return reference("decode", container)


def encode(content_json: bytes):
    return reference("encode", content_json)


def stream(containers: bytes):
    return reference("stream", containers)


# ---- THE ADAPTER LAYER (no need to change it) -------------------------------------------------

OPERATIONS = {"decode": decode, "encode": encode, "stream": stream}
OP_BYTES = {b"D": decode, b"E": encode, b"S": stream}


def per_case(operation):
    """One case: input on stdin; output on stdout; exit 0 accept, 1 reject with `error: CODE`."""
    ok, output, code = operation(sys.stdin.buffer.read())
    sys.stdout.buffer.write(output)
    sys.stdout.buffer.flush()
    if ok:
        return 0
    print(f"error: {code}", file=sys.stderr)
    return 1


def read_exactly(stream_in, n):
    data = b""
    while len(data) < n:
        chunk = stream_in.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve():
    """Persistent mode: frames (u32 LE length, payload) both ways. The runner's first request may
    be the hello `V2`; answered with 0x00 '2', every later request is (op byte, u32 request number,
    input) and its response (the same 4 number bytes, status byte, data). Without the hello the
    number is left out on both sides (version 1)."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    numbered = 0  # bytes of request number: 4 after the hello
    while True:
        head = read_exactly(inp, 4)
        if head is None:
            return 0  # the runner closed stdin: done
        (length,) = struct.unpack("<I", head)
        payload = read_exactly(inp, length) if length else None
        if payload is None:
            return 1  # an empty or cut-off request
        if payload == b"V2":
            reply, numbered = b"\x002", 4  # the hello: speak version 2 from now on
        else:
            number = payload[1:1 + numbered]
            operation = OP_BYTES.get(payload[:1])
            if operation is None or len(number) < numbered:
                reply = number + b"\x02"  # unsupported operation
            else:
                ok, output, code = operation(payload[1 + numbered:])
                if ok:
                    reply = number + b"\x00" + output
                else:
                    reply = number + b"\x01" + code.encode() + (b"\n" + output if output else b"")
        out.write(struct.pack("<I", len(reply)) + reply)
        out.flush()


def main(argv):
    if len(argv) == 2 and argv[1] == "serve":
        return serve()
    if len(argv) == 2 and argv[1] in OPERATIONS:
        return per_case(OPERATIONS[argv[1]])
    print("usage: adapter_template.py decode|encode|stream|serve", file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception:  # an uncaught exception would exit 1, which means "rejected": report a crash
        import traceback
        traceback.print_exc()
        sys.exit(3)
