// The canonical writer's rules (writer_rules.def), as data: what the codec's rule switches, the
// conformance suite's writer judgement and the docs' level tables read.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace ond {

// One enumerator per rule, named after the check that finds it broken.
enum class WriterRule : std::uint8_t {
#define OND_WRITER_RULE(check, id, rule, level, ruling, statement, reason) check,
#include "ond/writer_rules.def"
#undef OND_WRITER_RULE
};

// Required: the specification states the rule; recommended: only the rulings do.
enum class WriterRuleLevel : std::uint8_t { required, recommended };

struct WriterRuleInfo {
    WriterRule check;
    std::string_view check_name; // the enumerator's name, e.g. "first_use_order"
    std::string_view id;         // what findings and switches call it: W3 with a suffix, or W2
    std::string_view rule;       // the rules.json rule it belongs to, e.g. "W3"
    WriterRuleLevel level;
    std::string_view ruling;     // e.g. "docs/rulings.md#w3"
    std::string_view statement;  // what a canonical writer does
};

namespace detail {
inline constexpr std::array writer_rule_table{
#define OND_WRITER_RULE(check, id, rule, level, ruling, statement, reason) \
    WriterRuleInfo{WriterRule::check, #check, id, rule, WriterRuleLevel::level, ruling, statement},
#include "ond/writer_rules.def"
#undef OND_WRITER_RULE
};
}  // namespace detail

// The whole table, in declaration order.
constexpr std::span<const WriterRuleInfo> writer_rule_table() noexcept { return detail::writer_rule_table; }
constexpr const WriterRuleInfo& writer_rule_info(WriterRule r) noexcept {
    return detail::writer_rule_table[static_cast<std::size_t>(r)];
}
// Looks a rule up by id; nullptr when unknown.
constexpr const WriterRuleInfo* find_writer_rule(std::string_view id) noexcept {
    for (const WriterRuleInfo& info : detail::writer_rule_table)
        if (info.id == id) return &info;
    return nullptr;
}

}  // namespace ond
