#include "ond/listing.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "ond/internal/fault.hpp"
#include "ond/hex.hpp"
#include "ond/stream.hpp"

namespace ond {

namespace {

constexpr std::size_t shown_bytes = 16;
constexpr std::size_t hex_column = 64;  // 16 bytes (47 chars) + " ... (NNNNNNNN bytes)"

}  // namespace

std::string format_event(const InspectEvent& ev, Bytes bytes, std::uint64_t origin) {
    std::string line;
    hex::append(line, ev.offset + origin, 8);
    line += "  ";
    const std::size_t col = line.size();
    const std::uint64_t avail = ev.offset < bytes.size() ? bytes.size() - ev.offset : 0;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>({ev.length, shown_bytes, avail}));
    if (n) hex::append_bytes(line, reinterpret_cast<const unsigned char*>(bytes.data()) + ev.offset, n, ' ');
    if (ev.length > n) line += " ... (" + std::to_string(ev.length) + " bytes)";
    const std::size_t used = line.size() - col;
    line.append(used < hex_column ? hex_column - used : 1, ' ');
    line.append(static_cast<std::size_t>(std::max(ev.depth, 0)) * 2, ' ');
    line += ev.name;
    if (!ev.value.empty()) {
        line += ": ";
        line += ev.value;
    }
    return line;
}

std::string format_fault(const Error& e) {
    std::string line = "!! ";
    hex::append(line, e.offset() == no_offset ? 0 : e.offset(), 8);
    line += ' ';
    line += e.code();
    line += " (";
    line += e.rule();
    line += "): ";
    line += e.detail().empty() ? std::string(error_info(e.errc()).summary) : e.detail();
    return line;
}

namespace {

// Lists one container, `slice`, found at `origin` in a larger input; returns its error, if any.
std::optional<Error> list_container(Bytes slice, std::uint64_t origin, const LineSink& sink) {
    std::string line;
    return detail::capture([&] {
        inspect(slice, [&](const InspectEvent& ev) {
            if (ev.kind == InspectEvent::Kind::leave) return;
            line = format_event(ev, slice, origin);
            line += '\n';
            sink(line);
        });
    });
}

// A container's size from its header (magic and flags as read; the reader checks them), at
// most what `input` holds from `at`.
std::uint64_t container_size(Bytes input, std::uint64_t at) {
    const std::uint64_t left = input.size() - at;
    if (left < 12) return left;
    const auto* p = reinterpret_cast<const unsigned char*>(input.data()) + at;
    const std::uint64_t body = static_cast<std::uint64_t>(p[8]) | (static_cast<std::uint64_t>(p[9]) << 8) |
                               (static_cast<std::uint64_t>(p[10]) << 16) | (static_cast<std::uint64_t>(p[11]) << 24);
    const std::uint64_t size = 12 + body + ((p[6] & 1) ? 4 : 0);
    return std::min(size, left);
}

void append_to(std::string& out, std::string_view piece) { out.append(piece); }

}  // namespace

bool write_listing(Bytes input, const LineSink& sink) {
    auto err = list_container(input, 0, sink);
    if (err) sink(format_fault(*err) + "\n");
    return !err;
}

std::string format_listing(Bytes input, bool& ok) {
    std::string out;
    ok = write_listing(input, [&](std::string_view line) { append_to(out, line); });
    return out;
}

bool write_stream_listing(const ReadFn& read, const LineSink& sink) {
    // The verdict and the error are the stream reader's. The bytes it reads are kept until its
    // container is checked and listed, then dropped: one container in memory at a time, and
    // nothing is read past the first fault.
    std::vector<std::byte> held;
    std::uint64_t origin = 0;  // stream offset of held[0]
    StreamReader reader([&](std::byte* dst, std::size_t max) {
        const std::size_t n = read(dst, max);
        held.insert(held.end(), dst, dst + n);
        return n;
    });
    std::uint64_t index = 0;
    // skip_next() is false when it raised (without exceptions): the loop ends, capture() has it.
    const std::optional<Error> err = detail::capture([&] {
        while (reader.skip_next()) {
            const auto size = static_cast<std::size_t>(reader.offset() - origin);
            sink("# container " + std::to_string(index++) + "\n");
            list_container(Bytes(held.data(), size), origin, sink);
            held.erase(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(size));
            origin += size;
        }
    });
    if (err) {
        if (!held.empty()) {
            sink("# container " + std::to_string(index) + "\n");
            const Bytes all(held.data(), held.size());
            list_container(all.first(static_cast<std::size_t>(container_size(all, 0))), origin, sink);
        }
        sink(format_fault(*err) + "\n");
        return false;
    }
    return true;
}

std::string format_stream_listing(Bytes input, bool& ok) {
    // The verdict and the error are the stream reader's; the listing walks the same containers.
    std::size_t pos = 0;
    StreamReader reader([&](std::byte* dst, std::size_t max) {
        const std::size_t n = std::min(max, input.size() - pos);
        if (n) std::memcpy(dst, input.data() + pos, n);
        pos += n;
        return n;
    });
    std::uint64_t good = 0;
    const std::optional<Error> err = detail::capture([&] {
        while (reader.skip_next()) ++good;  // false when it raised (without exceptions)
    });

    std::string out;
    const LineSink sink = [&](std::string_view line) { append_to(out, line); };
    auto list_at = [&](std::uint64_t at, std::uint64_t size) {
        list_container(input.subspan(static_cast<std::size_t>(at), static_cast<std::size_t>(size)), at, sink);
    };
    std::uint64_t at = 0;
    for (std::uint64_t i = 0; i < good; ++i) {
        out += "# container " + std::to_string(i) + "\n";
        const std::uint64_t size = container_size(input, at);
        list_at(at, size);
        at += size;
    }
    ok = !err;
    if (err) {
        if (at < input.size()) {
            out += "# container " + std::to_string(good) + "\n";
            list_at(at, container_size(input, at));
        }
        out += format_fault(*err);
        out += '\n';
    }
    return out;
}

}  // namespace ond
