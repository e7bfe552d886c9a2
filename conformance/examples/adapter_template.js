#!/usr/bin/env node
// Adapter template for `ond conform`, in JavaScript for Node.js (18 or later; no packages).
//
// Copy this file, replace the three functions under "YOUR IMPLEMENTATION" with calls into your
// reader and writer, and run:
//
//   ond conform --persistent "node adapter_template.js serve"          (fast: one process per job)
//   ond conform --decoder "node adapter_template.js decode" \
//               --encoder "node adapter_template.js encode" \
//               --stream-decoder "node adapter_template.js stream"     (one process per case)
//
// As shipped, the three functions forward to the reference codec (`ond decode|encode|stream`; the
// program named by $OND, else `ond` on the PATH), so the template passes the suite as it is. The
// protocol, all of it in one document: docs/protocol.md (operations, content JSON, and the framing
// of persistent mode, version 2: the runner's hello `V2`, then numbered requests).
// You may answer a request before reading all of it, but read the rest before the next frame.
//
// When you write the content JSON yourself, mind two things JSON.stringify gets wrong for this
// protocol: it prints -0 as 0 (write "-0.0" when Object.is(x, -0)), and it writes a string with
// an unpaired surrogate as a JSON string (write {"utf16": [code units]} instead).
'use strict';
const fs = require('fs');
const { spawnSync } = require('child_process');

// ---- YOUR IMPLEMENTATION ----------------------------------------------------------------------
// Each function takes a Buffer and returns {ok, output, code}:
//   ok      true to accept, false to reject
//   output  Buffer: decode -> the content JSON; encode -> the container's bytes;
//           stream -> one JSON line per container read (on a reject: those before the fault)
//   code    on a reject, the error code (docs/error-codes.md) or '' if you do not map your errors

const OND = process.env.OND || 'ond';

// Runs the reference codec on one input: the stand-in for your implementation.
function reference(operation, input) {
  const p = spawnSync(OND, [operation], { input, maxBuffer: 1 << 30 });
  if (p.error) throw p.error;
  if (p.status !== 0 && p.status !== 1) {
    throw new Error(`${OND} ${operation} exited with ${p.status ?? p.signal}: ${p.stderr}`);
  }
  const first = p.stderr.toString('utf8').split('\n')[0];
  const code = first.startsWith('error: ') ? first.slice('error: '.length) : '';
  return { ok: p.status === 0, output: p.stdout, code };
}

function decode(container) { return reference('decode', container); }
function encode(contentJson) { return reference('encode', contentJson); }
function stream(containers) { return reference('stream', containers); }

// ---- THE ADAPTER LAYER (no need to change it) -------------------------------------------------

const OPERATIONS = Object.assign(Object.create(null), { decode, encode, stream });
const OP_BYTES = Object.assign(Object.create(null), { D: decode, E: encode, S: stream });

// Reads up to n bytes from fd 0; returns fewer only at end of input. Synchronous on purpose.
function readExactly(n) {
  const buf = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    let r;
    try {
      r = fs.readSync(0, buf, got, n - got, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') break;
      throw e;
    }
    if (r === 0) break;
    got += r;
  }
  return buf.subarray(0, got);
}

function writeAll(fd, buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

// One case: input on stdin; output on stdout; exit 0 accept, 1 reject with `error: CODE`.
function perCase(operation) {
  const chunks = [];
  for (let chunk; (chunk = readExactly(1 << 16)).length > 0;) chunks.push(chunk);
  const { ok, output, code } = operation(Buffer.concat(chunks));
  writeAll(1, output);
  if (ok) return 0;
  writeAll(2, Buffer.from(`error: ${code}\n`));
  return 1;
}

// Persistent mode: frames (u32 LE length, payload) both ways. The runner's first request may be
// the hello `V2`; answered with 0x00 '2', every later request is (op byte, u32 request number,
// input) and its response (the same 4 number bytes, status byte, data). Without the hello the
// number is left out on both sides (version 1).
function serve() {
  let numbered = 0; // bytes of request number: 4 after the hello
  for (;;) {
    const head = readExactly(4);
    if (head.length === 0) return 0; // the runner closed stdin: done
    if (head.length < 4) return 1;
    const length = head.readUInt32LE(0);
    const payload = readExactly(length);
    if (length === 0 || payload.length < length) return 1; // an empty or cut-off request
    let reply;
    if (payload.equals(Buffer.from('V2'))) {
      reply = Buffer.from([0, 0x32]); // the hello: speak version 2 from now on
      numbered = 4;
    } else {
      const number = payload.subarray(1, 1 + numbered);
      const operation = OP_BYTES[String.fromCharCode(payload[0])];
      if (!operation || number.length < numbered) {
        reply = Buffer.concat([number, Buffer.from([2])]); // unsupported operation
      } else {
        const { ok, output, code } = operation(payload.subarray(1 + numbered));
        reply = ok ? Buffer.concat([number, Buffer.from([0]), output])
          : Buffer.concat([number, Buffer.from([1]), Buffer.from(code), output.length ? Buffer.from('\n') : Buffer.alloc(0), output]);
      }
    }
    const frame = Buffer.alloc(4);
    frame.writeUInt32LE(reply.length, 0);
    writeAll(1, Buffer.concat([frame, reply]));
  }
}

function main(argv) {
  if (argv.length === 1 && argv[0] === 'serve') return serve();
  if (argv.length === 1 && OPERATIONS[argv[0]]) return perCase(OPERATIONS[argv[0]]);
  writeAll(2, Buffer.from('usage: adapter_template.js decode|encode|stream|serve\n'));
  return 2;
}

let status;
try {
  status = main(process.argv.slice(2));
} catch (e) { // an uncaught exception would exit 1, which means "rejected": report a crash
  writeAll(2, Buffer.from(`${e.stack || e}\n`));
  status = 3;
}
process.exitCode = status;
