// Other bytes for the content of large.cpp's token document, judged (judge_token_bytes).
#include <cstring>
#include <optional>

#include "ond/inspect.hpp"
#include "ond/ond.hpp"
#include "ond/text_escape.hpp"
#include "suite/large.hpp"
#include "suite/large_encode.hpp"
#include "suite/large_judge.hpp"

namespace ond::conformance {

using namespace large_judge;

namespace {

std::vector<std::uint64_t> token_document_lengths(std::uint32_t n) { return {8, 13, 19, std::uint64_t{25} + n}; }

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
    RulesBroken add;
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
    if (sections != std::vector<int>{1, 2, 3})
        add(WriterRule::sections_written, "the body has sections " + section_list(sections) + ", the canonical writer writes 1, 2, 3 for this content");
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
    return std::move(add).take();
}

}  // namespace

std::vector<Finding> judge_token_bytes(std::uint32_t n, std::string_view got, const std::vector<std::string>& rules) {
    const DifferenceAt where = where_they_differ(token_document_pieces(n), token_document_lengths(n), token_document_bytes(n), got);
    Container c;
    try {
        c = decode(as_bytes(got.data(), got.size()));
    } catch (const Error& e) {
        return {not_decoded(e, where)};
    }
    if (const auto d = content_difference(n, c)) return {other_content(*d, where)};
    return writer_findings(writer_rules_broken(c, got), where, rules);
}

}  // namespace ond::conformance
