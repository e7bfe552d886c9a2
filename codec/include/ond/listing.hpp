// Annotated listings of containers, for `ond inspect` and for the listing the corpus generator
// keeps beside every binary case.
//
// One line per field or group the reader walks (see ond::inspect):
//
//   0000000c  01 0b 00 00 00                     section 1 (string table): ...
//   ^offset   ^the item's bytes (hex)            ^indented by depth, name: decoded value
//
// Items longer than 16 bytes show their first 16 bytes, then "... (N bytes)". The end of a
// group carries nothing the lines before it do not already show, so it gets no line of its own.
// When the reader refuses the input, the listing ends with
//
//   !! <offset, 8 hex digits> <code> (<rule>): <detail>
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "ond/inspect.hpp"
#include "ond/reader.hpp"
#include "ond/stream.hpp"

namespace ond {

// Receives a listing line by line (each piece ends with '\n').
using LineSink = std::function<void(std::string_view)>;

// Listing of one container filling `input`. `ok` tells whether the reader accepted it.
std::string format_listing(Bytes input, bool& ok);
// The same lines, handed to `sink` as they are made; returns whether the reader accepted it.
bool write_listing(Bytes input, const LineSink& sink);

// The listing of a stream read from `read` as it arrives, one container in memory at a time:
// the lines of format_stream_listing for the containers the stream reader accepts, then, at
// the first fault, the bytes of the faulty container read so far and the fault (nothing past
// it is read). Returns whether the whole stream was accepted.
bool write_stream_listing(const ReadFn& read, const LineSink& sink);

// Listing of back-to-back ONDC containers (a stream, R25): each container is introduced by a
// "# container N" line, offsets count from the start of the input, and the verdict is that of
// ond::StreamReader on the same bytes.
std::string format_stream_listing(Bytes input, bool& ok);

// One listing line (without the newline) for an enter or field event, offsets shifted by `origin`.
// `bytes` is the whole input the event's offset refers to.
std::string format_event(const InspectEvent& ev, Bytes bytes, std::uint64_t origin = 0);

// The closing line for a refused input: "!! 0000040d tokens.head-out-of-range (R19): ...".
std::string format_fault(const Error& e);

}  // namespace ond
