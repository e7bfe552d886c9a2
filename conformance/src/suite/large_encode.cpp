#include "suite/large_encode.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>

#include "ond/inspect.hpp"
#include "ond/internal/check_switch.hpp"
#include "ond/ond.hpp"
#include "ond/text_escape.hpp"
#include "ond/writer_rules.hpp"
#include "suite/large.hpp"
#include "suite/writer_check.hpp"
#include "suite/writer_rules.hpp"

namespace ond::conformance {

namespace {

// The first `count` bytes `pieces` make (all of them when count is larger).
std::string prefix_of(PieceReader pieces, std::uint64_t count) {
    std::string out;
    for (std::string_view p = pieces(); !p.empty() && out.size() < count; p = pieces())
        out.append(p.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(p.size(), count - out.size()))));
    return out;
}

// The first byte where `got` and the canonical bytes differ (the shorter one's size if one is
// a prefix of the other), not counting the u32 length fields at `lengths` (the body's, each
// section's), which differ whenever something after them does.
std::uint64_t first_difference(PieceReader canonical, const std::vector<std::uint64_t>& lengths, std::string_view got) {
    auto is_length = [&lengths](std::uint64_t i) {
        return std::any_of(lengths.begin(), lengths.end(), [i](std::uint64_t from) { return i >= from && i < from + 4; });
    };
    std::uint64_t at = 0;
    for (std::string_view p = canonical(); !p.empty(); p = canonical())
        for (const char b : p) {
            if (at == got.size() || (got[static_cast<std::size_t>(at)] != b && !is_length(at))) return at;
            ++at;
        }
    return at;
}

std::vector<std::uint64_t> token_document_lengths(std::uint32_t n) { return {8, 13, 19, std::uint64_t{25} + n}; }

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

// The writer rules found broken, each once (its first instance), in the order found.
class RulesBroken {
public:
    void operator()(WriterRule rule, const std::string& message) {
        const WriterRuleInfo& info = writer_rule_info(rule);
        for (const auto& f : out_)
            if (f.rule == info.id) return;
        out_.push_back({std::string(info.id), writer_rule_required(info.id), std::string(info.rule) + ": " + message});
    }
    // None found: a recommended `unidentified` finding, as for any encoder.
    std::vector<WriterFinding> take() && {
        if (out_.empty()) out_.push_back({"unidentified", false, "the bytes differ from the canonical bytes, but no writer rule was identified"});
        return std::move(out_);
    }

private:
    std::vector<WriterFinding> out_;
};

std::string section_list(const std::vector<int>& ids) {
    std::string out;
    for (int id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
    return out;
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

// Where other bytes first differ from the canonical ones, as every finding says it.
struct DifferenceAt {
    std::string text;   // "; first difference at byte N (field), got G bytes, canonical C"
    std::string field;  // the field there, else "byte N"
};

DifferenceAt where_they_differ(PieceReader canonical, const std::vector<std::uint64_t>& lengths, std::uint64_t canonical_size, std::string_view got) {
    const std::uint64_t at = first_difference(std::move(canonical), lengths, got);
    const std::string name = field_at(got, at);
    return {"; first difference at byte " + std::to_string(at) + (name.empty() ? "" : " (" + name + ")") + ", got " +
                std::to_string(got.size()) + " bytes, canonical " + std::to_string(canonical_size),
            name.empty() ? "byte " + std::to_string(at) : name};
}

// Bytes the reference does not decode: required, at the reader's fault (non-zero padding is W5).
Finding not_decoded(const Error& e, const DifferenceAt& where) {
    const bool padding = e.errc() == Errc::tokens_sentence_padding;
    const WriterRuleInfo& padding_rule = writer_rule_info(WriterRule::zero_padding);
    const std::string rule = padding ? std::string(padding_rule.id) : "decode";
    const std::string message = padding ? "W5: sentence padding bits are not 0 (" + std::string(e.what()) + ")"
                                        : "the bytes do not decode: " + std::string(e.what());
    return {Level::required, Check::canonical_writer, escape_text(writer_rule_tag(rule) + ": " + message + where.text, false),
            padding ? std::string(padding_rule.rule) : std::string(error_info(e.errc()).rule),
            e.offset() == no_offset ? std::string("(top level)") : "byte " + std::to_string(e.offset())};
}

// Bytes that decode to other content: required, at the first difference's path.
Finding other_content(const std::pair<std::string, std::string>& d, const DifferenceAt& where) {
    return {Level::required, Check::content, escape_text("the bytes written decode to other content: " + d.first + ": " + d.second + where.text, false),
            content_rule(d.first), d.first};
}

// The same content in other bytes: each writer rule broken, at its level.
std::vector<Finding> writer_findings(const std::vector<WriterFinding>& broken, const DifferenceAt& where, const std::vector<std::string>& rules) {
    std::vector<Finding> out;
    for (const WriterFinding& f : broken) {
        const WriterRuleInfo* info = find_writer_rule(f.rule);
        out.push_back({f.required ? Level::required : Level::recommended, Check::canonical_writer,
                       escape_text(writer_rule_tag(f.rule) + ": " + f.message + where.text, false),
                       info ? std::string(info->rule) : rules.empty() ? std::string() : rules.front(), where.field});
    }
    return out;
}

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

namespace {

// Bytes kept in an unlinked file of the runner's temporary directory rather than in its memory:
// a differing answer of the body case may be 4.3 GB. Read back mapped, as one view.
class KeptBytes {
public:
    KeptBytes() {
        const std::string dir = std::filesystem::temp_directory_path().string();
        fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd_ < 0) {  // a file system without O_TMPFILE
            std::string name = dir + "/ond-answer-XXXXXX";
            fd_ = ::mkostemp(name.data(), O_CLOEXEC);
            if (fd_ >= 0) ::unlink(name.c_str());
        }
        if (fd_ < 0) error_ = "cannot make a file in " + dir + ": " + std::strerror(errno);
    }
    KeptBytes(const KeptBytes&) = delete;
    KeptBytes& operator=(const KeptBytes&) = delete;
    ~KeptBytes() {
        if (map_) ::munmap(map_, size_);
        if (fd_ >= 0) ::close(fd_);
    }

    void append(std::string_view b) {
        while (error_.empty() && !b.empty()) {
            const ssize_t k = ::write(fd_, b.data(), b.size());
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                error_ = std::string("cannot keep the answer: ") + std::strerror(k < 0 ? errno : ENOSPC);
                break;
            }
            size_ += static_cast<std::uint64_t>(k);
            b.remove_prefix(static_cast<std::size_t>(k));
        }
    }
    std::uint64_t size() const noexcept { return size_; }
    // Every byte appended, valid while this lives; "" if one could not be kept (error()).
    std::string_view view() {
        if (!error_.empty() || size_ == 0) return {};
        if (!map_) {
            void* m = ::mmap(nullptr, static_cast<std::size_t>(size_), PROT_READ, MAP_PRIVATE, fd_, 0);
            if (m == MAP_FAILED) {
                error_ = std::string("cannot read the kept answer: ") + std::strerror(errno);
                return {};
            }
            map_ = m;
        }
        return std::string_view(static_cast<const char*>(map_), static_cast<std::size_t>(size_));
    }
    const std::string& error() const noexcept { return error_; }

private:
    int fd_ = -1;
    std::uint64_t size_ = 0;
    void* map_ = nullptr;
    std::string error_;
};

// An encoder's answer compared, as it arrives, with canonical bytes made piece by piece beside
// it; from the first difference on it is kept (from its start, up to keep_limit) and judged whole
// at the end: as an ordinary encode case up to exact_up_to canonical bytes, else by `judge`.
class BytesAnswer final : public StreamedAnswer {
public:
    using Judge = std::function<std::vector<Finding>(std::string_view got)>;
    BytesAnswer(std::function<PieceReader()> canonical, std::uint64_t size, Judge judge, std::vector<std::string> rules,
                std::uint64_t keep_limit, std::uint64_t exact_up_to)
        : open_(std::move(canonical)), judge_(std::move(judge)), rules_(std::move(rules)), keep_limit_(keep_limit),
          exact_up_to_(exact_up_to), size_(size), canonical_(open_()) {}

    bool feed(std::string_view b) override {
        while (!kept_ && !b.empty()) {
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
        if (kept_) {  // past the limit the transport cuts the answer off; nothing more is kept
            const std::uint64_t room = keep_limit_ - std::min<std::uint64_t>(keep_limit_, kept_->size());
            kept_->append(b.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(b.size(), room))));
        }
        return true;
    }

    std::vector<Finding> finish() override {
        if (!kept_ && matched_ == size_) return {};
        if (!kept_) keep_from_here();  // a prefix of the canonical bytes
        const std::string_view got = kept_->view();
        if (!kept_->error().empty())  // the runner's fault, not the testee's: said, not charged
            return {{Level::info, Check::canonical_writer,
                     "the bytes differ from the canonical bytes from byte " + std::to_string(matched_) + "; not judged further: " +
                         kept_->error(),
                     rules_.empty() ? std::string() : rules_.front(), "byte " + std::to_string(matched_)}};
        if (size_ <= exact_up_to_) {
            CaseResult r;
            r.rules = rules_;
            add_writer_findings(prefix_of(open_(), size_), got, Check::canonical_writer, r);
            return std::move(r.findings);
        }
        return judge_(got);
    }
    bool refused() const override { return false; }  // every byte up to the limit is judged

private:
    // The answer differs from here on: what matched so far is made again, and kept with the rest.
    void keep_from_here() {
        kept_ = std::make_unique<KeptBytes>();
        PieceReader again = open_();
        for (std::uint64_t left = matched_; left > 0;) {
            const std::string_view p = again();
            const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(left, p.size()));
            kept_->append(p.substr(0, k));
            left -= k;
        }
    }

    std::function<PieceReader()> open_;
    Judge judge_;
    std::vector<std::string> rules_;
    std::uint64_t keep_limit_, exact_up_to_, size_;
    PieceReader canonical_;
    std::string_view pending_;
    std::uint64_t matched_ = 0;
    std::unique_ptr<KeptBytes> kept_;
};

}  // namespace

std::shared_ptr<StreamedAnswer> expect_token_bytes(std::uint32_t n, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                   std::uint64_t exact_up_to) {
    auto judge = [n, rules](std::string_view got) { return judge_token_bytes(n, got, rules); };
    return std::make_shared<BytesAnswer>([n] { return token_document_pieces(n); }, token_document_bytes(n), judge, std::move(rules),
                                         keep_limit, exact_up_to);
}

std::shared_ptr<StreamedAnswer> expect_category_bytes(CategoryLabels labels, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                      std::uint64_t exact_up_to) {
    auto judge = [labels, rules](std::string_view got) { return judge_category_bytes(labels, got, rules); };
    return std::make_shared<BytesAnswer>([labels] { return category_document_pieces(labels); }, category_document_bytes(labels), judge,
                                         std::move(rules), keep_limit, exact_up_to);
}

}  // namespace ond::conformance
