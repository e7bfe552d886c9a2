// Back-to-back ONDC containers from a stream (R25, R26).
#include <algorithm>
#include <cstring>
#include <memory>

#include "ond/stream.hpp"
#include "ond/internal/sections.hpp"

namespace ond {

StreamReader::StreamReader(ReadFn read) : read_(std::move(read)) {}

StreamReader::StreamReader(std::istream& in)
    : read_([&in](std::byte* dst, std::size_t max) -> std::size_t {
          in.read(reinterpret_cast<char*>(dst), static_cast<std::streamsize>(max));
          return static_cast<std::size_t>(in.gcount());
      }) {}

namespace {
// Hands out `input` from the start, as much as each call asks for; `keep` holds the bytes when
// the reader owns them.
ReadFn read_from(Bytes input, std::shared_ptr<const std::vector<std::byte>> keep = nullptr) {
    return [input, keep = std::move(keep), pos = std::size_t{0}](std::byte* dst, std::size_t max) mutable {
        const std::size_t n = std::min(max, input.size() - pos);
        if (n > 0) std::memcpy(dst, input.data() + pos, n);
        pos += n;
        return n;
    };
}
}  // namespace

StreamReader::StreamReader(Bytes input) : read_(read_from(input)) {}

StreamReader::StreamReader(std::vector<std::byte>&& bytes) {
    auto keep = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
    const Bytes view(*keep);
    read_ = read_from(view, std::move(keep));
}

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

namespace {

struct Started {
    detail::Header header;
    std::uint64_t total = 0;  // header, body and trailer
};

// Raises a fault in a header. Spelled out, not `return raise(...)`: a Bail would make an engaged
// optional. Without exceptions the nullopt is not a clean end: callers bail before looking.
std::optional<Started> refuse(Error e) {
    (void)detail::raise(std::move(e));
    return std::nullopt;
}

// Reads and checks a container's header into buf (12 bytes); nullopt, with buf emptied, at a
// clean end.
std::optional<Started> read_header(const ReadFn& read, std::vector<std::byte>& buf, std::uint64_t start) {
    buf.resize(detail::header_size);
    const std::size_t got = read_fully(read, buf.data(), detail::header_size);
    if (got == 0) {
        buf.clear();
        return std::nullopt;
    }
    if (got < detail::header_size)
        return refuse(Error(Errc::stream_truncated, start + got,
                            "the stream ends after " + detail::count_of(got, "byte", "bytes") + " of a container's header"));
    if (OND_CHECK(Errc::stream_bin_in_stream, std::memcmp(buf.data(), "ONDB", 4) == 0))
        return refuse(Error(Errc::stream_bin_in_stream, start, "an ONDB container in a stream of ONDC containers"));
    detail::Cursor hc(Bytes(buf.data(), detail::header_size), start);
    Started s;
    s.header = detail::decode_header<detail::ValidateMode>(hc, nullptr);
    OND_BAIL(std::nullopt);
    if (OND_CHECK(Errc::stream_length_too_large, s.header.body_length > stream_max_body_length))
        return refuse(Error(Errc::stream_length_too_large, start + 8,
                            "a declared body length of " + detail::count_of(s.header.body_length, "byte", "bytes") +
                                " (at most 1 GiB in a stream)"));
    s.total = detail::header_size + std::uint64_t{s.header.body_length} + (s.header.crc ? detail::trailer_size : 0);
    return s;
}

// The input ends `have` bytes into a container of `total` (start: where the container began):
// stream.truncated in a stream, container.truncated for one container (validate_arriving).
detail::Bail truncated(std::uint64_t start, std::uint64_t have, std::uint64_t total, Errc code = Errc::stream_truncated) {
    if (code == Errc::container_truncated)
        return detail::raise(Error(code, start + have, "the container declares " + detail::count_of(total, "byte", "bytes") +
                                                           ", but the input has " + std::to_string(have)));
    return detail::raise(Error(code, start + have, "the stream ends " + detail::count_of(total - have, "byte", "bytes") +
                                                       " before the end of the container"));
}

// The capacities a buffer for n bytes takes as they arrive: n, n/2, n/4, ... (rounded up), the
// least of them that holds `need`. Each is less than twice what has arrived plus one read, so a
// false length allocates no more than that (R26), and the last growth holds n/2 and n at once:
// 1.5 n at most, where doubling from the first read could hold nearly n and n.
std::size_t next_capacity(std::size_t n, std::size_t need) noexcept {
    std::size_t cap = n;
    while (cap > need && (cap + 1) / 2 >= need) cap = (cap + 1) / 2;  // cap > need: each step shrinks it
    return cap;
}

// The rest of a container as it arrives, for skip_next: counts the bytes, runs the CRC over
// them, and grows each buffer it fills with what arrives, at most 1 MiB a read (R26).
class Arriving final : public detail::ByteSource {
public:
    Arriving(const ReadFn& read, std::uint64_t start, std::uint64_t total, const std::vector<std::byte>& header,
             Errc truncated_code = Errc::stream_truncated)
        : read_(read), start_(start), total_(total), have_(header.size()),
          crc_(detail::crc32(reinterpret_cast<const std::uint8_t*>(header.data()), header.size())),
          truncated_code_(truncated_code) {}

    void take(std::vector<std::byte>& out, std::size_t n) override {
        out.clear();
        if (n > out.capacity()) std::vector<std::byte>().swap(out);  // never the old and the new at once
        std::size_t got = 0;
        while (got < n) {
            const std::size_t step = std::min(n - got, stream_read_step);
            if (got + step > out.capacity()) out.reserve(next_capacity(n, got + step));
            out.resize(got + step);
            const std::size_t r = read_fully(read_, out.data() + got, step);
            if (covered_) crc_ = detail::crc32(reinterpret_cast<const std::uint8_t*>(out.data() + got), r, crc_);
            have_ += r;
            got += r;
            if (r < step) return void(truncated(start_, have_, total_, truncated_code_));
        }
    }
    // The trailer: not covered by the CRC.
    std::uint32_t trailer() {
        covered_ = false;
        std::vector<std::byte> t;
        take(t, detail::trailer_size);
        OND_BAIL({});
        return detail::Cursor::load_u32(reinterpret_cast<const std::uint8_t*>(t.data()));
    }
    std::uint32_t crc() const noexcept { return crc_; }

private:
    const ReadFn& read_;
    std::uint64_t start_;
    std::uint64_t total_;
    std::uint64_t have_;
    std::uint32_t crc_;
    bool covered_ = true;
    Errc truncated_code_;
};

}  // namespace

bool StreamReader::fill_container() {
    if (done_) return false;
    const std::uint64_t start = offset_;
    done_ = true;  // stays set if anything below fails, and at a clean end
    const std::optional<Started> s = read_header(read_, buf_, start);
    OND_BAIL(false);
    if (!s) return false;
    read_rest(start, s->total);
    OND_BAIL(false);
    return true;
}

void StreamReader::read_rest(std::uint64_t start, std::uint64_t total) {
    // Grow with what arrives, 1 MiB at a time, so a false length cannot make us allocate it.
    std::size_t have = detail::header_size;
    while (have < total) {
        const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(total - have, stream_read_step));
        buf_.resize(have + step);
        const std::size_t r = read_fully(read_, buf_.data() + have, step);
        have += r;
        if (r < step) return void(truncated(start, have, total));
    }
    offset_ = start + total;
    done_ = false;
}

std::optional<Container> StreamReader::next() {
    Container c;
    if (!next(c)) return std::nullopt;
    return c;
}

bool StreamReader::next(Container& reuse) {
    if (!fill_container()) return false;  // also when it raised (done_ is left set)
    done_ = true;
    detail::decode_container<detail::DecodeMode>(Bytes(buf_.data(), buf_.size()), offset_ - buf_.size(), &reuse, nullptr);
    OND_BAIL(false);
    done_ = false;
    ++count_;
    return true;
}

bool StreamReader::skip_next() {
    if (done_) return false;
    const std::uint64_t start = offset_;
    done_ = true;  // stays set if anything below fails, and at a clean end
    const std::optional<Started> s = read_header(read_, buf_, start);
    OND_BAIL(false);
    if (!s) return false;
    if (s->header.format != Format::ondc) {  // only with the bin-in-stream check switched off (tests)
        read_rest(start, s->total);
        OND_BAIL(false);
        done_ = true;
        detail::decode_container<detail::ValidateMode>(Bytes(buf_.data(), buf_.size()), start, nullptr, nullptr);
        OND_BAIL(false);
        done_ = false;
        ++count_;
        return true;
    }
    Arriving src(read_, start, s->total, buf_);
    detail::TableView table;
    // The first fault met in arrival order ends the reading: nothing past it is read.
    const std::uint32_t tokens = detail::validate_ondc_body_streamed(src, start + detail::header_size, s->header.body_length,
                                                                     table, table_buf_, section_buf_);
    OND_BAIL(false);
    if (s->header.crc) {
        const std::uint32_t actual = src.crc();
        const std::uint32_t stored = src.trailer();
        OND_BAIL(false);
        detail::check_crc(stored, actual, start + detail::header_size + s->header.body_length);
        OND_BAIL(false);
    }
    offset_ = start + s->total;
    done_ = false;
    ++count_;
    last_skipped_ = {tokens, s->header.crc};
    return true;
}

bool StreamReader::skip_next(Skipped& checked) {
    last_skipped_ = {};
    const bool more = skip_next();
    OND_BAIL(false);
    checked = last_skipped_;
    return more;
}

Summary validate_arriving(const ReadFn& read) {
    std::vector<std::byte> head(detail::header_size);
    head.resize(read_fully(read, head.data(), detail::header_size));
    // The header's faults are validate()'s: fewer than 12 bytes is header.truncated at their end.
    detail::Cursor hc(Bytes(head.data(), head.size()), 0);
    const detail::Header h = detail::decode_header<detail::ValidateMode>(hc, nullptr);
    OND_BAIL({});
    const std::uint64_t total = detail::header_size + std::uint64_t{h.body_length} + (h.crc ? detail::trailer_size : 0);
    Arriving src(read, 0, total, head, Errc::container_truncated);
    Summary sum;
    sum.format = h.format;
    sum.crc = h.crc;
    detail::TableView table;
    std::vector<std::byte> table_bytes, section_bytes;
    if (h.format == Format::ondc) {
        sum.tokens = detail::validate_ondc_body_streamed(src, detail::header_size, h.body_length, table, table_bytes, section_bytes);
        OND_BAIL({});
        sum.docs = 1;
    } else {
        // An ONDB body is held as it arrives (never more than has come) and checked whole.
        src.take(section_bytes, h.body_length);
        OND_BAIL({});
        detail::Cursor body(Bytes(section_bytes.data(), section_bytes.size()), detail::header_size);
        detail::BinRecords bin = detail::decode_ondb_prologue<detail::ValidateMode>(body, table, nullptr, nullptr);
        OND_BAIL({});
        for (std::uint32_t i = 0; i < bin.count; ++i) {
            sum.tokens += detail::decode_record<detail::ValidateMode>(bin.records, i, table, nullptr, nullptr);
            OND_BAIL({});
        }
        detail::check_records_end(bin.records);
        OND_BAIL({});
        sum.docs = bin.count;
    }
    sum.strings = table.count();
    if (h.crc) {
        const std::uint32_t actual = src.crc();
        const std::uint32_t stored = src.trailer();
        OND_BAIL({});
        detail::check_crc(stored, actual, detail::header_size + h.body_length);
        OND_BAIL({});
    }
    // Then the input must end with the container (R6).
    std::byte one[1];
    if (OND_CHECK(Errc::container_trailing_bytes, read_fully(read, one, 1) != 0))
        return detail::raise(Error(Errc::container_trailing_bytes, total, "bytes follow the end of the container"));
    return sum;
}

}  // namespace ond
