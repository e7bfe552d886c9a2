// ONDB containers through DocBinReader (R27): the records one at a time give the same documents
// and the same verdict, error code and offset as decode() on the whole buffer; the CRC is
// checked only after the last record; a reader moved half-way carries on where it was.
#include "fuzz_support.hpp"
#include "model_reader.hpp"
#include "mutator.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const Bytes input = as_bytes(data, size);
    Container whole;
    const Outcome d = capture([&] { whole = decode(input); });
    model::check_decode_against_model(input, d, &whole);

    DocList docs;
    StringStore strings;
    bool crc = false;
    std::uint32_t count = 0;
    const Outcome b = capture([&] {
        DocBinReader first(input);
        strings = first.strings();
        crc = first.crc();
        count = first.count();
        if (first.next()) docs.push_back(first.doc().slice().to_doc());
        DocBinReader r(std::move(first));  // carries on after a move
        while (r.next()) {
            docs.push_back(r.doc().slice().to_doc());
            OND_FUZZ_CHECK(docs.size() <= count);
        }
        OND_FUZZ_CHECK(docs.size() == count);
    });
    const bool ondc_header = size >= 12 && std::memcmp(data, "ONDC", 4) == 0;
    const bool header_fault = !d.ok && error_info(d.errc).code.substr(0, 7) == "header.";
    if (ondc_header && !header_fault) {
        OND_FUZZ_CHECK_MSG(!b.ok && b.errc == Errc::header_bad_magic && b.offset == 0, b.describe());
        return 0;
    }
    check_same(d, b, "decode", "DocBinReader");
    if (!d.ok) {
        // Records yielded before the fault are valid on their own; with a CRC fault all were.
        if (d.errc == Errc::crc_mismatch) OND_FUZZ_CHECK(docs.size() == count);
        return 0;
    }
    OND_FUZZ_CHECK(whole.crc == crc && whole.docs.size() == docs.size());
    for (std::size_t i = 0; i < docs.size(); ++i) OND_FUZZ_CHECK(same_doc(docs[i], strings, whole.docs[i], whole.strings));
    return 0;
}
