#!/usr/bin/env python3
"""Prints ond_bench's JSON output as Markdown tables: our codec, the baselines, the peers with
the ratios ours/peer (decode and validate against the peers' readers, encode against their
writers), and the targets of issues 7, 16 and 26.

usage: report.py RESULTS.json [--machine] [--json FILE]

--json FILE also writes the targets as JSON: {"source", "targets": [{"name", "measured", "unit",
"goal", "op", "met"}]}, where met is `measured op goal`. Every value comes from RESULTS.json, so
every ratio compares benchmarks of one run of ond_bench.

Exits 1 when the file holds no result of ours or a benchmark reported an error.
"""
import json
import platform
import subprocess
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    runs = {}
    medians = {}
    errors = []
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            errors.append(f"{b['name']}: {b.get('error_message', '?')}")
            continue
        if b.get("run_type", "iteration") == "iteration":
            runs.setdefault(b.get("run_name", b["name"]), b)
        elif b.get("aggregate_name") == "median":
            medians[b["run_name"]] = b
    # With --benchmark_repetitions the median of the repetitions stands for the benchmark.
    runs.update(medians)
    return data.get("context", {}), runs, errors


def mbps(b):
    return b.get("bytes_per_second", 0.0) / 1e6


def mtoks(b):
    return b.get("tokens/s", 0.0) / 1e6


def fmt(x, digits=1):
    return f"{x:,.{digits}f}"


def size(n):
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return str(n)


def ratio(a, b):
    return a / b if b else float("nan")


def option(argv, name):
    """The value of `name VALUE` or `name=VALUE` in argv, or None."""
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def peer_table(runs, kinds, title, label, peers, ours):
    """A table of the peers' benchmarks with ours (the no-CRC runs of each operation in `ours`) /
    peer in tokens/s."""
    rows = ["", f"### {title} (same content; ratios compare tokens/s)", "",
            f"| workload | {label} | MB/s of its bytes | Mtok/s | peak alloc | "
            + " | ".join(f"ours {op} / peer" for op in ours) + " |",
            "|---|---|---:|---:|---:|" + "---:|" * len(ours)]
    for k in kinds:
        mine = [runs.get(f"ours/{op}/{k}/nocrc") for op in ours]
        for p in peers:
            b = runs.get(f"peer/{p}/{k}")
            if not b:
                continue
            ratios = " | ".join(fmt(ratio(mtoks(m), mtoks(b)), 2) if m else "-" for m in mine)
            rows.append(f"| {k} | {p} | {fmt(mbps(b))} | {fmt(mtoks(b), 2)} | {size(b.get('peak_alloc', 0))} | {ratios} |")
    return rows


def compute_targets(runs, kinds):
    """The targets of issues 7 and 16 as records, every value from this one results file (so every
    ratio compares benchmarks of one run of ond_bench). Each record: name, value (a number in
    `unit`), unit, goal (a number), op (">=" or "<="), met, and texts for the Markdown table."""
    targets = []

    def target(name, value, unit, op, goal, display, goal_text):
        met = value >= goal if op == ">=" else value <= goal
        targets.append({"name": name, "value": value, "unit": unit, "op": op, "goal": goal, "met": bool(met),
                        "display": display, "goal_text": goal_text})

    for k in ("a", "b"):
        d = runs.get(f"ours/decode/{k}/nocrc")
        for p, goal in (("protobuf_fresh", 3.0), ("protobuf_reused", 1.5)):
            b = runs.get(f"peer/{p}/{k}")
            if d and b:
                r = ratio(mtoks(d), mtoks(b))
                target(f"decode ({k}) / {p}", r, "x", ">=", goal, f"{r:.2f}x", f">= {goal}x")
    vb = runs.get("ours/validate/b/crc")
    vn = runs.get("ours/validate/b/nocrc")
    if vb:
        target("validate (b, crc) tokens/s", mtoks(vb), "Mtok/s", ">=", 100.0, f"{mtoks(vb):.1f} M/s", ">= 100 M/s")
        target("validate (b, crc) bytes/s", mbps(vb) / 1000, "GB/s", ">=", 1.5, f"{mbps(vb) / 1000:.2f} GB/s",
               ">= 1.5 GB/s")
    if vb and vn:
        # Wall-clock time: the codec checks a large container's CRC on a second thread while it
        # reads the body, so the calling thread's CPU time would not see the CRC's cost.
        extra = (vb["real_time"] / vn["real_time"] - 1.0) * 100
        display = f"{extra:+.1f} %"
        v1 = runs.get("ours/validate_one_thread/b/crc")
        if v1:  # for the record: the same with the CRC on the calling thread
            display += f" ({(v1['real_time'] / vn['real_time'] - 1.0) * 100:+.1f} % on one thread)"
        target("validate (b): CRC's extra time", extra, "%", "<=", 5.0, display, "<= 5 %")
    d = runs.get("ours/decode/a/nocrc")
    s = runs.get("peer/docbin_msgpack_zlib/a")
    if d and s:
        r = ratio(mtoks(d), mtoks(s))
        target("decode (a) / spaCy DocBin path (inflate + msgpack)", r, "x", ">=", 10.0, f"{r:.1f}x", ">= 10x")
    for k in ("a", "b"):
        e = runs.get(f"ours/encode/{k}/crc")
        if e:
            target(f"encode ({k}, crc)", mbps(e), "MB/s", ">=", 500.0, f"{mbps(e):,.0f} MB/s", ">= 500 MB/s")
    for k in ("a", "b"):
        # Our model to bytes against protobuf's model to bytes (issue 26).
        e = runs.get(f"ours/encode/{k}/nocrc")
        b = runs.get(f"peer/protobuf_serialize/{k}")
        if e and b:
            r = ratio(mtoks(e), mtoks(b))
            target(f"encode ({k}) / protobuf_serialize", r, "x", ">=", 2.0, f"{r:.2f}x", ">= 2x")
    # Timed with UseRealTime(): Google Benchmark names them ".../threads:N/real_time".
    def parallel_ratio(k, what):
        one = runs.get(f"ours/{what}/{k}/nocrc/threads:1/real_time")
        two = runs.get(f"ours/{what}/{k}/nocrc/threads:2/real_time")
        return ratio(one["real_time"], two["real_time"]) if one and two else None

    # The goal is judged on "a20", (a)'s documents in a bin 20 times as large, when it ran: on
    # the small bins the fixed costs (the string table, a thread's start) weigh on the ratio,
    # which is then shown for the record. Without it, on every bin that ran.
    timed = [k for k in kinds if parallel_ratio(k, "parallel_decode") is not None]
    judged = ["a20"] if "a20" in timed else timed
    for k in judged:
        # Wall time: a BinIndex and its records decoded by 1 thread, then by 2 (issue 26).
        r = parallel_ratio(k, "parallel_decode")
        display = f"{r:.2f}x"
        others = [f"({o}) {parallel_ratio(o, 'parallel_decode'):.2f}x" for o in timed if o not in judged]
        if others:
            display += " (on " + ", ".join(others) + ")"
        target(f"parallel decode ({k}): 2 threads / 1 thread", r, "x", ">=", 1.8, display, ">= 1.8x")
        # What two threads can give on this machine at all: two whole independent decodes
        # against one (2 x the work). Shared cores or memory put it below 2; the decode's
        # speedup is then judged against it too.
        c = parallel_ratio(k, "parallel_ceiling")
        if c is not None:
            ceiling = 2 * c
            share = ratio(r, ceiling) * 100
            target(f"parallel decode ({k}): share of the machine's 2-thread ceiling", share, "%", ">=", 90.0,
                   f"{share:.0f} % (ceiling {ceiling:.2f}x)", ">= 90 %")
    mib = 1 << 20
    for k in kinds:
        d = runs.get(f"ours/decode/{k}/crc")
        if d and d.get("in_bytes"):
            # At most twice the input plus 1 MiB: the goal is compared as (peak - 1 MiB) / input <= 2.
            r = d["peak_alloc"] / d["in_bytes"]
            target(f"decode ({k}) peak allocation / input", r, "x input", "<=",
                   2.0 + mib / d["in_bytes"], f"{r:.2f}", "<= 2 (+ 1 MiB)")
    for k in kinds:
        for op in ("validate", "stream_validate"):
            v = runs.get(f"ours/{op}/{k}/crc")
            if not v:
                continue
            peak = v["peak_alloc"]
            input_bytes = v.get("in_bytes", 1)
            if op == "validate":
                # O(1) beyond section bookkeeping: a small fraction of the input, or a few KiB.
                target(f"validate ({k}) peak allocation", peak, "bytes", "<=", max(64 * 1024, 0.25 * input_bytes),
                       size(peak), "O(1) + bookkeeping")
            else:
                # The stream's largest container (for (b) the stream is that one container) + 1 MiB.
                target(f"stream_validate ({k}) peak allocation", peak, "bytes", "<=",
                       v.get("max_container", input_bytes) + mib, size(peak), "one container + 1 MiB")
    return targets


def write_json(path, source, targets):
    doc = {"source": source,
           "targets": [{"name": t["name"], "measured": t["value"], "unit": t["unit"], "goal": t["goal"],
                        "op": t["op"], "met": t["met"]} for t in targets]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def machine_lines(context):
    model, cores = "?", "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            key, _, val = line.partition(":")
            if key.strip() == "Model name":
                model = val.strip()
            elif key.strip() == "CPU(s)":
                cores = val.strip()
    except OSError:
        pass
    lines = [f"- CPU: {model}, {cores} logical CPUs ({platform.machine()})",
             f"- benchmark library: {context.get('library_build_type', '?')} build, "
             f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz reported"]
    for key in sorted(context):
        if key.startswith("workload"):
            lines.append(f"- {key}: {context[key]}")
    return lines


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    context, runs, errors = load(argv[1])
    out = []
    if "--machine" in argv:
        out += ["### Machine", ""] + machine_lines(context) + [""]

    ours_ops = ["validate", "decode", "encode", "stream_validate", "stream_decode", "docbin"]
    kinds = sorted({name.split("/")[2] for name in runs if name.startswith("ours/")})
    out += ["### Our codec", "",
            "| workload | operation | MB/s (crc) | Mtok/s (crc) | MB/s (no crc) | Mtok/s (no crc) | peak alloc | peak / input |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for k in kinds:
        for op in ours_ops:
            c = runs.get(f"ours/{op}/{k}/crc")
            n = runs.get(f"ours/{op}/{k}/nocrc")
            if not c and not n:
                continue
            ref = c or n
            peak = ref.get("peak_alloc", 0)
            out.append(f"| {k} | {op} | {fmt(mbps(c)) if c else '-'} | {fmt(mtoks(c), 2) if c else '-'} | "
                       f"{fmt(mbps(n)) if n else '-'} | {fmt(mtoks(n), 2) if n else '-'} | {size(peak)} | "
                       f"{fmt(peak / ref['in_bytes'], 2) if ref.get('in_bytes') else '-'} |")

    out += ["", "### Baselines (same bytes; UTF-8 rows: all the workload's text)", "",
            "| workload | baseline | MB/s | ours validate (crc) / baseline, MB/s |", "|---|---|---:|---:|"]
    for k in kinds:
        v = runs.get(f"ours/validate/{k}/crc")
        for base in ["memcpy", "crc32_zlib", "crc32_isal", "utf8_ond", "utf8_ref"]:
            b = runs.get(f"base/{base}/{k}")
            if b:
                out.append(f"| {k} | {base} | {fmt(mbps(b))} | {fmt(ratio(mbps(v), mbps(b)), 3) if v else '-'} |")

    out += peer_table(runs, kinds, "Peers", "peer",
                      ["protobuf_fresh", "protobuf_reused", "protobuf_arena", "docbin_msgpack_zlib", "docbin_msgpack",
                       "flatbuffers"], ["decode", "validate"])
    out += peer_table(runs, kinds, "Peers' writers", "peer writer",
                      ["protobuf_serialize", "protobuf_build_serialize", "flatbuffers_build", "docbin_msgpack_zlib_write"],
                      ["encode"])

    targets = compute_targets(runs, kinds)
    if targets:
        out += ["", "### Targets (issues 7, 16 and 26)", "", "| target | measured | goal | |", "|---|---:|---:|---|"]
        out += [f"| {t['name']} | {t['display']} | {t['goal_text']} | {'met' if t['met'] else 'NOT met'} |"
                for t in targets]
    json_path = option(argv, "--json")
    if json_path:
        write_json(json_path, argv[1], targets)

    print("\n".join(out))
    if errors:
        print("\nerrors:\n" + "\n".join(errors), file=sys.stderr)
        return 1
    if not any(name.startswith("ours/") for name in runs):
        print("no results of ours in " + argv[1], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
