// Round trip. An input that starts with a container magic is decoded; if it decodes, then
//   b1 = encode(decode(input)) succeeds and equals the independent encoder's bytes,
//   decode(b1) has the same content, and encode(decode(b1)) == b1 (the canonical form is a
//   fixed point). With OND_FUZZ_EXPECT_CANONICAL=1 in the environment (set for the replay of
//   the corpus's valid cases), every input must decode and b1 must equal the input.
// Any other input is read as choices for content (ContentBuilder): content the writer accepts
// is canonical by definition, so its bytes must decode to equal content and re-encode to
// themselves. Uses the structure-aware mutator.
#include <cstdlib>
#include <cstring>

#include "content_builder.hpp"
#include "fuzz_support.hpp"
#include "model_reader.hpp"
#include "mutator.hpp"
#include "provider.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

namespace {
bool expect_canonical = false;

void check_canonical_bytes(const std::vector<std::byte>& b1, const ond::Container& content) {
    using namespace ond;
    using namespace ond::fuzz;
    Container c2;
    const Outcome d2 = capture([&] { c2 = decode(bytes_of(b1)); });
    OND_FUZZ_CHECK_MSG(d2.ok, d2.describe());
    model::check_decode_against_model(bytes_of(b1), d2, &c2);
    OND_FUZZ_CHECK(same_content(content, c2));
    std::vector<std::byte> b2;
    const Outcome e2 = capture([&] { b2 = encode(c2); });
    OND_FUZZ_CHECK_MSG(e2.ok, e2.describe());
    OND_FUZZ_CHECK(b2 == b1);
    OND_FUZZ_CHECK(raw_encode(c2) == b1);
    // encode_append adds exactly the same bytes after what is already there.
    std::vector<std::byte> app{std::byte{0xAA}};
    encode_append(c2, app);
    OND_FUZZ_CHECK(app.size() == b1.size() + 1 && std::equal(b1.begin(), b1.end(), app.begin() + 1));
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* e = std::getenv("OND_FUZZ_EXPECT_CANONICAL");
    expect_canonical = e && std::strcmp(e, "1") == 0;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const bool container = size >= 4 && (std::memcmp(data, "ONDC", 4) == 0 || std::memcmp(data, "ONDB", 4) == 0);
    if (container || expect_canonical) {
        Container c;
        const Outcome d = capture([&] { c = decode(as_bytes(data, size)); });
        model::check_decode_against_model(as_bytes(data, size), d, &c);
        if (expect_canonical) OND_FUZZ_CHECK_MSG(d.ok, d.describe());
        if (!d.ok) return 0;
        std::vector<std::byte> b1;
        const Outcome e = capture([&] { b1 = encode(c); });
        OND_FUZZ_CHECK_MSG(e.ok, e.describe());
        check_canonical_bytes(b1, c);
        if (expect_canonical)
            OND_FUZZ_CHECK_MSG(b1.size() == size && std::memcmp(b1.data(), data, size) == 0,
                               "a valid corpus case does not re-encode to itself");
        return 0;
    }
    Provider p(data, size);
    const Container c = ContentBuilder<Provider>(p).build();
    std::vector<std::byte> b1;
    const Outcome e = capture([&] { b1 = encode(c); });
    if (!e.ok) return 0;  // refusals are the writer harness's business
    check_canonical_bytes(b1, c);
    return 0;
}
