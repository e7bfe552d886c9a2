// Check sites of the reader and rule sites of the writer, switchable in a test-only build.
//
// In ond::codec both macros compile to the plain check: OND_CHECK(e, cond) is (cond) (unless
// relaxed, below) and OND_CHECK_OFF(e) / OND_RULE_OFF(check) are false. Only the test target ond_codec_switchable
// (compiled with OND_CHECK_SWITCHES) can switch one reader check off by its error code, or one
// writer rule off by its id (writer_rules.def; OND_RULE_OFF names it by its check), to prove that the conformance suite notices (issue: suite power).
// A switched-off check lets the reader continue as if the check had passed (a confidence mode
// past 1 then reads as mode 1: tokens.cpp).
//
// Relaxed reading (both builds): for as long as a RelaxedChecks object lives, the reader on
// that thread lets through the implementation-defined checks it names, as a reader that
// accepts them would (the rulings' "if-accepted" reading), and the writer writes the
// implementation-defined content it names (content.score-out-of-range, content.duplicate-group)
// as it is. Only those codes can be relaxed: an invalid input stays invalid. The conformance
// runner reads an accepting writer's output and derives a mutation's if-accepted content this
// way; the corpus generator cross-checks its if-accepted files with it. A check is consulted
// only once its condition holds, so the ordinary reading path pays nothing for it.
#pragma once

#include <bitset>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ond/internal/fault.hpp"
#include "ond/error.hpp"
#include "ond/writer_rules.hpp"

namespace ond::detail {

class RelaxedChecks {
public:
    // Throws std::invalid_argument (without exceptions: stops the program) for a code that is neither implementation-defined nor one of
    // the two content codes a writer may write. `read_record_extras`: with section.misplaced
    // relaxed, sections 6 and 7 inside an ONDB record are read as that document's categories and
    // span groups (R9 allows it) instead of being skipped.
    explicit RelaxedChecks(const std::vector<Errc>& codes, bool read_record_extras = false)
        : previous_(current()), extras_(read_record_extras) {
        for (Errc e : codes) {
            if (!relaxable(e))
                detail::raise_logic<std::invalid_argument>("only implementation-defined checks can be relaxed, not " +
                                                           std::string(error_info(e).code));
            codes_.set(static_cast<std::size_t>(e));
        }
        current() = this;
    }
    RelaxedChecks(std::initializer_list<Errc> codes, bool read_record_extras = false)
        : RelaxedChecks(std::vector<Errc>(codes), read_record_extras) {}
    ~RelaxedChecks() { current() = previous_; }
    RelaxedChecks(const RelaxedChecks&) = delete;
    RelaxedChecks& operator=(const RelaxedChecks&) = delete;

    // Every implementation-defined reader code (error_codes.def) and the two content codes.
    static bool relaxable(Errc e) noexcept {
        return error_info(e).verdict == ErrorVerdict::implementation_defined || e == Errc::content_score_out_of_range ||
               e == Errc::content_duplicate_group;
    }
    // False while a RelaxedChecks on this thread names `e`.
    static bool enforced(Errc e) noexcept {
        for (const RelaxedChecks* r = current(); r; r = r->previous_)
            if (r->codes_.test(static_cast<std::size_t>(e))) return false;
        return true;
    }
    static bool reads_record_extras() noexcept {
        for (const RelaxedChecks* r = current(); r; r = r->previous_)
            if (r->extras_) return true;
        return false;
    }

private:
    static const RelaxedChecks*& current() noexcept {
        static thread_local const RelaxedChecks* now = nullptr;
        return now;
    }
    const RelaxedChecks* previous_;
    std::bitset<256> codes_;
    bool extras_;
};

// The reader check that meets what a writer refuses with `content_code` by its own choice:
// content.score-out-of-range -> categories.score-out-of-range, content.duplicate-group ->
// spans.duplicate-group-name; nullopt for every other code.
inline std::optional<Errc> reader_check_of(Errc content_code) noexcept {
    if (content_code == Errc::content_score_out_of_range) return Errc::categories_score_out_of_range;
    if (content_code == Errc::content_duplicate_group) return Errc::spans_duplicate_group_name;
    return std::nullopt;
}

}  // namespace ond::detail

#if defined(OND_CHECK_SWITCHES)

namespace ond::detail {
bool check_on(Errc e) noexcept;
bool rule_on(WriterRule rule) noexcept;
// Switches off the reader check with this code or the writer rule with this id (writer_rules.def);
// false if unknown.
bool switch_off(std::string_view code_or_rule);
}  // namespace ond::detail

#define OND_CHECK(errc, cond) ((cond) && ::ond::detail::check_on(errc) && ::ond::detail::RelaxedChecks::enforced(errc))
#define OND_CHECK_OFF(errc) (!::ond::detail::check_on(errc))
#define OND_RULE_OFF(rule) (!::ond::detail::rule_on(::ond::WriterRule::rule))

#else

#define OND_CHECK(errc, cond) ((cond) && ::ond::detail::RelaxedChecks::enforced(errc))
#define OND_CHECK_OFF(errc) false
#define OND_RULE_OFF(rule) false

#endif
