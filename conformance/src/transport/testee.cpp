#include "transport/testee.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "transport/containment.hpp"
#include "transport/testee_shared.hpp"

namespace ond::conformance {

std::string with_stderr(std::string detail, const std::string& err) {
    if (!err.empty()) detail += "; stderr: " + err;
    return detail;
}

std::string AccountingsSeen::names() const {
    std::string out;
    for (Accounting a : {Accounting::cgroup_v2, Accounting::cgroup_v1, Accounting::sampling})
        if (seen_ & (1u << static_cast<unsigned>(a))) out += (out.empty() ? "" : " and ") + std::string(accounting_name(a));
    return out.empty() ? accounting_name(available_accounting()) : out;
}

// ---- one process per case --------------------------------------------------------------------

namespace {

class CommandTestee final : public Testee {
public:
    CommandTestee(const std::string& d, const std::string& e, const std::string& s, std::chrono::milliseconds t, long limit_kb)
        : timeout_(t), limit_kb_(limit_kb), text_{d, e, s} {
        for (int i = 0; i < 3; ++i) {
            if (text_[i].empty()) continue;
            argv_[i] = command_argv(text_[i]);
            if (resolve_executable(argv_[i][0]).empty())
                throw std::invalid_argument("cannot find the program '" + argv_[i][0] + "' of '" + text_[i] + "'");
        }
    }
    static int index(Op op) { return op == Op::decode ? 0 : op == Op::encode ? 1 : 2; }
    bool supports(Op op) const override { return !argv_[index(op)].empty(); }
    std::vector<std::string> command(Op op) const override { return argv_[index(op)]; }
    bool measures_memory() const override { return true; }
    std::string memory_cap() const override { return describe_memory_cap(limit_kb_); }
    std::string memory_accounting() const override { return accountings_.names(); }
    std::string describe() const override {
        std::string d;
        const char* names[3] = {"decoder", "encoder", "stream decoder"};
        for (int i = 0; i < 3; ++i)
            if (!text_[i].empty()) d += (d.empty() ? "" : ", ") + std::string(names[i]) + " '" + text_[i] + "'";
        return d.empty() ? "no adapter" : d;
    }
    void set_baselines(const std::map<Op, std::string>& inputs) override {
        for (const auto& [op, input] : inputs) {
            if (!supports(op)) continue;
            long b = -1;  // the least of three fresh runs
            for (int i = 0; i < 3; ++i) {
                ProcessResult r = run_process(argv_[index(op)], input, timeout_, SpawnLimits{(1u << 20) + 64 * input.size(), limit_kb_});
                if (r.started) accountings_.saw(r.accounting);
                if (r.exited) b = b < 0 ? r.peak_kb : std::min(b, r.peak_kb);
            }
            baseline_[index(op)] = std::max(0L, b);
        }
    }
    long baseline_kb(Op op) const override { return baseline_[index(op)]; }
    using Testee::run;
    TesteeResult run(Op op, const Input& input, unsigned, const RunContext& ctx) override {
        TesteeResult o;
        const auto& argv = argv_[index(op)];
        if (argv.empty()) {
            o.status = Answer::unsupported;
            return o;
        }
        const auto timeout = ctx.timeout.count() > 0 ? ctx.timeout : timeout_;
        const SpawnLimits limits{ctx.output_limit, limit_kb_, ctx.sink};
        ProcessResult r = input.next ? run_process(argv, input.next, timeout, limits) : run_process(argv, input.held, timeout, limits);
        o.ms = r.wall_ms;
        if (!r.started) {
            o.status = Answer::start_error;
            o.detail = r.error;
            return o;
        }
        accountings_.saw(r.accounting);
        o.memory_measured = true;
        o.peak_kb = r.peak_kb;
        o.growth_kb = r.peak_kb - std::min(baseline_[index(op)], baseline_allowance_kb_);
        o.out = std::move(r.out);
        if (r.memory_exceeded) {
            o.status = Answer::crash;
            o.detail = memory_cap_exceeded(r.peak_kb, limit_kb_);
        } else if (r.output_exceeded) {
            o.status = Answer::output;
            o.detail = "more than " + std::to_string(ctx.output_limit) + " bytes on stdout; process tree killed";
        } else if (r.timed_out) {
            o.status = Answer::timeout;
            o.detail = "no answer within " + std::to_string(timeout.count()) + " ms; process tree killed";
        } else if (r.signal) {
            o.status = Answer::crash;
            o.detail = with_stderr("killed by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")", r.err);
        } else if (r.exit_code == 0) {
            o.status = Answer::accept;
        } else if (r.exit_code == 1) {
            o.status = Answer::reject;
            Rejection why = parse_error_line(r.err);
            o.code = std::move(why.code);
            o.offset = why.offset;
        } else {
            o.status = Answer::crash;
            o.detail = with_stderr("exit status " + std::to_string(r.exit_code), r.err);
        }
        return o;
    }

private:
    std::chrono::milliseconds timeout_;
    long limit_kb_;
    std::string text_[3];
    std::vector<std::string> argv_[3];
    long baseline_[3] = {0, 0, 0};
    AccountingsSeen accountings_;
};

}  // namespace

std::unique_ptr<Testee> make_command_testee(const std::string& decoder, const std::string& encoder,
                                            const std::string& stream_decoder, std::chrono::milliseconds timeout,
                                            long memory_limit_kb, unsigned jobs) {
    if (memory_limit_kb == 0) memory_limit_kb = default_memory_cap_kb(jobs);
    return std::make_unique<CommandTestee>(decoder, encoder, stream_decoder, timeout, memory_limit_kb);
}

}  // namespace ond::conformance
