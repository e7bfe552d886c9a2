#include "corpus_cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "ond/corpus_manifest.hpp"
#include "ond/corpus_sha256.hpp"

#ifndef OND_CORPUS_DIR
#define OND_CORPUS_DIR "corpus"
#endif

namespace ond::corpus {

namespace {

namespace fs = std::filesystem;

int usage(std::ostream& o, int code) {
    o << "usage: ond corpus [--corpus DIR] list [--verdict V] [--area A] [--kind K]\n"
         "       ond corpus [--corpus DIR] export [--replace-added] DIR\n"
         "An earlier export in DIR is replaced whole; files in it that it did not write (your BUILD or\n"
         "LICENSE) are listed and the export refused (exit 2) unless --replace-added deletes them.\n"
         "The corpus folder is --corpus DIR, else $OND_CORPUS_DIR, else the one built in.\n";
    return code;
}

// A path below a folder, taken lexically: an iterator's entry is always spelled under the folder
// it walks, so no link is resolved (fs::relative would follow one out of the corpus).
std::string below(const fs::path& entry, const fs::path& root) {
    const fs::path rel = entry.lexically_relative(root);
    for (const auto& part : rel)
        if (part == ".." || part == "." || part.empty())
            throw std::runtime_error(entry.string() + " is not below " + root.string());
    return rel.generic_string();
}

// Files of the corpus proper, relative to its folder, sorted: what an implementer vendors. Only
// regular files: a link or any other kind of entry in the corpus is refused, never followed.
std::vector<std::string> corpus_files(const fs::path& root) {
    std::vector<std::string> out;
    const auto regular = [&](const fs::path& p) {
        if (!fs::is_regular_file(fs::symlink_status(p)))
            throw std::runtime_error(p.string() + " is not a regular file (a link or a special file); the corpus holds none");
        out.push_back(below(p, root));
    };
    for (const char* top : {"README.md", "manifest.json", "rules.json"})
        if (fs::exists(fs::symlink_status(root / top))) regular(root / top);
    for (const char* dir : {"cases", "regressions"}) {
        const fs::file_status st = fs::symlink_status(root / dir);
        if (!fs::exists(st)) continue;
        if (!fs::is_directory(st)) throw std::runtime_error((root / dir).string() + " is not a directory");
        for (const auto& e : fs::recursive_directory_iterator(root / dir))  // does not descend through links
            if (!fs::is_directory(e.symlink_status())) regular(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
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

// Writes a new file in a directory this process made (O_EXCL | O_NOFOLLOW: never through a link).
void write_new_file(const fs::path& p, const std::string& bytes) {
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot create " + p.string() + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(errno));
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(errno));
}

// An earlier export: a directory (not a link) with a VERSION file (not a link) of our format.
bool is_earlier_export(const fs::path& dir) {
    const fs::path v = dir / "VERSION";
    if (!fs::is_regular_file(fs::symlink_status(v))) return false;
    std::ifstream f(v, std::ios::binary);
    std::string first;
    std::getline(f, first);
    return first.rfind("format_version ", 0) == 0;
}

// Files in an earlier export that it did not write (not in its VERSION list): the user's, e.g. a
// BUILD or LICENSE file added beside the vendored corpus.
std::vector<std::string> added_files(const fs::path& dir) {
    std::set<std::string> ours = {"VERSION"};
    std::ifstream v(dir / "VERSION", std::ios::binary);
    for (std::string line; std::getline(v, line);)
        if (const auto at = line.find("  "); at == 64) ours.insert(line.substr(at + 2));
    std::vector<std::string> added;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (!fs::is_directory(e.symlink_status()))
            if (const std::string rel = e.path().lexically_relative(dir).generic_string(); !ours.count(rel)) added.push_back(rel);
    std::sort(added.begin(), added.end());
    return added;
}

int do_export(const fs::path& root, const fs::path& out, bool replace_added) {
    // Links and special files first: nothing below is read through one.
    const std::vector<std::string> files = corpus_files(root);
    const Manifest m = Manifest::read(root.string());
    if (!m.problems.empty()) throw std::runtime_error("manifest.json: " + m.problems.front());
    // Refuse to export a corpus whose files do not match its manifest.
    if (const auto bad = m.mismatched_files(); !bad.empty()) {
        std::cerr << "ond corpus export: " << bad.front() << " does not match its SHA-256 in the manifest\n";
        return 1;
    }

    // The target is replaced as a whole, never written into: the export goes to a fresh
    // directory beside it, which then takes its place. Only an empty directory or an earlier
    // export is replaced; a link is never followed.
    const fs::file_status st = fs::symlink_status(out);
    bool replacing = false;
    if (fs::is_symlink(st)) {
        std::cerr << "ond corpus export: " << out.string() << " is a symbolic link; refusing to write through it\n";
        return 1;
    }
    if (fs::exists(st)) {
        if (!fs::is_directory(st)) {
            std::cerr << "ond corpus export: " << out.string() << " exists and is not a directory\n";
            return 1;
        }
        if (!fs::is_empty(out)) {
            if (!is_earlier_export(out)) {
                std::cerr << "ond corpus export: " << out.string()
                          << " is not empty and is not an earlier export (no VERSION file); refusing to touch it\n";
                return 1;
            }
            replacing = true;
            if (const auto added = added_files(out); !added.empty() && !replace_added) {
                std::cerr << "ond corpus export: " << out.string() << " holds " << added.size()
                          << (added.size() == 1 ? " file" : " files")
                          << " that the earlier export did not write; they would be deleted. Move them out, or pass "
                             "--replace-added to delete them:\n";
                for (const auto& f : added) std::cerr << "  " << f << "\n";
                return 2;
            }
        }
    }
    const fs::path abs = fs::absolute(out).lexically_normal();
    const fs::path parent = abs.has_filename() ? abs.parent_path() : abs.parent_path().parent_path();
    const std::string name = (abs.has_filename() ? abs : abs.parent_path()).filename().string();
    fs::create_directories(parent);
    std::string tmpl = (parent / ("." + name + ".export-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a directory beside " + out.string() + ": " + std::strerror(errno));
    const fs::path fresh = tmpl;
    try {
        std::string version = "format_version " + std::to_string(m.format_version) + "\n" +
                              "corpus_version " + m.corpus_version + "\n" + "cases " + std::to_string(m.cases.size()) + "\n";
        for (const std::string& rel : files) {
            const std::string bytes = read_file((root / rel).string());
            const fs::path dst = fresh / rel;
            fs::create_directories(dst.parent_path());
            write_new_file(dst, bytes);
            version += sha256_hex(bytes) + "  " + rel + "\n";
        }
        write_new_file(fresh / "VERSION", version);
        fs::permissions(fresh, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                   fs::perms::others_read | fs::perms::others_exec);
        if (replacing) {
            // Aside, then in place: the old export is never mixed with the new one.
            std::string aside_tmpl = (parent / ("." + name + ".old-XXXXXX")).string();
            if (!::mkdtemp(aside_tmpl.data())) throw std::runtime_error("cannot move the earlier export aside");
            const fs::path aside = fs::path(aside_tmpl) / "old";
            fs::rename(abs, aside);
            fs::rename(fresh, abs);
            fs::remove_all(aside_tmpl);  // removes links themselves, never what they point to
        } else {
            fs::rename(fresh, abs);  // onto an empty directory or a new name
        }
        std::cout << "exported " << files.size() << " files (" << m.cases.size() << " cases) to " << out.string()
                  << (replacing ? ", replacing the earlier export there" : "") << "\n";
    } catch (...) {
        std::error_code ignored;
        fs::remove_all(fresh, ignored);
        throw;
    }
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
        if (rest[0] == "export" && rest.size() == 2) return do_export(root, rest[1], false);
        if (rest[0] == "export" && rest.size() == 3 && rest[1] == "--replace-added") return do_export(root, rest[2], true);
        return usage(std::cerr, 2);
    } catch (const std::exception& e) {
        std::cerr << "ond corpus: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace ond::corpus
