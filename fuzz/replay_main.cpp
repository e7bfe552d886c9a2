// A main() for builds without libFuzzer: runs LLVMFuzzerTestOneInput on every file named on the
// command line (directories are walked recursively, in sorted order), so that each harness's seed
// corpus and the regression cases run as ordinary tests in every build.
//
//   <harness> [--mutate N] [--seed S] [--expect-files M] PATH...
//
// --mutate N   also runs the harness's LLVMFuzzerCustomMutator (if it has one) N times on each
//              file, feeding every mutant to the harness: this exercises the mutator and what it
//              reaches in builds that have no fuzzing engine.
// --expect-files M   fail unless at least M files were run (guards against an empty glob).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" __attribute__((weak)) std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                                                   std::size_t max_size, unsigned int seed);

namespace {
std::mt19937 fallback_rng(1);
}

// libFuzzer's own byte-level mutator, which custom mutators call for the small changes; here a
// simple stand-in (flip, set, insert or erase a byte) so the custom mutators link and run.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size) {
    const unsigned op = fallback_rng() % 4;
    if (size == 0 || op == 2) {
        if (size >= max_size) return size;
        const std::size_t at = size ? fallback_rng() % (size + 1) : 0;
        std::memmove(data + at + 1, data + at, size - at);
        data[at] = static_cast<std::uint8_t>(fallback_rng());
        return size + 1;
    }
    const std::size_t at = fallback_rng() % size;
    if (op == 0) data[at] = static_cast<std::uint8_t>(data[at] ^ (1u << (fallback_rng() % 8)));
    if (op == 1) data[at] = static_cast<std::uint8_t>(fallback_rng());
    if (op == 3) {
        std::memmove(data + at, data + at + 1, size - at - 1);
        return size - 1;
    }
    return size;
}

namespace {

std::vector<std::uint8_t> read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", p.string().c_str());
        std::exit(2);
    }
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void run_one(const std::vector<std::uint8_t>& bytes) {
    // An exact-size heap copy, so a read past the end is caught by the sanitizers.
    std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[bytes.size() ? bytes.size() : 1]);
    if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
    LLVMFuzzerTestOneInput(copy.get(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    unsigned mutate = 0;
    unsigned seed = 1;
    std::size_t expect = 0;
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--mutate" || a == "--seed" || a == "--expect-files") && i + 1 < argc) {
            const unsigned long v = std::strtoul(argv[++i], nullptr, 10);
            if (a == "--mutate") mutate = static_cast<unsigned>(v);
            if (a == "--seed") seed = static_cast<unsigned>(v);
            if (a == "--expect-files") expect = v;
            continue;
        }
        if (!a.empty() && a[0] == '-') continue;  // libFuzzer-style flags are ignored
        const std::filesystem::path p(a);
        if (std::filesystem::is_directory(p)) {
            std::vector<std::filesystem::path> found;
            for (const auto& e : std::filesystem::recursive_directory_iterator(p))
                if (e.is_regular_file()) found.push_back(e.path());
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else if (std::filesystem::exists(p)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "no such file or directory: %s\n", a.c_str());
            return 2;
        }
    }
    fallback_rng.seed(seed);
    std::size_t mutants = 0;
    for (const auto& f : files) {
        const std::vector<std::uint8_t> bytes = read_file(f);
        run_one(bytes);
        if (mutate && LLVMFuzzerCustomMutator) {
            const std::size_t max_size = bytes.size() * 2 + 64;
            std::vector<std::uint8_t> buf(max_size);
            for (unsigned k = 0; k < mutate; ++k) {
                std::fill(buf.begin(), buf.end(), std::uint8_t{0});
                std::copy(bytes.begin(), bytes.end(), buf.begin());
                const std::size_t n = LLVMFuzzerCustomMutator(buf.data(), bytes.size(), max_size,
                                                              static_cast<unsigned>(fallback_rng()));
                if (n > max_size) {
                    std::fprintf(stderr, "custom mutator returned %zu bytes, more than %zu\n", n, max_size);
                    return 1;
                }
                run_one(std::vector<std::uint8_t>(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n)));
                ++mutants;
            }
        }
    }
    std::printf("replayed %zu files", files.size());
    if (mutants) std::printf(" and %zu mutants", mutants);
    std::printf("\n");
    if (files.size() < expect) {
        std::fprintf(stderr, "expected at least %zu files\n", expect);
        return 1;
    }
    return 0;
}
