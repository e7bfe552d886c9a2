// Prints what the codec makes of each file (outcomes.hpp: through the non-throwing API only, an
// error's code, offset, path and detail; a digest of what was read). Built twice, against
// ond::codec and, with -fno-exceptions, against ond::codec_noexcept; CTest's
// codec.noexcept-same-outcomes requires the two outputs to be identical
// (cmake/compare_outputs.cmake).
//
//   codec_outcomes FILE|DIR...
//
// A directory stands for every regular file under it, sorted by path, named relative to it. The
// reused containers go from file to file. Exit status 0, or 2 when a file or directory cannot be
// read.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "ond/internal/outcomes.hpp"

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    int status = 0;
    Reused reused;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        // (name printed, file read)
        std::vector<std::pair<std::string, fs::path>> files;
        if (fs::is_directory(arg, ec)) {
            fs::recursive_directory_iterator it(arg, ec), end;
            for (; !ec && it != end; it.increment(ec)) {
                std::error_code type_ec;
                if (it->is_regular_file(type_ec)) files.emplace_back(it->path().lexically_relative(arg).generic_string(), it->path());
            }
            if (ec) {
                std::fprintf(stderr, "%s: %s\n", argv[i], ec.message().c_str());
                status = 2;
                continue;
            }
            std::sort(files.begin(), files.end());
        } else {
            files.emplace_back(argv[i], arg);
        }
        for (const auto& [name, path] : files) {
            const std::vector<std::byte> bytes = ond::load_file(path, ec);
            if (ec) {
                std::fprintf(stderr, "%s: %s\n", name.c_str(), ec.message().c_str());
                status = 2;
                continue;
            }
            std::string text;
            characterise(text, name, ond::Bytes(bytes), reused);
            std::fwrite(text.data(), 1, text.size(), stdout);
        }
    }
    return std::fflush(stdout) == 0 ? status : 2;
}
