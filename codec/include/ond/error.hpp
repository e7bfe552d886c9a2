// Errors raised by the codec: one type, a stable code, the byte offset and the rule.
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <string_view>

#include "ond/lifetime.hpp"

namespace ond {

// Every way an input can be refused. The names (kebab case, `area.problem`) are stable and
// are what the corpus, the testee protocol (`error: CODE`) and the docs use; see error_table().
enum class Errc : std::uint16_t {
#define OND_ERROR(id, code, rule, verdict, summary) id,
#include "ond/error_codes.def"
#undef OND_ERROR
};

// How the rulings classify an input refused with this code.
enum class ErrorVerdict : std::uint8_t {
    invalid,                 // every conforming reader must reject
    implementation_defined,  // the reference rejects; the spec lets a reader accept
    content,                 // writer only: content that cannot be written
};

struct ErrorInfo {
    Errc errc;
    std::string_view code;     // e.g. "tokens.head-out-of-range"
    std::string_view rule;     // e.g. "R19"
    ErrorVerdict verdict;
    std::string_view summary;  // one line for people
};

// The whole table, in declaration order; data so that docs, corpus and runner share one list.
std::span<const ErrorInfo> error_table() noexcept;
const ErrorInfo& error_info(Errc e) noexcept;
// Looks a code up by name; nullptr when unknown.
const ErrorInfo* find_error(std::string_view code) noexcept;

inline constexpr std::uint64_t no_offset = ~std::uint64_t{0};

// The one error type of the codec. `offset` is the absolute byte offset in the input where the
// fault is (for streams: from the start of the stream), or no_offset for content refused by the
// writer, where `path` (e.g. "docs[0].tokens[3].head") says which field is at fault.
class Error : public std::exception {
public:
    Error(Errc errc, std::uint64_t offset, std::string detail, std::string path = {});

    Errc errc() const noexcept { return errc_; }
    std::string_view code() const noexcept { return error_info(errc_).code; }
    std::string_view rule() const noexcept { return error_info(errc_).rule; }
    ErrorVerdict verdict() const noexcept { return error_info(errc_).verdict; }
    std::uint64_t offset() const noexcept { return offset_; }
    // Of a temporary Error, copies, never references into it.
    const std::string& detail() const& noexcept OND_LIFETIMEBOUND { return detail_; }
    std::string detail() const&& { return detail_; }
    const std::string& path() const& noexcept OND_LIFETIMEBOUND { return path_; }
    std::string path() const&& { return path_; }
    // "invalid at byte 1037: tokens.head-out-of-range (R19): token 3 has head 9; ..."
    const char* what() const noexcept override { return what_.c_str(); }

private:
    Errc errc_;
    std::uint64_t offset_;
    std::string detail_;
    std::string path_;
    std::string what_;
};

}  // namespace ond
