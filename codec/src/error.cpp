#include "ond/error.hpp"

#include <array>

namespace ond {

namespace {
constexpr ErrorInfo table[] = {
#define OND_ERROR(id, code, rule, verdict, summary) {Errc::id, code, rule, ErrorVerdict::verdict, summary},
#include "ond/error_codes.def"
#undef OND_ERROR
};

std::string make_what(const ErrorInfo& info, std::uint64_t offset, const std::string& detail,
                      const std::string& path) {
    std::string s;
    if (offset != no_offset)
        s = "invalid at byte " + std::to_string(offset) + ": ";
    else
        s = "cannot write" + (path.empty() ? std::string() : " " + path) + ": ";
    s += info.code;
    s += " (";
    s += info.rule;
    s += "): ";
    s += detail.empty() ? std::string(info.summary) : detail;
    return s;
}
}  // namespace

std::span<const ErrorInfo> error_table() noexcept { return table; }

const ErrorInfo& error_info(Errc e) noexcept { return table[static_cast<std::size_t>(e)]; }

const ErrorInfo* find_error(std::string_view code) noexcept {
    for (const auto& e : table)
        if (e.code == code) return &e;
    return nullptr;
}

Error::Error(Errc errc, std::uint64_t offset, std::string detail, std::string path)
    : errc_(errc), offset_(offset), detail_(std::move(detail)), path_(std::move(path)),
      what_(make_what(error_info(errc), offset_, detail_, path_)) {}

}  // namespace ond
