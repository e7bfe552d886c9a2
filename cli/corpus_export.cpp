#include "corpus_export.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "ond/corpus_manifest.hpp"
#include "ond/corpus_sha256.hpp"
#include "ond_source_commit.hpp"  // OND_SOURCE_COMMIT, written at build time (cmake/source_commit.cmake)

namespace ond::corpus {

namespace {

namespace fs = std::filesystem;

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
// Python's caches in tools/ are not the corpus's.
std::vector<std::string> corpus_files(const fs::path& root) {
    std::vector<std::string> out;
    const auto regular = [&](const fs::path& p) {
        if (!fs::is_regular_file(fs::symlink_status(p)))
            throw std::runtime_error(p.string() + " is not a regular file (a link or a special file); the corpus holds none");
        out.push_back(below(p, root));
    };
    for (const char* top : {"README.md", "manifest.json", "rules.json", "writer-rules.json", "LICENSE", "CHANGELOG.md"})
        if (fs::exists(fs::symlink_status(root / top))) regular(root / top);
    for (const char* dir : {"cases", "regressions", "changes", "tools"}) {
        const fs::file_status st = fs::symlink_status(root / dir);
        if (!fs::exists(st)) continue;
        if (!fs::is_directory(st)) throw std::runtime_error((root / dir).string() + " is not a directory");
        for (auto it = fs::recursive_directory_iterator(root / dir); it != fs::recursive_directory_iterator(); ++it) {
            if (it->path().filename() == "__pycache__" && fs::is_directory(it->symlink_status())) {
                it.disable_recursion_pending();
                continue;
            }
            if (fs::is_directory(it->symlink_status()) || it->path().extension() == ".pyc") continue;
            regular(it->path());  // the iterator does not descend through links
        }
    }
    std::sort(out.begin(), out.end());
    return out;
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
// BUILD file added beside the vendored corpus.
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

// The commit a corpus folder is of: an export names it in its VERSION; the source tree's corpus
// this tool was built from is at the commit found at build time; of any other folder it is
// "unknown" (corpus/tools/export.py asks git there, which knows only a checkout's).
std::string corpus_commit(const fs::path& root) {
    if (is_earlier_export(root)) {
        std::ifstream v(root / "VERSION", std::ios::binary);
        for (std::string line; std::getline(v, line);)
            if (line.rfind("commit ", 0) == 0) return line.substr(7);
        return "unknown";
    }
    std::error_code ec;
    return fs::equivalent(root, OND_CORPUS_DIR, ec) ? OND_SOURCE_COMMIT : "unknown";
}

std::vector<std::string> split_path(const std::string& p) {
    std::vector<std::string> parts;
    for (std::size_t from = 0; from <= p.size();) {
        const std::size_t to = std::min(p.find('/', from), p.size());
        parts.push_back(p.substr(from, to - from));
        from = to + 1;
    }
    return parts;
}

std::string join_path(const std::vector<std::string>& parts, std::size_t from = 0) {
    std::string out;
    for (std::size_t i = from; i < parts.size(); ++i) out += (i == from ? "" : "/") + parts[i];
    return out;
}

// "https://..." or "mailto:...": a scheme before any '/'.
bool has_scheme(const std::string& target) {
    const std::size_t colon = target.find(':');
    return colon != std::string::npos && colon < target.find('/');
}

bool is_exported(const std::string& path, const std::set<std::string>& exported) {
    if (exported.count(path)) return true;
    const auto it = exported.lower_bound(path + "/");  // a folder of exported files
    return it != exported.end() && it->rfind(path + "/", 0) == 0;
}

// One link of a Markdown file at `rel` in the export (see rewrite_markdown_links).
std::string rewrite_target(const std::string& target, const std::string& rel, const std::set<std::string>& exported,
                           const std::string& version) {
    if (target.empty() || target.front() == '#' || has_scheme(target)) return target;
    const std::size_t hash = target.find('#');
    const std::string path = target.substr(0, hash);
    const std::string fragment = hash == std::string::npos ? "" : target.substr(hash);
    const bool trailing_slash = !path.empty() && path.back() == '/';
    // The repository path it names, from the file's place in the repository's corpus/ folder.
    std::vector<std::string> from = split_path("corpus/" + rel);
    from.pop_back();
    std::vector<std::string> stack;
    for (const std::string& part : from) stack.push_back(part);
    for (const std::string& part : split_path(path)) {
        if (part.empty() || part == ".") continue;
        if (part != "..") {
            stack.push_back(part);
        } else if (stack.empty()) {
            return target;  // above the repository: left as it is (the link test reports it)
        } else {
            stack.pop_back();
        }
    }
    const std::string slash = trailing_slash ? "/" : "";
    if (stack.size() > 1 && stack[0] == "corpus" && is_exported(join_path(stack, 1), exported)) {
        // Relative to the file's folder in the export.
        std::size_t common = 0;
        while (common + 1 < from.size() && common + 1 < stack.size() && from[common + 1] == stack[common + 1]) ++common;
        std::vector<std::string> out(from.size() - 1 - common, "..");
        for (std::size_t i = common + 1; i < stack.size(); ++i) out.push_back(stack[i]);
        return (out.empty() ? std::string(".") : join_path(out)) + slash + fragment;
    }
    return release_url(version) + join_path(stack) + slash + fragment;
}

}  // namespace

std::string release_url(const std::string& version) {
    return "https://github.com/recursive-ai-oss/ond-conform/blob/v" + version + "/";
}

std::string rewrite_markdown_links(const std::string& text, const std::string& rel, const std::set<std::string>& exported,
                                   const std::string& version) {
    // A link is "](" TARGET ")", TARGET one or more characters that are neither ')' nor
    // whitespace (as corpus/tools/export.py's pattern reads it).
    static constexpr std::string_view space = " \t\n\r\f\v";
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t open = text.find("](", i);
        if (open == std::string::npos) break;
        std::size_t end = open + 2;
        while (end < text.size() && text[end] != ')' && space.find(text[end]) == std::string_view::npos) ++end;
        if (end == open + 2 || end == text.size() || text[end] != ')') {
            out.append(text, i, open + 1 - i);
            i = open + 1;
            continue;
        }
        out.append(text, i, open + 2 - i);
        out += rewrite_target(text.substr(open + 2, end - open - 2), rel, exported, version);
        out += ')';
        i = end + 1;
    }
    out.append(text, std::min(i, text.size()));
    return out;
}

std::string rewrite_rule_docs(const std::string& text, const std::string& version) {
    static constexpr std::string_view key = "\"doc\": \"";
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t at = text.find(key, i);
        const std::size_t start = at == std::string::npos ? at : at + key.size();
        const std::size_t end = at == std::string::npos ? at : text.find('"', start);
        if (end == std::string::npos) break;
        out.append(text, i, start - i);
        const std::string doc = text.substr(start, end - start);
        out += doc.empty() || has_scheme(doc) || doc.front() == '/' ? doc : release_url(version) + doc;
        i = end;
    }
    out.append(text, std::min(i, text.size()));
    return out;
}

// ~100 lines: the checks on the target before anything is written, then the write and the swap.
int export_corpus(const fs::path& root, const fs::path& out, const ExportOptions& opt) {
    // Links and special files first: nothing below is read through one.
    std::vector<std::string> files = corpus_files(root);
    const Manifest m = Manifest::read(root.string());
    if (!m.problems.empty()) throw std::runtime_error("manifest.json: " + m.problems.front());
    // Refuse to export a corpus whose files do not match its manifest. Listings left out are not
    // read (an export made with --no-listings has none).
    for (const ManifestCase& c : m.cases)
        for (const auto& [rel, sum] : c.sha256)
            if ((opt.listings || rel != c.listing) && sha256_hex(read_file((root / rel).string())) != sum) {
                std::cerr << "ond corpus export: " << rel << " does not match its SHA-256 in the manifest\n";
                return 1;
            }
    if (!opt.listings) {
        std::set<std::string> listings;
        for (const ManifestCase& c : m.cases)
            if (!c.listing.empty()) listings.insert(c.listing);
        std::erase_if(files, [&](const std::string& f) { return listings.count(f) > 0; });
    }
    const std::set<std::string> exported(files.begin(), files.end());

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
            if (const auto added = added_files(out); !added.empty() && !opt.replace_added) {
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
        std::string digests;
        for (const std::string& rel : files) {
            std::string bytes = read_file((root / rel).string());
            if (rel.ends_with(".md")) bytes = rewrite_markdown_links(bytes, rel, exported, m.corpus_version);
            if (rel == "rules.json") bytes = rewrite_rule_docs(bytes, m.corpus_version);
            const fs::path dst = fresh / rel;
            fs::create_directories(dst.parent_path());
            write_new_file(dst, bytes);
            digests += sha256_hex(bytes) + "  " + rel + "\n";
        }
        write_new_file(fresh / "VERSION", "format_version " + std::to_string(m.format_version) + "\n" +
                                              "corpus_version " + m.corpus_version + "\n" + "commit " + corpus_commit(root) +
                                              "\n" + "cases " + std::to_string(m.cases.size()) + "\n" + "listings " +
                                              (opt.listings ? "yes" : "no") + "\n" + "files_sha256 " + sha256_hex(digests) +
                                              "\n" + digests);
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
        std::cout << "exported " << files.size() << " files (" << m.cases.size() << " cases"
                  << (opt.listings ? "" : ", no listings") << ") to " << out.string()
                  << (replacing ? ", replacing the earlier export there" : "") << "\n";
    } catch (...) {
        std::error_code ignored;
        fs::remove_all(fresh, ignored);
        throw;
    }
    return 0;
}

}  // namespace ond::corpus
