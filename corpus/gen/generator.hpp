// Turns the declared cases into the corpus tree, checking each against the reference codec.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "case.hpp"

namespace ond::corpus::gen {

inline constexpr const char* corpus_version = OND_RELEASE_VERSION;  // the file VERSION (cmake/release.cmake)

// Relative path (with '/') -> file bytes. Only generated files; hand-written ones are not in it.
using Tree = std::map<std::string, std::string>;

// A case that does not behave as declared, or coverage that falls short.
struct GenError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `source` is the checked-in corpus folder (for rules.json and regressions/index.json).
// Throws GenError listing every problem found.
Tree generate(const std::vector<Case>& cases, const std::filesystem::path& source);

// Writes the tree under `out` (removing generated files that are no longer produced).
void write_tree(const Tree& t, const std::filesystem::path& out);
// Compares the tree with `dir`; returns the differences (empty when identical).
std::vector<std::string> check_tree(const Tree& t, const std::filesystem::path& dir);

// Annotated listing of one container's bytes (faults included).
std::string listing_of(const Buf& bytes);
// Listing of back-to-back containers.
std::string stream_listing_of(const Buf& bytes);

}  // namespace ond::corpus::gen
