// The non-throwing forms of the top-level calls, and loading a file.
#include "ond/result.hpp"

#include <cerrno>
#include <fstream>

#include "ond/writer.hpp"

namespace ond {

namespace {
template <class F>
auto capture(F&& f) -> Result<decltype(f())> {
    try {
        return f();
    } catch (Error& e) {
        return std::move(e);
    }
}

template <class F>
Status capture_status(F&& f) {
    try {
        f();
        return {};
    } catch (Error& e) {
        return std::move(e);
    }
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

Status try_push_back(Container& c, const Doc& doc) {
    return capture_status([&] { c.docs.push_back(doc); });
}

Status try_append(Container& c, const DocView& doc) {
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

std::vector<std::byte> load_file(const std::filesystem::path& path) {
    std::error_code ec;
    std::vector<std::byte> out = load_file(path, ec);
    if (ec) throw std::filesystem::filesystem_error("ond::load_file", path, ec);
    return out;
}

}  // namespace ond
