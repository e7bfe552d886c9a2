// The `ond conform` command line, with its streams given (the tests run it in-process).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ond::conformance {

// How the failure report's commands start `ond` and the testee again from a shell.
struct ShellContext {
    std::string ond = "ond";  // the program, shell-quoted
    std::string env;          // assignments to put before a testee command, e.g. "OND=/x/ond "
};
// The context of this process: `ond` when that name on PATH is this very program, its absolute
// path otherwise; and OND=... when the variable the adapter templates read is set.
ShellContext this_shell_context();

// args excludes the program and the "conform" word. Returns the exit code.
int conform_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool stderr_is_tty = false,
                const ShellContext& shell = {});

// The corpus used without --corpus: $OND_CORPUS_DIR, else the source tree's corpus/.
std::string default_corpus_dir();

}  // namespace ond::conformance
