#include "testee.hpp"

#include <cstring>
#include <stdexcept>

#include "ond/content_json.hpp"
#include "ond/ond.hpp"

namespace ond::conformance {

const char* status_name(Outcome::Status s) noexcept {
    switch (s) {
        case Outcome::Status::accept: return "accept";
        case Outcome::Status::reject: return "reject";
        case Outcome::Status::crash: return "crash";
        case Outcome::Status::timeout: return "timeout";
        case Outcome::Status::unsupported: return "unsupported";
        case Outcome::Status::start_error: return "start-error";
    }
    return "?";
}

std::string parse_error_line(std::string_view err) {
    std::string_view line = err.substr(0, err.find('\n'));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    constexpr std::string_view prefix = "error: ";
    if (line.substr(0, prefix.size()) != prefix) return {};
    line.remove_prefix(prefix.size());
    auto end = line.find_first_of(" \t");
    return std::string(line.substr(0, end));
}

// ---- reference answers ----------------------------------------------------------------------

namespace {

RefAnswer from_error(const ond::Error& e) {
    RefAnswer a;
    a.accept = false;
    a.code = std::string(e.code());
    a.message = e.what();
    a.impl_defined = e.verdict() == ErrorVerdict::implementation_defined;
    return a;
}

}  // namespace

RefAnswer reference_decode(std::string_view bytes) {
    try {
        Container c = ond::decode(as_bytes(bytes.data(), bytes.size()));
        RefAnswer a;
        a.accept = true;
        a.out = json::to_json(c);
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
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
    std::size_t pos = 0;
    StreamReader reader([&](std::byte* dst, std::size_t max) {
        std::size_t n = std::min(max, bytes.size() - pos);
        std::memcpy(dst, bytes.data() + pos, n);
        pos += n;
        return n;
    });
    try {
        while (auto c = reader.next()) {
            a.out += json::to_json(*c);
            a.out += '\n';
        }
        a.accept = true;
    } catch (const ond::Error& e) {
        RefAnswer r = from_error(e);
        r.out = std::move(a.out);
        return r;
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

std::string frame_reply(const RefAnswer& a) {
    std::string p;
    if (a.accept) {
        p.push_back('\0');
        p += a.out;
    } else {
        p.push_back('\1');
        p += a.code;
        if (!a.out.empty()) {
            p.push_back('\n');
            p += a.out;
        }
    }
    return p;
}

// ---- testees ---------------------------------------------------------------------------------

namespace {

class ReferenceTestee final : public Testee {
public:
    bool supports(Op) const override { return true; }
    Outcome run(Op op, std::string_view input, unsigned) override {
        auto t0 = std::chrono::steady_clock::now();
        RefAnswer a = reference_answer(op, input);
        Outcome o;
        o.status = a.accept ? Outcome::Status::accept : Outcome::Status::reject;
        o.out = std::move(a.out);
        o.code = std::move(a.code);
        o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return o;
    }
    std::string describe() const override { return "reference codec (in-process)"; }
};

std::string tail(const std::string& s, std::size_t n = 400) {
    return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

class CommandTestee final : public Testee {
public:
    CommandTestee(const std::string& d, const std::string& e, const std::string& s, std::chrono::milliseconds t)
        : timeout_(t), text_{d, e, s} {
        for (int i = 0; i < 3; ++i) {
            if (text_[i].empty()) continue;
            argv_[i] = split_command(text_[i]);
            if (resolve_executable(argv_[i][0]).empty())
                throw std::invalid_argument("cannot find the program '" + argv_[i][0] + "' of '" + text_[i] + "'");
        }
    }
    static int index(Op op) { return op == Op::decode ? 0 : op == Op::encode ? 1 : 2; }
    bool supports(Op op) const override { return !argv_[index(op)].empty(); }
    bool measures_memory() const override { return true; }
    std::string describe() const override {
        std::string d;
        const char* names[3] = {"decoder", "encoder", "stream decoder"};
        for (int i = 0; i < 3; ++i)
            if (!text_[i].empty()) d += (d.empty() ? "" : ", ") + std::string(names[i]) + " '" + text_[i] + "'";
        return d.empty() ? "no adapter" : d;
    }
    Outcome run(Op op, std::string_view input, unsigned) override {
        Outcome o;
        const auto& argv = argv_[index(op)];
        if (argv.empty()) {
            o.status = Outcome::Status::unsupported;
            return o;
        }
        ProcessResult r = run_process(argv, input, timeout_);
        o.ms = r.wall_ms;
        o.rss_kb = r.max_rss_kb;
        if (!r.started) {
            o.status = Outcome::Status::start_error;
            o.detail = r.error;
            return o;
        }
        o.out = std::move(r.out);
        if (r.timed_out) {
            o.status = Outcome::Status::timeout;
            o.detail = "no answer within " + std::to_string(timeout_.count()) + " ms; process group killed";
        } else if (r.signal) {
            o.status = Outcome::Status::crash;
            o.detail = "killed by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")";
        } else if (r.exit_code == 0) {
            o.status = Outcome::Status::accept;
        } else if (r.exit_code == 1) {
            o.status = Outcome::Status::reject;
            o.code = parse_error_line(r.err);
        } else {
            o.status = Outcome::Status::crash;
            o.detail = "exit status " + std::to_string(r.exit_code);
        }
        if (o.status == Outcome::Status::crash && !r.err.empty()) o.detail += "; stderr: " + tail(r.err);
        return o;
    }

private:
    std::chrono::milliseconds timeout_;
    std::string text_[3];
    std::vector<std::string> argv_[3];
};

class PersistentTestee final : public Testee {
public:
    PersistentTestee(const std::string& cmd, unsigned workers, std::chrono::milliseconds t) : text_(cmd), timeout_(t) {
        auto argv = split_command(cmd);
        if (resolve_executable(argv[0]).empty())
            throw std::invalid_argument("cannot find the program '" + argv[0] + "' of '" + cmd + "'");
        for (unsigned i = 0; i < std::max(1u, workers); ++i) procs_.push_back(std::make_unique<PersistentProcess>(argv));
    }
    bool supports(Op) const override { return true; }
    bool measures_memory() const override { return true; }
    std::string describe() const override { return "persistent '" + text_ + "'"; }
    Outcome run(Op op, std::string_view input, unsigned worker) override {
        std::string payload(1, static_cast<char>(op));
        payload.append(input);
        auto rep = procs_[worker % procs_.size()]->request(payload, timeout_);
        Outcome o;
        o.ms = rep.wall_ms;
        o.rss_kb = rep.peak_rss_kb;
        using K = PersistentProcess::Reply::Kind;
        switch (rep.kind) {
            case K::start_error:
                o.status = Outcome::Status::start_error;
                o.detail = rep.detail;
                return o;
            case K::timeout:
                o.status = Outcome::Status::timeout;
                o.detail = "no answer within " + std::to_string(timeout_.count()) + " ms; process restarted";
                return o;
            case K::crash:
            case K::protocol_error:
                o.status = Outcome::Status::crash;
                o.detail = rep.detail;
                if (rep.signal) o.detail += "; killed by signal " + std::to_string(rep.signal) + " (" + strsignal(rep.signal) + ")";
                if (rep.exit_code >= 0) o.detail += "; exit status " + std::to_string(rep.exit_code);
                if (!rep.err.empty()) o.detail += "; stderr: " + tail(rep.err);
                return o;
            case K::answer: break;
        }
        auto status = static_cast<unsigned char>(rep.payload[0]);
        std::string_view rest = std::string_view(rep.payload).substr(1);
        if (status == 0) {
            o.status = Outcome::Status::accept;
            o.out = std::string(rest);
        } else if (status == 1) {
            o.status = Outcome::Status::reject;
            auto nl = rest.find('\n');
            o.code = std::string(rest.substr(0, nl));
            if (nl != std::string_view::npos) o.out = std::string(rest.substr(nl + 1));
        } else if (status == 2) {
            o.status = Outcome::Status::unsupported;
        } else {
            o.status = Outcome::Status::crash;
            o.detail = "unknown status byte " + std::to_string(status) + " in the response";
        }
        return o;
    }

private:
    std::string text_;
    std::chrono::milliseconds timeout_;
    std::vector<std::unique_ptr<PersistentProcess>> procs_;
};

}  // namespace

std::unique_ptr<Testee> make_reference_testee() { return std::make_unique<ReferenceTestee>(); }

std::unique_ptr<Testee> make_command_testee(const std::string& decoder, const std::string& encoder,
                                            const std::string& stream_decoder, std::chrono::milliseconds timeout) {
    return std::make_unique<CommandTestee>(decoder, encoder, stream_decoder, timeout);
}

std::unique_ptr<Testee> make_persistent_testee(const std::string& command, unsigned workers,
                                               std::chrono::milliseconds timeout) {
    return std::make_unique<PersistentTestee>(command, workers, timeout);
}

}  // namespace ond::conformance
