// Decoding a bin on 1 and 2 threads, timed the way a program of yours would see it, two ways:
// fresh threads with fresh containers each run (what a first try does), and the pattern of
// codec/README.md ("Parallel decode"): long-lived workers, each decoding into a container of its
// own that it keeps, warmed once. Prints each way's speed-up and the page faults of a run (the
// cost a fresh container pays on first touch). Usage: parallel_speedup [DOCS] [ROUNDS]
#include <ond/ond.hpp>
#include <sys/resource.h>

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

long page_faults() {  // of the whole process, every thread
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

struct Run {  // the fastest run, and the page faults it took
    double ms = 1e300;
    long faults = 0;
    void keep(double t, long f) {
        if (t < ms) ms = t, faults = f;
    }
};

// Fresh threads, fresh containers: the fastest of `rounds` runs.
Run fresh(const ond::BinIndex& index, std::size_t n, int rounds) {
    Run best;
    for (int r = 0; r < rounds; ++r) {
        const long f0 = page_faults();
        const auto t0 = Clock::now();
        {
            std::vector<std::jthread> threads;
            for (std::size_t t = 0; t < n; ++t)
                threads.emplace_back([&index, t, n] {
                    ond::Container part;
                    index.decode_into(index.size() * t / n, index.size() * (t + 1) / n, part);
                });
        }
        best.keep(ms_since(t0), page_faults() - f0);
    }
    return best;
}

// The pattern: n workers that live across runs, each with its container, warmed by one run.
Run workers(const ond::BinIndex& index, std::size_t n, int rounds) {
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
    Run best;
    for (int r = 0; r <= rounds; ++r) {
        const long f0 = page_faults();
        // The clock starts before the start barrier: taken after it, this thread may be woken
        // only once the workers are done (on 2 cores, 2 workers and this thread are 3).
        const auto t0 = Clock::now();
        sync.arrive_and_wait();
        sync.arrive_and_wait();
        if (r > 0) best.keep(ms_since(t0), page_faults() - f0);  // run 0 warms
    }
    return best;
}

int main(int argc, char** argv) {
    const std::size_t docs = argc > 1 ? std::stoul(argv[1]) : 20000;
    const int rounds = argc > 2 ? std::stoi(argv[2]) : 5;
    const ond::BinIndex index(make_bin(docs));
    const Run f1 = fresh(index, 1, rounds), f2 = fresh(index, 2, rounds);
    const Run w1 = workers(index, 1, rounds), w2 = workers(index, 2, rounds);
    std::printf("%zu documents, %u hardware threads\n", docs, std::thread::hardware_concurrency());
    std::printf("fresh threads and containers: 1 thread %.2f ms, 2 threads %.2f ms, speed-up %.2fx (page faults a run: %ld, %ld)\n",
                f1.ms, f2.ms, f1.ms / f2.ms, f1.faults, f2.faults);
    std::printf("workers with kept containers: 1 thread %.2f ms, 2 threads %.2f ms, speed-up %.2fx (page faults a run: %ld, %ld)\n",
                w1.ms, w2.ms, w1.ms / w2.ms, w1.faults, w2.faults);
}
