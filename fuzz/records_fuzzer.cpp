// ONDB bodies: section 1, then section 5's count and records (R9-R11), read the way the buffer
// reader and DocBinReader read them: prologue, one record at a time, then the end-of-records
// check. The modes agree; records never carry categories or span groups; and the same body
// framed as a whole ONDB container decodes (ond::decode) to the same verdict and documents.
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const std::vector<std::byte> body = copy_bytes(data, size);
    const std::uint64_t origin = detail::header_size;

    DocList docs;
    StringStore strings;
    const Outcome r = run_modes(origin, origin + body.size(), [&](auto mode, detail::Tracer* tr) {
        using M = decltype(mode);
        detail::Cursor c(bytes_of(body), origin);
        detail::TableView table;
        detail::BinRecords recs = detail::decode_ondb_prologue<M>(c, table, &strings, tr);
        OND_FUZZ_CHECK(c.empty());
        OND_FUZZ_CHECK(4ull * recs.count <= recs.records.remaining());
        if constexpr (M::build) docs.clear();
        for (std::uint32_t i = 0; i < recs.count; ++i) {
            const std::uint32_t n = detail::decode_record<M>(recs.records, i, table, &docs, tr);  // appends a doc (build)
            if constexpr (M::build) {
                const DocSlice d = docs.back();
                OND_FUZZ_CHECK(docs.size() == i + 1);
                OND_FUZZ_CHECK(d.tokens.size() == n);
                OND_FUZZ_CHECK(!d.has_cats && d.cats.empty() && d.spans.empty());
            }
        }
        detail::check_records_end(recs.records);
    });

    // The same body as a whole container.
    const std::vector<std::byte> whole = frame_container("ONDB", false, body);
    Container c;
    const Outcome w = capture([&] { c = decode(bytes_of(whole)); });
    check_same(r, w, "records one by one", "decode()");
    model::check_decode_against_model(bytes_of(whole), w, &c);
    if (!r.ok) return 0;
    OND_FUZZ_CHECK(c.format == Format::ondb && !c.crc && c.docs.size() == docs.size());
    for (std::size_t i = 0; i < docs.size(); ++i) OND_FUZZ_CHECK(same_doc(docs[i], strings, c.docs[i], c.strings));
    return 0;
}
