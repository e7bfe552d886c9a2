// Containment of one adapter process: a memory cgroup the runner makes for it, so that everything
// the adapter starts (descendants, double-forked daemons, pages it writes to a memory file system)
// is counted and killed with it, and a private /dev/shm. Where the kernel offers neither, the
// process tree is sampled through /proc (proctree.hpp) and new files in the shared /dev/shm are
// counted and removed. conformance/README.md says what each accounting does not see.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <set>
#include <string>

namespace ond::conformance {

enum class Accounting { cgroup_v2, cgroup_v1, sampling };
// "cgroup v2", "cgroup v1", "process-tree sampling": the name the reports give.
const char* accounting_name(Accounting a) noexcept;

// What the runner can use here, found once: a memory cgroup it may create (version 2 first), else
// sampling. Under force_sampling, sampling and the shared /dev/shm (so that the fallback can be
// tested where a cgroup can be made).
Accounting available_accounting();
void force_sampling(bool on);
bool sampling_forced();
// How many memory groups of this runner exist now (none once every adapter has ended).
std::size_t groups_of_this_runner();

// A memory cap the kernel enforces on the group, above the runner's own: the runner kills the
// group past the cap, the kernel stops an allocation faster than the runner samples.
constexpr long kernel_limit_kb(long cap_kb) { return cap_kb + cap_kb / 4; }

class Containment {
public:
    // A group for one adapter process and all it starts; under sampling, none. `cap_kb` > 0: the
    // kernel's limit (kernel_limit_kb) and the size of the private /dev/shm.
    Containment(std::uint64_t serial, long cap_kb);
    ~Containment();  // kills what is left in the group and removes it, and any /dev/shm leftovers
    Containment(const Containment&) = delete;
    Containment& operator=(const Containment&) = delete;

    Accounting accounting() const noexcept { return accounting_; }
    // cgroup.procs of the group, open for writing (-1 under sampling): the child writes "0" to it
    // before it execs, so that nothing it does escapes the group.
    int join_fd() const noexcept { return join_fd_; }
    // The mount options of a private /dev/shm; empty when none is to be tried.
    const std::string& shm_options() const noexcept { return shm_options_; }
    // Whether the child got its private /dev/shm (set once it has started).
    void set_private_shm(bool yes);
    bool private_shm() const noexcept { return private_shm_; }

    // Starts a measuring window: resets the peaks and returns what the group (or the tree of
    // `root`) holds now, in KiB.
    long start_window(pid_t root);
    // The peak since the window started (since creation for the first), in KiB.
    long peak_kb(pid_t root);
    // What the group holds now.
    long held_kb(pid_t root);
    // The kernel's limit killed a process of the group.
    bool kernel_killed() const;

    // Kills every process of the group (SIGKILL, until it is empty); under sampling, the tree of
    // `root` (root not included). Then removes the files the adapter left in a shared /dev/shm.
    void kill_all(pid_t root);

private:
    long shm_files_kb();
    void remove_shm_files();
    std::string file(const char* name) const { return dir_ + "/" + name; }

    Accounting accounting_ = Accounting::sampling;
    std::string dir_;  // the cgroup's directory; empty under sampling
    int join_fd_ = -1;
    long cap_kb_ = 0;
    std::string shm_options_;
    bool private_shm_ = false;
    bool tree_peaks_reset_ = true;
    long sampled_peak_kb_ = 0;  // version 2 without a resettable memory.peak, and sampling
    int peak_fd_ = -1;          // version 2: memory.peak, reset through this descriptor
    std::set<std::string> shm_before_;  // the shared /dev/shm's names before the adapter started
};

}  // namespace ond::conformance
