// Running `ond` as a child process with its memory and CPU time capped, and measuring what it used.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sanitizer_build.hpp"

namespace ond::hostile {

using test_support::address_sanitized;  // memory bounds and the address-space cap: not under ASan

struct ChildResult {
    int status = -1;            // exit code, or 128 + signal
    std::string out;            // stdout, unless it went to /dev/null
    std::string err;            // stderr
    std::uint64_t peak_kib = 0; // peak resident memory (ru_maxrss)
    std::string err_first_line() const { return err.substr(0, err.find('\n')); }
};

struct ChildOptions {
    std::string stdin_path = "/dev/null";  // a file, or /dev/zero
    // When set, stdin is a pipe fed by this function (it returns false to stop); the child may
    // close it early, which ends the feeding.
    std::function<bool(int fd)> feed;
    bool keep_stdout = true;               // else stdout goes to /dev/null
    std::uint64_t address_space_mib = 2048;
    unsigned cpu_seconds = 30;
};

// Runs `argv` (argv[0] a path) as a child, writes its peak resident memory in KiB (wait4) to
// `peak_path`, and exits as it did: the measuring mode of the test binary.
int measure_child(const char* peak_path, char** argv);

// Runs the built `ond` with `args`.
ChildResult run_ond(const std::vector<std::string>& args, const ChildOptions& opt = {});

// A scratch directory removed at the end of the test.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string write(const std::string& name, const std::string& bytes) const;

private:
    std::string path_;
};

}  // namespace ond::hostile
