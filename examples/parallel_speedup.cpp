// Decoding a bin on 1 and 2 threads, timed the way a program of yours would see it, two ways:
// fresh threads with fresh containers each run (what a first try does), and the pattern of
// codec/README.md ("Parallel decode"): long-lived workers, each decoding into a container of its
// own that it keeps, warmed once. Prints each way's speed-up. Usage: parallel_speedup [DOCS] [ROUNDS]
#include <ond/ond.hpp>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

// A bin of `docs` documents of 30 tokens drawn from a small vocabulary.
std::vector<std::byte> make_bin(std::size_t docs) {
    ond::Container c;
    c.format = ond::Format::ondb;
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "far"};
    const char* tags[] = {"DET", "NOUN", "VERB", "ADP", "DET", "NOUN", "CCONJ", "NOUN", "VERB", "ADV"};
    for (std::size_t d = 0; d < docs; ++d) {
        std::string text;
        for (std::size_t t = 0; t < 30; ++t) text += std::string(words[(d + t * 7) % 10]) + " ";
        ond::DocBuilder b(c, text);
        for (std::size_t t = 0; t < 30; ++t) {
            const std::size_t w = (d + t * 7) % 10;
            b.token(words[w]).pos(tags[w]).lemma(words[w]).head(t / 6 * 6);
        }
    }
    return ond::encode(c);
}

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Fresh threads, fresh containers: the fastest of `rounds` runs.
double fresh(const ond::BinIndex& index, std::size_t n, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = Clock::now();
        {
            std::vector<std::jthread> threads;
            for (std::size_t t = 0; t < n; ++t)
                threads.emplace_back([&index, t, n] {
                    ond::Container part;
                    index.decode_into(index.size() * t / n, index.size() * (t + 1) / n, part);
                });
        }
        best = std::min(best, ms_since(t0));
    }
    return best;
}

// The pattern: n workers that live across runs, each with its container, warmed by one run.
double workers(const ond::BinIndex& index, std::size_t n, int rounds) {
    std::barrier sync(static_cast<std::ptrdiff_t>(n + 1));
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < n; ++t)
        threads.emplace_back([&, t] {
            ond::Container part;  // kept: decode_into reuses its buffers run after run
            for (int r = 0; r <= rounds; ++r) {
                sync.arrive_and_wait();
                index.decode_into(index.size() * t / n, index.size() * (t + 1) / n, part);
                sync.arrive_and_wait();
            }
        });
    double best = 1e300;
    for (int r = 0; r <= rounds; ++r) {
        sync.arrive_and_wait();
        const auto t0 = Clock::now();
        sync.arrive_and_wait();
        if (r > 0) best = std::min(best, ms_since(t0));  // run 0 warms
    }
    return best;
}

int main(int argc, char** argv) {
    const std::size_t docs = argc > 1 ? std::stoul(argv[1]) : 20000;
    const int rounds = argc > 2 ? std::stoi(argv[2]) : 5;
    const ond::BinIndex index(make_bin(docs));
    const double f1 = fresh(index, 1, rounds), f2 = fresh(index, 2, rounds);
    const double w1 = workers(index, 1, rounds), w2 = workers(index, 2, rounds);
    std::printf("%zu documents, %u hardware threads\n", docs, std::thread::hardware_concurrency());
    std::printf("fresh threads and containers: 1 thread %.2f ms, 2 threads %.2f ms, speed-up %.2fx\n", f1, f2, f1 / f2);
    std::printf("workers with kept containers: 1 thread %.2f ms, 2 threads %.2f ms, speed-up %.2fx\n", w1, w2, w1 / w2);
}
