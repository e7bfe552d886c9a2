// Entry point of the conformance runner, called by `ond conform ARGS...`.
#pragma once

namespace ond::conformance {

// argv[0] is "conform". Returns the process exit code (0 only when every required check passed).
int conform_main(int argc, char** argv);

}  // namespace ond::conformance
