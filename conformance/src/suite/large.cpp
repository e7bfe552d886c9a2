#include "suite/large.hpp"

#include "suite/large_answer.hpp"
#include "suite/large_encode.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <vector>


namespace ond::conformance {

namespace {

// Bytes described as runs: literal bytes, or one byte value repeated (the text, the zero columns).
class Runs {
public:
    Runs& lit(std::string b) { return repeat(std::move(b), 1); }
    // `pattern` `times` times over.
    Runs& repeat(std::string pattern, std::uint64_t times) {
        runs_.push_back({std::move(pattern), times});
        return *this;
    }
    Runs& u32(std::uint32_t v) {
        std::string b(4, '\0');
        for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(v >> (8 * i));
        return lit(std::move(b));
    }
    Runs& fill(char c, std::uint64_t n) { return repeat(std::string(1, c), n); }
    std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const Run& r : runs_) n += r.size();
        return n;
    }
    // The next piece of at most 1 MiB; empty at the end.
    std::string_view next() {
        buf_.clear();
        while (buf_.size() < step && k_ < runs_.size()) {
            const Run& r = runs_[k_];
            const std::uint64_t size = r.size();
            const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(size - at_, step - buf_.size()));
            if (r.pattern.size() == 1) {
                buf_.append(want, r.pattern[0]);
            } else {
                for (std::uint64_t pos = at_, end = at_ + want; pos < end;) {  // from where the last piece stopped
                    const std::size_t off = static_cast<std::size_t>(pos % r.pattern.size());
                    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(end - pos, r.pattern.size() - off));
                    buf_.append(r.pattern, off, k);
                    pos += k;
                }
            }
            at_ += want;
            if (at_ == size) ++k_, at_ = 0;
        }
        return buf_;
    }

private:
    static constexpr std::size_t step = 1u << 20;
    struct Run {
        std::string pattern;
        std::uint64_t times;
        std::uint64_t size() const { return pattern.size() * times; }
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

std::string varint(std::uint32_t v) {
    std::string b;
    for (; v >= 0x80; v >>= 7) b.push_back(static_cast<char>(0x80 | (v & 0x7F)));
    b.push_back(static_cast<char>(v));
    return b;
}

// The canonical ONDC of n tokens, one 'a' each, nothing else set (valid when n <= 2^25, R17).
Runs token_document(std::uint32_t n) {
    const std::string count = varint(n);
    const std::uint64_t tokens_len = count.size() + 9ull * n + (n + 3) / 4 + 1;
    const std::uint64_t body = 6 + (5 + 1 + n) + (5 + tokens_len);
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(static_cast<std::uint32_t>(body));
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1 + n) + std::string(1, '\0')).fill('a', n);
    r.lit(section_frame(3, static_cast<std::uint32_t>(tokens_len)) + count);
    r.repeat(std::string("\0\x01", 2), n);          // gap 0, length 1 per token
    r.fill('\0', 7ull * n + (n + 3) / 4 + 1);  // six columns, heads, sentence bits, mode 0
    return r;
}

// A stream of one ONDC whose body is exactly `body` bytes: an empty text, no tokens, and an
// unknown section (id 8, skipped by length: R9) of zeros filling the rest. Valid up to the cap
// (R26); its content is that of an empty document, so the answer is one short line.
Runs stream_of_body(std::uint32_t body) {
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(body);
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1) + std::string(1, '\0'));
    r.lit(section_frame(3, 2) + std::string(2, '\0'));
    r.lit(section_frame(8, body - 24)).fill('\0', body - 24);
    return r;
}

// A stream whose first ONDC declares, and delivers, a body of `body` bytes: a valid document of
// one long text (one past the cap: R26 refuses it at the header).
Runs over_the_cap(std::uint32_t body) {
    const std::uint32_t text = body - 19;  // tables (6), text frame and encoding (6), tokens (7)
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(body);
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1 + text) + std::string(1, '\0')).fill('a', text);
    r.lit(section_frame(3, 2) + std::string(2, '\0'));
    return r;
}

// The compact content JSON of token_document(n), made token by token: every token's start and
// head are its index, so the pieces are written, not repeated. A piece stops short of 1 MiB by
// more than a token's JSON (at most 128 bytes), so that none is longer.
class TokenContentPieces {
public:
    explicit TokenContentPieces(std::uint32_t n) : n_(n) {}
    std::string_view next() {
        buf_.clear();
        while (buf_.size() < room && part_ < 5) {
            switch (part_) {
                case 0: buf_ += R"({"format":"ONDC","crc":false,"doc":{"text":")", ++part_; break;
                case 1: {  // the text, n x "a"
                    const std::uint64_t k = std::min<std::uint64_t>(n_ - at_, room - buf_.size());
                    buf_.append(static_cast<std::size_t>(k), 'a');
                    if ((at_ += k) == n_) ++part_, at_ = 0;
                    break;
                }
                case 2: buf_ += R"(","tokens":[)", ++part_; break;
                case 3:
                    for (char i[16]; at_ < n_ && buf_.size() < room; ++at_) {
                        const std::string_view index(i, static_cast<std::size_t>(std::to_chars(i, i + sizeof i, at_).ptr - i));
                        buf_ += at_ ? R"(,{"start":)" : R"({"start":)";
                        buf_ += index;
                        buf_ += R"(,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":)";
                        buf_ += index;
                        buf_ += R"(,"sent":0,"conf":1})";
                    }
                    if (at_ == n_) ++part_, at_ = 0;
                    break;
                default: buf_ += R"(],"ents":null,"cats":null,"spans":[]}})", ++part_; break;
            }
        }
        return buf_;
    }

private:
    static constexpr std::size_t room = (std::size_t{1} << 20) - 128;
    std::uint32_t n_;
    int part_ = 0;
    std::uint64_t at_ = 0;
    std::string buf_;
};

// A fresh reader of the pieces of the bytes `make` describes.
std::function<PieceReader()> pieces_of(std::function<Runs()> make) {
    return [make = std::move(make)] {
        auto runs = std::make_shared<Runs>(make());
        return PieceReader([runs] { return runs->next(); });
    };
}

// "2^25" for a power of two, else the number (the caps of the tests).
std::string cap_name(std::uint64_t v) {
    for (int k = 0; k < 64; ++k)
        if (v == std::uint64_t{1} << k) return "2^" + std::to_string(k);
    return std::to_string(v);
}

struct LargeSpec {
    const char* id;
    CaseKind kind;
    std::vector<std::string> rules;
    std::string what;
    std::function<PieceReader()> open;
    std::uint64_t size;
    const char* error = "";  // a case to be refused: its code; "": to be accepted
    CaseVerdict verdict = CaseVerdict::invalid;
    std::function<std::shared_ptr<StreamedAnswer>()> answer = {};
    std::uint64_t answer_limit = 0;
};

Case large_case(LargeSpec s) {
    Case c;
    c.id = s.id;
    c.kind = s.kind;
    c.area = "large";
    c.verdict = s.verdict;
    c.rules = std::move(s.rules);
    c.description = s.what;
    c.error = s.error;
    c.expect_accept = static_cast<bool>(s.answer);
    c.canonical = s.verdict == CaseVerdict::valid;
    c.origin = Origin::large;
    auto g = std::make_shared<GeneratedInput>();
    g->size = s.size;
    g->recipe = s.what + ", made by the runner (large.cpp) piece by piece; " + std::to_string(g->size) + " bytes";
    g->open = std::move(s.open);
    g->answer = std::move(s.answer);
    g->answer_limit = s.answer_limit;
    c.generated = std::move(g);
    return c;
}

}  // namespace

std::vector<Case> large_cases(const LargeCaps& caps) {
    const std::uint32_t n = caps.tokens, body = caps.stream_body;
    const std::string tokens = cap_name(n), bytes = cap_name(body);
    std::vector<Case> cases;
    const auto tokens_of = [](std::uint32_t k) { return pieces_of([k] { return token_document(k); }); };
    const auto content_of = [](std::uint32_t k) { return [k] { return token_content_pieces(k); }; };
    const std::string content = "content JSON (compact) of " + tokens + " one-unit tokens over a text of " + tokens + " x \"a\", nothing else set";
    // The answer: 2^25 tokens as content JSON (4.1 GB compact); twice that leaves room for blanks.
    cases.push_back(large_case({"large/tokens-at-cap", CaseKind::decode, {"R17"},
                                "an ONDC of exactly " + tokens + " one-unit tokens, nothing else set (canonical)", tokens_of(n),
                                token_document_bytes(n), "", CaseVerdict::valid, [n] { return expect_token_content(n, false); },
                                2 * token_content_bytes(n) + (1u << 20)}));
    cases.push_back(large_case({"large/tokens-cap-plus-one", CaseKind::decode, {"R17"}, "an ONDC of " + tokens + " + 1 tokens",
                                tokens_of(n + 1), token_document_bytes(n + 1), "tokens.count-too-large"}));
    // The answer: the canonical bytes (344 MB), compared as they arrive; bytes that differ are
    // kept up to the answer's limit and judged like any writer's (large_encode.hpp).
    const std::uint64_t bytes_limit = 2 * token_document_bytes(n) + (1u << 20);
    cases.push_back(large_case({"large/encode-tokens-at-cap", CaseKind::encode, {"R17"}, content + " (must be written canonically)",
                                content_of(n), token_content_bytes(n), "", CaseVerdict::valid,
                                [n, bytes_limit] { return expect_token_bytes(n, {"R17"}, bytes_limit); }, bytes_limit}));
    cases.push_back(large_case({"large/encode-tokens-cap-plus-one", CaseKind::encode, {"R17"},
                                "content JSON (compact) of " + tokens + " + 1 one-unit tokens, nothing else set", content_of(n + 1),
                                token_content_bytes(n + 1), "content.too-large"}));
    cases.push_back(large_case({"large/stream-body-at-cap", CaseKind::stream, {"R26", "R9"},
                                "a stream whose container declares and delivers exactly " + bytes +
                                    " body bytes (an empty document and an unknown section of zeros)",
                                pieces_of([body] { return stream_of_body(body); }), 12ull + body, "", CaseVerdict::noncanonical,
                                [] { return expect_token_content(0, true); }, 1u << 20}));
    cases.push_back(large_case({"large/stream-body-cap-plus-one", CaseKind::stream, {"R26"},
                                "a stream whose container declares and delivers " + bytes + " + 1 body bytes",
                                pieces_of([body] { return over_the_cap(body + 1); }), 12ull + body + 1, "stream.length-too-large"}));
    return cases;
}

PieceReader token_document_pieces(std::uint32_t n) { return pieces_of([n] { return token_document(n); })(); }

std::uint64_t token_document_bytes(std::uint32_t n) { return token_document(n).size(); }

PieceReader token_content_pieces(std::uint32_t n) {
    auto pieces = std::make_shared<TokenContentPieces>(n);
    return [pieces] { return pieces->next(); };
}

std::uint64_t token_content_bytes(std::uint32_t n) {
    const std::string token = R"({"start":,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":,"sent":0,"conf":1})";
    const std::string around = R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":null,"spans":[]}})";
    std::uint64_t bytes = around.size() + n + static_cast<std::uint64_t>(n) * (token.size() + 1) - (n ? 1 : 0);
    // start and head are both the token's index: the indexes [lo, hi) have `digits` digits.
    for (std::uint64_t lo = 0, hi = 10, digits = 1; lo < n; lo = hi, hi *= 10, ++digits)
        bytes += 2 * digits * (std::min<std::uint64_t>(n, hi) - lo);
    return bytes;
}

std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout) {
    return std::max(run_timeout, std::chrono::milliseconds(300000));
}

}  // namespace ond::conformance
