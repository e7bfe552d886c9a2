// A tiny corpus for the runner's own tests, built with the reference writer at test time, in the
// layout of the real corpus (manifest.json, rules.json, case files). Every case the faulty test
// adapters are meant to trip over is here, and nothing else.
#pragma once

#include <string>

#include "ond/model.hpp"

namespace ond::conformance::testing {

// The main document: four tokens with distinct non-trivial confidences, an entity, a category,
// a span group; optionally with a CRC trailer.
Container basic_container(bool crc, const std::string& text = "The quick brown fox");

// Writes the fixture corpus into `dir` (created if needed) and returns it.
// Case ids:
//   valid/document/basic, valid/bin/two-docs, valid/text/boom, valid/text/hang-marker,
//   noncanonical/section/unknown-section, invalid/crc/mismatch, invalid/tokens/nan-confidence,
//   invalid/header/bad-magic, impl/categories/score-above-one, valid/stream/two-docs,
//   invalid/stream/truncated, valid/encode/basic, invalid/encode/head-out-of-range
// Every case has a listing file (a stand-in text). rules.json lists R3 (with a doc link) R4 R6 R7
// R25 W1 and R99, which no case names.
std::string build_fixture_corpus(const std::string& dir);

inline constexpr int fixture_case_count = 13;

// The reference writer's bytes for `c`, as a string.
std::string bytes_of(const Container& c);

}  // namespace ond::conformance::testing
