#include "json_workload.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "workload.hpp"

namespace ond::bench {
namespace {

constexpr std::string_view json_span_labels[] = {"ARG0", "ARG1", "TIME", "LOC", "Фраза", "引用"};

void add_json_span_groups(Rng& rng, Doc& d, StringStore& strings) {
    const auto n = static_cast<std::uint32_t>(d.tokens.size());
    if (n == 0) return;
    for (std::string_view name : {std::string_view("sc"), std::string_view("chunks")}) {
        SpanGroup& g = d.spans.emplace_back();
        g.name = strings.intern(name);
        for (std::uint32_t k = 0; k < std::max<std::uint32_t>(1, n / 8); ++k) {
            const std::uint32_t start = rng.below(n);
            const std::uint32_t len = std::min(rng.range(1, 4), n - start);
            g.spans.push_back(Span{start, len, strings.intern(json_span_labels[rng.below(std::size(json_span_labels))]), rng.unit()});
        }
    }
}

}  // namespace

Container make_json_content(double scale) {
    Container out;
    out.format = Format::ondb;
    Rng rng(workload_seed ^ 0x4A534F4Eull);  // "JSON"
    std::size_t n = 0;
    for (Kind k : {Kind::c, Kind::d}) {
        const Workload src = make_workload(k, false, scale, {}, true);
        for (const DocSlice s : src.content.docs) {
            Doc d = s.to_doc();
            auto remap = [&](StringId& id) { id = out.strings.intern(src.content.strings.view(id)); };
            for (auto& col : d.tokens.attrs)
                for (StringId& id : col) remap(id);
            for (Entity& e : d.ents) remap(e.label);
            d.origin = out.strings.id();
            add_json_span_groups(rng, d, out.strings);
            if (++n % 10 == 0) d.text += " \"quoted\" \\ path\n";
            out.docs.push_back(d);
        }
    }
    return out;
}

}  // namespace ond::bench
