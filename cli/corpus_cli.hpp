// `ond corpus ...`: the golden corpus as a product (list its cases, export a copy). The command
// line is the tool's; what it reads and writes is the corpus library's (ond/corpus_manifest.hpp).
#pragma once

namespace ond::corpus {

// argv[0] is "corpus". Subcommands:
//   list [--verdict V] [--area A] [--kind K]   one line per case: id, kind, verdict, error
//   export [--no-listings] [--replace-added] DIR   the corpus as a consumer vendors it
//                                                (corpus_export.hpp), with DIR/VERSION
// Options anywhere: --corpus DIR (else $OND_CORPUS_DIR, else the source tree's corpus/).
// Returns the process exit code.
int corpus_main(int argc, char** argv);

}  // namespace ond::corpus
