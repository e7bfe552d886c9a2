// What the conformance library gives the `ond` tool besides the run itself (its stages, which
// cli/conform_run.cpp puts together). Every command's options are the tool's (cli/).
#pragma once

namespace ond::conformance {

// The reference codec as a persistent testee (`ond serve`, whose options are the tool's): answers
// the framed requests of docs/protocol.md on stdin, on stdout, until end of input. Returns 0 at a
// clean end of input, 1 on a broken frame (said on stderr).
int serve();

}  // namespace ond::conformance
