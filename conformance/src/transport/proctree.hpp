// A testee's process tree: who belongs to it, how much memory it holds, and killing all of it.
//
// The runner makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so an orphan anywhere
// below a testee - even one that left the testee's session with setsid - is re-parented to the
// runner instead of to init. Every testee is started with OND_CONFORM_TESTEE=<runner pid>:<serial>
// in its environment, which its descendants inherit; that is how an orphan is traced back to
// the testee it came from.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ond::conformance {

// Once per process; later calls do nothing. False when the kernel refuses.
bool become_subreaper();

// The environment entry that marks processes of the testee with this serial.
std::string testee_marker(std::uint64_t serial);

// Live roots: a started testee is registered until its owner has reaped it, so that a sweep of
// orphans never touches another worker's testee.
// `spawn` runs under the registry's lock, so no sweep can see the new child unregistered.
pid_t spawn_registered(const std::function<pid_t()>& spawn, std::uint64_t serial);
void unregister_root(pid_t pid);

// The processes below `root` (not `root` itself), found through /proc/PID/task/TID/children.
std::vector<pid_t> descendants(pid_t root);
// The same, each with its parent: (process, parent).
std::vector<std::pair<pid_t, pid_t>> descendants_with_parents(pid_t root);

// The sum of VmHWM (peak resident set) in KiB of `root` (when `with_root`) and its descendants;
// `root_rss` instead of the root's VmHWM when its peak could not be reset.
long tree_peak_kb(pid_t root, bool with_root, bool root_current_rss = false);
// The tree's resident set now, by the same rules (what a request starts from).
long tree_rss_kb(pid_t root);
// Resets the peak of `root` and of every descendant; false when one could not be reset.
bool reset_tree_peaks(pid_t root);
long vm_field_kb(pid_t pid, const char* field);  // "VmRSS:", "VmHWM:"; 0 when unreadable
bool reset_peak(pid_t pid);                      // clear_refs 5: VmHWM := VmRSS

// Kills every descendant of `root` (SIGKILL, repeated until none is left).
void kill_descendants(pid_t root);

// Kills and reaps the runner's adopted orphans that came from the testee `serial`, or from a
// testee that is no longer registered, or that carry no marker at all (a testee that cleared its
// environment); `all` kills every orphan of this runner. Returns how many it killed.
int sweep_orphans(std::uint64_t serial, bool all = false);

}  // namespace ond::conformance
