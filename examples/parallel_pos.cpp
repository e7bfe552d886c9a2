// bin_pos on N threads: each decodes a range of a BinIndex; the lines are printed in record order.
#include <ond/ond.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

struct Part {  // one thread's range: a line per record, and the fault that stopped it, if any
    std::vector<std::string> lines;
    std::string error;
};

int main(int argc, char** argv) try {
    const ond::BinIndex index(ond::load_file(argc > 1 ? argv[1] : "/dev/stdin"));  // shared, read-only
    const std::size_t n = argc > 2 ? std::stoul(argv[2]) : std::max(1u, std::thread::hardware_concurrency());
    std::vector<Part> parts(n);
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < n; ++t)
        threads.emplace_back([&index, &part = parts[t], first = index.size() * t / n, last = index.size() * (t + 1) / n] {
            ond::Container doc;  // this thread's own, reused record after record
            for (std::size_t i = first; i < last; ++i) {
                if (auto s = ond::try_decode_into(index, i, i + 1, doc); !s) {
                    part.error = s.error().what();  // this range stops here; later ranges are not printed
                    return;
                }
                const ond::DocView view = doc.doc(0);
                std::map<std::string_view, int> pos_counts;
                for (ond::TokenView tok : view.tokens()) ++pos_counts[tok.pos()];
                auto top = std::ranges::max_element(pos_counts, {}, [](const auto& entry) { return entry.second; });
                std::string line = "doc " + std::to_string(i) + ": " + std::to_string(view.size()) + " tokens";
                if (top != pos_counts.end())
                    line += ", most frequent POS " + std::string(top->first) + " (" + std::to_string(top->second) + ")";
                part.lines.push_back(std::move(line));
            }
        });
    threads.clear();  // joins
    for (const Part& part : parts) {
        for (const std::string& line : part.lines) std::cout << line << '\n';
        if (!part.error.empty()) throw std::runtime_error(part.error);  // the first fault in record order
    }
} catch (const std::exception& e) {
    std::cout << "error: " << e.what() << '\n';
    return 1;
}
