// `ond conform`'s command line (CLI11), with its streams given (the tests run it in-process):
// options parsed and range-checked here; the run is the pipeline of conform_run.hpp.
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

// `ond conform ARGS...`: argv[0] is "conform". Returns the process exit code: 0 only when every
// required check passed (1 otherwise, 2 for a usage error). `ond conform --help` lists the options.
int conform_main(int argc, char** argv);

}  // namespace ond::conformance
