// Validates each file named on the command line and prints a one-line summary of it.
#include <ond/ond.hpp>

#include <algorithm>
#include <iostream>

int main(int argc, char** argv) {
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        const std::vector<std::byte> bytes = ond::load_file(argv[i], ec);
        if (ec) {  // unreadable: said, and on to the next file
            std::cout << argv[i] << ": cannot read: " << ec.message() << '\n';
            status = 2;
            continue;
        }
        ond::Result<ond::Summary> summary = ond::try_validate(bytes);
        if (summary) {
            std::cout << argv[i] << ": ok (" << ond::to_string(*summary) << ")\n";
        } else {
            std::cout << argv[i] << ": " << summary.error().what() << '\n';
            status = std::max(status, 1);
        }
    }
    return status;
}
