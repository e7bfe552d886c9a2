// `ond corpus export`: the corpus as a consumer vendors it. corpus/tools/export.py writes the
// same tree byte for byte; what goes in and how VERSION and the links are written is described
// in corpus/README.md ("Licence, versions and export"), the one description both follow.
#pragma once

#include <filesystem>
#include <set>
#include <string>

namespace ond::corpus {

struct ExportOptions {
    bool listings = true;        // false: --no-listings, the cases' annotated listings left out
    bool replace_added = false;  // delete files a user added to an earlier export in DIR
};

// Exports the corpus folder `root` into `out`; returns the process exit code (messages on stderr).
int export_corpus(const std::filesystem::path& root, const std::filesystem::path& out, const ExportOptions& opt);

// Where the release's files are on the web: links that leave the export point there.
std::string release_url(const std::string& version);

// The text of an exported Markdown file (its path `rel` in the export) with every relative link
// rewritten: to the same file inside the export when it is exported (`exported` holds the
// exported paths), else to the tagged release's address. Links are read as the repository's
// corpus/ folder sees them, so an export of an export gives the same text.
std::string rewrite_markdown_links(const std::string& text, const std::string& rel, const std::set<std::string>& exported,
                                   const std::string& version);
// rules.json with each rule's relative "doc" (a path from the repository's root) made absolute.
std::string rewrite_rule_docs(const std::string& text, const std::string& version);

}  // namespace ond::corpus
