// Every way the codec reads bytes, side by side, and the checks that they agree. Shared by the
// differential/stream/bin harnesses and the property tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "ond/internal/cursor.hpp"

namespace ond::fuzz {

struct DecodeResult {
    Outcome outcome;
    Container content;  // when accepted
};
DecodeResult read_decode(Bytes input);

// The containers a stream yields and how it ended (ok: a clean end).
struct StreamResult {
    std::vector<Container> containers;
    Outcome end;
};
// A ReadFn over `input` whose k-th read hands out at most cuts[k % cuts.size()] bytes (at least
// 1), or as much as asked when `cuts` is empty; `pos` counts the bytes handed out. `cuts` and
// `pos` must outlive it.
ReadFn cut_reader(Bytes input, const std::vector<std::size_t>& cuts, std::size_t& pos);
// StreamReader over `input`, each read returning at most the next of `cuts` bytes (cycled;
// empty: as much as asked). validate_only uses skip_next() (containers are then left empty,
// only counted through `count`).
StreamResult read_stream(Bytes input, const std::vector<std::size_t>& cuts, bool validate_only,
                         std::uint64_t* count = nullptr);
// What R25/R26 say the stream must yield, built from decode() on each container's bytes: end of
// input on a boundary is clean; inside a header or a container, stream.truncated at the end of
// input; an ONDB magic is stream.bin-in-stream; a header fault is the header's error; a body
// length above 1 GiB is stream.length-too-large at the length field; anything else is what
// decode() says about that container, at its offset in the stream.
StreamResult model_stream(Bytes input);

// skip_next()'s end against the model's: the same, except that it reads in arrival order, so
// where the model says stream.truncated inside a container, a fault in a part of that container
// that came whole may come first; it must then be the fault decode() gives for that container
// zero-padded to its declared size (when that is at most 1 MiB more than came).
void check_skip_next(Bytes input, const StreamResult& model, const Outcome& skipped, const char* what);

// StreamReader's result against the model reader's reading of the same stream (model_reader.hpp):
// same end (verdict, code, offset) and the same containers.
void check_stream_against_model(Bytes input, const StreamResult& reader, const char* what);

// Asserts that two stream results are the same: same containers (same_content), same end.
void check_same_stream(const StreamResult& a, const StreamResult& b, const char* what_a, const char* what_b);

// The differential property on one input: decode() against the independent model reader
// (model_reader.hpp) on verdict, code, offset and content; then decode(), validate(), inspect(),
// DocBinReader, and StreamReader (reads cut at `cuts`, both next() and skip_next()) agree on verdict, error code,
// offset and content, after the documented mapping for the two readers that read only one
// kind of container (DocBinReader: an ONDC is header.bad-magic at 0; StreamReader: see
// model_stream). Returns decode()'s result.
DecodeResult check_all_readers(Bytes input, const std::vector<std::size_t>& cuts);

}  // namespace ond::fuzz
