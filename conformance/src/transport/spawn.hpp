// Starting an adapter process inside its containment, and the non-blocking pipe I/O that both
// modes (run_process, PersistentProcess) share. Internal to transport/.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "transport/containment.hpp"
#include "transport/process.hpp"

namespace ond::conformance::spawning {

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
// How long to wait in poll before the next memory sample: often at first, as a short-lived
// allocation is what a sample could miss.
inline int sample_interval_ms(Clock::time_point t0) { return ms_since(t0) < 50 ? 1 : 4; }

struct Child {
    pid_t pid = -1;
    std::uint64_t serial = 0;
    int in_w = -1, out_r = -1, err_r = -1;
    std::unique_ptr<Containment> group;  // the adapter's memory group and /dev/shm
};

// Starts argv with three pipes in its own process group, default signal handling and the testee
// marker in its environment, inside a new Containment (its memory cgroup joined and its private
// /dev/shm mounted before it execs, where the kernel allows). No copy of the runner's memory
// (the child runs in it until exec, as with vfork), no shell. No RLIMIT_AS: a JVM or V8 reserves
// far more address space than it uses; the memory cap is the group's (SpawnLimits).
Child spawn(const std::vector<std::string>& argv, long cap_kb, std::string& error);

void set_nonblocking(int fd);
void close_fd(int& fd);
// Reads what is available into `buf` up to `cap` bytes in all; returns false at end of file.
// `over` is set when more than `cap` bytes came.
bool read_some(int fd, std::string& buf, std::size_t cap, bool* over = nullptr);
// Reads what is available while `buf` holds fewer than `cap` bytes, leaving the rest in the pipe;
// returns false at end of file.
bool read_upto(int fd, std::string& buf, std::size_t cap);
bool read_excerpt(int fd, Excerpt& e);
void reap(pid_t pid, int& status);
// "5 bytes (01 01 01 01 01)": at most 16 shown.
std::string describe_bytes(std::string_view b);

}  // namespace ond::conformance::spawning
