// The content of the JSON benchmarks (bench_json.cpp, json_peak.cpp): the documents of workloads
// (c) (confidences, entities) and (d) (multilingual text: accents, Cyrillic, Greek, CJK, astral
// characters) at `scale`, each given two span groups, and every tenth text a tail with a quote,
// a backslash and a newline (escapes in the JSON). An ONDB: to_json does not judge bin extras.
#pragma once

#include "ond/model.hpp"

namespace ond::bench {

Container make_json_content(double scale);

}  // namespace ond::bench
