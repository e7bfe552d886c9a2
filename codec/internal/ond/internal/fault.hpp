// How the codec raises an error, with or without C++ exceptions. Internal header (not installed).
//
// Built with exceptions (ond::codec), raise() throws the ond::Error and OND_BAIL compiles to
// nothing: every check site is exactly a throw.
//
// Built with -fno-exceptions (ond::codec_noexcept, the same sources), raise() keeps the first
// error in a per-thread slot and returns, and each caller leaves at once through OND_BAIL:
//
//     if (bad) return fail(Errc::x, offset, "...");          // a function returning a value
//     if (bad) return void(fail(Errc::x, offset, "..."));    // a void one
//     const std::uint32_t n = decode_thing(c);  OND_BAIL({}); // after any call that can fail
//
// fail() and raise() are [[nodiscard]], so a check site that forgets its `return` does not
// compile. A cursor read that fails also moves the cursor to its end and returns 0 (bytes():
// a pointer not to be read), so a caller bails before it uses what it read. Between the failing
// check and the public call, objects are left valid (destructible, no row half-made) but their
// contents are unspecified, as after a throw.
//
// The public non-throwing forms (ond/result.hpp) run the throwing call inside capture(): the
// error comes back to them as a value. A throwing call made outside any capture() in a program
// without exceptions has nowhere to send its error: it prints it and aborts, as
// Result::value() does there.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "ond/error.hpp"

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define OND_EXCEPTIONS 1
#else
#define OND_EXCEPTIONS 0
#endif

#if OND_EXCEPTIONS
#define OND_NORETURN_IF_THROWING [[noreturn]]
#else
#define OND_NORETURN_IF_THROWING
#endif

namespace ond::detail {

// What a failing check returns to its caller: converts to the zero value of any return type.
struct [[nodiscard]] Bail {
    template <class T>
    operator T() const noexcept(noexcept(T{})) {
        return T{};
    }
};

#if OND_EXCEPTIONS
constexpr bool faulted() noexcept { return false; }
#else
// The first error raised on this thread and not yet taken by capture(), and how deep in
// capture() calls the thread is.
struct FaultSlot {
    std::optional<Error> error;
    int captures = 0;
};
FaultSlot& fault_slot() noexcept;
inline bool faulted() noexcept { return fault_slot().error.has_value(); }
#endif

// Throws `e`, or keeps it (the first one) for the innermost capture().
OND_NORETURN_IF_THROWING Bail raise(Error e);

// Raises content that the writer or a builder refuses (a content.* code, at no byte offset, with
// the field's path): check sites `return refuse(...)`.
OND_NORETURN_IF_THROWING inline Bail refuse(Errc e, std::string path, std::string detail) {
#if OND_EXCEPTIONS
    throw Error(e, no_offset, std::move(detail), std::move(path));
#else
    return raise(Error(e, no_offset, std::move(detail), std::move(path)));
#endif
}

// Without exceptions: prints "ond: <kind>: <what>" to stderr and aborts.
[[noreturn]] void abort_with(const char* kind, const std::string& what) noexcept;

// Raises a precondition violation (an index out of range, a misuse): throws `E(what)`, or,
// without exceptions, prints `what` and aborts, as the standard library does there.
template <class E>
[[noreturn]] void raise_logic(const std::string& what) {
#if OND_EXCEPTIONS
    throw E(what);
#else
    abort_with("precondition", what);
#endif
}

// Runs f(); returns the ond::Error it raised, if any (f's own value is dropped).
template <class F>
std::optional<Error> capture(F&& f) {
#if OND_EXCEPTIONS
    try {
        std::forward<F>(f)();
    } catch (Error& e) {
        return std::move(e);
    }
    return std::nullopt;
#else
    FaultSlot& slot = fault_slot();
    std::optional<Error> outer = std::exchange(slot.error, std::nullopt);
    ++slot.captures;
    std::forward<F>(f)();
    --slot.captures;
    return std::exchange(slot.error, std::move(outer));
#endif
}

}  // namespace ond::detail

// After a call that can fail: leaves the calling function when it did (never with exceptions,
// where the call threw instead). OND_BAIL() in a void function, OND_BAIL({}) or OND_BAIL(value)
// in others.
#if OND_EXCEPTIONS
#define OND_BAIL(...) static_cast<void>(0)
#else
#define OND_BAIL(...)                                 \
    do {                                              \
        if (::ond::detail::faulted()) [[unlikely]]    \
            return __VA_ARGS__;                       \
    } while (0)
#endif
