// The peak memory of from_json and to_json on a large content JSON (issue 37), as a user's
// process sees it: the peak resident set (getrusage ru_maxrss) over the JSON's size.
//
//   json_peak write FILE SCALE   write the benchmark's JSON content (json_workload.hpp) at SCALE
//                                to FILE with write_json (pieces, so the writer holds little);
//                                SCALE 12 makes about 300 MB
//   json_peak read FILE          read FILE into memory, from_json it, report the peak
//   json_peak write-back FILE    read FILE, from_json, free the text, to_json it, report the peak
//
// Each mode runs in a process of its own, so its peak is its own. The text read into memory is
// part of the peak, as it is for a user.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "json_workload.hpp"
#include "ond/content_json.hpp"

namespace {

double peak_rss_bytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) * 1024.0;  // KiB on Linux
}

std::string read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot open ") + path);
    in.seekg(0, std::ios::end);
    std::string text(static_cast<std::size_t>(in.tellg()), '\0');
    in.seekg(0);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    return text;
}

void print(const char* what, double before, double size) {
    const double peak = peak_rss_bytes();
    std::printf("%s: JSON %.1f MB, peak RSS %.1f MB (%.2fx the JSON), %.1f MB before (%.2fx)\n", what, size / 1e6,
                peak / 1e6, peak / size, before / 1e6, before / size);
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc == 4 && std::strcmp(argv[1], "write") == 0) {
        const ond::Container c = ond::bench::make_json_content(std::strtod(argv[3], nullptr));
        std::ofstream out(argv[2], std::ios::binary);
        std::uint64_t size = 0;
        ond::json::write_json(c, [&](std::string_view piece) {
            out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            size += piece.size();
        });
        if (!out.flush()) throw std::runtime_error("cannot write the JSON");
        std::printf("wrote %llu bytes\n", static_cast<unsigned long long>(size));
        return 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "read") == 0) {
        const std::string text = read_file(argv[2]);
        const double before = peak_rss_bytes();
        const ond::Container c = ond::json::from_json(text);
        print("from_json", before, static_cast<double>(text.size()));
        return c.docs.empty() ? 1 : 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "write-back") == 0) {
        std::string text = read_file(argv[2]);
        const double size = static_cast<double>(text.size());
        const ond::Container c = ond::json::from_json(text);
        std::string().swap(text);
        const double before = peak_rss_bytes();
        const std::string again = ond::json::to_json(c);
        print("to_json", before, size);
        return again.size() + 1 == static_cast<std::size_t>(size) ? 0 : 1;
    }
    std::fprintf(stderr, "usage: json_peak write FILE SCALE | read FILE | write-back FILE\n");
    return 2;
} catch (const std::exception& e) {
    std::fprintf(stderr, "json_peak: %s\n", e.what());
    return 1;
}
