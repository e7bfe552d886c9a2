// The non-throwing forms of the top-level calls, and loading a file.
//
// Each try_ function does what its throwing namesake does and returns a Result: the value, or the
// ond::Error the namesake would have thrown (same code, offset, rule, path and message). Only
// std::bad_alloc still propagates. This header needs no exceptions: a program built with
// -fno-exceptions uses these forms (the library itself is built with them).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/reader.hpp"
#include "ond/stream.hpp"

namespace ond {

namespace detail {
// What value() does without a value: throws the error, or, built without exceptions
// (-fno-exceptions), stops the program as std::expected's value() would be unusable there.
[[noreturn]] inline void fail_with(const Error& e) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw e;
#else
    (void)e;
    std::abort();
#endif
}
}  // namespace detail

// A value or the ond::Error that stopped it, shaped like std::expected<T, ond::Error>:
// has_value() / operator bool, operator* and -> (precondition: a value), value() (the error
// thrown when there is none; under -fno-exceptions, std::abort), value_or, error()
// (precondition: no value). Every member but value() works without exceptions.
template <class T>
class [[nodiscard]] Result {
public:
    using value_type = T;
    using error_type = Error;

    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const noexcept { return v_.index() == 0; }
    bool ok() const noexcept { return has_value(); }
    explicit operator bool() const noexcept { return has_value(); }

    T& value() & {
        if (!ok()) detail::fail_with(error());
        return *std::get_if<0>(&v_);
    }
    const T& value() const& {
        if (!ok()) detail::fail_with(error());
        return *std::get_if<0>(&v_);
    }
    T&& value() && {
        if (!ok()) detail::fail_with(error());
        return std::move(*std::get_if<0>(&v_));
    }
    T& operator*() & noexcept { return *std::get_if<0>(&v_); }
    const T& operator*() const& noexcept { return *std::get_if<0>(&v_); }
    T&& operator*() && noexcept { return std::move(*std::get_if<0>(&v_)); }
    T* operator->() noexcept { return std::get_if<0>(&v_); }
    const T* operator->() const noexcept { return std::get_if<0>(&v_); }
    template <class U>
    T value_or(U&& fallback) const& {
        return ok() ? **this : static_cast<T>(std::forward<U>(fallback));
    }
    template <class U>
    T value_or(U&& fallback) && {
        return ok() ? std::move(**this) : static_cast<T>(std::forward<U>(fallback));
    }
    // The error; precondition: no value.
    const Error& error() const noexcept { return *std::get_if<1>(&v_); }

private:
    std::variant<T, Error> v_;
};

// Success or an error, for the calls that return nothing (std::expected<void, Error>'s shape).
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : error_(std::move(error)) {}

    bool has_value() const noexcept { return !error_.has_value(); }
    bool ok() const noexcept { return has_value(); }
    explicit operator bool() const noexcept { return ok(); }
    void value() const {
        if (!ok()) detail::fail_with(*error_);
    }
    const Error& error() const noexcept { return *error_; }  // precondition: !ok()

private:
    std::optional<Error> error_;
};

Result<Container> try_decode(Bytes input);
Status try_decode_into(Bytes input, Container& out);
Result<Summary> try_validate(Bytes input);
Result<std::vector<std::byte>> try_encode(const Container& c);

// The readers, without exceptions. try_open checks what DocBinReader's constructor checks;
// try_next gives true (a record, seen through doc()), false (the end, every check passed) or
// the error next() would throw. The same for a StreamReader (true: a container in `reuse`).
Result<DocBinReader> try_open(Bytes input);
Result<DocBinReader> try_open(std::vector<std::byte>&& bytes);
Result<bool> try_next(DocBinReader& reader);
Result<bool> try_next(StreamReader& reader, Container& reuse);
Result<bool> try_skip_next(StreamReader& reader);

// Adding documents, without exceptions: push_back, append and the in-place edits refuse with
// the error they would throw (and leave the container as it was).
Status try_push_back(Container& c, const Doc& doc);
Status try_append(Container& c, const DocView& doc);
Status try_append(Container& c, const RecordView& record);

// A file's whole contents (regular files, pipes and devices alike). The first throws
// std::filesystem::filesystem_error; the second sets `ec` instead and returns an empty vector.
std::vector<std::byte> load_file(const std::filesystem::path& path);
std::vector<std::byte> load_file(const std::filesystem::path& path, std::error_code& ec);

}  // namespace ond
