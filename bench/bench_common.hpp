// Shared by the benchmark files: how results are reported and how each part registers itself.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <initializer_list>
#include <string>
#include <string_view>

#include "alloc_counter.hpp"
#include "workload.hpp"

namespace ond::bench {

// Concatenation without `"literal" + std::string` (g++ 12 -O3 raises a false -Wrestrict on it).
inline std::string join(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view p : parts) out.append(p.data(), p.size());
    return out;
}

// Bytes/s from the input size, tokens/s, and the peak heap use of one run (measured outside the
// timed loop by `measure_peak`).
inline void report(benchmark::State& state, std::uint64_t bytes, std::uint64_t tokens, std::uint64_t peak) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["in_bytes"] = benchmark::Counter(static_cast<double>(bytes));
    state.counters["peak_alloc"] = benchmark::Counter(static_cast<double>(peak), benchmark::Counter::kDefaults,
                                                      benchmark::Counter::kIs1024);
}

// Runs `fn` once untimed and returns the heap high-water mark it reached above the current use.
template <class F>
std::uint64_t measure_peak(F&& fn) {
    alloc::PeakScope scope;
    fn();
    return scope.peak();
}

// Registers `fn` as one benchmark: its peak heap use measured on an untimed run, then timed, its
// result kept from the optimiser. `bytes` and `tokens` are what one run handles.
template <class F>
void register_timed(const std::string& name, std::uint64_t bytes, std::uint64_t tokens, F fn) {
    benchmark::RegisterBenchmark(name.c_str(), [fn, bytes, tokens](benchmark::State& st) {
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(fn()); });
        for (auto _ : st) benchmark::DoNotOptimize(fn());
        report(st, bytes, tokens, peak);
    });
}

using WorkloadPtr = std::shared_ptr<const Workload>;

// Each registers its benchmarks for one workload. A peer's function checks that its reading
// sees the workload's token count and throws std::runtime_error otherwise.
void register_codec(const WorkloadPtr& w);  // calls register_parallel for an ONDB
// BinIndex and the parallel decode (1 and 2 threads) with the machine's ceiling; an ONDB only.
void register_parallel(const WorkloadPtr& w);
void register_baselines(const WorkloadPtr& w);
// A token's text by index in one document per script (ASCII, Latin, CJK, astral); not a workload's.
void register_token_text(double scale);
// to_json and from_json on (c) and (d)'s documents with span groups, against nlohmann-json.
void register_json(double scale);
void register_protobuf(const WorkloadPtr& w);
void register_msgpack(const WorkloadPtr& w);
void register_flatbuffers(const WorkloadPtr& w);

}  // namespace ond::bench
