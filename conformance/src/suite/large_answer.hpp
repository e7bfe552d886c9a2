// The answers of the --large cases that must be accepted, judged as they arrive: the testee's
// bytes go through a sink (RunContext::sink) into a check that holds a bounded part of them, so
// an answer of gigabytes (2^25 tokens as content JSON) is never held by the runner.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "suite/cases.hpp"
#include "suite/classify.hpp"

namespace ond::conformance {

class StreamedAnswer {
public:
    virtual ~StreamedAnswer() = default;
    // The answer's next bytes; false once the answer is known to be wrong (the rest is not wanted).
    virtual bool feed(std::string_view bytes) = 0;
    // After the last byte: what is wrong with the answer (none: right). Called once.
    virtual std::vector<Finding> finish() = 0;
    // feed() returned false: the answer was cut off because it was already wrong.
    virtual bool refused() const = 0;
};

// The content JSON of an ONDC whose text is `n` x "a" with one token per unit and nothing else
// set (every attribute "", heads their own index, sentence 0, confidence 1, no entities,
// categories or span groups): the decoding of large.cpp's token documents. As one JSON value
// (decode), or as the one line of a stream (`stream_line`: the value, then exactly one "\n").
// Every token, key and value is checked exactly, in one pass; memory is bounded by the longest
// string the answer may hold (the text) and a 4 MiB queue, whatever arrives.
std::shared_ptr<StreamedAnswer> expect_token_content(std::uint32_t n, bool stream_line);

// Judges a case whose answer went through `answer` (classify() for every answer but an accepting
// one, and but one the check cut off).
CaseResult judge_streamed(const Case& c, const TesteeResult& o, StreamedAnswer& answer, std::uint64_t answer_limit,
                          const ClassifyOptions& opt);

}  // namespace ond::conformance
