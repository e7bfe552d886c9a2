// The float text rules of the content model (format_float, parse_float; see content_json.hpp).
#include <charconv>
#include <cmath>
#include <limits>

#include "content_common.hpp"
#include "ond/content_json.hpp"

namespace ond::json {

std::string format_float(float f) {
    if (!std::isfinite(f)) throw JsonError("a NaN or infinite value cannot be written as content JSON");
    if (f == 0.0f) return std::signbit(f) ? "-0.0" : "0.0";
    char buf[48];
    auto r = std::to_chars(buf, buf + sizeof buf, f);
    return std::string(buf, r.ptr);
}

namespace {

bool is_json_number(std::string_view t) {
    std::size_t i = 0;
    auto digit = [&](std::size_t k) { return k < t.size() && t[k] >= '0' && t[k] <= '9'; };
    if (i < t.size() && t[i] == '-') ++i;
    if (!digit(i)) return false;
    if (t[i] == '0') {
        ++i;
    } else {
        while (digit(i)) ++i;
    }
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digit(i)) return false;
        while (digit(i)) ++i;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (!digit(i)) return false;
        while (digit(i)) ++i;
    }
    return i == t.size();
}

// For a number from_chars found out of range: true when its magnitude is >= 1 (an overflow),
// false when it is below 1 (an underflow). Precondition: valid JSON number text, not zero.
bool magnitude_at_least_one(std::string_view t) {
    std::size_t i = t[0] == '-' ? 1 : 0;
    std::int64_t pos = 0;  // decimal exponent of the first non-zero digit's place, +1
    bool found = false;
    std::int64_t int_digits = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        if (!found && t[i] != '0') {
            found = true;
            int_digits = 0;
        }
        if (found) ++int_digits;
    }
    if (found) {
        pos = int_digits;
    }
    if (i < t.size() && t[i] == '.') {
        ++i;
        std::int64_t zeros = 0;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            if (!found) {
                if (t[i] == '0') {
                    ++zeros;
                } else {
                    found = true;
                    pos = -zeros;
                }
            }
        }
    }
    std::int64_t exp = 0;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool neg = false;
        if (t[i] == '+' || t[i] == '-') neg = t[i++] == '-';
        for (; i < t.size(); ++i) {
            if (exp < 1'000'000'000) exp = exp * 10 + (t[i] - '0');
        }
        if (neg) exp = -exp;
    }
    return pos + exp > 0;
}

}  // namespace

float parse_float(std::string_view t) {
    if (!is_json_number(t)) throw JsonError("not a JSON number: \"" + std::string(t.substr(0, 40)) + "\"");
    return detail::float_of_json_number(t);
}

float detail::float_of_json_number(std::string_view t) {
    float f = 0.0f;
    auto r = std::from_chars(t.data(), t.data() + t.size(), f, std::chars_format::general);
    const bool neg = t[0] == '-';
    if (r.ec == std::errc::result_out_of_range) {
        if (magnitude_at_least_one(t))
            f = neg ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
        else
            f = neg ? -0.0f : 0.0f;
    } else if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
        throw JsonError("cannot read the number \"" + std::string(t.substr(0, 40)) + "\"");
    }
    return f;
}

}  // namespace ond::json
