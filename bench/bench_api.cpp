// The view API's costs that no codec benchmark sees (issue 37): a token's text taken by index,
// `doc[i].text()` for every i in reverse order (no forward walk to reuse), in one document of
// ASCII, Latin (2-byte), CJK (3-byte) and astral (4-byte, surrogate pairs) words. Each text is
// checked against its word before any timing; the untimed first pass builds the document's
// text index (DocList::walker_at).
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "ond/builder.hpp"

namespace ond::bench {
namespace {

struct ScriptDoc {
    Container c;
    std::vector<std::string> words;
    std::uint64_t bytes = 0;
};

std::shared_ptr<const ScriptDoc> script_doc(const std::string& letter, std::size_t tokens) {
    auto s = std::make_shared<ScriptDoc>();
    std::string text;
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < tokens; ++i) {
        s->words.push_back(letter + std::to_string(i % 1000) + letter);
        starts.push_back(text.size());
        text += s->words.back() + " ";
    }
    DocBuilder b(s->c, text);
    for (std::size_t i = 0; i < tokens; ++i) b.token_at(starts[i], s->words[i].size());
    s->bytes = text.size();
    return s;
}

std::uint64_t texts_by_index(const DocView& d) {
    std::uint64_t bytes = 0;
    for (std::size_t i = d.size(); i-- > 0;) bytes += d[i].text().size();
    return bytes;
}

}  // namespace

void register_token_text(double scale) {
    const std::size_t tokens = std::max<std::size_t>(100, static_cast<std::size_t>(100000 * scale));
    const std::pair<const char*, const char*> scripts[] = {
        {"ascii", "w"}, {"latin", "\xC3\xA9"}, {"cjk", "\xE6\x97\xA5"}, {"astral", "\xF0\x9F\x98\x80"}};
    for (const auto& [name, letter] : scripts) {
        const auto doc = script_doc(letter, tokens);
        const DocView d = doc->c.doc(0);
        for (std::size_t i = d.size(); i-- > 0;)
            if (d[i].text() != doc->words[i])
                throw std::runtime_error(join({"token_text_by_index/", name, ": token ", std::to_string(i), " text"}));
        const std::uint64_t bytes = doc->bytes, n = d.size();
        benchmark::RegisterBenchmark(join({"ours/token_text_by_index/", name}).c_str(), [doc, bytes, n](benchmark::State& st) {
            const DocView view = doc->c.doc(0);
            for (auto _ : st) benchmark::DoNotOptimize(texts_by_index(view));
            report(st, bytes, n, 0);
        });
    }
}

}  // namespace ond::bench
