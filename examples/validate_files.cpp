// Validates each file named on the command line and prints a one-line summary of it.
#include <ond/ond.hpp>

#include <iostream>

int main(int argc, char** argv) try {
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        ond::Result<ond::Summary> summary = ond::try_validate(ond::load_file(argv[i]));
        if (summary) {
            std::cout << argv[i] << ": ok (" << ond::to_string(summary.value()) << ")\n";
        } else {
            std::cout << argv[i] << ": " << summary.error().what() << '\n';
            status = 1;
        }
    }
    return status;
} catch (const std::exception& e) {  // a file that cannot be read
    std::cout << "error: " << e.what() << '\n';
    return 2;
}
