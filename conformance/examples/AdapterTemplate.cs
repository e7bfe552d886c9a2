// Adapter template for `ond conform`, in C# (Mono's mcs or .NET; base class library only).
//
// Copy this file, replace the three methods under "YOUR IMPLEMENTATION" with calls into your
// reader and writer, build it (`mcs -out:adapter.exe AdapterTemplate.cs`) and run:
//
//   ond conform --persistent "mono adapter.exe serve"          (fast: one process per job)
//   ond conform --decoder "mono adapter.exe decode" \
//               --encoder "mono adapter.exe encode" \
//               --stream-decoder "mono adapter.exe stream"     (one process per case)
//
// As shipped, the three methods forward to the reference codec (`ond decode|encode|stream`; the
// program named by $OND, else `ond` on the PATH), so the template passes the suite as it is. The
// protocol, all of it in one document: docs/protocol.md (operations, content JSON, and the framing
// of persistent mode, version 2: the runner's hello `V2`, then numbered requests).
// You may answer a request before reading all of it, but read the rest before the next frame.
//
// When you write the content JSON yourself: print a float f as ((double)f).ToString("R",
// CultureInfo.InvariantCulture), but write "-0.0" yourself when f is negative zero (test the sign
// bit), and {"f32bits": N} for NaN and infinities; a string with an unpaired surrogate is written
// {"utf16": [code units]}.
using System;
using System.Diagnostics;
using System.IO;
using System.Text;
using System.Threading.Tasks;

// What an operation answers.
//   Ok      true to accept, false to reject
//   Output  decode: the content JSON; encode: the container's bytes;
//           stream: one JSON line per container read (on a reject: those before the fault)
//   Code    on a reject, the error code (docs/error-codes.md) or "" if you do not map your errors
struct Answer
{
    public bool Ok;
    public byte[] Output;
    public string Code;
}

static class Adapter
{
    // ---- YOUR IMPLEMENTATION ------------------------------------------------------------------

    static readonly string Ond = Environment.GetEnvironmentVariable("OND") ?? "ond";

    // Runs the reference codec on one input: the stand-in for your implementation.
    static Answer Reference(string operation, byte[] input)
    {
        var start = new ProcessStartInfo(Ond, operation)
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using (var p = Process.Start(start))
        {
            Task writer = Task.Run(() =>
            {
                try { p.StandardInput.BaseStream.Write(input, 0, input.Length); }
                catch (IOException) { } // it stopped reading: its answer tells why
                finally { p.StandardInput.Close(); }
            });
            Task<string> errors = p.StandardError.ReadToEndAsync();
            var output = new MemoryStream();
            p.StandardOutput.BaseStream.CopyTo(output);
            writer.Wait();
            p.WaitForExit();
            string stderr = errors.Result;
            if (p.ExitCode != 0 && p.ExitCode != 1)
                throw new Exception(Ond + " " + operation + " exited with " + p.ExitCode + ": " + stderr);
            string first = stderr.Split('\n')[0];
            return new Answer
            {
                Ok = p.ExitCode == 0,
                Output = output.ToArray(),
                Code = first.StartsWith("error: ", StringComparison.Ordinal) ? first.Substring(7) : "",
            };
        }
    }

    static Answer Decode(byte[] container) { return Reference("decode", container); }
    static Answer Encode(byte[] contentJson) { return Reference("encode", contentJson); }
    static Answer Stream(byte[] containers) { return Reference("stream", containers); }

    // ---- THE ADAPTER LAYER (no need to change it) ---------------------------------------------

    static Func<byte[], Answer> Operation(string name)
    {
        switch (name)
        {
            case "decode": case "D": return Decode;
            case "encode": case "E": return Encode;
            case "stream": case "S": return Stream;
            default: return null;
        }
    }

    // One case: input on stdin; output on stdout; exit 0 accept, 1 reject with `error: CODE`.
    static int PerCase(Func<byte[], Answer> operation)
    {
        var input = new MemoryStream();
        using (Stream stdin = Console.OpenStandardInput()) stdin.CopyTo(input);
        Answer a = operation(input.ToArray());
        using (Stream stdout = Console.OpenStandardOutput()) stdout.Write(a.Output, 0, a.Output.Length);
        if (a.Ok) return 0;
        using (Stream stderr = Console.OpenStandardError())
        {
            byte[] line = Encoding.UTF8.GetBytes("error: " + a.Code + "\n");
            stderr.Write(line, 0, line.Length);
        }
        return 1;
    }

    // Reads exactly n bytes, or returns null at the end of input.
    static byte[] ReadExactly(Stream s, int n)
    {
        var buf = new byte[n];
        for (int got = 0; got < n;)
        {
            int r = s.Read(buf, got, n - got);
            if (r == 0) return null;
            got += r;
        }
        return buf;
    }

    // Persistent mode: frames (u32 LE length, payload) both ways. The runner's first request may
    // be the hello `V2`; answered with 0x00 '2', every later request is (op byte, u32 request
    // number, input) and its response (the same 4 number bytes, status byte, data). Without the
    // hello the number is left out on both sides (version 1).
    static int Serve()
    {
        int numbered = 0; // bytes of request number: 4 after the hello
        using (Stream inp = Console.OpenStandardInput())
        using (Stream outp = Console.OpenStandardOutput())
        {
            for (;;)
            {
                byte[] head = ReadExactly(inp, 4);
                if (head == null) return 0; // the runner closed stdin: done
                uint length = head[0] | (uint)head[1] << 8 | (uint)head[2] << 16 | (uint)head[3] << 24; // little-endian
                if (length == 0 || length > int.MaxValue) return 1;
                byte[] payload = ReadExactly(inp, (int)length);
                if (payload == null) return 1; // a cut-off request
                var reply = new MemoryStream();
                if (payload.Length == 2 && payload[0] == (byte)'V' && payload[1] == (byte)'2')
                {
                    reply.WriteByte(0); // the hello: speak version 2 from now on
                    reply.WriteByte((byte)'2');
                    numbered = 4;
                }
                else
                {
                    int number = Math.Min(numbered, payload.Length - 1);
                    reply.Write(payload, 1, number); // the request number, echoed
                    Func<byte[], Answer> operation = Operation(((char)payload[0]).ToString());
                    if (operation == null || number < numbered)
                    {
                        reply.WriteByte(2); // unsupported operation
                    }
                    else
                    {
                        var input = new byte[payload.Length - 1 - numbered];
                        Buffer.BlockCopy(payload, 1 + numbered, input, 0, input.Length);
                        Answer a = operation(input);
                        reply.WriteByte(a.Ok ? (byte)0 : (byte)1);
                        if (!a.Ok)
                        {
                            byte[] code = Encoding.UTF8.GetBytes(a.Code);
                            reply.Write(code, 0, code.Length);
                            if (a.Output.Length > 0) reply.WriteByte((byte)'\n');
                        }
                        reply.Write(a.Output, 0, a.Output.Length);
                    }
                }
                uint n = (uint)reply.Length;
                outp.Write(new[] { (byte)n, (byte)(n >> 8), (byte)(n >> 16), (byte)(n >> 24) }, 0, 4);
                reply.WriteTo(outp);
                outp.Flush();
            }
        }
    }

    static int Main(string[] args)
    {
        try
        {
            if (args.Length == 1 && args[0] == "serve") return Serve();
            Func<byte[], Answer> operation = args.Length == 1 && args[0].Length > 1 ? Operation(args[0]) : null;
            if (operation != null) return PerCase(operation);
            Console.Error.WriteLine("usage: adapter.exe decode|encode|stream|serve");
            return 2;
        }
        catch (Exception e) // report a crash, never a rejection
        {
            Console.Error.WriteLine(e);
            return 3;
        }
    }
}
