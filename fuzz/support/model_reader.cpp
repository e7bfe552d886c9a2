// The model reader (model_reader.hpp). Reads into plain local structures first and fills the
// public types at the end, so that nothing of the codec's reading code or buffers is involved.
#include "model_reader.hpp"

#include <cmath>
#include <cstring>
#include <set>
#include <utility>

namespace ond::fuzz::model {

namespace {

// A refusal, thrown where the fault is found and caught once per container.
struct Refusal {
    std::string code;
    std::uint64_t offset;
    std::string detail;
};

[[noreturn]] void refuse(const char* code, std::uint64_t offset, std::string detail = {}) {
    throw Refusal{code, offset, std::move(detail)};
}

// Revision 2 (R22, R24): where the model reports a document without tokens carrying a section 4
// with no entities, and a section 7 with no groups: at the count varint that says 0.
constexpr const char* entities_without_tokens = "entities.without-tokens";
constexpr const char* spans_no_groups = "spans.no-groups";

// A window of the input [pos, end), with absolute offsets. Every read checks its bytes first.
struct Reader {
    const std::uint8_t* data;  // the whole input
    std::uint64_t origin;      // absolute offset of data[0]
    std::size_t pos;
    std::size_t end;

    std::uint64_t at() const { return origin + pos; }
    std::size_t left() const { return end - pos; }
    bool done() const { return pos == end; }

    void need(std::size_t n) const {
        if (left() < n) refuse("field.truncated", at(), std::to_string(n) + "-byte field, " + std::to_string(left()) + " left");
    }
    std::uint8_t byte() {
        need(1);
        return data[pos++];
    }
    std::uint32_t u32() {
        need(4);
        std::uint32_t v = 0;
        for (int k = 3; k >= 0; --k) v = (v << 8) | data[pos + static_cast<std::size_t>(k)];
        pos += 4;
        return v;
    }
    std::uint32_t varint() {  // R1
        const std::uint64_t start = at();
        std::uint64_t value = 0;
        for (int i = 0; i < 5; ++i) {
            if (done()) refuse("varint.truncated", start);
            const std::uint8_t b = data[pos++];
            if (i == 4 && (b & 0x80)) refuse("varint.too-long", start);
            value |= std::uint64_t{b & 0x7Fu} << (7 * i);
            if (!(b & 0x80)) break;
        }
        if (value > 0xFFFFFFFFull) refuse("varint.overflow", start);
        return static_cast<std::uint32_t>(value);
    }
    std::int32_t svarint() {  // R2
        const std::uint32_t u = varint();
        const std::uint32_t magnitude = u >> 1;
        return (u & 1) ? static_cast<std::int32_t>(~magnitude) : static_cast<std::int32_t>(magnitude);
    }
    float f32() {
        const std::uint32_t bits = u32();
        return bits_float(bits);
    }
    // A sub-window of n bytes (the caller has checked they are there).
    Reader take(std::size_t n) {
        Reader r{data, origin, pos, pos + n};
        pos += n;
        return r;
    }
    std::string bytes(std::size_t n) {
        need(n);
        std::string s(reinterpret_cast<const char*>(data + pos), n);
        pos += n;
        return s;
    }
};

// UTF-16LE code units to WTF-8: pairs join into one code point, lone surrogates stay 3 bytes.
// Its own code point encoder, not the codec's (ond/unicode.hpp): the model shares no code with
// what it checks.
std::string wtf8_of_utf16le(const std::string& bytes) {
    std::vector<std::uint32_t> units;
    for (std::size_t i = 0; i + 1 < bytes.size(); i += 2)
        units.push_back(static_cast<std::uint8_t>(bytes[i]) | (std::uint32_t{static_cast<std::uint8_t>(bytes[i + 1])} << 8));
    std::string out;
    auto put = [&](std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    };
    for (std::size_t i = 0; i < units.size(); ++i) {
        const std::uint32_t u = units[i];
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
            put(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00));
            ++i;
        } else {
            put(u);
        }
    }
    return out;
}

// UTF-16 length of well-formed UTF-8: one unit per sequence, two for a 4-byte one.
std::uint64_t utf16_units_of_utf8(const std::string& s) {
    std::uint64_t units = 0;
    for (unsigned char ch : s) {
        if ((ch & 0xC0) != 0x80) ++units;  // a lead byte
        if (ch >= 0xF0) ++units;           // a 4-byte sequence needs a pair
    }
    return units;
}

// One stored string of the table: its WTF-8 value and whether it stores no bytes.
struct TableString {
    std::string value;
    bool empty = false;
};
using Table = std::vector<TableString>;  // entry i is index i + 1

// R5: a string (varint h, h >> 1 bytes).
TableString read_string(Reader& r) {
    const std::uint64_t start = r.at();
    const std::uint32_t h = r.varint();
    const std::uint32_t size = h >> 1;
    const bool utf16 = (h & 1) != 0;
    if (size > r.left()) refuse("string.truncated", start);
    if (utf16 && (size & 1)) refuse("string.odd-utf16-length", start);
    const std::uint64_t data_at = r.at();
    const std::string bytes = r.bytes(size);
    TableString s;
    s.empty = size == 0;
    if (utf16) {
        s.value = wtf8_of_utf16le(bytes);
    } else {
        std::size_t bad = 0;
        if (!utf8_well_formed(bytes, &bad)) refuse("string.invalid-utf8", data_at + bad);
        s.value = bytes;
    }
    return s;
}

// R12: section 1.
Table read_table(Reader& r) {
    const std::uint64_t count_at = r.at();
    const std::uint32_t count = r.varint();
    if (count > r.left()) refuse("table.count-out-of-range", count_at);
    Table t;
    for (std::uint32_t i = 0; i < count; ++i) t.push_back(read_string(r));
    return t;
}

// R13: any index; R15: a label or name (non-zero, not a stored empty string).
std::uint32_t read_index(Reader& r, const Table& t) {
    const std::uint64_t at = r.at();
    const std::uint32_t idx = r.varint();
    if (idx > t.size()) refuse("table.index-out-of-range", at);
    return idx;
}
std::uint32_t read_label(Reader& r, const Table& t, const char* missing, const char* empty) {
    const std::uint64_t at = r.at();
    const std::uint32_t idx = read_index(r, t);
    if (idx == 0) refuse(missing, at);
    if (t[idx - 1].empty) refuse(empty, at);
    return idx;
}

bool confidence_ok(float f) { return f >= 0.0f && f <= 1.0f; }  // NaN fails both

// What the model reads of one document body (sections 2, 3, 4 and in ONDC 6, 7).
struct ModelDoc {
    bool has_text = false;
    std::string text;  // WTF-8
    std::uint64_t text_units = 0;
    std::uint32_t n = 0;
    std::vector<std::uint32_t> start, length;
    std::vector<std::uint32_t> attrs[6];
    std::vector<std::int32_t> head;
    std::vector<std::uint8_t> sent;
    std::vector<float> conf;
    bool has_ents = false;
    std::vector<Entity> ents;
    bool has_cats = false;
    std::vector<Category> cats;
    std::vector<SpanGroup> groups;
};


// R16: section 2.
void read_text(Reader& r, ModelDoc& d) {
    const std::uint64_t enc_at = r.at();
    const std::uint8_t enc = r.byte();
    if (enc > 1) refuse("text.bad-encoding", enc_at);
    const std::uint64_t text_at = r.at();
    const std::string bytes = r.bytes(r.left());
    if (enc == 0) {
        std::size_t bad = 0;
        if (!utf8_well_formed(bytes, &bad)) refuse("text.invalid-utf8", text_at + bad);
        d.text = bytes;
        d.text_units = utf16_units_of_utf8(bytes);
    } else {
        if (bytes.size() % 2) refuse("text.odd-utf16-length", text_at + bytes.size() - 1);
        d.text = wtf8_of_utf16le(bytes);
        d.text_units = bytes.size() / 2;
    }
    d.has_text = true;
}

// R17-R21: section 3.
void read_tokens(Reader& r, const Table& t, ModelDoc& d) {
    const std::uint64_t n_at = r.at();
    const std::uint32_t n = r.varint();
    if (n > 33554432u) refuse("tokens.count-too-large", n_at);
    if (std::uint64_t{n} * 9 > r.left()) refuse("tokens.count-exceeds-bytes", n_at);
    d.n = n;
    std::uint64_t prev_end = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint64_t tok_at = r.at();
        const std::uint32_t gap = r.varint();
        const std::uint64_t len_at = r.at();
        const std::uint32_t len = r.varint();
        if (len == 0) refuse("tokens.empty", len_at);
        const std::uint64_t start = prev_end + gap;
        const std::uint64_t end = start + len;
        if (end > d.text_units) refuse("tokens.out-of-text", tok_at);
        d.start.push_back(static_cast<std::uint32_t>(start));
        d.length.push_back(len);
        prev_end = end;
    }
    for (auto& column : d.attrs)
        for (std::uint32_t i = 0; i < n; ++i) column.push_back(read_index(r, t));
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint64_t at = r.at();
        const std::int64_t head = std::int64_t{i} + r.svarint();
        if (head < 0 || head >= std::int64_t{n}) refuse("tokens.head-out-of-range", at);
        d.head.push_back(static_cast<std::int32_t>(head));
    }
    const std::uint64_t sent_at = r.at();
    const std::string sent = r.bytes((std::size_t{n} + 3) / 4);
    for (std::uint32_t i = 0; i < n; ++i) {
        const unsigned v = (static_cast<unsigned char>(sent[i / 4]) >> (2 * (i % 4))) & 3u;
        if (v == 3) refuse("tokens.bad-sentence-value", sent_at + i / 4);
        d.sent.push_back(static_cast<std::uint8_t>(v));
    }
    if (n % 4 != 0 && (static_cast<unsigned char>(sent.back()) >> (2 * (n % 4))) != 0)
        refuse("tokens.sentence-padding", sent_at + sent.size() - 1);
    const std::uint64_t mode_at = r.at();
    const std::uint8_t mode = r.byte();
    if (mode > 1) refuse("tokens.bad-confidence-mode", mode_at);
    if (mode == 0) {
        d.conf.assign(n, 1.0f);
        return;
    }
    r.need(std::size_t{n} * 4);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint64_t at = r.at();
        const float f = r.f32();
        if (!confidence_ok(f)) refuse("tokens.confidence-out-of-range", at);
        d.conf.push_back(f);
    }
}

// R22: section 4 (after the tokens, so n is known).
void read_entities(Reader& r, const Table& t, ModelDoc& d) {
    const std::uint64_t count_at = r.at();
    const std::uint32_t count = r.varint();
    if (count > r.left() / 7) refuse("entities.count-exceeds-bytes", count_at);
    // Bytes after the count are section.trailing-bytes, reported instead (as the reference does).
    if (count == 0 && d.n == 0 && r.left() == 0) refuse(entities_without_tokens, count_at, "section 4 in a document without tokens");
    d.has_ents = true;
    std::uint64_t prev_end = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t item_at = r.at();
        const std::uint32_t gap = r.varint();
        const std::uint64_t len_at = r.at();
        const std::uint32_t len = r.varint();
        if (len == 0) refuse("entities.empty", len_at);
        const std::uint64_t start = prev_end + gap;
        if (start + len > d.n) refuse("entities.out-of-range", item_at);
        const std::uint32_t label = read_label(r, t, "entities.label-missing", "entities.label-empty");
        const std::uint64_t conf_at = r.at();
        const float conf = r.f32();
        if (!confidence_ok(conf)) refuse("entities.confidence-out-of-range", conf_at);
        d.ents.push_back(Entity{static_cast<std::uint32_t>(start), len, label, conf});
        prev_end = start + len;
    }
}

// R23: section 6.
void read_categories(Reader& r, const Table& t, ModelDoc& d) {
    const std::uint64_t count_at = r.at();
    const std::uint32_t count = r.varint();
    if (count > r.left() / 5) refuse("categories.count-exceeds-bytes", count_at);
    d.has_cats = true;
    std::set<std::string> labels;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t item_at = r.at();
        const std::uint32_t label = read_label(r, t, "categories.label-missing", "categories.label-empty");
        if (!labels.insert(t[label - 1].value).second) refuse("categories.duplicate-label", item_at);
        const std::uint64_t score_at = r.at();
        const float score = r.f32();
        if (!confidence_ok(score)) refuse("categories.score-out-of-range", score_at);
        d.cats.push_back(Category{label, score});
    }
}

// R24: section 7.
void read_span_groups(Reader& r, const Table& t, ModelDoc& d) {
    const std::uint64_t groups_at = r.at();
    const std::uint32_t groups = r.varint();
    if (groups > r.left() / 2) refuse("spans.group-count-exceeds-bytes", groups_at);
    // Bytes after the count are section.trailing-bytes, reported instead (as the reference does).
    if (groups == 0 && r.left() == 0) refuse(spans_no_groups, groups_at, "section 7 with no span group");
    std::set<std::string> names;
    for (std::uint32_t g = 0; g < groups; ++g) {
        const std::uint64_t group_at = r.at();
        SpanGroup group;
        group.name = read_label(r, t, "spans.group-name-missing", "spans.group-name-empty");
        if (!names.insert(t[group.name - 1].value).second) refuse("spans.duplicate-group-name", group_at);
        const std::uint64_t count_at = r.at();
        const std::uint32_t count = r.varint();
        if (count > r.left() / 7) refuse("spans.count-exceeds-bytes", count_at);
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint64_t item_at = r.at();
            const std::uint32_t start = r.varint();
            const std::uint64_t len_at = r.at();
            const std::uint32_t len = r.varint();
            if (len == 0) refuse("spans.empty", len_at);
            if (std::uint64_t{start} + len > d.n) refuse("spans.out-of-range", item_at);
            const std::uint32_t label = read_label(r, t, "spans.label-missing", "spans.label-empty");
            const std::uint64_t conf_at = r.at();
            const float conf = r.f32();
            if (!confidence_ok(conf)) refuse("spans.confidence-out-of-range", conf_at);
            group.spans.push_back(Span{start, len, label, conf});
        }
        d.groups.push_back(std::move(group));
    }
}

// R8-R10: the sections of one body or record. `known` and `required` are sets of ids by place.
enum class Place { ondc_body, ondb_body, record };

struct Frame {
    std::uint8_t id;
    std::uint64_t at;  // the id byte
    Reader content;
};

class Sections {
public:
    explicit Sections(Place place) : place_(place) {}

    // The next defined section of this place, unknown ids skipped; false at the end of the body.
    bool next(Reader& body, Frame& f) {
        for (;;) {
            if (body.done()) {
                missing_before(256, body.at());
                return false;
            }
            const std::uint64_t at = body.at();
            if (body.left() < 5) refuse("section.truncated", at);
            const std::uint8_t id = body.byte();
            const std::uint32_t length = body.u32();
            if (last_ >= 0 && id <= last_) refuse("section.out-of-order", at);
            if (length > body.left()) refuse("section.length-out-of-range", at + 1);
            last_ = id;
            missing_before(id, at);
            f = Frame{id, at, body.take(length)};
            const bool defined = id >= 1 && id <= 7;
            if (defined && !known(id)) refuse("section.misplaced", at);
            if (defined) return true;
        }
    }
    // A defined section must be read exactly (R8).
    static void finish(const Frame& f) {
        if (!f.content.done()) refuse("section.trailing-bytes", f.content.at());
    }
    void seen(std::uint8_t id) { seen_.insert(id); }

private:
    bool known(unsigned id) const {
        switch (place_) {
            case Place::ondc_body: return id == 1 || id == 2 || id == 3 || id == 4 || id == 6 || id == 7;
            case Place::ondb_body: return id == 1 || id == 5;
            case Place::record: return id == 2 || id == 3 || id == 4;
        }
        return false;
    }
    bool required(unsigned id) const {
        switch (place_) {
            case Place::ondc_body: return id == 1 || id == 2 || id == 3;
            case Place::ondb_body: return id == 1 || id == 5;
            case Place::record: return id == 2 || id == 3;
        }
        return false;
    }
    void missing_before(unsigned id, std::uint64_t at) const {
        for (unsigned k = 1; k < id && k <= 7; ++k)
            if (required(k) && !seen_.count(static_cast<std::uint8_t>(k))) refuse("section.missing", at);
    }

    Place place_;
    int last_ = -1;
    std::set<std::uint8_t> seen_;
};

// One document body: an ONDC body (with the table, sections 6 and 7) or a record.
void read_doc_section(Frame& f, const Table& t, ModelDoc& d) {
    switch (f.id) {
        case 2: read_text(f.content, d); break;
        case 3: read_tokens(f.content, t, d); break;
        case 4: read_entities(f.content, t, d); break;
        case 6: read_categories(f.content, t, d); break;
        case 7: read_span_groups(f.content, t, d); break;
        default: break;
    }
}

ModelDoc read_record(Reader& rec, const Table& t) {
    ModelDoc d;
    Sections sections(Place::record);
    Frame f{};
    while (sections.next(rec, f)) {
        sections.seen(f.id);
        read_doc_section(f, t, d);
        Sections::finish(f);
    }
    return d;
}

Doc to_doc(const ModelDoc& m) {
    Doc d;
    d.text = m.text;  // its UTF-16 length is counted from it (m.text_units)
    d.tokens.resize(m.n);
    for (std::uint32_t i = 0; i < m.n; ++i) {
        d.tokens.start[i] = m.start[i];
        d.tokens.length[i] = m.length[i];
        for (std::size_t c = 0; c < 6; ++c) d.tokens.attrs[c][i] = m.attrs[c][i];
        d.tokens.head[i] = m.head[i];
        d.tokens.sent[i] = static_cast<Sentence>(m.sent[i]);
        d.tokens.conf[i] = m.conf[i];
    }
    d.has_ents = m.has_ents;
    d.ents = m.ents;
    d.has_cats = m.has_cats;
    d.cats = m.cats;
    d.spans = m.groups;
    return d;
}

// The container from its 12-byte header on; fills `out` (format, crc, strings, docs).
void read_container_into(Bytes input, std::uint64_t origin, Container& out, std::vector<std::uint64_t>& units) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(input.data());
    const std::size_t size = input.size();
    if (size < 12) refuse("header.truncated", origin + size);
    Reader h{p, origin, 0, 12};
    const std::string magic = h.bytes(4);
    if (magic != "ONDC" && magic != "ONDB") refuse("header.bad-magic", origin);
    const std::uint32_t version = h.byte() | (std::uint32_t{h.byte()} << 8);
    if (version != 1) refuse("header.bad-version", origin + 4);
    const std::uint32_t flags = h.byte() | (std::uint32_t{h.byte()} << 8);
    if (flags > 1) refuse("header.bad-flags", origin + 6);
    const std::uint32_t body_length = h.u32();
    const bool crc = flags == 1;
    const std::uint64_t total = 12 + std::uint64_t{body_length} + (crc ? 4 : 0);
    if (size < total) refuse("container.truncated", origin + size);
    if (size > total) refuse("container.trailing-bytes", origin + total);

    out.format = magic == "ONDC" ? Format::ondc : Format::ondb;
    out.crc = crc;
    Table table;
    std::vector<ModelDoc> docs;
    Reader body{p, origin, 12, 12 + static_cast<std::size_t>(body_length)};
    Frame f{};
    if (out.format == Format::ondc) {
        Sections sections(Place::ondc_body);
        ModelDoc d;
        while (sections.next(body, f)) {
            sections.seen(f.id);
            if (f.id == 1)
                table = read_table(f.content);
            else
                read_doc_section(f, table, d);
            Sections::finish(f);
        }
        docs.push_back(std::move(d));
    } else {
        Sections sections(Place::ondb_body);
        bool records = false;
        while (!records && sections.next(body, f)) {
            sections.seen(f.id);
            if (f.id == 1) {
                table = read_table(f.content);
                Sections::finish(f);
                continue;
            }
            // Section 5 (R11): last in the body, a u32 count, records that fill it exactly.
            records = true;
            if (!body.done()) refuse("bin.section-after-records", body.at());
            Reader& sec = f.content;
            const std::uint64_t count_at = sec.at();
            const std::uint32_t count = sec.u32();
            if (count > sec.left() / 4) refuse("bin.count-exceeds-bytes", count_at);
            for (std::uint32_t i = 0; i < count; ++i) {
                const std::uint64_t rec_at = sec.at();
                const std::uint32_t length = sec.u32();
                if (length > sec.left()) refuse("bin.record-length-out-of-range", rec_at);
                Reader rec = sec.take(length);
                docs.push_back(read_record(rec, table));
            }
            if (!sec.done()) refuse("bin.trailing-bytes", sec.at());
        }
    }
    if (crc) {
        const std::size_t covered = 12 + static_cast<std::size_t>(body_length);
        Reader trailer{p, origin, covered, covered + 4};
        if (trailer.u32() != slow_crc32(p, covered)) refuse("crc.mismatch", origin + covered);
    }
    out.strings.clear();
    for (const TableString& s : table) out.strings.append(s.value);
    out.docs.clear();
    for (const ModelDoc& d : docs) {
        out.docs.push_back(to_doc(d));
        units.push_back(d.text_units);
    }
}

Verdict refused(const Refusal& r) {
    Verdict v;
    v.ok = false;
    v.code = r.code;
    v.offset = r.offset;
    v.detail = r.detail;
    return v;
}

}  // namespace

std::string Verdict::describe() const {
    return ok ? std::string("accepted") : code + " at " + std::to_string(offset) + (detail.empty() ? "" : " (" + detail + ")");
}

ContainerResult read_container(Bytes input, std::uint64_t origin) {
    ContainerResult r;
    try {
        read_container_into(input, origin, r.content, r.text_units);
    } catch (const Refusal& e) {
        r.verdict = refused(e);
        r.content = Container{};
        r.text_units.clear();
    }
    return r;
}

StreamResult read_stream(Bytes input) {
    StreamResult r;
    const auto* p = reinterpret_cast<const std::uint8_t*>(input.data());
    std::size_t pos = 0;
    try {
        while (pos < input.size()) {
            const std::size_t left = input.size() - pos;
            if (left < 12) refuse("stream.truncated", input.size());
            if (std::memcmp(p + pos, "ONDB", 4) == 0) refuse("stream.bin-in-stream", pos);
            // The header's own faults, then the 1 GiB cap, then whether the container is all there.
            const ContainerResult header = read_container(input.subspan(pos, 12), pos);
            if (!header.verdict.ok && header.verdict.code.rfind("header.", 0) == 0)
                refuse(header.verdict.code.c_str(), header.verdict.offset);
            Reader h{p, 0, pos + 6, pos + 12};
            const bool crc = (h.byte() & 1) != 0;
            h.byte();
            const std::uint32_t body_length = h.u32();
            if (body_length > (1u << 30)) refuse("stream.length-too-large", pos + 8);
            const std::uint64_t total = 12 + std::uint64_t{body_length} + (crc ? 4 : 0);
            if (total > left) refuse("stream.truncated", input.size());
            ContainerResult c = read_container(input.subspan(pos, static_cast<std::size_t>(total)), pos);
            if (!c.verdict.ok) {
                r.end = c.verdict;
                return r;
            }
            r.containers.push_back(std::move(c.content));
            pos += static_cast<std::size_t>(total);
        }
    } catch (const Refusal& e) {
        r.end = refused(e);
    }
    return r;
}

Verdict read_section(std::uint8_t id, Bytes content, std::uint64_t origin, const SectionContext& ctx,
                     std::uint64_t* consumed) {
    Reader r{reinterpret_cast<const std::uint8_t*>(content.data()), origin, 0, content.size()};
    Table t;
    for (std::size_t i = 0; i < ctx.values.size(); ++i) t.push_back({ctx.values[i], ctx.stored_empty[i]});
    ModelDoc d;
    d.n = ctx.tokens;
    d.text_units = ctx.text_units;
    try {
        Frame f{id, origin, r};
        if (id == 1)
            (void)read_table(f.content);
        else
            read_doc_section(f, t, d);
        if (consumed) *consumed = f.content.pos;
    } catch (const Refusal& e) {
        return refused(e);
    }
    return Verdict{};
}

bool code_defined(const std::string& code) { return find_error(code) != nullptr; }

bool check_against_model(const Outcome& reference, const Verdict& model, const char* what) {
    // Revision 2 allowance: a reference without the R22/R24 codes reads on past that count, as
    // if the check had passed, so it accepts the input or refuses it for a later fault.
    if (!model.ok && (model.code == entities_without_tokens || model.code == spans_no_groups) && !code_defined(model.code) &&
        (reference.ok || reference.offset > model.offset))
        return false;
    const std::string ref = reference.ok ? std::string("accepted")
                                         : std::string(error_info(reference.errc).code) + " at " + std::to_string(reference.offset);
    const std::string note = std::string(what) + ": reference " + ref + ", model " + model.describe();
    OND_FUZZ_CHECK_MSG(reference.ok == model.ok, note);
    if (!reference.ok) {
        OND_FUZZ_CHECK_MSG(error_info(reference.errc).code == model.code, note);
        OND_FUZZ_CHECK_MSG(reference.offset == model.offset, note);
    }
    return true;
}

void check_decode_against_model(Bytes input, const Outcome& reference, const Container* decoded) {
    const ContainerResult m = read_container(input);
    if (!check_against_model(reference, m.verdict, "decode vs model reader")) return;
    if (!reference.ok || !decoded) return;
    OND_FUZZ_CHECK_MSG(same_content(*decoded, m.content), "decode vs model reader: content differs");
    OND_FUZZ_CHECK_MSG(decoded->strings == m.content.strings, "decode vs model reader: string table differs");
    for (std::size_t k = 0; k < decoded->docs.size(); ++k)
        OND_FUZZ_CHECK(decoded->docs[k].text_utf16_length == m.text_units[k]);
}

}  // namespace ond::fuzz::model
