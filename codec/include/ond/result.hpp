// The non-throwing forms of the top-level calls, and loading a file.
//
// Each try_ function does what its throwing namesake does and returns a Result: the value, or the
// ond::Error the namesake would have thrown (same code, offset, rule, path and message). Only
// std::bad_alloc still propagates. This header needs no exceptions: a program built with
// -fno-exceptions uses these forms and links ond::codec_noexcept, the library built the same
// way, where the error comes back to the try_ form without a throw (the same outcome as
// ond::codec's, checked by CTest's codec.noexcept-same-outcomes).
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "ond/bin_index.hpp"
#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/reader.hpp"
#include "ond/stream.hpp"

namespace ond {

namespace detail {
// What value() does without a value: throws the error, or, built without exceptions
// (-fno-exceptions), prints it and stops the program, as std::expected's value() would be
// unusable there.
[[noreturn]] inline void fail_with(const Error& e) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw e;
#else
    std::fprintf(stderr, "ond: error: %s\n", e.what());  // as the library does (src/fault.hpp)
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
    T& operator*() & noexcept OND_LIFETIMEBOUND { return *std::get_if<0>(&v_); }
    const T& operator*() const& noexcept OND_LIFETIMEBOUND { return *std::get_if<0>(&v_); }
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
    const Error& error() const& noexcept OND_LIFETIMEBOUND { return *std::get_if<1>(&v_); }
    Error error() const&& { return *std::get_if<1>(&v_); }  // of a temporary: a copy

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
    const Error& error() const& noexcept OND_LIFETIMEBOUND { return *error_; }  // precondition: !ok()
    Error error() const&& { return *error_; }  // of a temporary: a copy

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
// DocBinReader::skip, BinIndex's constructor and decode, without exceptions (a range outside
// the index stays a precondition: first <= last <= size()).
Result<std::size_t> try_skip(DocBinReader& reader, std::size_t n = 1);
Result<BinIndex> try_index(Bytes input);
Result<BinIndex> try_index(std::vector<std::byte>&& bytes);
Result<Container> try_decode(const BinIndex& index, std::size_t first, std::size_t last);
Status try_decode_into(const BinIndex& index, std::size_t first, std::size_t last, Container& out);

Result<bool> try_skip_next(StreamReader& reader, StreamReader::Skipped& checked);

// Writing, without exceptions.
Status try_encode_append(const Container& c, std::vector<std::byte>& out);
Status try_check_writable(const Container& c);

// Adding and changing documents, without exceptions: each refuses with the error its namesake
// would throw and leaves the container (or Doc) as it was. An index out of range stays a
// precondition (std::out_of_range from the namesake), as with a vector's at().
Status try_set_text(Doc& doc, std::string_view wtf8);
Status try_push_back(Container& c, const Doc& doc);
Status try_append(Container& c, const DocRef& doc);
Status try_append(Container& c, const RecordView& record);
Status try_append(Container& c, const Doc& doc, const StringStore& from);
Status try_replace(DocList& docs, std::size_t i, const Doc& doc);
// DocList::edit's form: the change runs here (it cannot throw in a program built without
// exceptions), the Doc goes back through try_replace.
template <class Change>
Status try_edit(DocList& docs, std::size_t i, Change&& change) {
    Doc d = docs.to_doc(i);
    change(d);
    return try_replace(docs, i, d);
}
Status try_set_attr(DocList& docs, std::size_t doc, std::size_t token, TokenColumn c, StringId id);
Status try_set_attr(Container& c, std::size_t doc, std::size_t token, TokenColumn column, std::string_view value);
Status try_set_head(DocList& docs, std::size_t doc, std::size_t token, std::size_t head);
Status try_set_sent(DocList& docs, std::size_t doc, std::size_t token, Sentence s);
Status try_set_conf(DocList& docs, std::size_t doc, std::size_t token, float conf);
Status try_set_entity_label(DocList& docs, std::size_t doc, std::size_t ent, StringId label);
Status try_set_entity_conf(DocList& docs, std::size_t doc, std::size_t ent, float conf);
Status try_set_category_score(DocList& docs, std::size_t doc, std::size_t cat, float score);
Status try_set_span_label(DocList& docs, std::size_t doc, std::size_t group, std::size_t span, StringId label);
Status try_merge(Container& into, const Container& from);
Result<Container> try_pack(std::span<const Container> parts, Format format = Format::ondb);
Result<std::vector<Container>> try_split(const Container& from, std::size_t docs_per_part, Format format);
// (DocBuilder's form is a builder made with ond::no_throw: ond/builder.hpp.)

// A file's whole contents (regular files, pipes and devices alike). The first throws
// std::filesystem::filesystem_error; the second sets `ec` instead and returns an empty vector.
std::vector<std::byte> load_file(const std::filesystem::path& path);
std::vector<std::byte> load_file(const std::filesystem::path& path, std::error_code& ec);
// Writes the bytes to a file, replacing its contents (load_file's converse). The first throws
// std::filesystem::filesystem_error; the second sets `ec` instead.
void save_file(const std::filesystem::path& path, Bytes bytes);
void save_file(const std::filesystem::path& path, Bytes bytes, std::error_code& ec);

}  // namespace ond
