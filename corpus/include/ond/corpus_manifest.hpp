// The corpus manifest (manifest.json): the case kinds and verdicts, and its one reader, which
// checks every file against the SHA-256 the manifest gives. The generator writes it; the runner
// (`ond conform`) and `ond corpus list|export` read it through Manifest.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ond::corpus {

// What a case asks of a reader or writer.
enum class CaseKind : std::uint8_t { decode, stream, encode };
// What the case's input is: valid (canonical), valid but not canonical, invalid, or one of the
// format's implementation-defined inputs.
enum class CaseVerdict : std::uint8_t { valid, noncanonical, invalid, impl };

// The manifest's spelling ("decode", ..., "noncanonical", "impl").
const char* kind_name(CaseKind k) noexcept;
const char* verdict_name(CaseVerdict v) noexcept;
// Throw std::runtime_error for an unknown name; the verdicts also accept "valid-noncanonical"
// and "implementation-defined".
CaseKind parse_kind(std::string_view s);
CaseVerdict parse_verdict(std::string_view s);

// One entry of "cases". Paths are relative to the corpus folder; "" when absent.
struct ManifestCase {
    std::string id;
    CaseKind kind = CaseKind::decode;
    std::string area;                          // "other" when absent
    CaseVerdict verdict = CaseVerdict::valid;
    std::vector<std::string> rules;
    std::string description;
    std::string error;                         // expected error code, "" if none
    bool canonical = false;
    std::string input, expected, if_accepted, listing;
    // Other contents an accepting reader may produce instead of `if_accepted`, each as good
    // ("if_accepted_also"; also read from an "if_accepted" given as an array, whose first entry
    // is then `if_accepted`). Empty for most cases.
    std::vector<std::string> if_accepted_also;
    std::string canonical_bytes;  // non-canonical decode cases: the canonical writer's bytes of the content
    std::string string_table;     // encode cases with strings: the table's accepted orders (.table.json)
    std::map<std::string, std::string> sha256;  // path -> lower-case hex digest
    // Every id the case had in earlier corpus versions ("former_ids"; a case that changed verdict
    // moved folder): an expected-failure list may still name it by one of them.
    std::vector<std::string> former_ids;
};

struct Manifest {
    std::string dir;
    std::string corpus_version;
    int format_version = 0;
    std::vector<ManifestCase> cases;
    std::vector<std::string> problems;  // "id: reason" for entries that could not be read, and former ids
                                        // that name a current case or are claimed by two

    // Reads DIR/manifest.json; throws std::runtime_error when it cannot be read or parsed.
    static Manifest read(const std::string& dir);

    // The bytes of a file of `c`; when the manifest gives its SHA-256 and the bytes differ, adds
    // "id: path has SHA-256 X, the manifest says Y" to `problems`. Throws when it cannot be read.
    std::string read_checked(const ManifestCase& c, const std::string& rel, std::vector<std::string>& problems) const;
    // The files (paths) whose bytes differ from the SHA-256 the manifest gives.
    std::vector<std::string> mismatched_files() const;
};

// A rule of rules.json: its id ("R17"), title and where it is explained, relative to the
// corpus's parent ("docs/rulings.md#r17"; "" when not given).
struct Rule {
    std::string id;
    std::string title;
    std::string doc;
};
// The rules of DIR/rules.json (a list of ids or {id, title}, or an object id -> title or
// {title}); empty when the file is absent. Throws when it is not JSON.
std::vector<Rule> read_rules(const std::string& dir);

// The whole file; throws std::runtime_error("cannot read PATH").
std::string read_file(const std::string& path);

}  // namespace ond::corpus
