// Back-to-back ONDC containers from a stream (R25, R26).
#include <cstring>

#include "ond/stream.hpp"
#include "sections.hpp"

namespace ond {

StreamReader::StreamReader(ReadFn read) : read_(std::move(read)) {}

StreamReader::StreamReader(std::istream& in)
    : read_([&in](std::byte* dst, std::size_t max) -> std::size_t {
          in.read(reinterpret_cast<char*>(dst), static_cast<std::streamsize>(max));
          return static_cast<std::size_t>(in.gcount());
      }) {}

namespace {
// Reads until `want` bytes are in buf[have..] or the input ends; returns the bytes now held.
std::size_t read_fully(const ReadFn& read, std::byte* dst, std::size_t want) {
    std::size_t got = 0;
    while (got < want) {
        const std::size_t r = read(dst + got, want - got);
        if (r == 0) break;
        got += r;
    }
    return got;
}
}  // namespace

bool StreamReader::fill_container() {
    if (done_) return false;
    const std::uint64_t start = offset_;
    buf_.resize(detail::header_size);
    const std::size_t got = read_fully(read_, buf_.data(), detail::header_size);
    if (got == 0) {
        done_ = true;
        buf_.clear();
        return false;
    }
    done_ = true;  // stays set if anything below throws
    if (got < detail::header_size)
        throw Error(Errc::stream_truncated, start + got,
                    "the stream ends after " + detail::count_of(got, "byte", "bytes") + " of a container's header");
    if (OND_CHECK(Errc::stream_bin_in_stream, std::memcmp(buf_.data(), "ONDB", 4) == 0))
        throw Error(Errc::stream_bin_in_stream, start, "an ONDB container in a stream of ONDC containers");
    detail::Cursor hc(Bytes(buf_.data(), detail::header_size), start);
    const detail::Header h = detail::decode_header<detail::ValidateMode>(hc, nullptr);
    if (OND_CHECK(Errc::stream_length_too_large, h.body_length > stream_max_body_length))
        throw Error(Errc::stream_length_too_large, start + 8,
                    "a declared body length of " + detail::count_of(h.body_length, "byte", "bytes") + " (at most 1 GiB in a stream)");
    const std::uint64_t total = detail::header_size + std::uint64_t{h.body_length} + (h.crc ? detail::trailer_size : 0);
    // Grow with what arrives, 1 MiB at a time, so a false length cannot make us allocate it.
    std::size_t have = detail::header_size;
    while (have < total) {
        const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(total - have, stream_read_step));
        buf_.resize(have + step);
        const std::size_t r = read_fully(read_, buf_.data() + have, step);
        have += r;
        if (r < step)
            throw Error(Errc::stream_truncated, start + have,
                        "the stream ends " + detail::count_of(total - have, "byte", "bytes") + " before the end of the container");
    }
    offset_ = start + total;
    done_ = false;
    return true;
}

std::optional<Container> StreamReader::next() {
    if (!fill_container()) return std::nullopt;
    Container c;
    done_ = true;
    detail::decode_container<detail::DecodeMode>(Bytes(buf_.data(), buf_.size()), offset_ - buf_.size(), &c, nullptr);
    done_ = false;
    ++count_;
    return c;
}

bool StreamReader::skip_next() {
    if (!fill_container()) return false;
    done_ = true;
    detail::decode_container<detail::ValidateMode>(Bytes(buf_.data(), buf_.size()), offset_ - buf_.size(), nullptr, nullptr);
    done_ = false;
    ++count_;
    return true;
}

}  // namespace ond
