// Test only: the runner's writer judge (suite/writer_rules.hpp) on files, so that the portable
// check (corpus/tools/writer_rules.py) can be held to the same findings on every case.
//
//   ond_writer_judge [--relax CODE] CANONICAL TESTEE...
//
// --relax: an implementation-defined reader check let through while judging (an encode-impl
// case's canonical bytes are its if-accepted bytes, which meet that check).
// One JSON line per TESTEE: {"file": TESTEE, "findings": [{"rule": ID, "level": LEVEL}, ...]}.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ond/internal/check_switch.hpp"
#include "ond/error.hpp"
#include "suite/writer_rules.hpp"

namespace {

bool slurp(const char* path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<ond::Errc> relaxed;
    int first = 1;
    while (first + 1 < argc && std::string(argv[first]) == "--relax") {
        const ond::ErrorInfo* e = ond::find_error(argv[first + 1]);
        if (!e || !ond::detail::RelaxedChecks::relaxable(e->errc)) {
            std::fprintf(stderr, "ond_writer_judge: %s is no implementation-defined check\n", argv[first + 1]);
            return 2;
        }
        relaxed.push_back(e->errc);
        first += 2;
    }
    if (argc - first < 2) {
        std::fprintf(stderr, "usage: ond_writer_judge [--relax CODE] CANONICAL TESTEE...\n");
        return 2;
    }
    const ond::detail::RelaxedChecks relax(relaxed);
    std::string canonical;
    if (!slurp(argv[first], canonical)) {
        std::fprintf(stderr, "ond_writer_judge: cannot read %s\n", argv[first]);
        return 2;
    }
    for (int i = first + 1; i < argc; ++i) {
        std::string testee;
        if (!slurp(argv[i], testee)) {
            std::fprintf(stderr, "ond_writer_judge: cannot read %s\n", argv[i]);
            return 2;
        }
        nlohmann::json findings = nlohmann::json::array();
        for (const auto& f : ond::conformance::judge_writer(canonical, testee).findings)
            findings.push_back({{"rule", f.rule}, {"level", f.required ? "required" : "recommended"}});
        const nlohmann::json line = {{"file", argv[i]}, {"findings", findings}};
        std::printf("%s\n", line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    }
    return 0;
}
