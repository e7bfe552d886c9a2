// Our codec on each workload: validate, decode, encode, StreamReader, DocBinReader.
#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

#include "bench_common.hpp"
#include "ond/ond.hpp"

namespace ond::bench {
namespace {

Bytes bytes_of(const std::vector<std::byte>& v) { return Bytes(v.data(), v.size()); }

// A ReadFn over a buffer, handing out at most `step` bytes a call like a pipe or file would.
ReadFn memory_source(const std::vector<std::byte>& buf, std::size_t& pos) {
    return [&buf, &pos](std::byte* dst, std::size_t max) {
        const std::size_t n = std::min(max, buf.size() - pos);
        std::memcpy(dst, buf.data() + pos, n);
        pos += n;
        return n;
    };
}

std::uint64_t stream_decode_all(const Workload& w) {
    std::size_t pos = 0;
    StreamReader r(memory_source(w.stream, pos));
    std::uint64_t tokens = 0;
    while (auto c = r.next()) tokens += c->docs.front().tokens.size();
    return tokens;
}

std::uint64_t stream_validate_all(const Workload& w) {
    std::size_t pos = 0;
    StreamReader r(memory_source(w.stream, pos));
    while (r.skip_next()) {
    }
    return r.containers_read();
}

std::uint64_t doc_bin_read_all(const Workload& w) {
    DocBinReader r(bytes_of(w.bytes));
    std::uint64_t tokens = 0;
    while (r.next()) tokens += r.doc().size();  // the record in the reader's buffers, not copied out
    return tokens;
}

// Every record of a bin decoded on parts.size() threads: one BinIndex, each thread a contiguous
// range of it into a Container of its own (examples/parallel_pos.cpp's pattern; this thread
// takes the first range). Returns the tokens decoded.
std::uint64_t parallel_decode(Bytes b, std::vector<Container>& parts) {
    const BinIndex index(b);
    const std::size_t n = parts.size(), records = index.size();
    {
        std::vector<std::jthread> threads;
        for (std::size_t t = 1; t < n; ++t)
            threads.emplace_back([&, t] { index.decode_into(records * t / n, records * (t + 1) / n, parts[t]); });
        index.decode_into(0, records / n, parts[0]);
    }
    std::uint64_t tokens = 0;
    for (const Container& c : parts) tokens += c.docs.token_columns().size();
    return tokens;
}

// The machine's own ceiling for the same work: every thread decodes the whole bin, each into a
// Container of its own, sharing nothing but the bytes. N threads do N times the work; on N idle
// cores of their own they take the time one takes, and the ratio says what N threads can give.
void independent_decodes(Bytes b, std::vector<Container>& parts) {
    std::vector<std::jthread> threads;
    for (std::size_t t = 1; t < parts.size(); ++t) threads.emplace_back([&, t] { decode_into(b, parts[t]); });
    decode_into(b, parts[0]);
}

void expect(bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error(join({"codec self-check failed: ", what}));
}

// The benchmarks time only what these checks have shown to be right.
void self_check(const Workload& w) {
    const Summary s = validate(bytes_of(w.bytes));
    expect(s.tokens == w.tokens && s.docs == w.docs && s.crc == w.crc, join({w.name, ": validate summary"}));
    const Container c = decode(bytes_of(w.bytes));
    expect(same_content(c, w.content), join({w.name, ": decode(encode(content)) == content"}));
    expect(encode(c) == w.bytes, join({w.name, ": encode(decode(bytes)) == bytes"}));
    expect(stream_decode_all(w) == w.tokens, join({w.name, ": StreamReader token count"}));
    expect(stream_validate_all(w) == w.stream_docs, join({w.name, ": StreamReader::skip_next count"}));
    if (w.content.format == Format::ondb) expect(doc_bin_read_all(w) == w.tokens, join({w.name, ": DocBinReader token count"}));
}

void self_check_parallel(const Workload& w) {
    std::vector<Container> parts(2);
    expect(parallel_decode(bytes_of(w.bytes), parts) == w.tokens, join({w.name, ": parallel decode token count"}));
    Container merged = parts[0];
    merge(merged, parts[1]);
    merged.crc = w.content.crc;
    expect(same_content(merged, w.content), join({w.name, ": parallel decode, merged in order == content"}));
}

}  // namespace

void register_codec(const WorkloadPtr& wp) {
    self_check(*wp);
    const std::string sfx = join({"/", wp->name});
    const std::uint64_t in = wp->bytes.size(), tokens = wp->tokens;

    benchmark::RegisterBenchmark(join({"ours/validate", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        const Bytes b = bytes_of(wp->bytes);
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(validate(b)); });
        for (auto _ : st) {
            Summary s = validate(b);
            benchmark::DoNotOptimize(s);
        }
        report(st, in, tokens, peak);
    });
    if (wp->crc)  // the CRC on the calling thread: what overlapping it on a second one saves
        benchmark::RegisterBenchmark(join({"ours/validate_one_thread", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
            const Bytes b = bytes_of(wp->bytes);
            set_crc_thread(false);
            const auto peak = measure_peak([&] { benchmark::DoNotOptimize(validate(b)); });
            for (auto _ : st) benchmark::DoNotOptimize(validate(b));
            set_crc_thread(true);
            report(st, in, tokens, peak);
        });
    benchmark::RegisterBenchmark(join({"ours/decode", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        const Bytes b = bytes_of(wp->bytes);
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(decode(b)); });
        for (auto _ : st) {
            Container c = decode(b);
            benchmark::DoNotOptimize(c);
        }
        report(st, in, tokens, peak);
    });
    benchmark::RegisterBenchmark(join({"ours/decode_reuse", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        const Bytes b = bytes_of(wp->bytes);
        Container c;
        decode_into(b, c);  // warm: the columns reach their size once
        const auto peak = measure_peak([&] { decode_into(b, c); });
        for (auto _ : st) {
            decode_into(b, c);
            benchmark::DoNotOptimize(c);
        }
        report(st, in, tokens, peak);
    });
    benchmark::RegisterBenchmark(join({"ours/encode", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(encode(wp->content)); });
        for (auto _ : st) {
            std::vector<std::byte> out = encode(wp->content);
            benchmark::DoNotOptimize(out);
        }
        report(st, in, tokens, peak);  // bytes written == the workload's bytes (checked)
    });
    const std::uint64_t stream_in = wp->stream.size();
    benchmark::RegisterBenchmark(join({"ours/stream_decode", sfx}).c_str(), [wp, stream_in, tokens](benchmark::State& st) {
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(stream_decode_all(*wp)); });
        for (auto _ : st) benchmark::DoNotOptimize(stream_decode_all(*wp));
        report(st, stream_in, tokens, peak);
    });
    benchmark::RegisterBenchmark(join({"ours/stream_validate", sfx}).c_str(), [wp, stream_in, tokens](benchmark::State& st) {
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(stream_validate_all(*wp)); });
        for (auto _ : st) benchmark::DoNotOptimize(stream_validate_all(*wp));
        report(st, stream_in, tokens, peak);
        // The goal for its peak: the largest container of the stream, plus a constant.
        st.counters["max_container"] = benchmark::Counter(static_cast<double>(wp->stream_max_container));
    });
    if (wp->content.format == Format::ondb) {
        benchmark::RegisterBenchmark(join({"ours/docbin", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
            const auto peak = measure_peak([&] { benchmark::DoNotOptimize(doc_bin_read_all(*wp)); });
            for (auto _ : st) benchmark::DoNotOptimize(doc_bin_read_all(*wp));
            report(st, in, tokens, peak);
        });
        register_parallel(wp);
    }
}

void register_parallel(const WorkloadPtr& wp) {
    self_check_parallel(*wp);
    const std::string sfx = join({"/", wp->name});
    const std::uint64_t in = wp->bytes.size(), tokens = wp->tokens;
    // The serial part of a parallel decode: the index (framing, the string table, the CRC).
    benchmark::RegisterBenchmark(join({"ours/bin_index", sfx}).c_str(), [wp, in, tokens](benchmark::State& st) {
        for (auto _ : st) {
            BinIndex index(bytes_of(wp->bytes));
            benchmark::DoNotOptimize(index);
        }
        report(st, in, tokens, 0);
    });
    // 1 and 2 threads, wall time: report.py's target is the ratio of the two.
    for (std::size_t threads : {1, 2}) {
        const std::string name = join({"ours/parallel_decode", sfx, "/threads:", std::to_string(threads)});
        benchmark::RegisterBenchmark(name.c_str(), [wp, in, tokens, threads](benchmark::State& st) {
            std::vector<Container> parts(threads);
            (void)parallel_decode(bytes_of(wp->bytes), parts);  // warm: the columns reach their size once
            for (auto _ : st) benchmark::DoNotOptimize(parallel_decode(bytes_of(wp->bytes), parts));
            report(st, in, tokens, 0);
        })->UseRealTime();
        // As a user's first try times it (issue 37): every run on fresh threads, each decoding
        // into a fresh container made on its thread (cold buffers, the thread's own arena), no
        // warm-up. Beside parallel_decode it shows what keeping workers and containers is worth.
        const std::string fresh = join({"ours/parallel_decode_fresh", sfx, "/threads:", std::to_string(threads)});
        benchmark::RegisterBenchmark(fresh.c_str(), [wp, in, tokens, threads](benchmark::State& st) {
            for (auto _ : st) {
                const BinIndex index(bytes_of(wp->bytes));
                std::vector<std::jthread> workers;
                for (std::size_t t = 0; t < threads; ++t)
                    workers.emplace_back([&index, t, threads] {
                        Container part;
                        index.decode_into(index.size() * t / threads, index.size() * (t + 1) / threads, part);
                        benchmark::DoNotOptimize(part);
                    });
            }
            report(st, in, tokens, 0);
        })->UseRealTime();
        const std::string ceiling = join({"ours/parallel_ceiling", sfx, "/threads:", std::to_string(threads)});
        benchmark::RegisterBenchmark(ceiling.c_str(), [wp, in, tokens, threads](benchmark::State& st) {
            std::vector<Container> parts(threads);
            independent_decodes(bytes_of(wp->bytes), parts);  // warm
            for (auto _ : st) {
                independent_decodes(bytes_of(wp->bytes), parts);
                benchmark::DoNotOptimize(parts);
            }
            report(st, in * threads, tokens * threads, 0);
        })->UseRealTime();
    }
}

}  // namespace ond::bench
