// PersistentProcess: one long-lived adapter answering framed requests (docs/protocol.md).
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "transport/frame.hpp"
#include "transport/process.hpp"
#include "transport/proctree.hpp"
#include "transport/spawn.hpp"

namespace ond::conformance {

using namespace spawning;
using frame::get_le32;

namespace persistent_detail {

// The bytes of one request frame as they go out: its header, then the input, held or piece by
// piece. A streamed input must come to the size its header declared.
class FrameWriter {
public:
    FrameWriter(const std::string& header, const Input& input) : input_(input), cur_(header) {}
    bool done() const noexcept { return done_; }
    std::string_view current() const noexcept { return cur_; }
    void wrote(std::size_t n) {
        cur_.remove_prefix(n);
        while (cur_.empty() && !done_) advance();
    }

private:
    void advance() {
        if (stage_ == 0) {
            stage_ = input_.next ? 1 : 2;
            if (!input_.next) {
                cur_ = input_.held;
                return;
            }
        }
        if (stage_ == 1) {
            cur_ = input_.next();
            streamed_ += cur_.size();
            if (streamed_ > input_.size || (cur_.empty() && streamed_ != input_.size))
                throw std::logic_error("a streamed input of " + std::to_string(streamed_) + " bytes where " +
                                       std::to_string(input_.size) + " were declared");
            if (!cur_.empty()) return;
        }
        done_ = true;
    }
    const Input& input_;
    std::string_view cur_;
    int stage_ = 0;  // 0 header, 1 streamed pieces, 2 the held input
    std::uint64_t streamed_ = 0;
    bool done_ = false;
};

}  // namespace persistent_detail

struct PersistentProcess::Exchange {
    Exchange(const std::string& header, const Input& input) : writer(header, input) {}
    Reply rep;
    persistent_detail::FrameWriter writer;
    std::string in;          // the response's bytes so far
    std::uint64_t need = 0;  // the whole response frame's size, once its length is in
    bool answered = false;   // the response is complete (the request may still be going out)
    std::size_t prefix = 4;  // the length, and the number in version 2
    std::uint32_t number = 0;
    std::size_t max_response = 0;
    pid_t root = -1;
    Clock::time_point t0, deadline, last_sample{};
    bool* stale = nullptr;
    // request()'s sink: the answer's bytes after the status byte go there as they arrive.
    const std::function<bool(std::string_view)>* sink = nullptr;
    std::uint64_t sunk = 0;  // payload bytes given to the sink (or dropped: a rejection's past 64 KiB)
};

PersistentProcess::PersistentProcess(std::vector<std::string> argv, long memory_limit_kb)
    : argv_(std::move(argv)), memory_limit_kb_(memory_limit_kb) {}

PersistentProcess::~PersistentProcess() { stop(true); }

long PersistentProcess::baseline_kb(char op) const {
    auto it = baseline_cost_kb_.find(op);
    return it == baseline_cost_kb_.end() ? 0 : std::max(it->second, baseline_kept_kb_);
}

long PersistentProcess::baseline_cost_kb(char op) const {
    auto it = baseline_cost_kb_.find(op);
    return it == baseline_cost_kb_.end() ? 0 : it->second;
}

long PersistentProcess::largest_baseline_kb(char op) const {
    auto it = largest_baseline_kb_.find(op);
    return it == largest_baseline_kb_.end() ? 0 : it->second;
}

Accounting PersistentProcess::accounting() const noexcept { return group_ ? group_->accounting() : last_accounting_; }

void PersistentProcess::prepare(std::chrono::milliseconds timeout) {
    if (pid_ >= 0) return;
    hello_timeout_ = timeout;
    std::string error;
    start(error);
}

// Starts a process and greets it: the hello (a version-1 request with op 'V' asking for version
// 2; a version-2 process answers status 0 and "2", a version-1 process status 2), then a look
// for bytes that came before any request was due.
bool PersistentProcess::spawn_and_greet(std::string& error) {
    start_broke_protocol_ = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
        Child ch = spawn(argv_, memory_limit_kb_, error);
        if (ch.pid < 0) return false;
        pid_ = ch.pid, serial_ = ch.serial;
        group_ = std::move(ch.group);
        last_accounting_ = group_->accounting();
        in_fd_ = ch.in_w, out_fd_ = ch.out_r, err_fd_ = ch.err_r;
        err_.clear();
        wrote_anything_ = false;
        cases_answered_ = 0;
        first_number_ = next_number_;
        protocol_ = 1;
        if (attempt == 0) {
            bool stale = false;
            // The hello gets the case time-out: a slow start (a JVM) is no reason to drop to version 1.
            Reply h = exchange(frame::hello_frame(), Input{}, 0, hello_timeout_, 64, stale);
            if (h.kind == Reply::Kind::protocol_error || h.kind == Reply::Kind::output_limit) {
                error = "the testee broke the protocol on the hello request: " + h.detail;
                start_broke_protocol_ = true;
                return false;
            }
            if (h.kind != Reply::Kind::answer) continue;  // an old process that dies on it: start another, no hello
            const auto hello = frame::classify_hello(h.payload);
            if (hello == frame::HelloAnswer::version2) {
                protocol_ = 2;
            } else if (hello == frame::HelloAnswer::invalid) {
                stop(true);
                error = "the testee answered the hello with " + describe_bytes(h.payload) + ", neither version 2 nor a refusal";
                start_broke_protocol_ = true;
                return false;
            }
        }
        // Bytes before any request was due: that process's answers could all be shifted by one.
        pollfd pf{out_fd_, POLLIN, 0};
        std::string stray;
        if (::poll(&pf, 1, 20) > 0) read_upto(out_fd_, stray, 4096);
        if (!stray.empty()) {
            stop(true);
            error = "the testee wrote " + describe_bytes(stray) + " when no response was due (at its start)";
            start_broke_protocol_ = true;
            return false;
        }
        break;
    }
    if (pid_ < 0) {
        error = "the testee exited at start";
        return false;
    }
    return true;
}

// The baseline: what a small valid input costs this process, per operation. Each request is
// charged from what the process holds when it is sent (its caches are its own), so a process
// could buy headroom on its first request and spend it on later ones unseen: what it keeps from
// its baseline requests is part of its baseline too (testee.cpp charges a baseline past the
// allowance to every case).
void PersistentProcess::measure_baselines() {
    baseline_cost_kb_.clear();
    baseline_kept_kb_ = 0;
    const long held_before = group_->held_kb(static_cast<pid_t>(pid_));
    for (const auto& [op, input] : baseline_inputs_) {
        long least = -1;  // the least of three: the first request's one-off costs are not the baseline
        for (int i = 0; i < 3 && pid_ >= 0; ++i) {
            bool stale = false;
            std::uint32_t number = next_number_++;
            Reply b = exchange(frame::request_header(op, protocol_, number, input.size()), Input::of(input), number, hello_timeout_,
                               (1u << 20) + 64 * input.size(), stale);
            if (b.kind != Reply::Kind::answer) break;  // judged when a case meets it
            const long cost = std::max(0L, b.peak_kb - b.start_kb);
            least = least < 0 ? cost : std::min(least, cost);
        }
        if (pid_ < 0) return;
        baseline_cost_kb_[op] = std::max(0L, least);
    }
    // Kept from the baseline requests of every operation: one operation's bought memory is
    // another's headroom.
    baseline_kept_kb_ = std::max(0L, group_->held_kb(static_cast<pid_t>(pid_)) - held_before);
    for (const auto& [op, cost] : baseline_cost_kb_) {
        long& largest = largest_baseline_kb_[op];
        largest = std::max(largest, baseline_kb(op));
    }
}

bool PersistentProcess::start(std::string& error) {
    if (!spawn_and_greet(error)) return false;
    measure_baselines();
    if (pid_ >= 0) return true;
    // It fails on its baseline input: no baseline, no retry loop; one that cannot start at all
    // is told so.
    baseline_inputs_.clear();
    return spawn_and_greet(error);
}

void PersistentProcess::end_group() {
    // Everything the adapter started goes with it, and so does its memory group.
    group_.reset();
}

void PersistentProcess::stop(bool kill_now, std::string* trailing) {
    if (pid_ < 0) return;
    close_fd(in_fd_);  // end of input asks the child to finish
    auto t0 = Clock::now();
    int status = 0;
    bool reaped = false;
    while (!kill_now && ms_since(t0) < 2000) {
        if (out_fd_ >= 0) {
            pollfd pf{out_fd_, POLLIN, 0};
            if (::poll(&pf, 1, 5) > 0) {
                std::string got;
                bool open = read_upto(out_fd_, got, 4096);
                if (trailing && trailing->size() < 4096) *trailing += got;
                if (!open) close_fd(out_fd_);
            }
        } else {
            ::usleep(2000);
        }
        if (::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG) == pid_) {
            reaped = true;
            break;
        }
    }
    if (!reaped) {
        if (group_) group_->kill_all(static_cast<pid_t>(pid_));
        kill_descendants(static_cast<pid_t>(pid_));
        ::kill(static_cast<pid_t>(pid_), SIGKILL);
        reap(static_cast<pid_t>(pid_), status);
    }
    unregister_root(static_cast<pid_t>(pid_));
    sweep_orphans(serial_);
    end_group();
    close_fd(out_fd_);
    close_fd(err_fd_);
    pid_ = -1;
}

std::string PersistentProcess::finish() {
    std::string trailing;
    stop(false, &trailing);
    return trailing;
}

void PersistentProcess::drain_stderr() {
    if (err_fd_ >= 0 && !read_excerpt(err_fd_, err_)) close_fd(err_fd_);
}

void PersistentProcess::reap_after_failure(Reply& rep, bool crashed) {
    drain_stderr();
    rep.err = err_.text();
    int status = 0;
    pid_t w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
    // A child that closed its output is normally exiting: give it a moment to say how.
    for (int i = 0; w == 0 && crashed && i < 200; ++i) {
        ::usleep(2500);
        w = ::waitpid(static_cast<pid_t>(pid_), &status, WNOHANG);
    }
    if (w == pid_) {
        if (WIFSIGNALED(status)) rep.signal = WTERMSIG(status);
        if (WIFEXITED(status)) rep.exit_code = WEXITSTATUS(status);
        unregister_root(static_cast<pid_t>(pid_));
        sweep_orphans(serial_);
        end_group();
        close_fd(in_fd_), close_fd(out_fd_), close_fd(err_fd_);
        pid_ = -1;
    } else {
        stop(true);
    }
}

PersistentProcess::Reply PersistentProcess::fail(Exchange& x, Reply::Kind k, std::string why) {
    // A process the kernel's limit on its group killed went past the cap.
    if (k == Reply::Kind::crash && memory_limit_kb_ > 0 && group_ && group_->kernel_killed()) {
        x.rep.peak_kb = std::max(x.rep.peak_kb, group_->peak_kb(x.root));
        k = Reply::Kind::memory_cap;
        why = memory_cap_exceeded(x.rep.peak_kb, memory_limit_kb_);
    }
    x.rep.kind = k;
    x.rep.detail = std::move(why);
    reap_after_failure(x.rep, k == Reply::Kind::crash);
    x.rep.wall_ms = ms_since(x.t0);
    return x.rep;
}

// No byte of an answer, and then a clean exit: it left after its previous answer, and this
// request found it leaving (its input closed or its output ended first). An exit with another
// status before the process wrote anything at all: it could not start. Else a crash.
PersistentProcess::Reply PersistentProcess::gone_or_crash(Exchange& x, std::string why) {
    Reply r = fail(x, Reply::Kind::crash, std::move(why));
    if (r.kind != Reply::Kind::crash || !x.in.empty() || r.signal != 0) return r;
    if (x.number && r.exit_code == 0) {
        r.kind = Reply::Kind::gone;
    } else if (!wrote_anything_ && r.exit_code > 0) {
        r.kind = Reply::Kind::start_error;
        r.detail = "the adapter exited with status " + std::to_string(r.exit_code) +
                   " before it wrote anything on its output: it could not start";
        if (!r.err.empty()) r.detail += "; stderr: " + r.err;
    }
    return r;
}

// Version 2: bytes in the place of this request's response that are no response to it. They
// followed the previous answer, whose case they void (request() decides, after a second try on a
// fresh process); a number of an earlier request of this process names that request instead.
PersistentProcess::Reply PersistentProcess::not_an_answer(Exchange& x, std::uint32_t got, bool& stale) {
    const std::uint32_t l = get_le32(x.in, 0);
    std::string what;
    if (l < frame::number_size + 1) {
        what = "a frame of " + std::to_string(l) + " bytes, too short for a number and a status byte";
    } else if (got >= first_number_ && got < x.number) {
        what = "a response numbered " + std::to_string(got) + ": request " + std::to_string(got) + " was answered twice";
        x.rep.void_number = got;
    } else {
        what = "numbered " + std::to_string(got) + ", a number no request to this process had";
    }
    stale = true;
    x.rep.kind = Reply::Kind::protocol_error;
    x.rep.detail = describe_bytes(x.in) + " came while request " + std::to_string(x.number) + " was due: " + what;
    stop(true);
    x.rep.wall_ms = ms_since(x.t0);
    return x.rep;
}

// The response's first bytes: in version 2 the number first (bytes that are no answer to this
// request are never judged as one), then the length against the limit.
std::optional<PersistentProcess::Reply> PersistentProcess::judge_header(Exchange& x, bool& open) {
    const std::uint32_t l = get_le32(x.in, 0);
    if (x.prefix == 8) {
        if (l < frame::number_size + 1) return not_an_answer(x, 0, *x.stale);
        if (x.in.size() < 8) return std::nullopt;  // the number is still to come
        if (const std::uint32_t got = get_le32(x.in, 4); got != x.number) return not_an_answer(x, got, *x.stale);
    }
    if (l > x.max_response)
        return fail(x, Reply::Kind::output_limit, "the response frame declares " + std::to_string(l) +
                                                      " bytes, more than the case's output limit of " + std::to_string(x.max_response));
    if (l < 1) return fail(x, Reply::Kind::protocol_error, "a response frame of 0 bytes (no status byte)");
    x.need = 4 + static_cast<std::uint64_t>(l);
    if (open) open = read_upto(out_fd_, x.in, x.sink ? x.prefix + 1 : static_cast<std::size_t>(x.need) + 1);
    return std::nullopt;
}

std::optional<PersistentProcess::Reply> PersistentProcess::read_response(Exchange& x) {
    // Never more than the frame can hold: a declared length past the limit is refused from the
    // length field alone.
    const std::size_t cap = x.need ? static_cast<std::size_t>(x.need + 1 - x.sunk) : x.prefix;
    bool open = read_upto(out_fd_, x.in, std::min<std::size_t>(cap, x.sink ? x.prefix + 1 + (1u << 20) : cap));
    if (!x.in.empty()) wrote_anything_ = true;
    if (!x.need && x.in.size() >= 4) {
        if (auto r = judge_header(x, open)) return r;
    }
    if (x.need && x.sunk + x.in.size() > x.need)
        return fail(x, Reply::Kind::protocol_error,
                    describe_bytes(std::string_view(x.in).substr(static_cast<std::size_t>(x.need - x.sunk))) + " after the response frame");
    if (x.sink && x.need && x.in.size() > x.prefix + 1 && !sink_payload(x))
        return fail(x, Reply::Kind::output_limit, "the answer was judged wrong as it arrived; the rest was not read");
    if (x.need && x.sunk + x.in.size() == x.need) x.answered = true;
    if (!open) {
        if (x.answered) {
            close_fd(out_fd_);
            return std::nullopt;
        }
        return gone_or_crash(x, x.in.empty() ? "the testee closed its output without answering" : "the testee closed its output mid-response");
    }
    return std::nullopt;
}

std::optional<PersistentProcess::Reply> PersistentProcess::write_request(Exchange& x, short revents) {
    bool closed = revents & (POLLERR | POLLHUP);
    if (!closed) {
        const std::string_view cur = x.writer.current();
        ssize_t w = ::write(in_fd_, cur.data(), std::min<std::size_t>(cur.size(), 65536));
        if (w > 0) x.writer.wrote(static_cast<std::size_t>(w));
        else if (w < 0 && errno != EAGAIN && errno != EINTR) closed = true;
    }
    if (!closed) return std::nullopt;
    if (x.answered) return complete_answer(x);  // gone after its answer: the next request finds it gone
    return gone_or_crash(x, "the testee closed its input");
}

PersistentProcess::Reply PersistentProcess::complete_answer(Exchange& x) {
    // Bytes that are already there behind the frame belong to no request. Version 1 frames carry
    // no number, so a late answer to an earlier request looks like this one's: wait a moment for
    // the real one to show (version 2 needs no wait).
    if (out_fd_ >= 0) {
        std::string extra;
        if (x.prefix == 4 && x.number) {
            pollfd pf{out_fd_, POLLIN, 0};
            ::poll(&pf, 1, 2);
        }
        bool open = read_upto(out_fd_, extra, 4096);
        if (!extra.empty()) return fail(x, Reply::Kind::protocol_error, describe_bytes(extra) + " after the response frame");
        if (!open) close_fd(out_fd_);
    }
    x.rep.peak_kb = std::max(x.rep.peak_kb, group_->peak_kb(x.root));
    if (memory_limit_kb_ > 0 && (x.rep.peak_kb > memory_limit_kb_ || group_->kernel_killed()))
        return fail(x, Reply::Kind::memory_cap, memory_cap_exceeded(x.rep.peak_kb, memory_limit_kb_));
    drain_stderr();
    x.rep.kind = Reply::Kind::answer;
    x.rep.payload = x.in.substr(x.prefix);
    x.rep.err = err_.text();
    x.rep.wall_ms = ms_since(x.t0);
    return x.rep;
}

// One turn of the exchange: the time-out, a memory sample, then whatever the pipes allow.
std::optional<PersistentProcess::Reply> PersistentProcess::step(Exchange& x) {
    const auto now = Clock::now();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(x.deadline - now).count();
    if (left <= 0)
        return fail(x, Reply::Kind::timeout, x.answered ? "the rest of the request not read within the time-out (it answered early)"
                                                        : "no response within the time-out");
    if (now - x.last_sample >= std::chrono::milliseconds(1)) {
        x.rep.peak_kb = std::max(x.rep.peak_kb, group_->peak_kb(x.root));
        x.last_sample = now;
        if (memory_limit_kb_ > 0 && (x.rep.peak_kb > memory_limit_kb_ || group_->kernel_killed()))
            return fail(x, Reply::Kind::memory_cap, memory_cap_exceeded(x.rep.peak_kb, memory_limit_kb_));
    }
    if (x.answered && x.writer.done()) return complete_answer(x);
    if (out_fd_ < 0) {
        if (x.answered) return complete_answer(x);  // it left after a complete answer: the next request finds it gone
        return fail(x, Reply::Kind::crash, "the testee closed its output");
    }
    pollfd fds[3];
    nfds_t n = 0;
    int idx_in = -1, idx_err = -1;
    if (!x.writer.done() && in_fd_ >= 0) idx_in = static_cast<int>(n), fds[n++] = {in_fd_, POLLOUT, 0};
    const int idx_out = static_cast<int>(n);
    fds[n++] = {out_fd_, POLLIN, 0};
    if (err_fd_ >= 0) idx_err = static_cast<int>(n), fds[n++] = {err_fd_, POLLIN, 0};
    int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left, sample_interval_ms(x.t0))));
    if (pr < 0) {
        if (errno == EINTR) return std::nullopt;
        return fail(x, Reply::Kind::crash, std::string("poll: ") + std::strerror(errno));
    }
    if (pr == 0) return std::nullopt;
    if (idx_in >= 0 && fds[idx_in].revents)
        if (auto r = write_request(x, fds[idx_in].revents)) return r;
    if (idx_err >= 0 && fds[idx_err].revents) drain_stderr();
    if (fds[idx_out].revents) return read_response(x);
    return std::nullopt;
}

// The payload past the status byte leaves x.in: an answer (status 0) through the sink, a
// rejection's text kept to its first 64 KiB. False when the sink refuses it.
bool PersistentProcess::sink_payload(Exchange& x) {
    const std::size_t body = x.prefix + 1;
    const std::string_view rest = std::string_view(x.in).substr(body);
    if (x.in[x.prefix] == 0) {
        x.sunk += rest.size();
        const bool go_on = (*x.sink)(rest);
        x.in.resize(body);
        return go_on;
    }
    const std::size_t keep = std::size_t{1} << 16;
    if (rest.size() > keep) x.sunk += rest.size() - keep, x.in.resize(body + keep);
    return true;
}

PersistentProcess::Reply PersistentProcess::exchange(const std::string& header, const Input& input, std::uint32_t number,
                                                     std::chrono::milliseconds timeout, std::size_t max_response, bool& stale,
                                                     const std::function<bool(std::string_view)>* sink) {
    Exchange x(header, input);
    x.sink = sink;
    x.rep.number = number;
    x.number = number;
    x.prefix = protocol_ >= 2 && number ? 8 : 4;
    x.max_response = max_response;
    x.root = static_cast<pid_t>(pid_);
    x.stale = &stale;
    x.t0 = Clock::now();
    x.deadline = x.t0 + timeout;
    // The adapter's processes live as long as it does (a wrapper's child, a helper server): the
    // request is charged what the whole group grows by, from what it holds now.
    x.rep.start_kb = group_->start_window(x.root);
    err_.clear();
    for (;;)
        if (auto r = step(x)) return *r;
}

std::string PersistentProcess::gone_between_requests() {
    if (pid_ < 0) return {};
    siginfo_t info{};
    bool exited = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
    // Its output already ended after the last answer (the reader closed it on seeing the end):
    // it is leaving, though it may not be waitable yet, since a process closes its files a
    // moment before it exits.
    bool eof = out_fd_ < 0;
    if (!exited && out_fd_ >= 0) {
        pollfd pf{out_fd_, POLLIN, 0};
        if (::poll(&pf, 1, 0) > 0 && (pf.revents & POLLHUP) && !(pf.revents & POLLIN)) eof = true;
    }
    if (!exited && !eof) return {};
    Reply r;
    reap_after_failure(r, true);
    std::string why = "the adapter exited after this answer, before its end of input";
    if (r.signal) why += " (killed by signal " + std::to_string(r.signal) + ")";
    else if (r.exit_code >= 0) why += " (exit status " + std::to_string(r.exit_code) + ")";
    return why + "; it was replaced for the next case";
}

// Bytes that came since the last response belong to no request: that response is void and the
// process is replaced before this request. In version 2 their number says which.
std::string PersistentProcess::stray_before_request(std::optional<std::uint32_t>& void_number) {
    if (pid_ < 0 || out_fd_ < 0) return {};
    std::string stray;
    bool open = read_upto(out_fd_, stray, 4096);
    if (stray.empty()) {
        if (!open) close_fd(out_fd_);
        return {};
    }
    if (protocol_ >= 2 && stray.size() >= 8) {
        const std::uint32_t got = get_le32(stray, 4);
        if (got >= first_number_ && got < next_number_) void_number = got;
    }
    stop(true);
    return describe_bytes(stray) + " arrived after the response, before the next request";
}

PersistentProcess::Reply PersistentProcess::request(char op, const Input& input, std::chrono::milliseconds timeout,
                                                    std::size_t max_response, const std::function<bool(std::string_view)>* sink) {
    hello_timeout_ = timeout;
    std::optional<std::uint32_t> void_number;
    // Stray bytes that followed a baseline answer void no case: the adapter loses its baseline
    // instead (its cases are charged from nothing), and this request goes to a fresh process.
    bool after_case = cases_answered_ > 0;
    std::string previous_void = stray_before_request(void_number), previous_exit;
    if (!previous_void.empty() && !after_case) previous_void.clear(), void_number.reset(), baseline_inputs_.clear();
    if (previous_void.empty()) previous_exit = gone_between_requests();
    const bool replayable = !input.next;
    Reply rep;
    std::optional<Reply> first_stray;  // a first answer that was no answer to this request
    bool stale = false;
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (pid_ < 0) {
            std::string error;
            if (!start(error)) {
                rep = Reply{};
                rep.kind = start_broke_protocol_ ? Reply::Kind::protocol_error : Reply::Kind::start_error;
                rep.detail = error;
                stale = false;
                break;
            }
        }
        stale = false;
        if (!first_stray) after_case = cases_answered_ > 0;
        std::uint32_t number = next_number_++;
        const std::string header = frame::request_header(op, protocol_, number, input.size);
        if (header.empty()) {
            rep = Reply{};
            rep.kind = Reply::Kind::start_error;
            rep.detail = "an input of " + std::to_string(input.size) + " bytes does not fit one frame (4-byte length); not sent";
            break;
        }
        rep = exchange(header, input, number, timeout, max_response + (protocol_ >= 2 ? 4 : 0), stale, sink);
        if (rep.kind == Reply::Kind::gone) {
            // It left after its previous answer without reading this request: that answer's
            // case is told, and this request goes to a fresh process.
            if (previous_exit.empty()) previous_exit = "the adapter exited after this answer, before its end of input (exit status 0); it was replaced for the next case";
            if (replayable && attempt < 2) continue;
            rep.kind = Reply::Kind::crash;
        }
        if (rep.kind == Reply::Kind::answer) ++cases_answered_;
        if (!stale || !replayable || first_stray) break;
        first_stray = rep;  // this request again, on a fresh process
        if (!after_case) baseline_inputs_.clear();
    }
    if (first_stray && previous_void.empty() && after_case) {
        if (first_stray->void_number) {
            // The number of an earlier request: that one answered twice, whatever comes of this one.
            previous_void = first_stray->detail;
            void_number = first_stray->void_number;
        } else if (!stale) {
            // A fresh process answered this request plausibly: the bytes followed the previous answer.
            previous_void = first_stray->detail + "; they followed this answer";
        } else {
            // The same again from a fresh process: this request draws them, the previous answer stands.
            rep.detail += " (the same from a fresh process)";
        }
    }
    rep.previous_void = std::move(previous_void);
    rep.void_number = void_number;
    rep.previous_exit = std::move(previous_exit);
    return rep;
}

}  // namespace ond::conformance
