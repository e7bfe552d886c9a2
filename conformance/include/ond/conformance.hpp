// Entry points of the conformance runner, called by the `ond` tool.
#pragma once

namespace ond::conformance {

// `ond conform ARGS...`: argv[0] is "conform". Returns the process exit code: 0 only when every
// required check passed (1 otherwise, 2 for a usage error). `ond conform --help` lists the options.
int conform_main(int argc, char** argv);

// `ond serve`: the reference codec as a persistent testee speaking the framed protocol of
// conformance/PROTOCOL.md on stdin/stdout until end of input. argv[0] is "serve". Returns 0 at a
// clean end of input, 1 on a broken frame.
int serve_main(int argc, char** argv);

}  // namespace ond::conformance
