// ond_corpus_gen: writes the golden corpus (--out DIR) or checks a checked-in copy (--check DIR).
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "case.hpp"
#include "generator.hpp"

#ifndef OND_CORPUS_SOURCE_DIR
#define OND_CORPUS_SOURCE_DIR "."
#endif

namespace {

int usage() {
    std::cerr << "usage: ond_corpus_gen (--out DIR | --check DIR) [--source DIR]\n"
                 "  --out DIR     write the cases and manifest.json under DIR\n"
                 "  --check DIR   regenerate in memory and compare with DIR byte for byte (exit 1 on a difference)\n"
                 "  --source DIR  the checked-in corpus folder holding rules.json and regressions/\n"
                 "                (default: the source tree's corpus/)\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::string out, check, source = OND_CORPUS_SOURCE_DIR;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--out" || a == "--check" || a == "--source") && i + 1 < argc) {
            (a == "--out" ? out : a == "--check" ? check : source) = argv[++i];
        } else {
            return usage();
        }
    }
    if (out.empty() == check.empty()) return usage();
    try {
        const auto tree = ond::corpus::gen::generate(ond::corpus::gen::all_cases(), source);
        std::size_t n = 0;
        for (const auto& [path, bytes] : tree) n += bytes.size();
        if (!out.empty()) {
            ond::corpus::gen::write_tree(tree, out);
            std::cout << "wrote " << tree.size() << " files (" << n << " bytes) under " << out << "\n";
            return 0;
        }
        const auto diffs = ond::corpus::gen::check_tree(tree, check);
        for (const auto& d : diffs) std::cout << d << "\n";
        if (!diffs.empty()) {
            std::cout << diffs.size() << " difference(s): the corpus is out of date; regenerate it with "
                         "ond_corpus_gen --out <corpus dir>\n";
            return 1;
        }
        std::cout << "corpus up to date: " << tree.size() << " files match\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "ond_corpus_gen: " << e.what() << "\n";
        return 1;
    }
}
