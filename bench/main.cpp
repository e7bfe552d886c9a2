// ond_bench: our codec, the machine's baselines and the peers, on the same generated workloads.
//
// Besides Google Benchmark's own flags:
//   --scale=X        size every workload by X, 0 < X <= 100 (default 1; the CTest smoke run uses 0.01)
//   --workloads=abcd which workloads to generate (default all four); with (a) comes "a20", a
//                    bin of (a)'s kind 20 times its size, timed by the parallel decode only
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace {
constexpr double parallel_bin_scale = 20.0;
}

int main(int argc, char** argv) {
    using namespace ond::bench;
    double scale = 1.0;
    std::string kinds = "abcd";
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        if (std::strncmp(argv[i], "--scale=", 8) == 0) {
            scale = std::strtod(argv[i] + 8, nullptr);
            if (!(scale > 0.0 && scale <= 100.0)) {
                std::fprintf(stderr, "ond_bench: --scale must be in (0, 100]\n");
                return 2;
            }
        } else if (std::strncmp(argv[i], "--workloads=", 12) == 0) {
            kinds = argv[i] + 12;
        } else {
            rest.push_back(argv[i]);
        }
    }
    int rest_argc = static_cast<int>(rest.size());
    benchmark::Initialize(&rest_argc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 2;

    try {
        for (char k : kinds) {
            if (k < 'a' || k > 'd') {
                std::fprintf(stderr, "ond_bench: unknown workload '%c'\n", k);
                return 2;
            }
            const auto kind = static_cast<Kind>(k);
            for (bool crc : {true, false}) {
                auto w = std::make_shared<const Workload>(make_workload(kind, crc, scale));
                benchmark::AddCustomContext(join({"workload ", w->name}),
                                            join({std::to_string(w->docs), " docs, ", std::to_string(w->tokens), " tokens, ",
                                                  std::to_string(w->bytes.size()), " bytes; ", describe(kind)}));
                register_codec(w);
                if (crc) {
                    register_baselines(w);
                } else {  // peers carry no checksum: compare them with both of ours
#ifdef OND_BENCH_PROTOBUF
                    register_protobuf(w);
#endif
#ifdef OND_BENCH_MSGPACK
                    register_msgpack(w);
#endif
#ifdef OND_BENCH_FLATBUFFERS
                    register_flatbuffers(w);
#endif
                }
            }
        }
        if (kinds.find('a') != std::string::npos) {
            // A bin of (a)'s documents 20 times as large (20,000 documents, 11.6 MB at scale 1), for
            // the parallel decode's target: on (a) itself the fixed costs (the string table, which
            // does not grow with the bin, and starting a thread) are a large share of 0.3 ms.
            auto w = std::make_shared<const Workload>(make_workload(Kind::a, false, scale * parallel_bin_scale, "a20", true));
            benchmark::AddCustomContext(join({"workload ", w->name}),
                                        join({std::to_string(w->docs), " docs, ", std::to_string(w->tokens), " tokens, ",
                                              std::to_string(w->bytes.size()), " bytes; (a) x 20, for the parallel decode"}));
            register_parallel(w);
        }
        register_token_text(scale);
        register_json(scale);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ond_bench: %s\n", e.what());
        return 1;
    }
    benchmark::AddCustomContext("workload seed", std::to_string(workload_seed));
    benchmark::AddCustomContext("workload scale", std::to_string(scale));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
