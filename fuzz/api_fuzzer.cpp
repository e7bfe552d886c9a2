// The public API's operations on what a container holds, each against what it must do, worked
// out here from plain copies (support/api_checks.hpp has the checks): the edits in place
// (DocList::set_*, Container::set_attr, rewrite_attr) against the same change made to a Doc;
// every refused edit with its exact code and nothing changed; edit_all, replace and push_back;
// merge, pack, split and append against the documents they copy; DocBinReader and StreamReader
// as ranges, over owned bytes and a std::istream, and their try_ forms; DocBuilder's refusals;
// the writer's refusal of each kind of unwritable content; the views' accessors; the framing
// helpers. The input is a container, as for `container` (the structure-aware mutator applies);
// which document, token and value each operation takes comes from a hash of the input.
#include "api_checks.hpp"
#include "mutator.hpp"

OND_FUZZ_STRUCTURE_MUTATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ond;
    using namespace ond::fuzz;
    const Bytes input = as_bytes(data, size);
    api::check_results(input);
    api::check_framing_helpers(input);
    Container c;
    if (!capture([&] { c = decode(input); }).ok) return 0;
    api::Choices pick(input);
    api::check_views(c);
    api::check_edits(c, pick);
    api::check_whole_documents(c, pick);
    api::check_merge_pack_split(c, pick);
    api::check_readers(c, input);
    api::check_builder(c);
    api::check_same_doc_notices(c);
    api::check_writer_refusals(c);
    api::check_try_forms(c, input);
    return 0;
}
