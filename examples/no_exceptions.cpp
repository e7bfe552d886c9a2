// Reads each bin (ONDB) named, built with -fno-exceptions: every call that can fail returns a Result.
#include <ond/ond.hpp>

#include <iostream>

int main(int argc, char** argv) {
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        std::vector<std::byte> bytes = ond::load_file(argv[i], ec);
        ond::Result<ond::DocBinReader> reader = ond::try_open(std::move(bytes));
        if (ec || !reader) {
            std::cout << argv[i] << ": " << (ec ? ec.message() : reader.error().what()) << '\n';
            status = 1;
            continue;  // on to the next file
        }
        std::size_t docs = 0, tokens = 0;
        ond::Result<bool> more = ond::try_next(*reader);
        for (; more && *more; more = ond::try_next(*reader)) {
            ++docs;
            tokens += reader->doc().size();
        }
        std::cout << argv[i] << ": " << docs << " documents, " << tokens << " tokens";
        if (!more) {
            std::cout << ", then " << more.error().code() << " at byte " << more.error().offset();
            status = 1;
        }
        std::cout << '\n';
    }
    return status;
}
