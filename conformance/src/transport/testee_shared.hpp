// What the two process testees share (transport/testee.cpp, transport/persistent_testee.cpp).
#pragma once

#include <atomic>
#include <string>

#include "transport/containment.hpp"

namespace ond::conformance {

std::string with_stderr(std::string detail, const std::string& err);

// The accountings the processes of a testee had (containment.hpp), for the report.
class AccountingsSeen {
public:
    void saw(Accounting a) { seen_ |= 1u << static_cast<unsigned>(a); }
    std::string names() const;

private:
    std::atomic<unsigned> seen_{0};
};

}  // namespace ond::conformance
