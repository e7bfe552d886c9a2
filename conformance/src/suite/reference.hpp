// The reference codec: its answers, which the checks compare with, and the reference as an
// in-process testee (what `ond conform` tests with no adapter).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "transport/testee.hpp"

namespace ond::conformance {

struct RefAnswer {
    bool accept = false;
    std::string out;         // decode: content JSON; encode: bytes; stream: JSON lines ('\n' after each)
    std::string code;        // reject: error code
    std::string message;     // reject: the codec's message
    bool impl_defined = false;  // reject under an implementation-defined ruling
    std::uint64_t offset = ~std::uint64_t{0};  // reject: the fault's byte offset in the input (none: ~0)
    std::string path;        // reject of content (encode): the field at fault, "docs[0].tokens[3].head"
    // The content JSON of accepted input would exceed reference_json_cap: `accept` is false, `out`
    // empty, `message` says so. A few bytes can name one long string from every token.
    bool too_large = false;
};
// The most content JSON the runner lets the reference write for an input: what a testee may
// write (1 MiB + 64 x the input; classify.hpp's output_limit without the expected output).
std::size_t reference_json_cap(std::size_t input_size);
RefAnswer reference_decode(std::string_view bytes);
RefAnswer reference_decode(std::string_view bytes, std::size_t json_cap);
RefAnswer reference_encode(std::string_view content_json);
RefAnswer reference_stream(std::string_view bytes);
RefAnswer reference_answer(Op op, std::string_view input);

std::unique_ptr<Testee> make_reference_testee();

}  // namespace ond::conformance
