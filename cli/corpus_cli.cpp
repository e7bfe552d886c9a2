#include "corpus_cli.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "corpus_export.hpp"
#include "ond/corpus_manifest.hpp"

#ifndef OND_CORPUS_DIR
#define OND_CORPUS_DIR "corpus"
#endif

namespace ond::corpus {

namespace {

namespace fs = std::filesystem;

int usage(std::ostream& o, int code) {
    o << "usage: ond corpus [--corpus DIR] list [--verdict V] [--area A] [--kind K]\n"
         "       ond corpus [--corpus DIR] export [--no-listings] [--replace-added] DIR\n"
         "The export holds the corpus, its LICENSE, CHANGELOG.md, changes/ and tools/, and a VERSION file\n"
         "naming the version, the commit and the SHA-256 of every file; --no-listings leaves out the cases'\n"
         "annotated listings (.txt). An earlier export in DIR is replaced whole; files in it that it did not\n"
         "write (your BUILD file) are listed and the export refused (exit 2) unless --replace-added deletes them.\n"
         "The corpus folder is --corpus DIR, else $OND_CORPUS_DIR, else the one built in.\n";
    return code;
}

int do_list(const fs::path& root, const std::map<std::string, std::string>& filters) {
    const Manifest m = Manifest::read(root.string());
    if (!m.problems.empty()) throw std::runtime_error("manifest.json: " + m.problems.front());
    std::size_t shown = 0;
    for (const ManifestCase& c : m.cases) {
        const std::map<std::string, std::string> fields = {
            {"area", c.area}, {"kind", kind_name(c.kind)}, {"verdict", verdict_name(c.verdict)}};
        bool keep = true;
        for (const auto& [key, want] : filters) keep = keep && fields.at(key) == want;
        if (!keep) continue;
        std::cout << c.id << "\t" << kind_name(c.kind) << "\t" << verdict_name(c.verdict) << "\t"
                  << (c.error.empty() ? std::string("-") : c.error) << "\n";
        ++shown;
    }
    std::cerr << shown << " of " << m.cases.size() << " cases (corpus " << m.corpus_version << ", format version "
              << m.format_version << ")\n";
    return 0;
}

}  // namespace

int corpus_main(int argc, char** argv) {
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    fs::path root = OND_CORPUS_DIR;
    if (const char* env = std::getenv("OND_CORPUS_DIR"); env && *env) root = env;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--corpus") {
            if (i + 1 >= args.size()) return usage(std::cerr, 2);
            root = args[++i];
        } else if (args[i] == "-h" || args[i] == "--help") {
            return usage(std::cout, 0);
        } else {
            rest.push_back(args[i]);
        }
    }
    if (rest.empty()) return usage(std::cerr, 2);
    try {
        if (!fs::exists(root / "manifest.json")) {
            std::cerr << "ond corpus: no manifest.json in " << root.string() << "\n";
            return 1;
        }
        if (rest[0] == "list") {
            std::map<std::string, std::string> filters;
            for (std::size_t i = 1; i < rest.size(); ++i) {
                const std::string& a = rest[i];
                if ((a == "--verdict" || a == "--area" || a == "--kind") && i + 1 < rest.size())
                    filters[a.substr(2)] = rest[++i];
                else
                    return usage(std::cerr, 2);
            }
            return do_list(root, filters);
        }
        if (rest[0] == "export") {
            ExportOptions opt;
            std::vector<std::string> dirs;
            for (std::size_t i = 1; i < rest.size(); ++i) {
                if (rest[i] == "--no-listings") opt.listings = false;
                else if (rest[i] == "--replace-added") opt.replace_added = true;
                else if (rest[i].starts_with("--")) return usage(std::cerr, 2);
                else dirs.push_back(rest[i]);
            }
            if (dirs.size() != 1) return usage(std::cerr, 2);
            return export_corpus(root, dirs[0], opt);
        }
        return usage(std::cerr, 2);
    } catch (const std::exception& e) {
        std::cerr << "ond corpus: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace ond::corpus
