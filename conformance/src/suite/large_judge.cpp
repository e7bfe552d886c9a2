#include "suite/large_judge.hpp"

#include <algorithm>

#include "ond/inspect.hpp"
#include "ond/ond.hpp"
#include "ond/text_escape.hpp"

namespace ond::conformance::large_judge {

namespace {

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

}  // namespace

// The first `count` bytes `pieces` make (all of them when count is larger).
std::string prefix_of(PieceReader pieces, std::uint64_t count) {
    std::string out;
    for (std::string_view p = pieces(); !p.empty() && out.size() < count; p = pieces())
        out.append(p.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(p.size(), count - out.size()))));
    return out;
}

DifferenceAt where_they_differ(PieceReader canonical, const std::vector<std::uint64_t>& lengths, std::uint64_t canonical_size,
                               std::string_view got) {
    const std::uint64_t at = first_difference(std::move(canonical), lengths, got);
    const std::string name = field_at(got, at);
    return {"; first difference at byte " + std::to_string(at) + (name.empty() ? "" : " (" + name + ")") + ", got " +
                std::to_string(got.size()) + " bytes, canonical " + std::to_string(canonical_size),
            name.empty() ? "byte " + std::to_string(at) : name};
}

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

Finding other_content(const std::pair<std::string, std::string>& d, const DifferenceAt& where) {
    return {Level::required, Check::content, escape_text("the bytes written decode to other content: " + d.first + ": " + d.second + where.text, false),
            content_rule(d.first), d.first};
}

std::vector<Finding> writer_findings(const std::vector<WriterFinding>& broken, const DifferenceAt& where,
                                     const std::vector<std::string>& rules) {
    std::vector<Finding> out;
    for (const WriterFinding& f : broken) {
        const WriterRuleInfo* info = find_writer_rule(f.rule);
        out.push_back({f.required ? Level::required : Level::recommended, Check::canonical_writer,
                       escape_text(writer_rule_tag(f.rule) + ": " + f.message + where.text, false),
                       info ? std::string(info->rule) : rules.empty() ? std::string() : rules.front(), where.field});
    }
    return out;
}

void RulesBroken::operator()(WriterRule rule, const std::string& message) {
    const WriterRuleInfo& info = writer_rule_info(rule);
    for (const auto& f : out_)
        if (f.rule == info.id) return;
    out_.push_back({std::string(info.id), writer_rule_required(info.id), std::string(info.rule) + ": " + message});
}

std::vector<WriterFinding> RulesBroken::take() && {
    if (out_.empty()) out_.push_back({"unidentified", false, "the bytes differ from the canonical bytes, but no writer rule was identified"});
    return std::move(out_);
}

std::string section_list(const std::vector<int>& ids) {
    std::string out;
    for (int id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
    return out;
}

}  // namespace ond::conformance::large_judge
