// The 12-byte header (R6) and the CRC-32 trailer (R7).
#include <pthread.h>

#include <atomic>
#include <bit>
#include <cstring>
#include <string>

#ifdef OND_CRC_ISAL
#include <isa-l/crc.h>
#else
#include <zlib.h>
#endif

#include "ond/internal/sections.hpp"
#include "ond/hex.hpp"
#include "trace_format.hpp"

static_assert(std::endian::native == std::endian::little, "the codec reads floats and u32 columns in place");

namespace ond::detail {

std::uint32_t crc32(const std::uint8_t* p, std::size_t n, std::uint32_t crc) noexcept {
#ifdef OND_CRC_ISAL
    // The same CRC as zlib's (reflected 0xEDB88320, pre- and post-inverted), folded with PCLMUL.
    return crc32_gzip_refl(crc, p, n);
#else
    uLong c = crc;
    while (n > 0) {  // zlib takes a uInt length
        const uInt chunk = n > (1u << 30) ? (1u << 30) : static_cast<uInt>(n);
        c = ::crc32(c, p, chunk);
        p += chunk;
        n -= chunk;
    }
    return static_cast<std::uint32_t>(c);
#endif
}

template <class M>
Header decode_header(Cursor& c, Tracer* tr) {
    const std::uint64_t base = c.offset();
    if (OND_CHECK(Errc::header_truncated, c.remaining() < header_size))
        return fail(Errc::header_truncated, c.end_offset(),
             "the input has " + detail::count_of(c.remaining(), "byte", "bytes") + "; a header needs 12");
    const std::uint8_t* magic = c.bytes(4);
    OND_BAIL({});
    Header h;
    if (std::memcmp(magic, "ONDC", 4) == 0)
        h.format = Format::ondc;
    else if (std::memcmp(magic, "ONDB", 4) == 0)
        h.format = Format::ondb;
    else if (OND_CHECK(Errc::header_bad_magic, true))
        return fail(Errc::header_bad_magic, base, "the magic is not ONDC or ONDB");
    if constexpr (M::trace) tr->field(base, 4, "header.magic", h.format == Format::ondc ? "ONDC" : "ONDB");
    const std::uint16_t version = c.u16();
    OND_BAIL({});
    if (OND_CHECK(Errc::header_bad_version, version != 1))
        return fail(Errc::header_bad_version, base + 4, "format version " + std::to_string(version) + " (must be 1)");
    if constexpr (M::trace) tr->field(base + 4, 2, "header.version", "1");
    const std::uint16_t flags = c.u16();
    OND_BAIL({});
    if (OND_CHECK(Errc::header_bad_flags, flags > 1))
        return fail(Errc::header_bad_flags, base + 6, "flags " + std::to_string(flags) + " set bits other than bit 0");
    h.crc = flags == 1;
    if constexpr (M::trace) tr->field(base + 6, 2, "header.flags", h.crc ? "1 (CRC-32 trailer)" : "0 (no trailer)");
    h.body_length = c.u32();
    OND_BAIL({});
    if constexpr (M::trace) tr->field(base + 8, 4, "header.body-length", std::to_string(h.body_length));
    return h;
}

std::uint64_t check_container_size(const Header& h, std::uint64_t total, std::uint64_t origin) {
    const std::uint64_t expected = header_size + std::uint64_t{h.body_length} + (h.crc ? trailer_size : 0);
    if (total < expected)
        return fail(Errc::container_truncated, origin + total,
             "the container declares " + detail::count_of(expected, "byte", "bytes") + ", but the input has " + std::to_string(total));
    if (OND_CHECK(Errc::container_trailing_bytes, total > expected))
        return fail(Errc::container_trailing_bytes, origin + expected,
             detail::count_of(total - expected, "byte", "bytes") + " follow the end of the container");
    return expected;
}

namespace {
std::string hex32(std::uint32_t v) { return "0x" + hex::of(v, 8); }
}  // namespace

void check_crc(std::uint32_t stored, std::uint32_t actual, std::uint64_t offset) {
    if (OND_CHECK(Errc::crc_mismatch, stored != actual))
        return void(fail(Errc::crc_mismatch, offset,
             "the trailer holds CRC-32 " + hex32(stored) + ", but the bytes before it give " + hex32(actual)));
}

namespace {
std::atomic<bool> crc_thread_allowed{true};
}  // namespace

// POSIX threads directly: their failure to start is a return value (the CRC is then computed on
// the calling thread), in the build without exceptions too. Nothing is allocated.
void* CrcJob::run(void* self) noexcept {
    auto* job = static_cast<CrcJob*>(self);
    job->crc_ = crc32(job->p_, job->n_);
    return nullptr;
}

CrcJob::CrcJob(const std::uint8_t* p, std::size_t n, bool may_overlap) noexcept : p_(p), n_(n) {
    if (!may_overlap || n < crc_thread_min_bytes || !crc_thread_allowed.load(std::memory_order_relaxed)) return;
    running_ = pthread_create(&thread_, nullptr, &CrcJob::run, this) == 0;
}

CrcJob::~CrcJob() { (void)result(); }

std::uint32_t CrcJob::result() noexcept {
    if (have_) return crc_;
    if (running_) {
        pthread_join(thread_, nullptr);
        running_ = false;
    } else {
        crc_ = crc32(p_, n_);
    }
    have_ = true;
    return crc_;
}

template <class M>
void check_trailer(Bytes all, std::uint64_t origin, Tracer* tr, CrcJob* job) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(all.data());
    const std::size_t covered = all.size() - trailer_size;
    const std::uint32_t stored = Cursor::load_u32(p + covered);
    const std::uint32_t actual = job ? job->result() : crc32(p, covered);
    if constexpr (M::trace) tr->field(origin + covered, 4, "trailer.crc32", hex32(stored));
    check_crc(stored, actual, origin + covered);
}

#define OND_INSTANTIATE(M)                                 \
    template Header decode_header<M>(Cursor&, Tracer*);    \
    template void check_trailer<M>(Bytes, std::uint64_t, Tracer*, CrcJob*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail

namespace ond {
void set_crc_thread(bool allowed) noexcept { detail::crc_thread_allowed.store(allowed, std::memory_order_relaxed); }
}  // namespace ond
