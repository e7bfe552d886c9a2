#include "ond/corpus_main.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ond/corpus_sha256.hpp"

#ifndef OND_CORPUS_DIR
#define OND_CORPUS_DIR "corpus"
#endif

namespace ond::corpus {

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + p.string());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

int usage(std::ostream& o, int code) {
    o << "usage: ond corpus [--corpus DIR] list [--verdict V] [--area A] [--kind K]\n"
         "       ond corpus [--corpus DIR] export DIR\n"
         "The corpus folder is --corpus DIR, else $OND_CORPUS_DIR, else the one built in.\n";
    return code;
}

// Files of the corpus proper, relative to its folder, sorted: what an implementer vendors.
std::vector<std::string> corpus_files(const fs::path& root) {
    std::vector<std::string> out;
    for (const char* top : {"README.md", "manifest.json", "rules.json"})
        if (fs::exists(root / top)) out.emplace_back(top);
    for (const char* dir : {"cases", "regressions"})
        if (fs::exists(root / dir))
            for (const auto& e : fs::recursive_directory_iterator(root / dir))
                if (e.is_regular_file()) out.push_back(fs::relative(e.path(), root).generic_string());
    std::sort(out.begin(), out.end());
    return out;
}

int do_list(const fs::path& root, const std::map<std::string, std::string>& filters) {
    const auto m = nlohmann::json::parse(slurp(root / "manifest.json"));
    std::size_t shown = 0;
    for (const auto& c : m.at("cases")) {
        bool keep = true;
        for (const auto& [key, want] : filters) keep = keep && c.at(key).get<std::string>() == want;
        if (!keep) continue;
        std::cout << c.at("id").get<std::string>() << "\t" << c.at("kind").get<std::string>() << "\t"
                  << c.at("verdict").get<std::string>() << "\t"
                  << (c.at("error").is_null() ? std::string("-") : c.at("error").get<std::string>()) << "\n";
        ++shown;
    }
    std::cerr << shown << " of " << m.at("cases").size() << " cases (corpus " << m.at("corpus_version").get<std::string>()
              << ", format version " << m.at("format_version").get<int>() << ")\n";
    return 0;
}

int do_export(const fs::path& root, const fs::path& out) {
    const auto m = nlohmann::json::parse(slurp(root / "manifest.json"));
    // Refuse to export a corpus whose files do not match its manifest.
    for (const auto& c : m.at("cases"))
        for (const auto& [rel, sum] : c.at("sha256").items())
            if (sha256_hex(slurp(root / rel)) != sum.get<std::string>()) {
                std::cerr << "ond corpus export: " << rel << " does not match its SHA-256 in the manifest\n";
                return 1;
            }
    const std::vector<std::string> files = corpus_files(root);
    std::string version = "format_version " + std::to_string(m.at("format_version").get<int>()) + "\n" +
                          "corpus_version " + m.at("corpus_version").get<std::string>() + "\n" +
                          "cases " + std::to_string(m.at("cases").size()) + "\n";
    for (const std::string& rel : files) {
        const std::string bytes = slurp(root / rel);
        const fs::path dst = out / rel;
        fs::create_directories(dst.parent_path());
        std::ofstream f(dst, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!f) throw std::runtime_error("cannot write " + dst.string());
        version += sha256_hex(bytes) + "  " + rel + "\n";
    }
    std::ofstream v(out / "VERSION", std::ios::binary | std::ios::trunc);
    v << version;
    if (!v) throw std::runtime_error("cannot write " + (out / "VERSION").string());
    std::cout << "exported " << files.size() << " files (" << m.at("cases").size() << " cases) to " << out.string() << "\n";
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
        if (rest[0] == "export" && rest.size() == 2) return do_export(root, rest[1]);
        return usage(std::cerr, 2);
    } catch (const std::exception& e) {
        std::cerr << "ond corpus: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace ond::corpus
