// Prints each document of a bin (ONDB) with its token count and most frequent POS tag.
#include <ond/ond.hpp>

#include <algorithm>
#include <iostream>
#include <map>

int main(int argc, char** argv) try {
    int i = 0;
    for (const ond::RecordView& doc : ond::DocBinReader(ond::load_file(argc > 1 ? argv[1] : "/dev/stdin"))) {
        std::map<std::string_view, int> pos_counts;
        for (ond::TokenView tok : doc.tokens()) ++pos_counts[tok.pos()];
        auto top = std::ranges::max_element(pos_counts, {}, [](const auto& entry) { return entry.second; });
        std::cout << "doc " << i++ << ": " << doc.size() << " tokens";
        if (top != pos_counts.end()) std::cout << ", most frequent POS " << top->first << " (" << top->second << ")";
        std::cout << '\n';
    }
} catch (const std::exception& e) {
    std::cout << "error: " << e.what() << '\n';
    return 1;
}
