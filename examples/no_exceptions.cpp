// Built with -fno-exceptions: reads each bin named (record by record, then through an index) and
// builds a document; every call that can fail returns a Result or a Status.
#include <ond/ond.hpp>

#include <iostream>

int main(int argc, char** argv) {
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        const std::vector<std::byte> bytes = ond::load_file(argv[i], ec);
        ond::Result<ond::DocBinReader> reader = ond::try_open(ond::Bytes(bytes));
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
        // The same records through an index, decoded in one range.
        ond::Result<ond::BinIndex> index = ond::try_index(ond::Bytes(bytes));
        if (!index) {
            std::cout << "; index: " << index.error().code() << '\n';
            continue;
        }
        ond::Result<ond::Container> all = ond::try_decode(*index, 0, index->size());
        std::cout << "; index: " << index->size() << " records, "
                  << (all ? std::to_string(all->docs.size()) + " decoded" : std::string(all.error().code())) << '\n';
    }
    // The builder keeps its first error; push_back refuses an id the store never handed out.
    ond::Container c;
    ond::DocBuilder b(c, "Apple buys a startup", ond::no_throw);
    b.token("Apple").pos("PROPN");
    b.token("pear").pos("NOUN");  // not in the text
    if (ond::Status s = b.status(); !s) std::cout << "builder: " << s.error().code() << " at " << s.error().path() << '\n';
    ond::Doc d = c.docs.to_doc(0);
    d.tokens.column(ond::TokenColumn::pos)[0] = 1000;
    if (ond::Status s = ond::try_push_back(c, d); !s) std::cout << "push_back: " << s.error().code() << '\n';
    ond::Result<std::vector<std::byte>> out = ond::try_encode(c);
    std::cout << "encoded: " << out.value_or(std::vector<std::byte>{}).size() << " bytes, " << c.docs.size() << " document\n";
    return status;
}
