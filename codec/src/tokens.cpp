// The tokens, section 3 (R17-R21, R3).
#include <algorithm>
#include <array>
#include <cstring>

#include "ond/internal/doc_list_build.hpp"
#include "ond/internal/sections.hpp"
#include "trace_format.hpp"
#include "varint_bulk.hpp"

namespace ond::detail {

namespace {

std::string indexed(const char* what, std::uint32_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

// The four 2-bit sentence marks of a byte, low bits first, as four bytes of Sentence values
// (little-endian host, checked in header.cpp).
constexpr std::array<std::uint32_t, 256> sentence_marks = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t b = 0; b < 256; ++b)
        for (std::uint32_t k = 0; k < 4; ++k) t[b] |= ((b >> (2 * k)) & 3u) << (8 * k);
    return t;
}();
static_assert(sizeof(Sentence) == 1);

// The longest run of indexes (6 per token) DecodeMode reads through a buffer on the stack.
constexpr std::size_t flat_indexes_max = 1024;

// One string index with every check (R1, R13).
inline std::uint32_t read_index(Cursor& sec, const TableView& table) {
    const std::uint64_t off = sec.offset();
    std::uint32_t idx = sec.varint();
    OND_BAIL({});
    if (idx > table.count()) [[unlikely]]
        idx = table.check_index(idx, off);
    return idx;
}

// `count` string indexes, each at most the table's count, into dst[0..count) when dst is not
// null: the fast path (varint_bulk.hpp) up to what it cannot take, then that one varint with
// every check.
inline void read_indexes(const VarintKernels& fast, Cursor& sec, const TableView& table, StringId* dst, std::size_t count) {
    const std::uint32_t table_count = table.count();
    for (std::size_t i = 0; i < count; ++i) {
        i += varint_bulk::indexes(fast, sec, dst ? dst + i : nullptr, count - i, table_count);
        if (i == count) break;
        const std::uint32_t idx = read_index(sec, table);
        OND_BAIL();
        if (dst) dst[i] = idx;
    }
}
// Ids that fit in 2 bytes (DocListBuild::fit_ids made the columns narrow only then), narrowed.
inline void narrow_ids(const StringId* ids, std::size_t m, std::uint16_t* out) noexcept {
    std::transform(ids, ids + m, out, [](StringId id) { return static_cast<std::uint16_t>(id); });
}


// ---- the steps of section 3, in the order of its bytes ------------------------------------
// Each reads its part of the section into the token rows `t` (DecodeMode; empty otherwise); a
// failed check returns with the error raised (without exceptions: the caller bails). They are
// inlined into decode_tokens_section, so the steps cost no call: the code is the one loop nest
// it was before it was split.

// n, checked against the limit (L4) and against the bytes left: every token takes at least 9.
template <class M>
[[gnu::always_inline]] inline std::uint32_t read_token_count(Cursor& sec, Tracer* tr) {
    const std::uint64_t n_offset = sec.offset();
    const std::uint32_t n = sec.varint();
    OND_BAIL({});
    if (OND_CHECK(Errc::tokens_count_too_large, n > max_tokens))
        return fail(Errc::tokens_count_too_large, n_offset,
             std::to_string(n) + " tokens declared; at most " + grouped(max_tokens) + " are allowed");
    if (OND_CHECK(Errc::tokens_count_exceeds_bytes, 9ull * n > sec.remaining()))
        return fail(Errc::tokens_count_exceeds_bytes, n_offset,
             detail::count_of(n, "token", "tokens") + " need at least " + detail::count_of(9ull * n, "byte", "bytes") + ", but the section has " +
                 std::to_string(sec.remaining()) + " left");
    if constexpr (M::trace) tr->field(n_offset, sec.offset() - n_offset, "tokens.count", std::to_string(n));
    return n;
}

// Spans: gap from the previous end, then length; both in UTF-16 code units.
// Outside InspectMode each loop first takes the fast path (varint_bulk.hpp, at the level
// varint_level.hpp chose), which stops before anything it cannot take; the simple path then reads that one item with every check.
template <class M>
[[gnu::always_inline]] inline void read_spans([[maybe_unused]] const VarintKernels& fast, Cursor& sec, [[maybe_unused]] TokenRows& t, std::uint32_t n,
                std::uint32_t text_utf16_length, [[maybe_unused]] Tracer* tr) {
    std::uint64_t prev_end = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        if constexpr (!M::trace) {
            std::uint32_t *starts = nullptr, *lengths = nullptr;
            if constexpr (M::build) starts = t.start, lengths = t.length;
            i = varint_bulk::spans(fast, sec, starts, lengths, i, n, prev_end, text_utf16_length);
            if (i == n) break;
        }
        const std::uint64_t tok_offset = sec.offset();
        const std::uint32_t gap = sec.varint();
        const std::uint64_t len_offset = sec.offset();
        const std::uint32_t len = sec.varint();
        OND_BAIL();
        if (OND_CHECK(Errc::tokens_empty, len == 0))
            return void(fail(Errc::tokens_empty, len_offset, "token " + std::to_string(i) + " has length 0"));
        const std::uint64_t start = prev_end + gap;
        const std::uint64_t end = start + len;
        if (OND_CHECK(Errc::tokens_out_of_text, end > text_utf16_length))
            return void(fail(Errc::tokens_out_of_text, tok_offset,
                 "token " + std::to_string(i) + " ends at " + std::to_string(end) + ", past the text's " +
                     detail::count_of(text_utf16_length, "UTF-16 unit", "UTF-16 units")));
        if constexpr (M::build) {
            t.start[i] = static_cast<std::uint32_t>(start);
            t.length[i] = len;
        }
        if constexpr (M::trace)
            tr->field(tok_offset, sec.offset() - tok_offset, indexed("tokens.span", i),
                      "gap " + std::to_string(gap) + ", length " + std::to_string(len) + " -> [" +
                          std::to_string(start) + ", " + std::to_string(end) + ")");
        prev_end = end;
    }
}

// Six attribute columns of string indexes (R13).
template <class M>
[[gnu::always_inline]] inline void read_attrs([[maybe_unused]] const VarintKernels& fast, Cursor& sec, const TableView& table, [[maybe_unused]] TokenRows& t,
                std::uint32_t n, [[maybe_unused]] Tracer* tr) {
    if constexpr (!M::trace) {
        // The six columns lie back to back in the bytes and share one limit, so they are read as
        // one run of 6n indexes: six runs of a short document's n would each be too short for the
        // fast path's wide blocks. DecodeMode reads the run into a buffer on the stack when it
        // fits and copies it out per column; a longer document's columns are long runs already.
        const std::size_t total = token_column_count * std::size_t{n};
        if constexpr (!M::build) {
            read_indexes(fast, sec, table, nullptr, total);
            OND_BAIL();
        } else if (total <= flat_indexes_max) {
            StringId flat[flat_indexes_max];
            read_indexes(fast, sec, table, flat, total);
            OND_BAIL();
            // The narrow columns' ids: narrowed in one pass (one short tail, not six), then copied out.
            if (n != 0 && std::any_of(t.wide_attrs.begin(), t.wide_attrs.end(), [](const StringId* w) { return !w; })) {
                std::uint16_t flat16[flat_indexes_max];
                narrow_ids(flat, total, flat16);
                for (std::size_t c = 0; c < token_column_count; ++c)
                    if (!t.wide_attrs[c]) std::memcpy(t.narrow_attrs[c], flat16 + c * n, 2 * std::size_t{n});
            }
            for (std::size_t c = 0; c < token_column_count; ++c)
                if (t.wide_attrs[c]) std::copy_n(flat + c * n, n, t.wide_attrs[c]);
        } else {
            for (std::size_t c = 0; c < token_column_count; ++c) {
                if (t.wide_attrs[c]) {
                    read_indexes(fast, sec, table, t.wide_attrs[c], n);
                    OND_BAIL();
                    continue;
                }
                // A narrow column: read through the stack buffer, a block at a time.
                StringId block[flat_indexes_max];
                for (std::size_t i = 0; i < n; i += flat_indexes_max) {
                    const std::size_t m = std::min<std::size_t>(flat_indexes_max, n - i);
                    read_indexes(fast, sec, table, block, m);
                    OND_BAIL();
                    narrow_ids(block, m, t.narrow_attrs[c] + i);
                }
            }
        }
    } else {
        for (std::size_t c = 0; c < token_column_count; ++c) {
            for (std::uint32_t i = 0; i < n; ++i) {
                const std::uint64_t off = sec.offset();
                const std::uint32_t idx = read_index(sec, table);
                OND_BAIL();
                tr->field(off, sec.offset() - off, std::string("tokens.") + token_column_names[c] + "[" + std::to_string(i) + "]",
                          idx == 0 ? std::string("0 (not set)") : std::to_string(idx) + " " + describe_string(table.entry(idx)));
            }
        }
    }
}

// Heads: zig-zag deltas to the head's index (R19).
template <class M>
[[gnu::always_inline]] inline void read_heads([[maybe_unused]] const VarintKernels& fast, Cursor& sec, [[maybe_unused]] TokenRows& t, std::uint32_t n,
                [[maybe_unused]] Tracer* tr) {
    for (std::uint32_t i = 0; i < n; ++i) {
        if constexpr (!M::trace) {
            std::int32_t* heads = nullptr;
            if constexpr (M::build) heads = t.head;
            i = varint_bulk::heads(fast, sec, heads, i, n);
            if (i == n) break;
        }
        const std::uint64_t off = sec.offset();
        const std::int32_t delta = sec.svarint();
        OND_BAIL();
        const std::int64_t head = static_cast<std::int64_t>(i) + delta;
        if (OND_CHECK(Errc::tokens_head_out_of_range, head < 0 || head >= static_cast<std::int64_t>(n)))
            return void(fail(Errc::tokens_head_out_of_range, off,
                 "token " + std::to_string(i) + " has head " + std::to_string(head) + "; the document has " +
                     detail::count_of(n, "token", "tokens")));
        if constexpr (M::build) t.head[i] = static_cast<std::int32_t>(head);
        if constexpr (M::trace)
            tr->field(off, sec.offset() - off, indexed("tokens.head", i),
                      std::to_string(delta) + " (head = token " + std::to_string(head) + ")");
    }
}

// Sentence boundaries: two bits per token, low bits first (R20).
template <class M>
[[gnu::always_inline]] inline void read_sentences(Cursor& sec, [[maybe_unused]] TokenRows& t, std::uint32_t n, [[maybe_unused]] Tracer* tr) {
    const std::size_t sent_bytes = (static_cast<std::size_t>(n) + 3) / 4;
    const std::uint64_t sent_offset = sec.offset();
    const std::uint8_t* sb = sec.bytes(sent_bytes);
    OND_BAIL();
    std::uint32_t first_mark = 0;
    if constexpr (!M::build && !M::trace) {
        // Validation: 32 marks (8 bytes) a step while none is 3, i.e. has both bits set (R20);
        // a 3 leaves the first one to the loop below, which raises it.
        while (n - first_mark >= 32) {
            std::uint64_t w;
            std::memcpy(&w, sb + first_mark / 4, 8);
            if (w & (w >> 1) & 0x5555555555555555ull) break;
            first_mark += 32;
        }
    }
    if constexpr (M::build) {
        // Decoding: 4 marks (a byte) a step while none is 3, widened by a table; the loop below
        // takes the last marks and raises the first 3.
        for (; n - first_mark >= 4; first_mark += 4) {
            const std::uint8_t b = sb[first_mark / 4];
            if (b & (b >> 1) & 0x55) break;
            std::memcpy(t.sent + first_mark, &sentence_marks[b], 4);
        }
    }
    for (std::uint32_t i = first_mark; i < n; ++i) {
        const unsigned v = (sb[i >> 2] >> (2 * (i & 3))) & 3u;
        if (OND_CHECK(Errc::tokens_bad_sentence_value, v == 3))
            return void(fail(Errc::tokens_bad_sentence_value, sent_offset + (i >> 2),
                 "token " + std::to_string(i) + " has sentence value 3"));
        if constexpr (M::build) t.sent[i] = static_cast<Sentence>(v);
    }
    if (n & 3) {
        const unsigned used_bits = 2 * (n & 3);
        if (OND_CHECK(Errc::tokens_sentence_padding, sb[sent_bytes - 1] >> used_bits))
            return void(fail(Errc::tokens_sentence_padding, sent_offset + sent_bytes - 1,
                 "padding bits after the last token's sentence value are not 0"));
    }
    if constexpr (M::trace) {
        for (std::size_t b = 0; b < sent_bytes; ++b) {
            std::string v;
            for (std::uint32_t i = static_cast<std::uint32_t>(b * 4); i < n && i < b * 4 + 4; ++i) {
                static const char* names[] = {"unset", "start", "inside", "?"};
                if (!v.empty()) v += ", ";
                v += std::to_string(i) + ":" + names[(sb[b] >> (2 * (i & 3))) & 3u];
            }
            tr->field(sent_offset + b, 1, "tokens.sent[" + std::to_string(b * 4) + "..]", v);
        }
    }
}

// Confidences: mode 0 (all 1.0, nothing stored) or mode 1 (one binary32 per token, R21, R3).
template <class M>
[[gnu::always_inline]] inline void read_confidences(Cursor& sec, [[maybe_unused]] TokenRows& t, std::uint32_t n, [[maybe_unused]] DocList* out,
                      [[maybe_unused]] Tracer* tr) {
    const std::uint64_t mode_offset = sec.offset();
    const std::uint8_t mode = sec.u8();
    OND_BAIL();
    if (OND_CHECK(Errc::tokens_bad_confidence_mode, mode > 1))
        return void(fail(Errc::tokens_bad_confidence_mode, mode_offset, "confidence mode " + std::to_string(mode) + " (must be 0 or 1)"));
    if constexpr (M::trace)
        tr->field(mode_offset, 1, "tokens.confidence-mode", mode == 0 ? "0 (all 1.0)" : "1 (one float per token)");
    // Mode 0 writes nothing where the list keeps no confidences (they read as 1.0).
    if constexpr (M::build)
        if (mode == 0 && t.conf) std::fill_n(t.conf, n, 1.0f);
    // With the mode check switched off (test build only), a mode past 1 reads as mode 1, as a
    // reader that tests the mode for zero only would: the corpus's mode cases must catch that.
    if (mode == 1 || (mode > 1 && OND_CHECK_OFF(Errc::tokens_bad_confidence_mode))) {
        const std::uint64_t conf_offset = sec.offset();
        const std::uint8_t* p = sec.bytes(4ull * n);
        OND_BAIL();
        if constexpr (M::build) t.conf = build(out).conf_rows();
        for (std::uint32_t i = 0; i < n; ++i) {
            float f;
            std::memcpy(&f, p + 4ull * i, 4);  // little-endian host (checked in header.cpp)
            if (OND_CHECK(Errc::tokens_confidence_out_of_range, !confidence_ok(f)))
                return void(fail(Errc::tokens_confidence_out_of_range, conf_offset + 4ull * i,
                     "token " + std::to_string(i) + " has confidence " + describe_float(f)));
            if constexpr (M::build) t.conf[i] = f;
            if constexpr (M::trace) tr->field(conf_offset + 4ull * i, 4, indexed("tokens.conf", i), describe_float(f));
        }
    }
}

}  // namespace

template <class M>
std::uint32_t decode_tokens_section(Cursor& sec, const TableView& table, std::uint32_t text_utf16_length, DocList* out,
                                    Tracer* tr) {
    const std::uint32_t n = read_token_count<M>(sec, tr);
    OND_BAIL({});
    [[maybe_unused]] TokenRows t{};
    // Every column is written below for each of the n tokens (the confidences, when the list
    // keeps them, under mode 0 too), so the container's columns are only grown (never
    // zero-filled) for them.
    if constexpr (M::build) {
        build(out).fit_ids(table.count());  // every index is at most the count: 2 bytes an id if it fits
        t = build(out).resize_tokens(n);
    }
    const VarintKernels& fast = active_varint_kernels();
    read_spans<M>(fast, sec, t, n, text_utf16_length, tr);
    OND_BAIL({});
    read_attrs<M>(fast, sec, table, t, n, tr);
    OND_BAIL({});
    read_heads<M>(fast, sec, t, n, tr);
    OND_BAIL({});
    read_sentences<M>(sec, t, n, tr);
    OND_BAIL({});
    read_confidences<M>(sec, t, n, out, tr);
    OND_BAIL({});
    return n;
}

#define OND_INSTANTIATE(M) \
    template std::uint32_t decode_tokens_section<M>(Cursor&, const TableView&, std::uint32_t, DocList*, Tracer*);
OND_FOR_EACH_MODE(OND_INSTANTIATE)

}  // namespace ond::detail
