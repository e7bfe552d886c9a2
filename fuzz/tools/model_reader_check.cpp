// The model reader (support/model_reader.hpp) on hand-made inputs whose answers are worked out
// here byte by byte: each verdict, code and offset, then the same answer from the reference (or,
// for the two revision-2 codes, the one allowance). Run by CTest as fuzz.model-reader.
#include <cstdio>
#include <string>
#include <vector>

#include "model_reader.hpp"

namespace {

using namespace ond;
using namespace ond::fuzz;
using Buf = std::vector<std::byte>;

int failures = 0;

void expect(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        ++failures;
    }
}

void section(Buf& out, std::uint8_t id, const Buf& content) {
    put_u8(out, id);
    put_u32(out, static_cast<std::uint32_t>(content.size()));
    out.insert(out.end(), content.begin(), content.end());
}

// Table ["PER", ""], text "ab", one token [0, 2) with every field zero, confidence mode 0.
Buf table_section() {
    Buf t;
    put_varint(t, 2);
    put_varint(t, 3 << 1);
    for (char ch : std::string("PER")) put_u8(t, static_cast<std::uint8_t>(ch));
    put_varint(t, 0);
    return t;
}
Buf text_section(const std::string& s) {
    Buf t;
    put_u8(t, 0);
    for (char ch : s) put_u8(t, static_cast<std::uint8_t>(ch));
    return t;
}
Buf tokens_section(std::uint32_t n, std::uint8_t sent_byte) {
    Buf t;
    put_varint(t, n);
    for (std::uint32_t i = 0; i < n; ++i) {
        put_varint(t, 0);
        put_varint(t, 1);
    }
    for (std::uint32_t k = 0; k < 6 * n; ++k) put_varint(t, 0);
    for (std::uint32_t i = 0; i < n; ++i) put_svarint(t, 0);
    for (std::uint32_t b = 0; b < (n + 3) / 4; ++b) put_u8(t, sent_byte);
    put_u8(t, 0);
    return t;
}

// The model's verdict, and the reference's answer on the same bytes.
void check(const char* name, const Buf& input, const char* code, std::uint64_t offset) {
    const model::ContainerResult m = model::read_container(Bytes(input.data(), input.size()));
    const std::string want = code ? std::string(code) + " at " + std::to_string(offset) : "accepted";
    expect(m.verdict.ok == (code == nullptr) && (m.verdict.ok || (m.verdict.code == code && m.verdict.offset == offset)),
           std::string(name) + ": model " + m.verdict.describe() + ", expected " + want);
    Container c;
    const Outcome r = capture([&] { c = decode(Bytes(input.data(), input.size())); });
    if (code && !model::code_defined(code)) {
        // A reference before revision 2 accepts; the comparison allows exactly this.
        expect(r.ok && !model::check_against_model(r, m.verdict, name), std::string(name) + ": the revision-2 allowance");
        return;
    }
    expect(r.ok == (code == nullptr) && (r.ok || (error_info(r.errc).code == code && r.offset == offset)),
           std::string(name) + ": reference " + r.describe() + ", expected " + want);
    if (r.ok && m.verdict.ok) expect(same_content(c, m.content), std::string(name) + ": content");
}

}  // namespace

// Long by design: a list of worked inputs, one line or two each, with their expected answers.
int main() {
    const Buf table = table_section();
    const Buf text = text_section("ab");
    {  // A valid document, then its faults one at a time. Body starts at 12; section 1 at 12.
        Buf body;
        section(body, 1, table);
        section(body, 2, text);
        section(body, 3, tokens_section(1, 0x01));
        check("valid", frame_container("ONDC", true, body), nullptr, 0);
    }
    {  // Sentence padding: the last sentence byte (0x05: token 0 is "start", padding bit 2 set).
        Buf body, tok = tokens_section(1, 0x05);
        section(body, 1, table);
        section(body, 2, text);
        const std::size_t tokens_at = 12 + body.size() + 5;
        section(body, 3, tok);
        check("sentence padding", frame_container("ONDC", false, body), "tokens.sentence-padding", tokens_at + 10);
    }
    {  // A byte after the text section's contents cannot exist (the text is the rest), so after
       // the tokens': section.trailing-bytes at the first byte not consumed.
        Buf body, tok = tokens_section(1, 0x01);
        tok.push_back(std::byte{0});
        section(body, 1, table);
        section(body, 2, text);
        const std::size_t tokens_at = 12 + body.size() + 5;
        section(body, 3, tok);
        check("trailing bytes", frame_container("ONDC", false, body), "section.trailing-bytes", tokens_at + tok.size() - 1);
    }
    {  // A label naming the stored empty string (index 2): entities.label-empty at the label varint.
        Buf body, ents;
        put_varint(ents, 1);
        put_varint(ents, 0);
        put_varint(ents, 1);
        put_varint(ents, 2);
        put_u32(ents, 0x3F800000u);
        section(body, 1, table);
        section(body, 2, text);
        section(body, 3, tokens_section(1, 0x01));
        const std::size_t ents_at = 12 + body.size() + 5;
        section(body, 4, ents);
        check("empty label", frame_container("ONDC", false, body), "entities.label-empty", ents_at + 3);
    }
    {  // Section 5 in an ONDC body: section.misplaced at its id byte.
        Buf body;
        section(body, 1, table);
        section(body, 2, text);
        section(body, 3, tokens_section(1, 0x01));
        const std::size_t at = 12 + body.size();
        section(body, 5, Buf(4));
        check("misplaced", frame_container("ONDC", false, body), "section.misplaced", at);
    }
    {  // ONDB: one record, then a stray byte inside section 5: bin.trailing-bytes.
        Buf rec, records, body;
        section(rec, 2, text);
        section(rec, 3, tokens_section(1, 0x01));
        put_u32(records, 1);
        put_u32(records, static_cast<std::uint32_t>(rec.size()));
        records.insert(records.end(), rec.begin(), rec.end());
        records.push_back(std::byte{0});
        section(body, 1, table);
        const std::size_t sec5 = 12 + body.size() + 5;
        section(body, 5, records);
        check("bin trailing bytes", frame_container("ONDB", false, body), "bin.trailing-bytes", sec5 + records.size() - 1);
        // The record's length one past the section: bin.record-length-out-of-range at the length.
        Buf longer = records;
        longer.pop_back();
        longer[4] = static_cast<std::byte>(rec.size() + 1);
        Buf body2;
        section(body2, 1, table);
        section(body2, 5, longer);
        check("record length", frame_container("ONDB", false, body2), "bin.record-length-out-of-range", sec5 + 4);
    }
    {  // Revision 2: a section 4 with no entities in a document without tokens (R22), and a
       // section 7 with no groups (R24), each at the count that says 0.
        Buf body, zero;
        put_varint(zero, 0);
        section(body, 1, table);
        section(body, 2, text);
        section(body, 3, tokens_section(0, 0));
        const std::size_t at = 12 + body.size() + 5;
        section(body, 4, zero);
        check("entities without tokens", frame_container("ONDC", false, body), "entities.without-tokens", at);
        Buf body7;
        section(body7, 1, table);
        section(body7, 2, text);
        section(body7, 3, tokens_section(1, 0x01));
        const std::size_t at7 = 12 + body7.size() + 5;
        section(body7, 7, zero);
        check("no span groups", frame_container("ONDC", false, body7), "spans.no-groups", at7);
    }
    {  // A stream: one container, then an ONDB header: stream.bin-in-stream at its first byte.
        Buf body;
        section(body, 1, table);
        section(body, 2, text);
        section(body, 3, tokens_section(1, 0x01));
        Buf stream = frame_container("ONDC", false, body);
        const std::size_t second = stream.size();
        const Buf bin = frame_container("ONDB", false, Buf{});
        stream.insert(stream.end(), bin.begin(), bin.end());
        const model::StreamResult m = model::read_stream(Bytes(stream.data(), stream.size()));
        expect(m.containers.size() == 1 && !m.end.ok && m.end.code == "stream.bin-in-stream" && m.end.offset == second,
               "stream: model " + m.end.describe());
    }
    if (failures) return 1;
    std::printf("model reader: every hand-made case as expected\n");
    return 0;
}
