// The non-throwing forms of the top-level calls, and loading a file.
//
// Each try_ function does what its throwing namesake does and returns a Result: the value, or the
// ond::Error the namesake would have thrown (same code, offset, rule, path and message). Only
// std::bad_alloc still propagates.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/reader.hpp"

namespace ond {

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    // The value; throws the error when there is none.
    T& value() & {
        if (!ok()) throw std::get<1>(v_);
        return std::get<0>(v_);
    }
    const T& value() const& {
        if (!ok()) throw std::get<1>(v_);
        return std::get<0>(v_);
    }
    T&& value() && {
        if (!ok()) throw std::get<1>(v_);
        return std::get<0>(std::move(v_));
    }
    T* operator->() noexcept { return std::get_if<0>(&v_); }
    const T* operator->() const noexcept { return std::get_if<0>(&v_); }
    // The error; precondition: !ok().
    const Error& error() const noexcept { return *std::get_if<1>(&v_); }

private:
    std::variant<T, Error> v_;
};

// Success or an error, for the calls that return nothing.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : error_(std::move(error)) {}

    bool ok() const noexcept { return !error_.has_value(); }
    explicit operator bool() const noexcept { return ok(); }
    const Error& error() const noexcept { return *error_; }  // precondition: !ok()

private:
    std::optional<Error> error_;
};

Result<Container> try_decode(Bytes input);
Status try_decode_into(Bytes input, Container& out);
Result<Summary> try_validate(Bytes input);
Result<std::vector<std::byte>> try_encode(const Container& c);

// A file's whole contents (regular files, pipes and devices alike). The first throws
// std::filesystem::filesystem_error; the second sets `ec` instead and returns an empty vector.
std::vector<std::byte> load_file(const std::filesystem::path& path);
std::vector<std::byte> load_file(const std::filesystem::path& path, std::error_code& ec);

}  // namespace ond
