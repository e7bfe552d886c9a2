// One corpus case as the area files declare it, and the registry they declare it into.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ond/corpus_manifest.hpp"
#include "ond/model.hpp"
#include "raw_writer.hpp"

namespace ond::corpus::gen {

using raw::Buf;

// The codec's output as the generator's byte buffer.
inline Buf to_buf(const std::vector<std::byte>& v) {
    Buf b(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) b[i] = static_cast<std::uint8_t>(v[i]);
    return b;
}
using Rules = std::vector<std::string>;

using corpus::CaseKind;
using corpus::CaseVerdict;

// Bytes the reference accepts that a reader accepting an implementation-defined input must read
// the same way: the input with the offending section removed or its padding zeroed, or with an
// offending stored string replaced by `marker`, a string used nowhere else, which then stands
// for `means` (a stored empty label, a repeated group name).
struct ReadAlike {
    Buf bytes;
    std::string marker, means;
    ReadAlike(Buf b, std::string m = {}, std::string v = {})  // NOLINT: plain bytes read naturally
        : bytes(std::move(b)), marker(std::move(m)), means(std::move(v)) {}
};

struct Case {
    CaseKind kind = CaseKind::decode;
    CaseVerdict verdict = CaseVerdict::valid;
    std::string area, name, description;
    Rules rules;
    Buf input;                               // decode and stream bytes
    std::optional<Container> expected;       // decode: the content a reader must produce
    std::vector<Container> stream_read;      // stream: the containers read before the end or fault
    std::string error;                       // expected code (invalid, impl, encode refusals)
    std::string isolates;                    // single-fault cases: the one check (error code) they test
    std::optional<Container> content;       // encode: the content to write
    std::string content_text;                // encode: the content's JSON as spelled (default: to_json)
    // Implementation-defined cases: what a reader or writer that accepts must produce.
    std::optional<Container> if_accepted;    // decode: content (encode: the content as it is)
    std::vector<Container> stream_if_accepted;  // stream: every container of the input
    // decode: other contents an accepting reader may equally produce (R9: sections 6 and 7 of a
    // record read as the record's own); each is the reference's reading with the check relaxed.
    std::vector<Container> if_accepted_also;
    std::optional<ReadAlike> read_alike;     // decode: cross-check of `if_accepted`
    std::string folder;                      // verdict folder ("valid", ..., "encode", "encode-refuse")
    std::string ext;                         // "ondc", "ondb", "stream" (decode/stream), or of the bytes
    // Regressions only:
    std::string regression_path;             // "regressions/<name>.<ext>"
    std::string harness, date;
};

class Registry {
public:
    // The area every case added next belongs to.
    void area(std::string a) { area_ = std::move(a); }

    // Valid: the canonical bytes of `c` (ond::encode), decoding back to `c`.
    void valid(std::string name, Rules rules, std::string desc, const Container& c);
    // Valid but not what the canonical writer writes; decodes to `expected`.
    void noncanonical(std::string name, Rules rules, std::string desc, Buf bytes, const Container& expected);
    // Every reader must reject, with this code from the reference.
    void invalid(std::string name, Rules rules, std::string desc, Buf bytes, std::string code);
    // Invalid with exactly one fault, the one `code` names: a reader without that check accepts
    // these bytes and decodes sensible content (the suite-power test proves it per case).
    void single_fault(std::string name, Rules rules, std::string desc, Buf bytes, std::string code);
    // Marks an existing case (by name, in the current area) as isolating its error code.
    void mark_single_fault(const std::string& area, const std::string& name);
    // The spec lets a reader accept; the reference rejects with this code. `if_accepted` is what
    // an accepting reader must produce: the offending item skipped (a misplaced known section)
    // or kept as it is (a score, a name, a label, padding). Without `read_alike`, the input must
    // be the raw writer's picture of `if_accepted` (the item kept as it is).
    void impl(std::string name, Rules rules, std::string desc, Buf bytes, std::string code, Container if_accepted,
              std::optional<ReadAlike> read_alike = {});
    // Adds to the last (implementation-defined decode) case another content a reader that accepts
    // may produce instead of its if-accepted content.
    void also_accept(Container c) { cases_.back().if_accepted_also.push_back(std::move(c)); }
    // Back-to-back ONDC containers; `read` the containers read before a clean end or the fault;
    // for an implementation-defined fault, `if_accepted` every container an accepting reader reads.
    void stream(std::string name, CaseVerdict v, Rules rules, std::string desc, Buf bytes, std::vector<Container> read,
                std::string code = {}, std::vector<Container> if_accepted = {});
    // Writable content and its canonical bytes.
    void encode(std::string name, Rules rules, std::string desc, const Container& c);
    // Content a writer must refuse with this `content.*` code.
    void refuse(std::string name, Rules rules, std::string desc, const Container& c, std::string code);
    // Content the reference refuses with this `content.*` code only by its own choice (R4, R24):
    // a writer may write it, and then must write the canonical bytes of the content as it is.
    void encode_impl(std::string name, Rules rules, std::string desc, const Container& c, std::string code);

    // The last encode case's content file holds this JSON text, which must read as its content
    // (for spellings to_json does not write: a number past the binary32 range, f32bits).
    void spell_content(std::string json) { cases_.back().content_text = std::move(json); }

    std::vector<Case>& cases() { return cases_; }

private:
    Case& add(std::string name, Rules rules, std::string desc);
    std::string area_;
    std::vector<Case> cases_;
};

// One function per area file.
void add_header_cases(Registry& r);
void add_crc_cases(Registry& r);
void add_varint_cases(Registry& r);
void add_string_cases(Registry& r);
void add_table_cases(Registry& r);
void add_section_cases(Registry& r);
void add_text_cases(Registry& r);
void add_tokens_cases(Registry& r);
void add_entities_cases(Registry& r);
void add_categories_cases(Registry& r);
void add_spans_cases(Registry& r);
void add_bin_cases(Registry& r);
void add_stream_cases(Registry& r);
void add_encode_cases(Registry& r);
void add_document_cases(Registry& r);
void add_rulings_cases(Registry& r);
void add_single_fault_cases(Registry& r);

// All cases of every area, in a fixed order.
std::vector<Case> all_cases();

}  // namespace ond::corpus::gen
