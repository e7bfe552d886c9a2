#include "suite/writer_rules.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "ond/internal/check_switch.hpp"
#include "ond/inspect.hpp"
#include "ond/ond.hpp"
#include "ond/unicode.hpp"
#include "ond/writer_rules.hpp"

namespace ond::conformance {

namespace {

// The inspector's walk of some bytes: every event, and the fault that ended it (if any).
struct Walk {
    std::vector<InspectEvent> events;
    std::vector<std::string> part;  // per event: "body" or "record N", the part it belongs to
    std::optional<Error> fault;
};

Walk walk(std::string_view bytes) {
    Walk w;
    std::vector<std::string> stack;
    try {
        inspect(as_bytes(bytes.data(), bytes.size()), [&](const InspectEvent& e) {
            if (e.kind == InspectEvent::Kind::leave) {
                if (!stack.empty()) stack.pop_back();
                return;
            }
            std::string part = "body";
            for (const auto& s : stack)
                if (s.rfind("record ", 0) == 0) part = s;
            if (e.kind == InspectEvent::Kind::enter) stack.push_back(e.name);
            w.events.push_back(e);
            w.part.push_back(e.kind == InspectEvent::Kind::enter && e.name.rfind("record ", 0) == 0 ? e.name : part);
        });
    } catch (const Error& e) {
        w.fault = e;
    }
    return w;
}

// "section 3 (tokens)" -> 3; -1 for other names.
int section_id(const std::string& name) {
    if (name.rfind("section ", 0) != 0) return -1;
    return std::atoi(name.c_str() + 8);
}

std::string quoted(std::string_view wtf8) {
    std::size_t cut = std::min<std::size_t>(wtf8.size(), 40);
    while (cut < wtf8.size() && cut > 0 && (static_cast<unsigned char>(wtf8[cut]) & 0xC0) == 0x80) --cut;  // whole characters
    return "'" + std::string(wtf8.substr(0, cut)) + (cut < wtf8.size() ? "...'" : "'");
}

std::string id_list(const std::vector<int>& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id);
    return s.empty() ? "none" : s;
}

// Bytes of length fields (body length, section lengths, record lengths) in a walk.
std::set<std::uint64_t> length_bytes(const Walk& w) {
    std::set<std::uint64_t> at;
    for (std::uint64_t i = 8; i < 12; ++i) at.insert(i);
    for (std::size_t k = 0; k < w.events.size(); ++k) {
        const InspectEvent& e = w.events[k];
        std::uint64_t from = 0;
        if (section_id(e.name) >= 0)
            from = e.offset + 1;
        else if (e.kind == InspectEvent::Kind::enter && e.name.rfind("record ", 0) == 0)
            from = e.offset;
        else
            continue;
        for (std::uint64_t i = from; i < from + 4; ++i) at.insert(i);
    }
    return at;
}

// The string ids a document's body references, in the order of one traversal: the body's bytes
// (columns one after another) or token by token; then entity labels, category labels, group
// names and span labels.
void traverse(const DocSlice& d, bool token_by_token, std::vector<StringId>& out) {
    const TokenSlice& t = d.tokens;
    if (token_by_token) {
        for (std::size_t i = 0; i < t.size(); ++i)
            for (const auto& col : t.attrs) out.push_back(col[i]);
    } else {
        for (const auto& col : t.attrs) out.insert(out.end(), col.begin(), col.end());
    }
    for (const Entity& e : d.ents) out.push_back(e.label);
    for (const Category& c : d.cats) out.push_back(c.label);
    for (const SpanGroupSlice g : d.spans) {
        out.push_back(g.name);
        for (const Span& s : g.spans) out.push_back(s.label);
    }
}

// Distinct non-zero ids in order of first appearance.
std::vector<StringId> first_uses(const Container& c, bool token_by_token) {
    std::vector<StringId> all;
    for (const DocSlice d : c.docs) traverse(d, token_by_token, all);
    std::vector<StringId> firsts;
    std::vector<bool> seen(c.strings.size(), false);
    for (StringId id : all)
        if (id != 0 && id < seen.size() && !seen[id]) {
            seen[id] = true;
            firsts.push_back(id);
        }
    return firsts;
}

// Index of the first entry used before a lower-numbered one; nullopt when in order.
std::optional<std::size_t> first_out_of_order(const std::vector<StringId>& firsts) {
    for (std::size_t k = 1; k < firsts.size(); ++k)
        if (firsts[k] < firsts[k - 1]) return k;
    return std::nullopt;
}

class Judge {
public:
    Judge(std::string_view canonical, std::string_view testee) : canon_(canonical), testee_(testee) {}

    WriterJudgement run() {
        WriterJudgement j;
        if (canon_ == testee_) return j;
        const Walk cw = walk(canon_);
        Walk tw = walk(testee_);
        // A section the canonical writer leaves out (4 without tokens, 7 without groups) is one a
        // strict reader refuses (R22, R24): read past it, so that W2 names it with the rest.
        std::vector<Errc> relaxed;
        std::optional<detail::RelaxedChecks> relax;
        while (tw.fault && relaxed.size() < 2 &&
               (tw.fault->errc() == Errc::entities_without_tokens || tw.fault->errc() == Errc::spans_no_groups)) {
            relaxed.push_back(tw.fault->errc());
            relax.reset();
            relax.emplace(relaxed);
            tw = walk(testee_);
        }
        first_difference(cw, tw, j);
        if (tw.fault) {
            const bool padding = tw.fault->errc() == Errc::tokens_sentence_padding;
            if (padding)
                add(WriterRule::zero_padding, "sentence padding bits are not 0 (" + std::string(tw.fault->what()) + ")");
            else
                add_other("decode", "the bytes do not decode: " + std::string(tw.fault->what()));
            j.findings = std::move(out_);
            return j;
        }
        const Container cc = decode(as_bytes(canon_.data(), canon_.size()));
        const Container tc = decode(as_bytes(testee_.data(), testee_.size()));
        if (cc.crc != tc.crc)
            add(WriterRule::crc_flag, std::string("flags bit 0 is ") + (tc.crc ? "1" : "0") + ", but a trailer was " +
                                (cc.crc ? "asked for" : "not asked for"));
        sections(cw, tw);
        table(tc);
        encodings(tw, tc);
        varints(cw, tw);
        if (out_.empty())
            add_other("unidentified", "the bytes differ from the canonical bytes, but no writer rule was identified");
        j.findings = std::move(out_);
        return j;
    }

private:
    // A writer rule's finding: its message starts with the rule ("W3: ...").
    void add(WriterRule rule, const std::string& message) {
        const WriterRuleInfo& info = writer_rule_info(rule);
        add_other(std::string(info.id), std::string(info.rule) + ": " + message);
    }
    // A finding that is not a writer rule's ("decode", "unidentified").
    void add_other(std::string rule, std::string message) {
        for (const auto& f : out_)
            if (f.rule == rule) return;  // one finding per rule: the first
        const bool required = writer_rule_required(rule);
        out_.push_back({std::move(rule), required, std::move(message)});
    }

    void first_difference(const Walk& cw, const Walk& tw, WriterJudgement& j) const {
        const std::set<std::uint64_t> lengths = length_bytes(cw);
        const std::size_t common = std::min(canon_.size(), testee_.size());
        std::uint64_t at = common;
        for (std::size_t i = 0; i < common; ++i)
            if (canon_[i] != testee_[i] && !lengths.count(i)) {
                at = i;
                break;
            }
        j.first_difference = at;
        for (const InspectEvent& e : tw.events)
            if (e.kind == InspectEvent::Kind::field && e.offset <= at && at < e.offset + e.length)
                j.first_difference_field = e.name;
    }

    // W2: the sections of each part (body, records).
    void sections(const Walk& cw, const Walk& tw) {
        auto ids = [](const Walk& w) {
            std::map<std::string, std::vector<int>> by_part;
            for (std::size_t k = 0; k < w.events.size(); ++k) {
                const int id = section_id(w.events[k].name);
                if (id >= 0) by_part[w.part[k]].push_back(id);
            }
            return by_part;
        };
        const auto want = ids(cw), got = ids(tw);
        for (const auto& [part, list] : got) {
            auto it = want.find(part);
            const std::vector<int> expected = it == want.end() ? std::vector<int>{} : it->second;
            if (list != expected) {
                add(WriterRule::sections_written, "the " + part + " has sections " + id_list(list) + ", the canonical writer writes " +
                              id_list(expected) + " for this content");
                return;
            }
        }
    }

    // W3: the string table's contents and numbering.
    void table(const Container& tc) {
        const std::size_t count = tc.strings.size() - 1;
        std::vector<bool> used(count + 1, false);
        for (StringId id : first_uses(tc, false)) used[id] = true;
        for (std::size_t i = 1; i <= count; ++i)
            if (!used[i]) {
                add(WriterRule::table_only_used, "string table entry " + std::to_string(i) + " " +
                                     quoted(tc.strings.view(static_cast<StringId>(i))) + " is not referenced by the body");
                break;
            }
        const auto by_bytes = first_uses(tc, false), by_tokens = first_uses(tc, true);
        const auto bad_bytes = first_out_of_order(by_bytes), bad_tokens = first_out_of_order(by_tokens);
        if (bad_bytes && bad_tokens) {
            const StringId late = by_bytes[*bad_bytes];
            StringId earlier = 0;
            for (std::size_t k = 0; k < *bad_bytes; ++k) earlier = std::max(earlier, by_bytes[k]);
            add(WriterRule::first_use_order, "string table entry " + std::to_string(late) + " is " + quoted(tc.strings.view(late)) +
                                ", first used after entry " + std::to_string(earlier) +
                                " (the table follows neither the body's byte order nor token-by-token order)");
        } else if (bad_bytes) {
            add(WriterRule::canonical_numbering, "the string table is numbered token by token, not in the order of the body's bytes "
                                "(entry " + std::to_string(by_bytes[*bad_bytes]) + " " +
                                    quoted(tc.strings.view(by_bytes[*bad_bytes])) + " comes too early)");
        }
        std::unordered_map<std::string_view, std::size_t> first_entry;
        for (std::size_t i = 1; i <= count; ++i) {
            const std::string_view v = tc.strings.view(static_cast<StringId>(i));
            if (v.empty()) {
                add(WriterRule::canonical_numbering, "string table entry " + std::to_string(i) + " is a stored empty string");
                continue;
            }
            auto [it, fresh] = first_entry.emplace(v, i);
            if (!fresh)
                add(WriterRule::canonical_numbering, "string table entries " + std::to_string(it->second) + " and " + std::to_string(i) +
                                        " both hold " + quoted(v));
        }
    }

    // The inspector ends a UTF-16 string's value with " (UTF-16)", or with " (UTF-16, N bytes)"
    // when it shows the string cut short.
    static bool stored_as_utf16(std::string_view v) {
        if (v.empty() || v.back() != ')') return false;
        const std::size_t at = v.rfind(" (UTF-16");
        if (at == std::string_view::npos) return false;
        const std::string_view tail = v.substr(at + 8);
        return tail == ")" || (tail.rfind(", ", 0) == 0 && tail.find('(') == std::string_view::npos);
    }

    // W1 (UTF-8 whenever well-formed) and W4 (confidence mode), from the testee's fields.
    void encodings(const Walk& tw, const Container& tc) {
        std::size_t doc = 0, mode_doc = 0;
        for (const InspectEvent& e : tw.events) {
            if (e.kind != InspectEvent::Kind::field) continue;
            if (e.name.rfind("strings[", 0) == 0 && stored_as_utf16(e.value)) {
                const auto i = static_cast<StringId>(std::atoi(e.name.c_str() + 8));
                if (i < tc.strings.size() && !unicode::wtf8_has_surrogate(tc.strings.view(i)))
                    add(WriterRule::utf8_strings, "string table entry " + std::to_string(i) + " " + quoted(tc.strings.view(i)) +
                                       " is stored as UTF-16, though it is well-formed (UTF-8 is required)");
            } else if (e.name == "text.encoding") {
                if (e.value.rfind("1", 0) == 0 && doc < tc.docs.size() && !unicode::wtf8_has_surrogate(tc.docs[doc].text))
                    add(WriterRule::utf8_strings, "the text of document " + std::to_string(doc) +
                                       " is stored as UTF-16, though it is well-formed (UTF-8 is required)");
                ++doc;
            } else if (e.name == "tokens.confidence-mode") {
                if (e.value.rfind("1", 0) == 0 && mode_doc < tc.docs.size()) {
                    const auto& conf = tc.docs[mode_doc].tokens.conf;
                    const bool all_one = std::all_of(conf.begin(), conf.end(), [](float f) {
                        std::uint32_t b;
                        std::memcpy(&b, &f, 4);
                        return b == 0x3F800000u;
                    });
                    if (all_one)
                        add(WriterRule::confidence_mode, "document " + std::to_string(mode_doc) +
                                      " writes confidence mode 1, though every confidence is 1.0 (mode 0)");
                }
                ++mode_doc;
            }
        }
    }

    // W1 (minimal varints): a field with the same name and value as the canonical one, but longer.
    void varints(const Walk& cw, const Walk& tw) {
        std::map<std::string, const InspectEvent*> canon;
        for (std::size_t k = 0; k < cw.events.size(); ++k)
            if (cw.events[k].kind == InspectEvent::Kind::field) canon.emplace(cw.part[k] + "/" + cw.events[k].name, &cw.events[k]);
        for (std::size_t k = 0; k < tw.events.size(); ++k) {
            const InspectEvent& e = tw.events[k];
            if (e.kind != InspectEvent::Kind::field) continue;
            auto it = canon.find(tw.part[k] + "/" + e.name);
            if (it == canon.end() || it->second->value != e.value || it->second->length >= e.length) continue;
            add(WriterRule::minimal_varints, "" + e.name + " (" + e.value + ") takes " + std::to_string(e.length) +
                                 " bytes at byte " + std::to_string(e.offset) + "; its minimal form takes " +
                                 std::to_string(it->second->length));
            return;
        }
    }

    std::string_view canon_, testee_;
    std::vector<WriterFinding> out_;
};

}  // namespace

bool writer_rule_required(std::string_view rule) {
    if (const WriterRuleInfo* info = find_writer_rule(rule)) return info->level == WriterRuleLevel::required;
    return rule == "decode";
}

std::string writer_rule_tag(std::string_view rule) {
    return "writer rule " + std::string(rule) + (writer_rule_required(rule) ? " (required)" : " (recommended)");
}

WriterJudgement judge_writer(std::string_view canonical, std::string_view testee) {
    return Judge(canonical, testee).run();
}

}  // namespace ond::conformance
