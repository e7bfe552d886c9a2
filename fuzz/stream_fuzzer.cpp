// Back-to-back ONDC containers through StreamReader (R25, R26), reads cut at sizes derived from
// the input, with next() and with skip_next(): the containers read and the way the stream ends
// (clean, or the error code and offset) are exactly what the rules say, worked out here from
// decode() on each container's bytes. Uses the structure-aware mutator on the first container.
#include "cuts.hpp"
#include "mutator.hpp"
#include "readers.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const Bytes input = as_bytes(data, size);
    const std::vector<std::size_t> cuts = cuts_for(data, size);
    const StreamResult model = model_stream(input);
    const StreamResult cut = read_stream(input, cuts, false);
    check_stream_against_model(input, cut, "StreamReader::next vs model reader");
    check_same_stream(model, cut, "model", "StreamReader::next");
    check_same_stream(model, read_stream(input, {}, false), "model", "StreamReader::next (whole reads)");
    std::uint64_t n = 0;
    const StreamResult v = read_stream(input, cuts, true, &n);
    check_skip_next(input, model, v.end, "StreamReader::skip_next");
    OND_FUZZ_CHECK(n == model.containers.size());
    if (!model.end.ok) OND_FUZZ_CHECK(model.end.offset <= size);

    // The same stream twice over decodes to the containers twice over (when it ended cleanly).
    if (model.end.ok && size < 4096) {
        std::vector<std::byte> twice(input.begin(), input.end());
        twice.insert(twice.end(), input.begin(), input.end());
        const StreamResult t = read_stream(bytes_of(twice), cuts, false);
        OND_FUZZ_CHECK(t.end.ok && t.containers.size() == 2 * model.containers.size());
        for (std::size_t i = 0; i < t.containers.size(); ++i)
            OND_FUZZ_CHECK(same_content(t.containers[i], model.containers[i % model.containers.size()]));
    }
    return 0;
}
