#include "suite/large.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>


namespace ond::conformance {

namespace {

// Bytes described as runs: literal bytes, or one byte value repeated (the text, the zero columns).
class Runs {
public:
    Runs& lit(std::string b) {
        runs_.push_back({std::move(b), 0, 0});
        return *this;
    }
    Runs& u32(std::uint32_t v) {
        std::string b(4, '\0');
        for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(v >> (8 * i));
        return lit(std::move(b));
    }
    Runs& fill(char c, std::uint64_t n) {
        runs_.push_back({{}, c, n});
        return *this;
    }
    std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const Run& r : runs_) n += r.bytes.empty() ? r.count : r.bytes.size();
        return n;
    }
    // The next piece of at most 1 MiB; empty at the end.
    std::string_view next() {
        buf_.clear();
        while (buf_.size() < step && k_ < runs_.size()) {
            const Run& r = runs_[k_];
            const std::uint64_t size = r.bytes.empty() ? r.count : r.bytes.size();
            const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size - at_, step - buf_.size()));
            if (r.bytes.empty()) buf_.append(n, r.fill);
            else buf_.append(r.bytes, static_cast<std::size_t>(at_), n);
            at_ += n;
            if (at_ == size) ++k_, at_ = 0;
        }
        return buf_;
    }

private:
    static constexpr std::size_t step = 1u << 20;
    struct Run {
        std::string bytes;
        char fill;
        std::uint64_t count;
    };
    std::vector<Run> runs_;
    std::size_t k_ = 0;
    std::uint64_t at_ = 0;
    std::string buf_;
};

std::string section_frame(std::uint8_t id, std::uint32_t length) {
    std::string f(1, static_cast<char>(id));
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<char>(length >> (8 * i)));
    return f;
}

// An ONDC of 2^25 + 1 tokens, one 'a' each, no attributes: valid but for the count (R17).
Runs too_many_tokens() {
    constexpr std::uint32_t n = (1u << 25) + 1;
    const std::string count = "\x81\x80\x80\x10";  // n as a varint
    const std::uint32_t tokens_len = 4 + 9 * n + (n + 3) / 4 + 1;
    const std::uint32_t body = 6 + (5 + 1 + n) + (5 + tokens_len);
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(body);
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1 + n) + std::string(1, '\0')).fill('a', n);
    r.lit(section_frame(3, tokens_len) + count);
    for (std::uint32_t left = n; left > 0;) {  // gap 0, length 1 per token, in 1 MiB literals
        const std::uint32_t k = std::min<std::uint32_t>(left, 1u << 19);
        std::string pairs(2ull * k, '\x01');
        for (std::size_t i = 0; i < pairs.size(); i += 2) pairs[i] = '\0';
        r.lit(std::move(pairs));
        left -= k;
    }
    r.fill('\0', 7ull * n + (n + 3) / 4 + 1);  // six columns, heads, sentence bits, mode 0
    return r;
}

// A stream whose first ONDC declares, and delivers, a body of 2^30 + 1 bytes: a valid document
// of one long text (R26: refused at the 1 GiB cap).
Runs over_the_cap() {
    constexpr std::uint32_t body = (1u << 30) + 1;
    constexpr std::uint32_t text = body - 19;  // tables (6), text frame and encoding (6), tokens (7)
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(body);
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1 + text) + std::string(1, '\0')).fill('a', text);
    r.lit(section_frame(3, 2) + std::string(2, '\0'));
    return r;
}

Case large_case(const char* id, CaseKind kind, const char* rule, const char* what, Runs (*make)(), const char* error) {
    Case c;
    c.id = id;
    c.kind = kind;
    c.area = "large";
    c.verdict = CaseVerdict::invalid;
    c.rules = {rule};
    c.description = what;
    c.error = error;
    c.expect_accept = false;
    c.origin = Origin::large;
    auto g = std::make_shared<GeneratedInput>();
    g->size = make().size();
    g->recipe = std::string(what) + ", made by the runner (large.cpp) piece by piece; " + std::to_string(g->size) + " bytes";
    g->open = [make] {
        auto runs = std::make_shared<Runs>(make());
        return std::function<std::string_view()>([runs] { return runs->next(); });
    };
    c.generated = std::move(g);
    return c;
}

}  // namespace

std::vector<Case> large_cases() {
    std::vector<Case> cases;
    cases.push_back(large_case("large/tokens-cap-plus-one", CaseKind::decode, "R17", "an ONDC of 2^25 + 1 tokens (about 345 MB)",
                               too_many_tokens, "tokens.count-too-large"));
    cases.push_back(large_case("large/stream-body-cap-plus-one", CaseKind::stream, "R26",
                               "a stream whose container declares and delivers 2^30 + 1 body bytes", over_the_cap,
                               "stream.length-too-large"));
    return cases;
}

std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout) {
    return std::max(run_timeout, std::chrono::milliseconds(300000));
}

}  // namespace ond::conformance
