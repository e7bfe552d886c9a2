// The checks of the `api` harness (api_fuzzer.cpp), one function per part of the public API.
// Each takes content the reader accepted (except check_results and check_framing_helpers, which
// take any input) and aborts through OND_FUZZ_CHECK when an operation does something other than
// what its header says.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

namespace ond::fuzz::api {

// The choices of one input (document, token, value), drawn from a hash of its bytes.
class Choices {
public:
    explicit Choices(Bytes input);
    std::uint64_t next() noexcept;
    std::size_t below(std::size_t n) noexcept { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t state_;
};

// Result and Status: value(), value_or, error() against decode()'s own verdict.
void check_results(Bytes input);
// framing's varint and u32 helpers, and Layout::leaves() on a framing that parses.
void check_framing_helpers(Bytes input);
// The views' accessors against the slices they view.
void check_views(const Container& c);
// DocList's and Container's edits in place, accepted and refused.
void check_edits(const Container& c, Choices& pick);
// edit_all, replace, push_back and the try_ forms on whole documents.
void check_whole_documents(const Container& c, Choices& pick);
// merge, pack, split and the three append forms.
void check_merge_pack_split(const Container& c, Choices& pick);
// DocBinReader and StreamReader over the accepted bytes: ranges, owned bytes, std::istream,
// move assignment, next(Doc&), skip_next(Skipped&), try_open / try_next / try_skip_next.
void check_readers(const Container& c, Bytes input);
// DocBuilder: token(word), the setters, and every refusal with its code.
void check_builder(const Container& c);
// same_doc and same_content tell apart documents that differ in any one field.
void check_same_doc_notices(const Container& c);
// The writer refuses each kind of unwritable content with its code.
void check_writer_refusals(const Container& c);
// The try_ forms of the bin index, the writer, the edits, merge, pack and split give what their
// namesakes give: the same value, or the error they throw (same code and offset).
void check_try_forms(const Container& c, Bytes input);

}  // namespace ond::fuzz::api
