// The `ond conform` command line, with its streams given (the tests run it in-process).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ond::conformance {

// args excludes the program and the "conform" word. Returns the exit code.
int conform_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool stderr_is_tty = false);

// The corpus used without --corpus: $OND_CORPUS_DIR, else the source tree's corpus/.
std::string default_corpus_dir();

}  // namespace ond::conformance
