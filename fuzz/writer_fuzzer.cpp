// The writer. Content is built from the input (ContentBuilder: mostly valid, sometimes not):
//  - encode(c) either returns bytes or refuses with a content.* error and no offset, and
//    check_writable(c) gives the same answer;
//  - accepted: the bytes equal the independent encoder's (raw_encode), decode to equal content,
//    and re-encode to themselves;
//  - refused: the independent encoder's bytes for the same content are rejected by the reader
//    (the writer refuses exactly the content a strict reader would reject on reading it back).
#include "content_builder.hpp"
#include "fuzz_support.hpp"
#include "model_reader.hpp"
#include "provider.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    Provider p(data, size);
    const Container c = ContentBuilder<Provider>(p).build();

    std::vector<std::byte> bytes;
    std::string error_path;
    const Outcome e = capture([&] {
        try {
            bytes = encode(c);
        } catch (const Error& err) {
            error_path = err.path();
            throw;
        }
    });
    const Outcome chk = capture([&] { check_writable(c); });
    // The non-throwing form gives the same bytes or the same error.
    const Result<std::vector<std::byte>> t = try_encode(c);
    OND_FUZZ_CHECK(t.ok() == e.ok);
    if (t.ok()) OND_FUZZ_CHECK(*t.operator->() == bytes);
    else OND_FUZZ_CHECK(t.error().errc() == e.errc && t.error().path() == error_path);
    OND_FUZZ_CHECK(e.ok == chk.ok && (e.ok || e.errc == chk.errc));
    const std::vector<std::byte> raw = raw_encode(c);
    Container back;
    const Outcome r = capture([&] { back = decode(bytes_of(raw)); });
    // The independent encoder's bytes read by the reference and by the model reader agree.
    model::check_decode_against_model(bytes_of(raw), r, &back);
    if (!e.ok) {
        OND_FUZZ_CHECK(error_info(e.errc).verdict == ErrorVerdict::content);
        OND_FUZZ_CHECK(e.offset == no_offset);
        OND_FUZZ_CHECK_MSG(!r.ok, "the writer refused content whose bytes a reader accepts: " + e.what);
        return 0;
    }
    OND_FUZZ_CHECK_MSG(r.ok, "the writer accepted content whose bytes a reader rejects: " + r.what);
    OND_FUZZ_CHECK_MSG(bytes == raw, "the writer's bytes differ from the independent encoder's");
    OND_FUZZ_CHECK(same_content(c, back));
    std::vector<std::byte> again;
    const Outcome e2 = capture([&] { again = encode(back); });
    OND_FUZZ_CHECK_MSG(e2.ok, e2.describe());
    OND_FUZZ_CHECK(again == bytes);
    return 0;
}
