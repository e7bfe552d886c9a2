// The switches of check_switch.hpp; compiled into ond_codec_switchable only.
#include "check_switch.hpp"

#include <array>
#include <atomic>
#include <string>

namespace ond::detail {

namespace {

constexpr std::array<std::string_view, 9> writer_rules = {
    "W1-utf8", "W1-varint", "W2", "W3-unused", "W3-order", "W3-canonical", "W4", "W5-padding", "W5-flags"};

// One check or rule off at a time (set once at start-up, before any reading).
std::atomic<int> off_check{-1};
std::atomic<int> off_rule{-1};

}  // namespace

bool check_on(Errc e) noexcept { return static_cast<int>(e) != off_check.load(std::memory_order_relaxed); }

bool rule_on(std::string_view rule) noexcept {
    const int off = off_rule.load(std::memory_order_relaxed);
    return off < 0 || writer_rules[static_cast<std::size_t>(off)] != rule;
}

bool switch_off(std::string_view code_or_rule) {
    for (std::size_t i = 0; i < writer_rules.size(); ++i)
        if (writer_rules[i] == code_or_rule) {
            off_rule = static_cast<int>(i);
            return true;
        }
    if (const ErrorInfo* info = find_error(code_or_rule)) {
        off_check = static_cast<int>(info->errc);
        return true;
    }
    return false;
}

}  // namespace ond::detail
