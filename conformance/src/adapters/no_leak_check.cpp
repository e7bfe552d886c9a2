// Linked into the test adapters (ond_test_adapter, ond_hostile_adapter), not into any program a
// user runs: LeakSanitizer's check at exit is off in them. The runner's tests start thousands of
// them under ASan, and the check took about a third of those tests' time. (The hook is
// LeakSanitizer's; without a sanitizer nothing calls it.)
extern "C" int __lsan_is_turned_off();
extern "C" int __lsan_is_turned_off() { return 1; }
