// The switches of check_switch.hpp; compiled into ond_codec_switchable only.
#include "ond/internal/check_switch.hpp"

#include <atomic>

namespace ond::detail {

namespace {

// One check or rule off at a time (set once at start-up, before any reading).
std::atomic<int> off_check{-1};
std::atomic<int> off_rule{-1};

}  // namespace

bool check_on(Errc e) noexcept { return static_cast<int>(e) != off_check.load(std::memory_order_relaxed); }

bool rule_on(WriterRule rule) noexcept { return static_cast<int>(rule) != off_rule.load(std::memory_order_relaxed); }

bool switch_off(std::string_view code_or_rule) {
    if (const WriterRuleInfo* rule = find_writer_rule(code_or_rule)) {
        off_rule = static_cast<int>(rule->check);
        return true;
    }
    if (const ErrorInfo* info = find_error(code_or_rule)) {
        off_check = static_cast<int>(info->errc);
        return true;
    }
    return false;
}

}  // namespace ond::detail
