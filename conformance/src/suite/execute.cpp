#include "suite/execute.hpp"

#include <algorithm>
#include <atomic>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "suite/large.hpp"
#include "suite/large_answer.hpp"
#include "suite/writer_check.hpp"

namespace ond::conformance {

namespace {

bool is_failure_answer(Answer a) {
    return a == Answer::crash || a == Answer::timeout || a == Answer::protocol || a == Answer::start_error;
}

// What the workers share.
struct Run {
    Run(const Plan& p, Testee& t, const std::map<std::string, std::string>& x, const ExecuteInput& i, Executed& e)
        : plan(p), testee(t), expected(x), in(i), ex(e) {}
    const Plan& plan;
    Testee& testee;
    const std::map<std::string, std::string>& expected;
    const ExecuteInput& in;
    Executed& ex;
    std::mutex written_mutex;
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<unsigned> active{0};
    std::atomic<int> failing{0}, consecutive{0};
    std::atomic<bool> stop{false};
};

// One case: put to the testee (unless skipped or not for this testee), classified, round-tripped.
void run_case(Run& run, std::size_t i, unsigned w) {
    const Case& c = *run.plan.selected[i];
    Testee& testee = run.testee;
    const auto& skips = run.in.skips;
    bool skipped = std::any_of(skips.begin(), skips.end(), [&](const std::string& g) { return glob_match(g, c.id); });
    TesteeResult o;
    // A large case to be accepted: its answer is judged as it arrives (large_answer.hpp).
    std::shared_ptr<StreamedAnswer> streamed = c.generated && c.generated->answer ? c.generated->answer() : nullptr;
    // The reference in-process holds its input whole: the large cases go to adapters only.
    const bool in_process_large = c.generated && testee.command(op_of(c.kind)).empty();
    // More than one persistent frame holds (large/encode-body-*, 4.3 GB): per case only.
    const bool beyond_testee = c.generated && !in_process_large && c.generated->size > testee.largest_input();
    if (skipped || in_process_large || beyond_testee || !testee.supports(op_of(c.kind))) {
        o.status = Answer::unsupported;
    } else if (c.generated) {
        const Input in{{}, c.generated->size, c.generated->open()};
        RunContext ctx{i, streamed ? c.generated->answer_limit : output_limit(c), large_timeout(run.in.timeout)};
        if (streamed) ctx.sink = [streamed](std::string_view b) { return streamed->feed(b); };
        o = testee.run(op_of(c.kind), in, w, ctx);
        run.ex.asked[i] = 1;
    } else {
        o = testee.run(op_of(c.kind), c.input, w, RunContext{i, output_limit(c)});
        run.ex.asked[i] = 1;
    }
    if (is_failure_answer(o.status)) {
        if (run.in.max_consecutive_failures > 0 && ++run.consecutive >= run.in.max_consecutive_failures) run.stop = true;
    } else if (o.status != Answer::unsupported) {
        run.consecutive = 0;
    }
    CaseResult r = streamed && o.status != Answer::unsupported ? judge_streamed(c, o, *streamed, c.generated->answer_limit, run.in.classify)
                                                               : classify(c, o, run.in.classify);
    if (in_process_large && !skipped)
        r.findings.push_back({Level::info, Check::verdict,
                              "not run: the reference codec in-process would hold the whole input; --large runs through an adapter",
                              c.rules.empty() ? std::string() : c.rules.front(), "(top level)"});
    if (beyond_testee && !skipped)
        r.findings.push_back({Level::info, Check::verdict,
                              "not run: its input (" + std::to_string(c.generated->size) + " bytes) is more than this testee takes (" +
                                  std::to_string(testee.largest_input()) +
                                  " bytes, one frame's 4-byte length); run it per case (--encoder, --decoder)",
                              c.rules.empty() ? std::string() : c.rules.front(), "(top level)"});
    // The decode -> encode round trip is one more request in every mode (a persistent testee
    // numbers its answers, or, under protocol 1, gets one request at a time).
    std::string round_trip_written;
    if (!skipped) check_round_trip(c, o, testee, w, i, r, round_trip_written);  // writer_check.cpp
    if (r.status == Status::fail && !run.expected.count(r.id)) run.failing++;
    if (r.status == Status::fail && c.kind == CaseKind::encode && o.status == Answer::accept && !streamed) {
        std::lock_guard<std::mutex> lock(run.written_mutex);
        run.ex.written[i] = std::move(o.out);
    } else if (r.status == Status::fail && !round_trip_written.empty()) {
        std::lock_guard<std::mutex> lock(run.written_mutex);
        run.ex.written[i] = std::move(round_trip_written);
    }
    run.ex.results[i] = std::move(r);
    run.done++;
}

void worker(Run& run, unsigned w) {
    struct Leave {
        std::atomic<unsigned>& n;
        ~Leave() { --n; }
    } leave{run.active};
    for (;;) {
        if (run.stop.load()) return;
        std::size_t i = run.next.fetch_add(1);
        if (i >= run.plan.selected.size()) return;
        run_case(run, i, w);
    }
}

// Until the last worker leaves: a progress line on `err` (redrawn on a terminal, every 5 s else).
void show_progress(Run& run, std::ostream& err) {
    const std::size_t total = run.plan.selected.size();
    auto last_plain = std::chrono::steady_clock::now();
    bool printed_tty = false;
    while (run.active.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!run.in.progress) continue;
        auto now = std::chrono::steady_clock::now();
        std::size_t d = run.done.load();
        if (run.in.progress_tty) {
            int pct = total == 0 ? 100 : static_cast<int>(d * 100 / total);
            err << "\r\033[K[" << std::setw(3) << pct << "%] " << d << "/" << total << " cases, " << run.failing.load()
                << " failing" << std::flush;
            printed_tty = true;
        } else if (now - last_plain >= std::chrono::seconds(5)) {
            err << "progress: " << d << "/" << total << " cases, " << run.failing.load() << " failing\n" << std::flush;
            last_plain = now;
        }
    }
    if (printed_tty) err << "\r\033[K" << std::flush;
}

}  // namespace

Executed execute(const Plan& p, Testee& testee, const std::map<std::string, std::string>& expected, const ExecuteInput& in,
                 std::ostream& err) {
    Executed ex;
    ex.results.resize(p.selected.size());
    ex.asked.assign(p.selected.size(), 0);
    Run run(p, testee, expected, in, ex);
    std::vector<std::thread> threads;
    unsigned jobs = std::max(1u, in.jobs);
    try {
        for (unsigned w = 0; w < jobs; ++w) {
            ++run.active;
            try {
                threads.emplace_back(worker, std::ref(run), w);
            } catch (...) {
                --run.active;
                throw;
            }
        }
    } catch (const std::system_error& e) {
        run.stop = true;
        for (auto& t : threads) t.join();
        testee.finish();
        throw std::runtime_error("cannot start " + std::to_string(jobs) + " threads (-j " + std::to_string(jobs) + "): " + e.what());
    }
    show_progress(run, err);
    for (auto& t : threads) t.join();
    return ex;
}

std::map<Op, std::string> set_memory_baselines(Testee& testee, const Corpus& corpus, long allowance_kb) {
    std::map<Op, const Case*> smallest;
    for (const auto& c : corpus.cases) {
        if (!c.expect_accept) continue;
        auto& s = smallest[op_of(c.kind)];
        if (!s || c.input.size() < s->input.size()) s = &c;
    }
    std::map<Op, std::string> inputs;
    for (const auto& [op, c] : smallest) inputs[op] = c->input;
    testee.set_baseline_allowance(allowance_kb);
    testee.set_baselines(inputs);
    return inputs;
}

}  // namespace ond::conformance
