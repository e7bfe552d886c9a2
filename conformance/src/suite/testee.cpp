#include "suite/testee.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "ond/content_json.hpp"
#include "ond/ond.hpp"
#include "transport/containment.hpp"

namespace ond::conformance {

const char* answer_name(Answer a) noexcept {
    switch (a) {
        case Answer::accept: return "accept";
        case Answer::reject: return "reject";
        case Answer::crash: return "crash";
        case Answer::timeout: return "timeout";
        case Answer::protocol: return "protocol";
        case Answer::output: return "output";
        case Answer::unsupported: return "unsupported";
        case Answer::start_error: return "start-error";
        case Answer::not_run: return "not-run";
    }
    return "?";
}

std::string rejection_report(std::string_view code, std::uint64_t offset) {
    std::string r(code);
    if (offset != ~std::uint64_t{0}) r += " at byte " + std::to_string(offset);
    return r;
}

Rejection parse_rejection(std::string_view report) {
    Rejection r;
    const std::size_t end = std::min(report.find_first_of(" \t"), report.size());
    r.code = std::string(report.substr(0, end));
    std::string_view rest = report.substr(end);
    constexpr std::string_view at = " at byte ";
    if (r.code.empty() || rest.substr(0, at.size()) != at) return r;
    rest.remove_prefix(at.size());
    if (rest.empty() || rest.size() > 19 || rest.find_first_not_of("0123456789") != std::string_view::npos) return r;
    r.offset = std::stoull(std::string(rest));
    return r;
}

Rejection parse_error_line(std::string_view err) {
    std::string_view line = err.substr(0, err.find('\n'));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    constexpr std::string_view prefix = "error: ";
    if (line.substr(0, prefix.size()) != prefix) return {};
    line.remove_prefix(prefix.size());
    return parse_rejection(line);
}

// ---- reference answers ----------------------------------------------------------------------

namespace {

RefAnswer from_error(const ond::Error& e) {
    RefAnswer a;
    a.accept = false;
    a.code = std::string(e.code());
    a.message = e.what();
    a.impl_defined = e.verdict() == ErrorVerdict::implementation_defined;
    a.offset = e.offset();
    a.path = e.path();
    return a;
}

// Thrown by the capped sink: the JSON would pass the cap.
struct JsonCapReached {};

// Appends content JSON to `out` and stops (JsonCapReached) before it passes `cap` bytes.
void append_capped(const Container& c, std::string& out, std::size_t cap) {
    json::write_json(c, [&](std::string_view piece) {
        if (piece.size() > cap - std::min(cap, out.size())) throw JsonCapReached{};
        out.append(piece);
    });
}

RefAnswer too_large(std::size_t cap) {
    RefAnswer a;
    a.too_large = true;
    a.message = "the reference's content JSON for this input exceeds " + std::to_string(cap) + " bytes";
    return a;
}

}  // namespace

std::size_t reference_json_cap(std::size_t input_size) { return (std::size_t{1} << 20) + 64 * input_size; }

RefAnswer reference_decode(std::string_view bytes) { return reference_decode(bytes, reference_json_cap(bytes.size())); }

RefAnswer reference_decode(std::string_view bytes, std::size_t json_cap) {
    try {
        Container c = ond::decode(as_bytes(bytes.data(), bytes.size()));
        RefAnswer a;
        a.accept = true;
        append_capped(c, a.out, json_cap);
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
    } catch (const JsonCapReached&) {
        return too_large(json_cap);
    }
}

RefAnswer reference_encode(std::string_view content_json) {
    Container c;
    try {
        c = json::from_json(content_json);
    } catch (const json::JsonError& e) {
        RefAnswer a;
        a.code = "";
        a.message = std::string("not content JSON: ") + e.what();
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
    }
    try {
        auto bytes = ond::encode(c);
        RefAnswer a;
        a.accept = true;
        a.out.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
    }
}

RefAnswer reference_stream(std::string_view bytes) {
    RefAnswer a;
    StreamReader reader(as_bytes(bytes.data(), bytes.size()));
    const std::size_t cap = reference_json_cap(bytes.size());
    try {
        while (auto c = reader.next()) {
            append_capped(*c, a.out, cap);
            if (a.out.size() == cap) throw JsonCapReached{};
            a.out += '\n';
        }
        a.accept = true;
    } catch (const ond::Error& e) {
        RefAnswer r = from_error(e);
        r.out = std::move(a.out);
        return r;
    } catch (const JsonCapReached&) {
        return too_large(cap);
    }
    return a;
}

RefAnswer reference_answer(Op op, std::string_view input) {
    switch (op) {
        case Op::decode: return reference_decode(input);
        case Op::encode: return reference_encode(input);
        case Op::stream: return reference_stream(input);
    }
    return {};
}

// ---- testees ---------------------------------------------------------------------------------

namespace {


class ReferenceTestee final : public Testee {
public:
    bool supports(Op) const override { return true; }
    using Testee::run;
    TesteeResult run(Op op, const Input& input, unsigned, const RunContext&) override {
        TesteeResult o;
        if (input.next) {
            o.status = Answer::not_run;
            o.detail = "an input of " + std::to_string(input.size) + " bytes given piece by piece is too large to run in-process";
            return o;
        }
        auto t0 = std::chrono::steady_clock::now();
        RefAnswer a = reference_answer(op, input.held);
        o.status = a.accept ? Answer::accept : a.too_large ? Answer::output : Answer::reject;
        if (a.too_large) o.detail = a.message;
        o.out = std::move(a.out);
        o.code = std::move(a.code);
        if (!a.accept && a.offset != no_offset) o.offset = a.offset;
        o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return o;
    }
    std::string describe() const override { return "reference codec (in-process)"; }
};

std::string with_stderr(std::string detail, const std::string& err) {
    if (!err.empty()) detail += "; stderr: " + err;
    return detail;
}

// The accountings the processes of a testee had (containment.hpp), for the report.
class AccountingsSeen {
public:
    void saw(Accounting a) { seen_ |= 1u << static_cast<unsigned>(a); }
    std::string names() const {
        std::string out;
        for (Accounting a : {Accounting::cgroup_v2, Accounting::cgroup_v1, Accounting::sampling})
            if (seen_ & (1u << static_cast<unsigned>(a))) out += (out.empty() ? "" : " and ") + std::string(accounting_name(a));
        return out.empty() ? accounting_name(available_accounting()) : out;
    }

private:
    std::atomic<unsigned> seen_{0};
};

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

std::unique_ptr<Testee> make_reference_testee() { return std::make_unique<ReferenceTestee>(); }

std::unique_ptr<Testee> make_command_testee(const std::string& decoder, const std::string& encoder,
                                            const std::string& stream_decoder, std::chrono::milliseconds timeout,
                                            long memory_limit_kb, unsigned jobs) {
    if (memory_limit_kb == 0) memory_limit_kb = default_memory_cap_kb(jobs);
    return std::make_unique<CommandTestee>(decoder, encoder, stream_decoder, timeout, memory_limit_kb);
}

std::unique_ptr<Testee> make_persistent_testee(const std::string& command, unsigned workers,
                                               std::chrono::milliseconds timeout, long memory_limit_kb) {
    if (memory_limit_kb == 0) memory_limit_kb = default_memory_cap_kb(workers);
    return std::make_unique<PersistentTestee>(command, workers, timeout, memory_limit_kb);
}

}  // namespace ond::conformance
