// How the API tells the compiler what a returned view depends on.
//
// An accessor that returns a view into its own object has two guards: a deleted `&&` overload
// (or one that returns a copy), so that calling it on a temporary fails to compile with every
// compiler; and OND_LIFETIMEBOUND, with which clang also warns (-Wdangling) where a view
// outlives the object it came from in forms the overloads cannot see. g++ has no such
// attribute: there the macro is empty and the overloads do the work.
#pragma once

#if defined(__clang__) && defined(__has_cpp_attribute)
#if __has_cpp_attribute(clang::lifetimebound)
#define OND_LIFETIMEBOUND [[clang::lifetimebound]]
#endif
#endif
#ifndef OND_LIFETIMEBOUND
#define OND_LIFETIMEBOUND
#endif
