// Reads back-to-back ONDC containers from stdin and prints each one's token count.
#include <ond/ond.hpp>

#include <iostream>

int main() try {
    int n = 0;
    for (const ond::Container& c : ond::StreamReader(std::cin)) {
        std::cout << "container " << n++ << ": " << c.doc(0).size() << " tokens" << (c.crc ? ", crc" : "") << '\n';
    }
    std::cout << n << (n == 1 ? " container\n" : " containers\n");
} catch (const ond::Error& e) {
    std::cout << "error: " << e.what() << '\n';
    return 1;
}
