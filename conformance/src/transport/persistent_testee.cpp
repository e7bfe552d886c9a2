// One long-lived adapter process per worker, speaking the framed protocol (docs/protocol.md):
// the requests go through PersistentProcess; here the replies become answers, and bytes that
// arrive when no response was due void the answers they concern.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "transport/testee.hpp"
#include "transport/testee_shared.hpp"

namespace ond::conformance {

namespace {

class PersistentTestee final : public Testee {
public:
    PersistentTestee(const std::string& cmd, unsigned workers, std::chrono::milliseconds t, long limit_kb)
        : text_(cmd), timeout_(t), limit_kb_(limit_kb) {
        argv_ = command_argv(cmd);
        if (resolve_executable(argv_[0]).empty())
            throw std::invalid_argument("cannot find the program '" + argv_[0] + "' of '" + cmd + "'");
        for (unsigned i = 0; i < std::max(1u, workers); ++i) {
            procs_.push_back(std::make_unique<PersistentProcess>(argv_, limit_kb));
            lives_.emplace_back();
        }
    }
    bool supports(Op) const override { return true; }
    std::uint64_t largest_input() const override { return 0xFFFFFFFFu; }
    bool measures_memory() const override { return true; }
    std::string describe() const override { return "persistent '" + text_ + "'"; }
    std::string memory_cap() const override { return describe_memory_cap(limit_kb_); }
    std::string memory_accounting() const override {
        AccountingsSeen seen;
        for (const auto& p : procs_)
            if (p->life()) seen.saw(p->accounting());
        return seen.names();
    }
    std::vector<std::string> command(Op) const override { return argv_; }
    void set_baselines(const std::map<Op, std::string>& inputs) override {
        std::map<char, std::string> by_byte;
        for (const auto& [op, input] : inputs) by_byte[static_cast<char>(op)] = input;
        for (auto& p : procs_) p->set_baselines(by_byte);
        // Each worker's process starts now, all at once, so that the baselines are known before
        // the first case (one that fails to start is started again by its first case).
        std::vector<std::thread> starters;
        for (auto& p : procs_) starters.emplace_back([&p, this] { p->prepare(timeout_); });
        for (auto& t : starters) t.join();
    }
    long baseline_kb(Op op) const override {
        long most = 0;
        for (const auto& p : procs_) most = std::max(most, p->largest_baseline_kb(static_cast<char>(op)));
        return most;
    }
    std::vector<long> baselines_kb(Op op) const override {
        std::vector<long> all;
        for (const auto& p : procs_)
            if (p->pid() >= 0) all.push_back(p->baseline_kb(static_cast<char>(op)));
        return all;
    }
    using Testee::run;
    TesteeResult run(Op op, const Input& input, unsigned worker, const RunContext& ctx) override {
        auto& proc = *procs_[worker % procs_.size()];
        auto& life = lives_[worker % procs_.size()];
        auto rep = proc.request(static_cast<char>(op), input, ctx.timeout.count() > 0 ? ctx.timeout : timeout_, ctx.output_limit + 1,
                                ctx.sink ? &ctx.sink : nullptr);
        if (!rep.previous_exit.empty() && !life.cases.empty()) {
            // It left between requests: told on the case it followed, never on the next one.
            TesteeResult gone;
            gone.status = Answer::crash;
            gone.detail = rep.previous_exit;
            std::lock_guard lock(mutex_);
            amendments_.push_back({life.cases.back(), std::move(gone)});
        }
        if (!rep.previous_void.empty()) void_cases(life, rep.previous_void, rep.void_number);
        if (rep.kind == PersistentProcess::Reply::Kind::protocol_error && life.protocol == 1 && life.serial == proc.life())
            void_cases(life, "a later response of this process came with bytes behind it");
        if (proc.life() != life.serial) life = Life{proc.life(), proc.protocol(), {}, {}};
        life.cases.push_back(ctx.case_index);
        if (rep.kind == PersistentProcess::Reply::Kind::answer) life.by_number[rep.number] = ctx.case_index;
        TesteeResult o;
        o.ms = rep.wall_ms;
        using K = PersistentProcess::Reply::Kind;
        if (rep.kind != K::start_error) {
            o.memory_measured = true;
            o.peak_kb = rep.peak_kb;
            // Charged from what the process held at the request, less its baseline request's
            // cost; the part of its baseline above the allowance is charged on top.
            const char c = static_cast<char>(op);
            o.growth_kb = rep.peak_kb - rep.start_kb - proc.baseline_cost_kb(c) + std::max(0L, proc.baseline_kb(c) - baseline_allowance_kb_);
        }
        switch (rep.kind) {
            case K::start_error:
                o.status = Answer::start_error;
                o.detail = rep.detail;
                return o;
            case K::timeout:
                o.status = Answer::timeout;
                o.detail = "no answer within " + std::to_string(timeout_.count()) + " ms; process tree killed and restarted";
                return o;
            case K::output_limit:
                o.status = Answer::output;
                o.detail = rep.detail;
                return o;
            case K::memory_cap:
                o.status = Answer::crash;
                o.detail = rep.detail + " and restarted";
                return o;
            case K::crash:
            case K::gone:
            case K::protocol_error: {
                o.status = rep.kind == K::crash ? Answer::crash : Answer::protocol;
                std::string d = rep.detail;
                if (rep.signal) d += "; killed by signal " + std::to_string(rep.signal) + " (" + strsignal(rep.signal) + ")";
                if (rep.exit_code >= 0) d += "; exit status " + std::to_string(rep.exit_code);
                o.detail = with_stderr(d, rep.err);
                return o;
            }
            case K::answer: break;
        }
        auto status = static_cast<unsigned char>(rep.payload[0]);
        std::string_view rest = std::string_view(rep.payload).substr(1);
        if (status == 0) {
            o.status = Answer::accept;
            o.out = std::string(rest);
        } else if (status == 1) {
            o.status = Answer::reject;
            auto nl = rest.find('\n');
            Rejection why = parse_rejection(rest.substr(0, nl));
            o.code = std::move(why.code);
            o.offset = why.offset;
            if (nl != std::string_view::npos) o.out = std::string(rest.substr(nl + 1));
        } else if (status == 2) {
            o.status = Answer::unsupported;
        } else {
            o.status = Answer::protocol;
            o.detail = "unknown status byte " + std::to_string(status) + " in the response";
        }
        return o;
    }
    std::vector<Amendment> finish() override {
        // Each process gets its end of input and the same grace at once: the end of a run with
        // many jobs takes one grace, not one per process.
        std::vector<std::string> trailing(procs_.size());
        std::vector<std::thread> enders;
        for (std::size_t w = 0; w < procs_.size(); ++w) enders.emplace_back([&, w] { trailing[w] = procs_[w]->finish(); });
        for (auto& t : enders) t.join();
        for (std::size_t w = 0; w < procs_.size(); ++w)
            if (!trailing[w].empty())
                void_cases(lives_[w], std::to_string(trailing[w].size()) + " bytes arrived after the response, before the end of input");
        std::lock_guard lock(mutex_);
        return std::move(amendments_);
    }

private:
    // The cases one process answered. Stray bytes void its last answer under version 2 (every
    // earlier answer carried the right number); under version 1 frames carry no number, so a late
    // frame may have been taken for any answer since the process started: all of them are void.
    struct Life {
        std::uint64_t serial = 0;
        int protocol = 1;
        std::vector<std::size_t> cases;
        std::map<std::uint32_t, std::size_t> by_number;  // version 2: request number -> case
    };
    void void_cases(Life& life, const std::string& why, std::optional<std::uint32_t> number = std::nullopt) {
        if (life.cases.empty()) return;
        if (life.protocol >= 2 && number) {
            // The stray answer names its request: that case, and only that one, is void.
            auto it = life.by_number.find(*number);
            if (it != life.by_number.end()) {
                TesteeResult o;
                o.status = Answer::protocol;
                o.detail = why + "; the answer of request " + std::to_string(*number) + " is void (one response per request)";
                std::lock_guard lock(mutex_);
                amendments_.push_back({it->second, std::move(o)});
                return;
            }
        }
        std::size_t from = life.protocol >= 2 ? life.cases.size() - 1 : 0;
        std::lock_guard lock(mutex_);
        for (std::size_t i = from; i < life.cases.size(); ++i) {
            TesteeResult o;
            o.status = Answer::protocol;
            o.detail = why + "; its answer is void (docs/protocol.md: one response per request" +
                       (life.protocol >= 2 ? ")" : "; a version 1 frame carries no request number, so every answer of this process is void)");
            amendments_.push_back({life.cases[i], std::move(o)});
        }
        life.cases.clear();
    }
    std::string text_;
    std::vector<std::string> argv_;
    std::chrono::milliseconds timeout_;
    long limit_kb_;
    std::vector<std::unique_ptr<PersistentProcess>> procs_;
    std::vector<Life> lives_;
    std::mutex mutex_;
    std::vector<Amendment> amendments_;
};

}  // namespace

std::unique_ptr<Testee> make_persistent_testee(const std::string& command, unsigned workers,
                                               std::chrono::milliseconds timeout, long memory_limit_kb) {
    if (memory_limit_kb == 0) memory_limit_kb = default_memory_cap_kb(workers);
    return std::make_unique<PersistentTestee>(command, workers, timeout, memory_limit_kb);
}

}  // namespace ond::conformance
