// Entry points of the conformance library called by the `ond` tool (`ond conform`'s options are
// the tool's: cli/conform_cli.hpp; the run itself is run_conformance, conformance/src/suite/runner.hpp).
#pragma once

namespace ond::conformance {

// `ond serve`: the reference codec as a persistent testee speaking the framed protocol of
// conformance/PROTOCOL.md on stdin/stdout until end of input. argv[0] is "serve". Returns 0 at a
// clean end of input, 1 on a broken frame.
int serve_main(int argc, char** argv);

}  // namespace ond::conformance
