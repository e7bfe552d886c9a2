#include "suite/large_encode.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "ond/inspect.hpp"
#include "ond/ond.hpp"
#include "ond/text_escape.hpp"
#include "ond/writer_rules.hpp"
#include "suite/large.hpp"
#include "suite/writer_check.hpp"
#include "suite/writer_rules.hpp"

namespace ond::conformance {

namespace {

// The first `count` bytes of the canonical document (all of it when count is larger).
std::string canonical_prefix(std::uint32_t n, std::uint64_t count) {
    std::string out;
    PieceReader pieces = token_document_pieces(n);
    for (std::string_view p = pieces(); !p.empty() && out.size() < count; p = pieces())
        out.append(p.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(p.size(), count - out.size()))));
    return out;
}

// The first byte where `got` and the canonical bytes differ (the shorter one's size if one is
// a prefix of the other), not counting the length fields (the body's, each section's), which
// differ whenever something after them does.
std::uint64_t first_difference(std::uint32_t n, std::string_view got) {
    auto is_length = [n](std::uint64_t i) {
        for (std::uint64_t from : {std::uint64_t{8}, std::uint64_t{13}, std::uint64_t{19}, std::uint64_t{25} + n})
            if (i >= from && i < from + 4) return true;
        return false;
    };
    PieceReader pieces = token_document_pieces(n);
    std::uint64_t at = 0;
    for (std::string_view p = pieces(); !p.empty(); p = pieces())
        for (const char b : p) {
            if (at == got.size() || (got[static_cast<std::size_t>(at)] != b && !is_length(at))) return at;
            ++at;
        }
    return at;
}

// The inspector's name of the field of `got` that holds byte `at` ("" if none); the walk stops
// there.
std::string field_at(std::string_view got, std::uint64_t at) {
    struct Past {};
    std::string name;
    try {
        inspect(as_bytes(got.data(), got.size()), [&](const InspectEvent& e) {
            if (e.kind != InspectEvent::Kind::field) return;
            if (e.offset > at) throw Past{};
            if (at < e.offset + e.length) name = e.name;
        });
    } catch (const Past&) {
    } catch (const Error&) {
    }
    return name;
}

bool is_one(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b == 0x3F800000u;
}

// The first place where the decoded content differs from the expected one: (path, what).
std::optional<std::pair<std::string, std::string>> content_difference(std::uint32_t n, const Container& c) {
    if (c.format != Format::ondc) return std::pair<std::string, std::string>{"format", "expected \"ONDC\", got another format"};
    if (c.crc) return std::pair<std::string, std::string>{"crc", "expected false, got true"};
    const DocSlice d = c.docs[0];
    if (d.text.size() != n || d.text.find_first_not_of('a') != std::string_view::npos)
        return std::pair<std::string, std::string>{"doc.text", "expected the text (" + std::to_string(n) + " x \"a\"), got a text of " +
                                                                   std::to_string(d.text.size()) + " bytes that is not"};
    const TokenSlice& t = d.tokens;
    if (t.size() != n)
        return std::pair<std::string, std::string>{"doc.tokens", "expected " + std::to_string(n) + " tokens, got " + std::to_string(t.size())};
    for (std::size_t i = 0; i < n; ++i) {
        const auto at = [i] { return "doc.tokens[" + std::to_string(i) + "]."; };  // made only for a difference
        auto differs = [&](const char* key, std::uint64_t want, std::int64_t got) {
            return std::pair<std::string, std::string>{at() + key, "expected " + std::to_string(want) + ", got " + std::to_string(got)};
        };
        if (t.start[i] != i) return differs("start", i, t.start[i]);
        if (t.length[i] != 1) return differs("length", 1, t.length[i]);
        for (std::size_t k = 0; k < token_column_count; ++k)
            if (!c.strings.view(t.attrs[k][i]).empty())
                return std::pair<std::string, std::string>{at() + token_column_names[k], "expected \"\", got \"" +
                                                                                           capped(std::string(c.strings.view(t.attrs[k][i]))) + "\""};
        if (t.head[i] != static_cast<std::int64_t>(i)) return differs("head", i, t.head[i]);
        if (t.sent[i] != Sentence::unset) return differs("sent", 0, static_cast<std::int64_t>(t.sent[i]));
        if (!is_one(t.conf[i]))
            return std::pair<std::string, std::string>{at() + "conf", "expected 1, got " + std::to_string(t.conf[i])};
    }
    if (d.has_ents) return std::pair<std::string, std::string>{"doc.ents", "expected null, got entities"};
    if (d.has_cats) return std::pair<std::string, std::string>{"doc.cats", "expected null, got categories"};
    if (!d.spans.empty()) return std::pair<std::string, std::string>{"doc.spans", "expected [], got span groups"};
    return std::nullopt;
}

// A field of the inspector's walk made of varints (one, or a span's gap and length), one of them
// longer than its value needs: a varint of two or more bytes whose last byte is 0.
bool overlong_varint(const InspectEvent& e, std::string_view got) {
    if (e.offset + e.length > got.size()) return false;
    const std::string_view b = got.substr(static_cast<std::size_t>(e.offset), static_cast<std::size_t>(e.length));
    std::size_t from = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
        if (!(static_cast<unsigned char>(b[i]) & 0x80)) {
            if (i > from && b[i] == 0) return true;
            from = i + 1;
        }
    return false;
}

// The fields of this content that are varints: counts, spans, string ids, heads.
bool is_varint_field(const std::string& name) {
    if (name == "strings.count" || name == "tokens.count") return true;
    if (name.rfind("tokens.span[", 0) == 0 || name.rfind("tokens.head[", 0) == 0) return true;
    for (const char* col : token_column_names)
        if (name.rfind(std::string("tokens.") + col + "[", 0) == 0) return true;
    return false;
}

// The writer rules that bytes of the expected content break, in the order judge_writer names them.
std::vector<WriterFinding> writer_rules_broken(const Container& c, std::string_view got) {
    std::vector<WriterFinding> out;
    auto add = [&](WriterRule rule, const std::string& message) {
        const WriterRuleInfo& info = writer_rule_info(rule);
        for (const auto& f : out)
            if (f.rule == info.id) return;
        out.push_back({std::string(info.id), writer_rule_required(info.id), std::string(info.rule) + ": " + message});
    };
    std::vector<int> sections;
    std::optional<std::string> overlong;
    bool utf16_text = false, mode_one = false;
    inspect(as_bytes(got.data(), got.size()), [&](const InspectEvent& e) {
        if (e.kind == InspectEvent::Kind::enter && e.depth == 1 && e.name.rfind("section ", 0) == 0)
            sections.push_back(std::atoi(e.name.c_str() + 8));
        if (e.kind != InspectEvent::Kind::field) return;
        if (e.name == "text.encoding") utf16_text = e.value.rfind("1", 0) == 0;
        else if (e.name == "tokens.confidence-mode") mode_one = e.value.rfind("1", 0) == 0;
        else if (!overlong && is_varint_field(e.name) && overlong_varint(e, got))
            overlong = e.name + " (" + e.value + ") takes " + std::to_string(e.length) + " bytes at byte " + std::to_string(e.offset);
    });
    if (sections != std::vector<int>{1, 2, 3}) {
        std::string ids;
        for (int id : sections) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
        add(WriterRule::sections_written, "the body has sections " + ids + ", the canonical writer writes 1, 2, 3 for this content");
    }
    // W3: every attribute is "", so a table entry is unused, or a stored empty string.
    const std::size_t count = c.strings.size() - 1;
    std::vector<bool> used(count + 1, false);
    for (const Ids& col : c.docs[0].tokens.attrs)
        for (StringId id : col) used[id] = true;
    for (std::size_t i = 1; i <= count; ++i)
        if (!used[i]) {
            add(WriterRule::table_only_used, "string table entry " + std::to_string(i) + " '" +
                                                 capped(std::string(c.strings.view(static_cast<StringId>(i))).substr(0, 40)) +
                                                 "' is not referenced by the body");
            break;
        }
    for (std::size_t i = 1; i <= count; ++i)
        if (used[i]) {
            add(WriterRule::canonical_numbering, "string table entry " + std::to_string(i) + " is a stored empty string");
            break;
        }
    if (utf16_text) add(WriterRule::utf8_strings, "the text of document 0 is stored as UTF-16, though it is well-formed (UTF-8 is required)");
    if (mode_one) add(WriterRule::confidence_mode, "document 0 writes confidence mode 1, though every confidence is 1.0 (mode 0)");
    if (overlong) add(WriterRule::minimal_varints, *overlong + "; its minimal form is shorter");
    if (out.empty()) out.push_back({"unidentified", false, "the bytes differ from the canonical bytes, but no writer rule was identified"});
    return out;
}

}  // namespace

std::vector<Finding> judge_token_bytes(std::uint32_t n, std::string_view got, const std::vector<std::string>& rules) {
    const std::uint64_t canonical = token_document_bytes(n), at = first_difference(n, got);
    const std::string name = field_at(got, at);
    const std::string where = "; first difference at byte " + std::to_string(at) + (name.empty() ? "" : " (" + name + ")") + ", got " +
                              std::to_string(got.size()) + " bytes, canonical " + std::to_string(canonical);
    const std::string field = name.empty() ? "byte " + std::to_string(at) : name;
    std::vector<Finding> out;
    Container c;
    try {
        c = decode(as_bytes(got.data(), got.size()));
    } catch (const Error& e) {
        const bool padding = e.errc() == Errc::tokens_sentence_padding;
        const WriterRuleInfo& padding_rule = writer_rule_info(WriterRule::zero_padding);
        const std::string rule = padding ? std::string(padding_rule.id) : "decode";
        const std::string message = padding ? "W5: sentence padding bits are not 0 (" + std::string(e.what()) + ")"
                                            : "the bytes do not decode: " + std::string(e.what());
        out.push_back({Level::required, Check::canonical_writer,
                       escape_text(writer_rule_tag(rule) + ": " + message + where, false),
                       padding ? std::string(padding_rule.rule) : std::string(error_info(e.errc()).rule),
                       e.offset() == no_offset ? std::string("(top level)") : "byte " + std::to_string(e.offset())});
        return out;
    }
    if (const auto d = content_difference(n, c)) {
        out.push_back({Level::required, Check::content, "the bytes written decode to other content: " + d->first + ": " + d->second + where,
                       content_rule(d->first), d->first});
        return out;
    }
    for (const WriterFinding& f : writer_rules_broken(c, got)) {
        const WriterRuleInfo* info = find_writer_rule(f.rule);
        out.push_back({f.required ? Level::required : Level::recommended, Check::canonical_writer,
                       escape_text(writer_rule_tag(f.rule) + ": " + f.message + where, false),
                       info ? std::string(info->rule) : rules.empty() ? std::string() : rules.front(), field});
    }
    return out;
}

namespace {

class TokenBytesAnswer final : public StreamedAnswer {
public:
    TokenBytesAnswer(std::uint32_t n, std::vector<std::string> rules, std::uint64_t keep_limit, std::uint64_t exact_up_to)
        : n_(n), rules_(std::move(rules)), keep_limit_(keep_limit), exact_up_to_(exact_up_to), size_(token_document_bytes(n)),
          canonical_(token_document_pieces(n)) {}

    bool feed(std::string_view b) override {
        while (!differs_ && !b.empty()) {
            if (pending_.empty() && (pending_ = canonical_()).empty()) {
                keep_from_here();  // more than the canonical bytes
                break;
            }
            const std::size_t k = std::min(b.size(), pending_.size());
            if (std::memcmp(b.data(), pending_.data(), k) != 0) {
                keep_from_here();
                break;
            }
            matched_ += k;
            b.remove_prefix(k);
            pending_.remove_prefix(k);
        }
        if (differs_) {  // past the limit the transport cuts the answer off; nothing more is kept
            const std::uint64_t room = keep_limit_ - std::min<std::uint64_t>(keep_limit_, kept_.size());
            kept_.append(b.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(b.size(), room))));
        }
        return true;
    }

    std::vector<Finding> finish() override {
        if (!differs_ && matched_ == size_) return {};
        if (!differs_) keep_from_here();  // a prefix of the canonical bytes
        if (size_ <= exact_up_to_) {
            CaseResult r;
            r.rules = rules_;
            add_writer_findings(canonical_prefix(n_, size_), kept_, Check::canonical_writer, r);
            return std::move(r.findings);
        }
        return judge_token_bytes(n_, kept_, rules_);
    }
    bool refused() const override { return false; }  // every byte up to the limit is judged

private:
    // The answer differs from here on: what matched so far is made again, and kept with the rest.
    void keep_from_here() {
        differs_ = true;
        kept_ = canonical_prefix(n_, matched_);
    }

    std::uint32_t n_;
    std::vector<std::string> rules_;
    std::uint64_t keep_limit_, exact_up_to_, size_;
    PieceReader canonical_;
    std::string_view pending_;
    std::uint64_t matched_ = 0;
    bool differs_ = false;
    std::string kept_;
};

}  // namespace

std::shared_ptr<StreamedAnswer> expect_token_bytes(std::uint32_t n, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                   std::uint64_t exact_up_to) {
    return std::make_shared<TokenBytesAnswer>(n, std::move(rules), keep_limit, exact_up_to);
}

}  // namespace ond::conformance
