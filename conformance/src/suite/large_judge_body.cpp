// Other bytes for the content of large.cpp's category document (the body cap), judged
// (judge_category_bytes) without a copy of the labels: up to 4.3 GB, read where they lie.
#include <algorithm>
#include <cstring>
#include <optional>

#include "ond/inspect.hpp"
#include "ond/internal/check_switch.hpp"
#include "ond/ond.hpp"
#include "suite/large.hpp"
#include "suite/large_encode.hpp"
#include "suite/large_judge.hpp"

namespace ond::conformance {

using namespace large_judge;

namespace {

// One varint at byte `at` of `got`: its value and size (size 0: none complete there).
std::pair<std::uint64_t, std::size_t> varint_at(std::string_view got, std::uint64_t at) {
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < 5 && at + k < got.size(); ++k) {
        const auto b = static_cast<unsigned char>(got[static_cast<std::size_t>(at + k)]);
        v |= std::uint64_t{b & 0x7Fu} << (7 * k);
        if (!(b & 0x80)) return {v, k + 1};
    }
    return {0, 0};
}

// What one walk of the inspector over other bytes of the category content finds, with the
// places of the table's strings in `got` (their bytes are compared there, never copied).
struct CategoryWalk {
    struct Entry {
        std::uint64_t at = 0, size = 0;  // the string's bytes
        bool utf16 = false;
        int label = 0;  // 1 or 2: it holds the first or second expected label; 0: neither
    };
    struct Cat {
        std::uint64_t label = 0;
        std::uint32_t score = 0;
    };
    bool ondb = false, crc = false, utf16_text = false, mode_one = false;
    std::uint64_t text_bytes = 0, tokens = 0, span_groups = 0;
    std::vector<int> sections;
    std::vector<Entry> table;  // entry i at [i - 1]
    std::vector<Cat> cats;
    std::optional<std::string> overlong;  // the first varint longer than its value needs

    // Throws the ond::Error decode() would for bytes that do not decode.
    CategoryWalk(std::string_view got, CategoryLabels labels) {
        inspect(as_bytes(got.data(), got.size()), [&](const InspectEvent& e) {
            if (e.kind == InspectEvent::Kind::enter && e.depth == 1 && e.name.rfind("section ", 0) == 0)
                sections.push_back(std::atoi(e.name.c_str() + 8));
            if (e.kind != InspectEvent::Kind::field) return;
            const auto varint_field = [&] {
                const auto [value, size] = varint_at(got, e.offset);
                if (!overlong && size > 1 && got[static_cast<std::size_t>(e.offset + size - 1)] == 0)
                    overlong = e.name + " (" + std::to_string(value) + ") takes " + std::to_string(size) + " bytes at byte " + std::to_string(e.offset);
                return std::pair{value, size};
            };
            if (e.name == "header.magic") ondb = e.value == "ONDB";
            else if (e.name == "header.flags") crc = e.value.rfind("1", 0) == 0;
            else if (e.name == "text.encoding") utf16_text = e.value.rfind("1", 0) == 0;
            else if (e.name == "text") text_bytes = e.length;
            else if (e.name == "tokens.confidence-mode") mode_one = e.value.rfind("1", 0) == 0;
            else if (e.name == "tokens.count") tokens = varint_field().first;
            else if (e.name == "spans.groups") span_groups = varint_field().first;
            else if (e.name == "strings.count" || e.name == "categories.count") varint_field();
            else if (e.name.rfind("strings[", 0) == 0) {
                const auto [h, size] = varint_field();
                table.push_back({e.offset + size, h >> 1, (h & 1) != 0, 0});
            } else if (e.name.rfind("categories[", 0) == 0) {
                const auto [label, size] = varint_field();
                std::uint32_t score = 0;
                for (int i = 3; i >= 0; --i) score = score << 8 | static_cast<unsigned char>(got[static_cast<std::size_t>(e.offset + size + i)]);
                cats.push_back({label, score});
            }
        });
        for (Entry& t : table) t.label = holds(got, t, 'a', labels.first) ? 1 : holds(got, t, 'b', labels.second) ? 2 : 0;
    }

    bool has(int id) const { return std::find(sections.begin(), sections.end(), id) != sections.end(); }

private:
    // The entry's value is `n` x `c` (stored as UTF-8, or as UTF-16LE code units).
    static bool holds(std::string_view got, const Entry& t, char c, std::uint64_t n) {
        const std::string_view b = got.substr(static_cast<std::size_t>(t.at), static_cast<std::size_t>(t.size));
        if (!t.utf16) return b.size() == n && b.find_first_not_of(c) == std::string_view::npos;
        if (b.size() != 2 * n) return false;
        for (std::size_t i = 0; i < b.size(); i += 2)
            if (b[i] != c || b[i + 1] != 0) return false;
        return true;
    }
};

const std::uint32_t category_scores[2] = {0x3F000000u, 0x3E800000u};  // 0.5, 0.25

std::string label_name(CategoryLabels l, int which) {
    return which == 1 ? "'a' x " + std::to_string(l.first) : "'b' x " + std::to_string(l.second);
}

std::string score_name(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return std::to_string(f);
}

// The first place where the walked content differs from the expected one: (path, what).
std::optional<std::pair<std::string, std::string>> content_difference(CategoryLabels l, const CategoryWalk& w) {
    using Difference = std::pair<std::string, std::string>;
    if (w.ondb) return Difference{"format", "expected \"ONDC\", got \"ONDB\""};
    if (w.crc) return Difference{"crc", "expected false, got true"};
    if (w.text_bytes) return Difference{"doc.text", "expected \"\", got a text of " + std::to_string(w.text_bytes) + " bytes"};
    if (w.tokens) return Difference{"doc.tokens", "expected 0 tokens, got " + std::to_string(w.tokens)};
    // Section 4 without tokens (read past, R22) is W2's: the content has no tokens to annotate.
    if (!w.has(6)) return Difference{"doc.cats", "expected 2 categories, got null"};
    if (w.cats.size() != 2) return Difference{"doc.cats", "expected 2 categories, got " + std::to_string(w.cats.size())};
    for (int i = 0; i < 2; ++i) {
        const std::string at = "doc.cats[" + std::to_string(i) + "].";
        const CategoryWalk::Entry& t = w.table.at(static_cast<std::size_t>(w.cats[i].label - 1));  // R13: in the table
        if (t.label != i + 1)
            return Difference{at + "label", "expected " + label_name(l, i + 1) + ", got another string of " + std::to_string(t.size) + " bytes"};
        if (w.cats[i].score != category_scores[i])
            return Difference{at + "score", "expected " + score_name(category_scores[i]) + ", got " + score_name(w.cats[i].score)};
    }
    if (w.span_groups) return Difference{"doc.spans", "expected [], got " + std::to_string(w.span_groups) + " span groups"};
    return std::nullopt;
}

// The writer rules that other bytes of the expected content break, in the order judge_writer
// names them.
std::vector<WriterFinding> writer_rules_broken(CategoryLabels l, const CategoryWalk& w) {
    RulesBroken add;
    if (w.sections != std::vector<int>{1, 2, 3, 6})
        add(WriterRule::sections_written, "the body has sections " + section_list(w.sections) + ", the canonical writer writes 1, 2, 3, 6 for this content");
    const std::uint64_t first = w.cats[0].label, second = w.cats[1].label;
    for (std::size_t i = 1; i <= w.table.size(); ++i)
        if (i != first && i != second) {
            add(WriterRule::table_only_used, "string table entry " + std::to_string(i) + " (" + std::to_string(w.table[i - 1].size) +
                                                 " bytes) is not referenced by the body");
            break;
        }
    if (second < first)
        add(WriterRule::first_use_order, "string table entry " + std::to_string(second) + " is " + label_name(l, 2) + ", first used after entry " +
                                             std::to_string(first) + " (the table follows neither the body's byte order nor token-by-token order)");
    for (std::size_t i = 1; i <= w.table.size(); ++i) {
        const CategoryWalk::Entry& t = w.table[i - 1];
        if (t.size == 0) add(WriterRule::canonical_numbering, "string table entry " + std::to_string(i) + " is a stored empty string");
        for (std::size_t j = 1; j < i && t.label; ++j)
            if (w.table[j - 1].label == t.label)
                add(WriterRule::canonical_numbering, "string table entries " + std::to_string(j) + " and " + std::to_string(i) + " both hold " +
                                                         label_name(l, t.label));
    }
    for (std::size_t i = 1; i <= w.table.size(); ++i)
        if (w.table[i - 1].utf16 && w.table[i - 1].label)
            add(WriterRule::utf8_strings, "string table entry " + std::to_string(i) + " " + label_name(l, w.table[i - 1].label) +
                                              " is stored as UTF-16, though it is well-formed (UTF-8 is required)");
    if (w.utf16_text) add(WriterRule::utf8_strings, "the text of document 0 is stored as UTF-16, though it is well-formed (UTF-8 is required)");
    if (w.mode_one) add(WriterRule::confidence_mode, "document 0 writes confidence mode 1, though every confidence is 1.0 (mode 0)");
    if (w.overlong) add(WriterRule::minimal_varints, *w.overlong + "; its minimal form is shorter");
    return std::move(add).take();
}

}  // namespace

std::vector<Finding> judge_category_bytes(CategoryLabels labels, std::string_view got, const std::vector<std::string>& rules) {
    const DifferenceAt where =
        where_they_differ(category_document_pieces(labels), category_document_lengths(labels), category_document_bytes(labels), got);
    // A section the canonical writer leaves out (4 without tokens, 7 without groups) is one a
    // strict reader refuses (R22, R24): read past it, so that W2 names it, as judge_writer does.
    std::optional<CategoryWalk> w;
    for (std::vector<Errc> relaxed;;) {
        try {
            const detail::RelaxedChecks relax(relaxed);
            w.emplace(got, labels);
            break;
        } catch (const Error& e) {
            if (relaxed.size() == 2 || (e.errc() != Errc::entities_without_tokens && e.errc() != Errc::spans_no_groups))
                return {not_decoded(e, where)};
            relaxed.push_back(e.errc());
        }
    }
    if (const auto d = content_difference(labels, *w)) return {other_content(*d, where)};
    return writer_findings(writer_rules_broken(labels, *w), where, rules);
}

}  // namespace ond::conformance
