// The non-throwing forms of the top-level calls, and loading a file.
#include "ond/result.hpp"

#include <cerrno>
#include <fstream>
#include <optional>

#include "ond/internal/fault.hpp"
#include "ond/writer.hpp"

namespace ond {

namespace {
// Without exceptions f() may return a value left behind by the error: it is dropped.
template <class F>
auto capture(F&& f) -> Result<decltype(f())> {
    std::optional<decltype(f())> value;
    if (std::optional<Error> e = detail::capture([&] { value.emplace(f()); })) return std::move(*e);
    return std::move(*value);
}

template <class F>
Status capture_status(F&& f) {
    if (std::optional<Error> e = detail::capture(std::forward<F>(f))) return std::move(*e);
    return {};
}

// As detail::raise_logic: throws, or without exceptions prints the error and aborts.
[[noreturn]] void raise_filesystem(const char* what, const std::filesystem::path& path, std::error_code ec) {
#if OND_EXCEPTIONS
    throw std::filesystem::filesystem_error(what, path, ec);
#else
    detail::abort_with("filesystem", std::filesystem::filesystem_error(what, path, ec).what());
#endif
}
}  // namespace

Result<Container> try_decode(Bytes input) {
    return capture([&] { return decode(input); });
}

Status try_decode_into(Bytes input, Container& out) {
    return capture_status([&] { decode_into(input, out); });
}

Result<Summary> try_validate(Bytes input) {
    return capture([&] { return validate(input); });
}

Result<std::vector<std::byte>> try_encode(const Container& c) {
    return capture([&] { return encode(c); });
}

Result<DocBinReader> try_open(Bytes input) {
    return capture([&] { return DocBinReader(input); });
}

Result<DocBinReader> try_open(std::vector<std::byte>&& bytes) {
    return capture([&] { return DocBinReader(std::move(bytes)); });
}

Result<bool> try_next(DocBinReader& reader) {
    return capture([&] { return reader.next(); });
}

Result<bool> try_next(StreamReader& reader, Container& reuse) {
    return capture([&] { return reader.next(reuse); });
}

Result<bool> try_skip_next(StreamReader& reader) {
    return capture([&] { return reader.skip_next(); });
}

Result<std::size_t> try_skip(DocBinReader& reader, std::size_t n) {
    return capture([&] { return reader.skip(n); });
}

Result<BinIndex> try_index(Bytes input) {
    return capture([&] { return BinIndex(input); });
}

Result<BinIndex> try_index(std::vector<std::byte>&& bytes) {
    return capture([&] { return BinIndex(std::move(bytes)); });
}

Result<Container> try_decode(const BinIndex& index, std::size_t first, std::size_t last) {
    return capture([&] { return index.decode(first, last); });
}

Status try_decode_into(const BinIndex& index, std::size_t first, std::size_t last, Container& out) {
    return capture_status([&] { index.decode_into(first, last, out); });
}

Result<bool> try_skip_next(StreamReader& reader, StreamReader::Skipped& checked) {
    return capture([&] { return reader.skip_next(checked); });
}

Status try_encode_append(const Container& c, std::vector<std::byte>& out) {
    return capture_status([&] { encode_append(c, out); });
}

Status try_check_writable(const Container& c) {
    return capture_status([&] { check_writable(c); });
}

Status try_set_text(Doc& doc, std::string_view wtf8) {
    return capture_status([&] { doc.set_text(wtf8); });
}

Status try_append(Container& c, const Doc& doc, const StringStore& from) {
    return capture_status([&] { c.append(doc, from); });
}

Status try_replace(DocList& docs, std::size_t i, const Doc& doc) {
    return capture_status([&] { docs.replace(i, doc); });
}

Status try_set_attr(DocList& docs, std::size_t doc, std::size_t token, TokenColumn c, StringId id) {
    return capture_status([&] { docs.set_attr(doc, token, c, id); });
}

Status try_set_attr(Container& c, std::size_t doc, std::size_t token, TokenColumn column, std::string_view value) {
    return capture_status([&] { c.set_attr(doc, token, column, value); });
}

Status try_set_head(DocList& docs, std::size_t doc, std::size_t token, std::size_t head) {
    return capture_status([&] { docs.set_head(doc, token, head); });
}

Status try_set_sent(DocList& docs, std::size_t doc, std::size_t token, Sentence s) {
    return capture_status([&] { docs.set_sent(doc, token, s); });
}

Status try_set_conf(DocList& docs, std::size_t doc, std::size_t token, float conf) {
    return capture_status([&] { docs.set_conf(doc, token, conf); });
}

Status try_set_entity_label(DocList& docs, std::size_t doc, std::size_t ent, StringId label) {
    return capture_status([&] { docs.set_entity_label(doc, ent, label); });
}

Status try_set_entity_conf(DocList& docs, std::size_t doc, std::size_t ent, float conf) {
    return capture_status([&] { docs.set_entity_conf(doc, ent, conf); });
}

Status try_set_category_score(DocList& docs, std::size_t doc, std::size_t cat, float score) {
    return capture_status([&] { docs.set_category_score(doc, cat, score); });
}

Status try_set_span_label(DocList& docs, std::size_t doc, std::size_t group, std::size_t span, StringId label) {
    return capture_status([&] { docs.set_span_label(doc, group, span, label); });
}

Status try_merge(Container& into, const Container& from) {
    return capture_status([&] { merge(into, from); });
}

Result<Container> try_pack(std::span<const Container> parts, Format format) {
    return capture([&] { return pack(parts, format); });
}

Result<std::vector<Container>> try_split(const Container& from, std::size_t docs_per_part, Format format) {
    return capture([&] { return split(from, docs_per_part, format); });
}

Status try_push_back(Container& c, const Doc& doc) {
    return capture_status([&] { c.docs.push_back(doc); });
}

Status try_append(Container& c, const DocRef& doc) {
    return capture_status([&] { c.append(doc); });
}

Status try_append(Container& c, const RecordView& record) {
    return capture_status([&] { c.append(record); });
}

std::vector<std::byte> load_file(const std::filesystem::path& path, std::error_code& ec) {
    ec.clear();
    std::vector<std::byte> out;
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ec = std::error_code(errno != 0 ? errno : static_cast<int>(std::errc::io_error), std::generic_category());
        return out;
    }
    // The size is only a hint (a pipe has none, a file may grow): read until the end.
    constexpr std::size_t step = std::size_t{1} << 16;
    std::error_code size_ec;
    const auto hint = std::filesystem::file_size(path, size_ec);
    if (!size_ec) out.reserve(static_cast<std::size_t>(hint) + step);  // + step: the read that finds the end
    for (;;) {
        const std::size_t have = out.size();
        out.resize(have + step);
        in.read(reinterpret_cast<char*>(out.data() + have), static_cast<std::streamsize>(step));
        out.resize(have + static_cast<std::size_t>(in.gcount()));
        if (in.eof()) break;
        if (!in) {
            ec = std::make_error_code(std::errc::io_error);
            out.clear();
            return out;
        }
    }
    return out;
}

void save_file(const std::filesystem::path& path, Bytes bytes, std::error_code& ec) {
    ec.clear();
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        ec = std::error_code(errno != 0 ? errno : static_cast<int>(std::errc::io_error), std::generic_category());
        return;
    }
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) ec = std::make_error_code(std::errc::io_error);
}

void save_file(const std::filesystem::path& path, Bytes bytes) {
    std::error_code ec;
    save_file(path, bytes, ec);
    if (ec) raise_filesystem("ond::save_file", path, ec);
}

std::vector<std::byte> load_file(const std::filesystem::path& path) {
    std::error_code ec;
    std::vector<std::byte> out = load_file(path, ec);
    if (ec) raise_filesystem("ond::load_file", path, ec);
    return out;
}

}  // namespace ond
