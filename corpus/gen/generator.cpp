#include "generator.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ond/content_json.hpp"
#include "ond/error.hpp"
#include "ond/reader.hpp"
#include "ond/stream.hpp"
#include "ond/writer.hpp"
#include "raw_doc.hpp"
#include "ond/corpus_sha256.hpp"
#include "ond/internal/check_switch.hpp"
#include "table_order.hpp"

namespace ond::corpus::gen {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

Bytes view(const Buf& b) { return ond::as_bytes(b.data(), b.size()); }
std::string as_str(const Buf& b) { return std::string(b.begin(), b.end()); }

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw GenError("cannot read " + p.string());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

struct Outcome {
    bool ok = false;
    Container c;
    std::string code;
    std::uint64_t offset = 0;
    std::string what;
    std::string describe() const { return ok ? std::string("accepted") : "rejected: " + what; }
};

Outcome attempt(const std::function<Container()>& f) {
    Outcome o;
    try {
        o.c = f();
        o.ok = true;
    } catch (const ond::Error& e) {
        o.code = std::string(e.code());
        o.offset = e.offset();
        o.what = e.what();
    }
    return o;
}

Container read_bin_by_records(const Buf& in) {
    DocBinReader r(view(in));
    Container c;
    c.format = Format::ondb;
    c.crc = r.crc();
    c.strings = r.strings();
    Doc d;
    while (r.next(d)) c.docs.push_back(d);
    return c;
}

std::string json_text(const Container& c) {
    std::string s = json::to_json(c, true);
    if (s.empty() || s.back() != '\n') s.push_back('\n');
    return s;
}

const char* error_verdict_name(ErrorVerdict v) {
    switch (v) {
        case ErrorVerdict::invalid: return "invalid";
        case ErrorVerdict::implementation_defined: return "impl";
        case ErrorVerdict::content: return "content";
    }
    return "?";
}

struct Problems {
    std::vector<std::string> list;
    void add(const std::string& id, const std::string& what) { list.push_back(id + ": " + what); }
};

// Checks that JSON made of `c` reads back to the same content.
void check_json_round_trip(const std::string& id, const Container& c, Problems& p) {
    const std::string text = json::to_json(c);
    Container back = json::from_json(text);
    if (!same_content(back, c)) p.add(id, "content JSON does not read back to the same content");
}

struct Built {
    ojson entry;
    std::vector<std::pair<std::string, std::string>> files;  // relative path, bytes
};

void add_file(Built& b, std::string rel, std::string bytes) { b.files.emplace_back(std::move(rel), std::move(bytes)); }

// One line of content JSON per container, as the stream operation prints them.
std::string json_lines(const std::vector<Container>& cs) {
    std::string lines;
    for (const Container& c : cs) {
        std::string line = json::to_json(c);
        while (!line.empty() && line.back() == '\n') line.pop_back();
        lines += line + "\n";
    }
    return lines;
}

// The if-accepted content of an implementation-defined decode case, checked against the case's
// bytes: the reference must read `read_alike` as that content (its marker string standing for
// what it means), or else the input must be the raw writer's picture of it (the item kept as it
// is: a score, a name).
void check_if_accepted(const Case& k, const std::string& id, Problems& p) {
    if (!k.if_accepted) {
        p.add(id, "an implementation-defined case needs its if-accepted content");
        return;
    }
    check_json_round_trip(id, *k.if_accepted, p);
    if (!k.read_alike) {
        if (raw::bytes(raw::canon(*k.if_accepted)) != k.input)
            p.add(id, "the input is not the picture of its if-accepted content, and no bytes read alike check it");
        return;
    }
    const ReadAlike& ra = *k.read_alike;
    Outcome r = attempt([&] { return ond::decode(view(ra.bytes)); });
    if (!r.ok) {
        p.add(id, "the bytes read alike are " + r.describe());
        return;
    }
    std::string got = json::to_json(r.c);
    if (!ra.marker.empty()) {
        // As JSON string literals (plain ASCII markers are spelled the same by both writers).
        const std::string marker = ojson(ra.marker).dump(), means = ojson(ra.means).dump();
        std::size_t n = 0;
        for (std::size_t at = got.find(marker); at != std::string::npos; at = got.find(marker, at + means.size()), ++n)
            got.replace(at, marker.size(), means);
        if (n == 0) p.add(id, "the marker string of the bytes read alike is not in their content");
    }
    if (auto d = json::compare_content(json_text(*k.if_accepted), got))
        p.add(id, "the if-accepted content differs from the reference's reading of the bytes read alike: " + *d);
}

// The reference's relaxed reading (check_switch.hpp) of an implementation-defined decode case:
// with the case's one check let through, the input must read as the if-accepted content, and
// with sections 6 and 7 of a record read as the record's own, as one of the other contents.
void check_relaxed_reading(const Case& k, const std::string& id, Problems& p) {
    const ErrorInfo* info = find_error(k.error);
    if (!info || !k.if_accepted) return;
    auto relaxed = [&](bool extras) {
        detail::RelaxedChecks relax({info->errc}, extras);
        return attempt([&] { return ond::decode(view(k.input)); });
    };
    const Outcome plain = relaxed(false);
    if (!plain.ok) {
        p.add(id, "with " + k.error + " relaxed, the reference " + plain.describe());
        return;
    }
    if (auto d = json::compare_content(json_text(*k.if_accepted), json::to_json(plain.c)))
        p.add(id, "the if-accepted content differs from the reference's relaxed reading: " + *d);
    if (k.if_accepted_also.empty()) return;
    const Outcome extras = relaxed(true);
    if (!extras.ok) {
        p.add(id, "read with record extras, the reference " + extras.describe());
        return;
    }
    bool listed = false;
    for (const Container& also : k.if_accepted_also) {
        check_json_round_trip(id, also, p);
        if (same_content(also, plain.c)) p.add(id, "an other if-accepted content repeats the first");
        listed = listed || !json::compare_content(json_text(also), json::to_json(extras.c));
    }
    if (!listed) p.add(id, "no other if-accepted content is the reference's reading with record extras");
}

// A decode case (also a regression). Returns the files; reports mismatches.
// Single-fault cases name the one check they isolate (proved by the suite-power test).
void add_single_fault(const Case& k, Built& b) {
    if (k.isolates.empty()) return;
    b.entry["single_fault"] = true;
    b.entry["isolates"] = k.isolates;
}

void build_decode(const Case& k, const std::string& id, const std::string& base, Built& b, Problems& p) {
    const Buf& in = k.input;
    Outcome d = attempt([&] { return ond::decode(view(in)); });
    Outcome v = attempt([&] {
        ond::validate(view(in));
        return Container{};
    });
    if (d.ok != v.ok || d.code != v.code || d.offset != v.offset)
        p.add(id, "decode and validate disagree: " + d.describe() + " / " + v.describe());
    if (k.ext == "ondb") {
        Outcome r = attempt([&] { return read_bin_by_records(in); });
        if (r.ok != d.ok || r.code != d.code || r.offset != d.offset || (r.ok && !same_content(r.c, d.c)))
            p.add(id, "DocBinReader and decode disagree (R27): " + r.describe() + " / " + d.describe());
    }
    bool canonical = false;
    if (k.verdict == CaseVerdict::valid || k.verdict == CaseVerdict::noncanonical) {
        if (!d.ok) {
            p.add(id, "expected acceptance, the reference " + d.describe());
            return;
        }
        if (!same_content(d.c, *k.expected)) p.add(id, "decoded content differs from the expected content");
        if (auto diff = json::compare_content(json_text(*k.expected), json::to_json(d.c)))
            p.add(id, "decoded JSON differs: " + *diff);
        check_json_round_trip(id, *k.expected, p);
        canonical = to_buf(ond::encode(d.c)) == in;
        if (k.verdict == CaseVerdict::valid) {
            if (!canonical) p.add(id, "a valid case must hold canonical bytes");
            if (raw::bytes(raw::canon(*k.expected)) != in)
                p.add(id, "the raw writer's canonical picture differs from ond::encode");
        } else if (canonical) {
            p.add(id, "a non-canonical case re-encodes to the same bytes");
        }
    } else {
        if (d.ok) {
            p.add(id, "expected rejection with " + k.error + ", the reference accepted");
            return;
        }
        if (d.code != k.error) p.add(id, "expected " + k.error + ", the reference " + d.describe());
        const ErrorInfo* info = find_error(k.error);
        const ErrorVerdict want = k.verdict == CaseVerdict::invalid ? ErrorVerdict::invalid : ErrorVerdict::implementation_defined;
        if (!info || info->verdict != want)
            p.add(id, "code " + k.error + " does not have verdict " + verdict_name(k.verdict));
        if (k.verdict == CaseVerdict::impl) check_if_accepted(k, id, p), check_relaxed_reading(k, id, p);
    }
    if (!k.if_accepted_also.empty() && k.verdict != CaseVerdict::impl) p.add(id, "other if-accepted contents need an impl case");
    const std::string ext = "." + k.ext;
    add_file(b, base + ext, as_str(in));
    b.entry["input"] = base + ext;
    if (k.expected && k.verdict != CaseVerdict::impl && k.verdict != CaseVerdict::invalid) {
        add_file(b, base + ".json", json_text(*k.expected));
        b.entry["expected"] = base + ".json";
    } else {
        b.entry["expected"] = nullptr;
    }
    if (k.verdict == CaseVerdict::impl && k.if_accepted) {
        add_file(b, base + ".if-accepted.json", json_text(*k.if_accepted));
        b.entry["if_accepted"] = base + ".if-accepted.json";
        // Other contents as acceptable: <name>.if-accepted-2.json, -3, ...
        if (!k.if_accepted_also.empty()) {
            ojson also = ojson::array();
            for (std::size_t i = 0; i < k.if_accepted_also.size(); ++i) {
                const std::string rel = base + ".if-accepted-" + std::to_string(i + 2) + ".json";
                add_file(b, rel, json_text(k.if_accepted_also[i]));
                also.push_back(rel);
            }
            b.entry["if_accepted_also"] = also;
        }
    }
    add_file(b, base + ".txt", listing_of(in));
    b.entry["listing"] = base + ".txt";
    b.entry["error"] = k.error.empty() ? ojson(nullptr) : ojson(k.error);
    b.entry["error_offset"] = d.ok ? ojson(nullptr) : ojson(d.offset);
    add_single_fault(k, b);
    b.entry["canonical"] = canonical;
    if (k.verdict == CaseVerdict::noncanonical && d.ok) {
        // What the canonical writer writes for this content, for a consumer of the files alone.
        const Buf canon = to_buf(ond::encode(d.c));
        Outcome back = attempt([&] { return ond::decode(view(canon)); });
        if (!back.ok || !same_content(back.c, *k.expected)) p.add(id, "the canonical bytes do not decode to the content");
        add_file(b, base + ".canonical" + ext, as_str(canon));
        b.entry["canonical_bytes"] = base + ".canonical" + ext;
    }
}

// W3 as data: the table's two accepted first-use orders for content with strings, the canonical
// one checked against the table stored in `bytes` (what the reference writes for the content).
void add_string_table(const Container& c, const Buf& bytes, const std::string& id, const std::string& base, Built& b,
                      Problems& p) {
    const std::vector<std::string> canonical = first_use_order(c, false);
    if (canonical.empty()) return;
    if (stored_table(bytes) != canonical) p.add(id, "the canonical first-use order differs from the reference's string table");
    add_file(b, base + ".table.json", table_json(c));
    b.entry["string_table"] = base + ".table.json";
}

void build_stream(const Case& k, const std::string& id, const std::string& base, Built& b, Problems& p) {
    const Buf& in = k.input;
    std::size_t pos = 0;
    std::size_t step = 1;
    StreamReader sr([&](std::byte* dst, std::size_t max) {
        // Deliver in uneven pieces, as a pipe would.
        std::size_t n = std::min({max, in.size() - pos, step});
        step = step % 13 + 6;
        std::copy_n(reinterpret_cast<const std::byte*>(in.data() + pos), n, dst);
        pos += n;
        return n;
    });
    std::vector<Container> got;
    std::string code, what;
    std::optional<std::uint64_t> offset;
    try {
        while (auto c = sr.next()) got.push_back(std::move(*c));
    } catch (const ond::Error& e) {
        code = std::string(e.code());
        what = e.what();
        offset = e.offset();
    }
    if (code != k.error)
        p.add(id, "expected " + (k.error.empty() ? std::string("a clean end") : k.error) + ", the reference gave " +
                      (code.empty() ? std::string("a clean end") : what));
    if (got.size() != k.stream_read.size())
        p.add(id, "expected " + std::to_string(k.stream_read.size()) + " containers, read " + std::to_string(got.size()));
    for (std::size_t i = 0; i < k.stream_read.size(); ++i) {
        if (i < got.size() && !same_content(got[i], k.stream_read[i]))
            p.add(id, "container " + std::to_string(i) + " differs from the expected content");
        check_json_round_trip(id, k.stream_read[i], p);
    }
    const std::string lines = json_lines(k.stream_read);
    if (k.verdict == CaseVerdict::impl) {
        // Every container of the input, each as the reference reads it alone.
        std::size_t at = 0, i = 0;
        for (; at + 12 <= in.size() && i < k.stream_if_accepted.size(); ++i) {
            const std::size_t body = in[at + 8] | in[at + 9] << 8 | in[at + 10] << 16 | std::size_t{in[at + 11]} << 24;
            const std::size_t size = 12 + body + (in[at + 6] & 1 ? 4 : 0);
            if (at + size > in.size()) break;
            const Buf one(in.begin() + static_cast<std::ptrdiff_t>(at), in.begin() + static_cast<std::ptrdiff_t>(at + size));
            Outcome d = attempt([&] { return ond::decode(view(one)); });
            if (!d.ok || !same_content(d.c, k.stream_if_accepted[i]))
                p.add(id, "if-accepted container " + std::to_string(i) + " is not the reference's reading of it alone");
            check_json_round_trip(id, k.stream_if_accepted[i], p);
            at += size;
        }
        if (k.stream_if_accepted.empty() || at != in.size() || i != k.stream_if_accepted.size())
            p.add(id, "the if-accepted containers are not the whole input");
    }
    if (!k.error.empty()) {
        const ErrorInfo* info = find_error(k.error);
        const ErrorVerdict want = k.verdict == CaseVerdict::invalid ? ErrorVerdict::invalid : ErrorVerdict::implementation_defined;
        if (!info || info->verdict != want) p.add(id, "code " + k.error + " does not have verdict " + verdict_name(k.verdict));
    } else if (k.verdict != CaseVerdict::valid) {
        p.add(id, "a stream without a fault must be valid");
    }
    add_file(b, base + ".stream", as_str(in));
    add_file(b, base + ".jsonl", lines);
    add_file(b, base + ".txt", stream_listing_of(in));
    b.entry["input"] = base + ".stream";
    b.entry["expected"] = base + ".jsonl";
    b.entry["listing"] = base + ".txt";
    b.entry["error"] = k.error.empty() ? ojson(nullptr) : ojson(k.error);
    b.entry["error_offset"] = offset ? ojson(*offset) : ojson(nullptr);
    b.entry["stream_count"] = k.stream_read.size();
    if (k.verdict == CaseVerdict::impl) {
        add_file(b, base + ".if-accepted.jsonl", json_lines(k.stream_if_accepted));
        b.entry["if_accepted"] = base + ".if-accepted.jsonl";
    }
    add_single_fault(k, b);
}

// The reference's refusal code for content, from check_writable and from encode (they agree).
std::string refusal_of(const Container& c, const std::string& id, Problems& p) {
    std::string code, code2;
    try {
        ond::check_writable(c);
    } catch (const ond::Error& e) {
        code = std::string(e.code());
    }
    try {
        ond::encode(c);
    } catch (const ond::Error& e) {
        code2 = std::string(e.code());
    }
    if (code != code2) p.add(id, "check_writable and encode disagree: '" + code + "' / '" + code2 + "'");
    return code;
}

// Content the reference refuses by its own choice (R4, R24). A writer that accepts writes the
// content as it is: the raw writer's canonical picture. The reference reader must then meet an
// implementation-defined fault in those bytes, which shows the refusal is only a choice.
void build_encode_impl(const Case& k, const std::string& id, const std::string& base, const Container& c, Built& b,
                       Problems& p) {
    const std::string code = refusal_of(c, id, p);
    if (code != k.error) p.add(id, "expected refusal " + k.error + ", the reference gave '" + code + "'");
    const ErrorInfo* info = find_error(k.error);
    if (!info || info->verdict != ErrorVerdict::content) p.add(id, "code " + k.error + " is not a content.* code");
    const Buf bytes = raw::bytes(raw::canon(c));
    Outcome d = attempt([&] { return ond::decode(view(bytes)); });
    const ErrorInfo* read_info = d.ok ? nullptr : find_error(d.code);
    if (!read_info || read_info->verdict != ErrorVerdict::implementation_defined)
        p.add(id, "the if-accepted bytes should meet an implementation-defined fault in the reference reader, it " +
                      d.describe());
    const std::string ext = ".if-accepted." + k.ext;
    add_file(b, base + ext, as_str(bytes));
    add_file(b, base + ".txt", listing_of(bytes));
    b.entry["expected"] = nullptr;
    b.entry["listing"] = base + ".txt";
    b.entry["error"] = k.error;
    b.entry["if_accepted"] = base + ext;
    add_string_table(c, bytes, id, base, b, p);
}

void build_encode(const Case& k, const std::string& id, const std::string& base, Built& b, Problems& p) {
    const std::string text = k.content_text.empty() ? json_text(*k.content) : k.content_text;
    Container c;
    try {
        c = json::from_json(text);
    } catch (const std::exception& e) {
        p.add(id, std::string("content JSON does not read back: ") + e.what());
        return;
    }
    if (!same_content(c, *k.content)) p.add(id, "the content JSON does not read as the case's content");
    add_file(b, base + ".content.json", text);
    b.entry["input"] = base + ".content.json";
    if (k.verdict == CaseVerdict::valid) {
        Buf bytes;
        try {
            bytes = to_buf(ond::encode(c));
        } catch (const ond::Error& err) {
            p.add(id, std::string("the reference refused writable content: ") + err.what());
            return;
        }
        if (bytes != to_buf(ond::encode(*k.content))) p.add(id, "encoding the JSON's content differs from the C++ content");
        if (raw::bytes(raw::canon(c)) != bytes) p.add(id, "the raw writer's canonical picture differs from ond::encode");
        Outcome d = attempt([&] { return ond::decode(view(bytes)); });
        if (!d.ok || !same_content(d.c, c)) p.add(id, "the canonical bytes do not decode to the content");
        const std::string ext = "." + k.ext;
        add_file(b, base + ext, as_str(bytes));
        add_file(b, base + ".txt", listing_of(bytes));
        b.entry["expected"] = base + ext;
        b.entry["listing"] = base + ".txt";
        b.entry["error"] = nullptr;
        add_string_table(c, bytes, id, base, b, p);
    } else if (k.verdict == CaseVerdict::impl) {
        build_encode_impl(k, id, base, c, b, p);
    } else {
        const std::string code = refusal_of(c, id, p);
        if (code != k.error) p.add(id, "expected refusal " + k.error + ", the reference gave '" + code + "'");
        const ErrorInfo* info = find_error(k.error);
        if (!info || info->verdict != ErrorVerdict::content) p.add(id, "code " + k.error + " is not a content.* code");
        b.entry["expected"] = nullptr;
        b.entry["listing"] = nullptr;
        b.entry["error"] = k.error;
    }
}

// Regressions: inputs checked in under regressions/, listed in regressions/index.json.
std::vector<Case> load_regressions(const fs::path& source, Problems& p) {
    std::vector<Case> out;
    const fs::path index = source / "regressions" / "index.json";
    if (!fs::exists(index)) return out;
    ojson j = ojson::parse(read_file(index));
    for (const auto& r : j.at("regressions")) {
        Case k;
        const std::string file = r.at("file").get<std::string>();
        const auto dot = file.rfind('.');
        k.name = file.substr(0, dot);
        k.ext = file.substr(dot + 1);
        k.kind = k.ext == "stream" ? CaseKind::stream : CaseKind::decode;
        k.description = r.at("description").get<std::string>();
        for (const auto& rule : r.at("rules")) k.rules.push_back(rule.get<std::string>());
        k.area = r.at("area").get<std::string>();
        k.harness = r.at("harness").get<std::string>();
        k.date = r.at("date").get<std::string>();
        k.regression_path = "regressions/" + file;
        const std::string bytes = read_file(source / "regressions" / file);
        k.input = Buf(bytes.begin(), bytes.end());
        // The verdict is the reference's: a regression pins down what it does with the input.
        if (k.kind == CaseKind::decode) {
            Outcome d = attempt([&] { return ond::decode(view(k.input)); });
            if (d.ok) {
                k.verdict = to_buf(ond::encode(d.c)) == k.input ? CaseVerdict::valid : CaseVerdict::noncanonical;
                k.expected = d.c;
            } else {
                k.error = d.code;
                const ErrorInfo* info = find_error(d.code);
                k.verdict = info && info->verdict == ErrorVerdict::implementation_defined ? CaseVerdict::impl : CaseVerdict::invalid;
                if (k.verdict == CaseVerdict::impl)
                    p.add(k.regression_path, "the reference meets an implementation-defined fault (" + d.code +
                                                 "): make it a case with its if-accepted content instead");
            }
        } else {
            std::size_t pos = 0;
            StreamReader sr([&](std::byte* dst, std::size_t max) {
                std::size_t n = std::min(max, k.input.size() - pos);
                std::copy_n(reinterpret_cast<const std::byte*>(k.input.data() + pos), n, dst);
                pos += n;
                return n;
            });
            try {
                while (auto c = sr.next()) k.stream_read.push_back(std::move(*c));
                k.verdict = CaseVerdict::valid;
            } catch (const ond::Error& e) {
                k.error = std::string(e.code());
                k.verdict = e.verdict() == ErrorVerdict::implementation_defined ? CaseVerdict::impl : CaseVerdict::invalid;
                if (k.verdict == CaseVerdict::impl)
                    p.add(k.regression_path, "the reference meets an implementation-defined fault (" + k.error +
                                                 "): make it a case with its if-accepted content instead");
            }
        }
        if (k.harness.empty() || k.date.size() != 10) p.add(k.regression_path, "needs a harness and a YYYY-MM-DD date");
        out.push_back(std::move(k));
    }
    return out;
}

const std::set<std::string> known_areas = {"header", "crc",        "varint", "string", "table",  "section",
                                           "text",   "tokens",     "entities", "categories", "spans", "bin",
                                           "stream", "encode",     "document"};

// content.* codes that cannot be reached from content JSON (it has strings, not ids, and every
// JSON string is a sequence of UTF-16 code units); each needs a reason here.
const std::map<std::string, std::string> refusals_unreachable_from_json = {
    {"content.invalid-string", "JSON strings (and {\"utf16\": [...]}) always denote valid code-unit sequences"},
    {"content.bad-string-id", "JSON names strings by value, never by id"},
    {"content.too-large", "needs a count or length of 2^32 or more: gigabytes of content"},
    {"content.inconsistent", "content JSON has exactly one doc for an ONDC and one object per token, so neither "
                             "a second document nor columns of different sizes can be written in it"},
};

// former-ids.json: {"<current id>": ["<old id>", ...]}, the ids a case had before it changed
// verdict folder. Absent file: none.
std::map<std::string, std::vector<std::string>> load_former_ids(const fs::path& source) {
    std::map<std::string, std::vector<std::string>> out;
    const fs::path file = source / "former-ids.json";
    if (!fs::exists(file)) return out;
    const ojson j = ojson::parse(read_file(file));
    for (const auto& [id, olds] : j.items()) out[id] = olds.get<std::vector<std::string>>();
    return out;
}

// Every former id names one case that exists today, and is never an id in use.
void check_former_ids(const std::map<std::string, std::vector<std::string>>& former, const std::set<std::string>& ids,
                      Problems& p) {
    std::set<std::string> seen;
    for (const auto& [id, olds] : former) {
        if (!ids.count(id)) p.add("former-ids.json", id + " is not a current case id");
        for (const std::string& old : olds) {
            if (ids.count(old)) p.add(id, "former id " + old + " is also a current id");
            if (!seen.insert(old).second) p.add(id, "former id " + old + " is given for two cases");
        }
    }
}

}  // namespace

Tree generate(const std::vector<Case>& declared, const fs::path& source) {
    Problems p;
    std::vector<Case> cases = declared;
    for (Case& k : load_regressions(source, p)) cases.push_back(std::move(k));

    // Rules: every rule a case names must exist; every rule must have several cases.
    const ojson rules_doc = ojson::parse(read_file(source / "rules.json"));
    std::map<std::string, int> rule_use;
    for (const auto& r : rules_doc.at("rules")) rule_use[r.at("id").get<std::string>()] = 0;

    const auto former_ids = load_former_ids(source);
    std::vector<Built> built;
    std::set<std::string> ids;
    std::map<std::string, int> code_decode_use, code_refuse_use;
    for (const Case& k : cases) {
        const bool regression = !k.regression_path.empty();
        const std::string id = regression ? "regressions/" + k.name : k.folder + "/" + k.area + "/" + k.name;
        const std::string base = regression ? "regressions/" + k.name : "cases/" + id;
        if (!ids.insert(id).second) p.add(id, "duplicate id");
        if (!known_areas.count(k.area)) p.add(id, "unknown area " + k.area);
        if (k.description.empty()) p.add(id, "no description");
        Rules rules = k.rules;
        if (!k.error.empty())
            if (const ErrorInfo* info = find_error(k.error)) {
                const std::string r(info->rule);
                if (std::find(rules.begin(), rules.end(), r) == rules.end()) rules.push_back(r);
            }
        if (rules.empty()) p.add(id, "no rule");
        for (const std::string& r : rules) {
            if (!rule_use.count(r))
                p.add(id, "rule " + r + " is not in rules.json");
            else
                ++rule_use[r];
        }
        Built b;
        b.entry["id"] = id;
        b.entry["kind"] = kind_name(k.kind);
        b.entry["area"] = k.area;
        b.entry["verdict"] = verdict_name(k.verdict);
        b.entry["rules"] = rules;
        b.entry["description"] = k.description;
        if (auto f = former_ids.find(id); f != former_ids.end() && !f->second.empty()) b.entry["former_ids"] = f->second;
        const std::size_t before = p.list.size();
        try {
            switch (k.kind) {
                case CaseKind::decode: build_decode(k, id, base, b, p); break;
                case CaseKind::stream: build_stream(k, id, base, b, p); break;
                case CaseKind::encode: build_encode(k, id, base, b, p); break;
            }
        } catch (const std::exception& e) {
            p.add(id, std::string("unexpected exception: ") + e.what());
        }
        if (p.list.size() != before) continue;
        if (regression) {
            // The input stays where it is; the generated files sit beside it.
            b.entry["source"] = ojson{{"harness", k.harness}, {"date", k.date}};
        }
        if (!k.error.empty()) {
            if (k.kind == CaseKind::encode)
                ++code_refuse_use[k.error];
            else
                ++code_decode_use[k.error];
        }
        ojson sums = ojson::object();
        std::sort(b.files.begin(), b.files.end());
        for (const auto& [path, bytes] : b.files) sums[path] = sha256_hex(bytes);
        b.entry["sha256"] = sums;
        built.push_back(std::move(b));
    }

    check_former_ids(former_ids, ids, p);

    // Coverage.
    const std::size_t n_cases = built.size();
    if (n_cases < 400) p.add("coverage", "only " + std::to_string(n_cases) + " cases (at least 400 wanted)");
    for (const auto& [rule, n] : rule_use)
        if (n < 3) p.add("coverage", "rule " + rule + " has " + std::to_string(n) + " cases (at least 3 wanted)");
    for (const ErrorInfo& e : error_table()) {
        const std::string code(e.code);
        if (e.verdict == ErrorVerdict::content) {
            if (!code_refuse_use.count(code) && !refusals_unreachable_from_json.count(code))
                p.add("coverage", "no encode-refuse case for " + code);
        } else if (!code_decode_use.count(code)) {
            p.add("coverage", std::string("no ") + error_verdict_name(e.verdict) + " decode case for " + code);
        }
    }

    if (!p.list.empty()) {
        std::string msg = std::to_string(p.list.size()) + " problem(s):\n";
        for (const std::string& s : p.list) msg += "  " + s + "\n";
        throw GenError(msg);
    }

    std::sort(built.begin(), built.end(),
              [](const Built& a, const Built& b) { return a.entry["id"].get<std::string>() < b.entry["id"].get<std::string>(); });
    Tree t;
    ojson manifest;
    manifest["corpus_version"] = corpus_version;
    manifest["format_version"] = 1;
    manifest["generator"] = "ond_corpus_gen";
    manifest["cases"] = ojson::array();
    for (Built& b : built) {
        for (auto& [path, bytes] : b.files) t[path] = std::move(bytes);
        manifest["cases"].push_back(std::move(b.entry));
    }
    t["manifest.json"] = manifest.dump(1) + "\n";
    return t;
}

namespace {
bool is_hand_written(const std::string& rel) {
    return rel == "regressions/README.md" || rel == "regressions/index.json";
}
// Generated files found on disk (cases/ entirely; regressions/ except hand-written and inputs).
std::set<std::string> generated_on_disk(const fs::path& dir, const Tree& t) {
    std::set<std::string> out;
    if (fs::exists(dir / "cases"))
        for (const auto& e : fs::recursive_directory_iterator(dir / "cases"))
            if (e.is_regular_file()) out.insert(fs::relative(e.path(), dir).generic_string());
    if (fs::exists(dir / "regressions"))
        for (const auto& e : fs::directory_iterator(dir / "regressions")) {
            if (!e.is_regular_file()) continue;
            const std::string rel = fs::relative(e.path(), dir).generic_string();
            const std::string ext = e.path().extension().string();
            const bool derived = ext == ".json" || ext == ".jsonl" || ext == ".txt" || rel.find(".canonical.") != std::string::npos;
            if (!is_hand_written(rel) && (derived || t.count(rel))) out.insert(rel);
        }
    return out;
}
}  // namespace

void write_tree(const Tree& t, const fs::path& out) {
    for (const std::string& rel : generated_on_disk(out, t))
        if (!t.count(rel)) fs::remove(out / rel);
    for (const auto& [rel, bytes] : t) {
        const fs::path p = out / rel;
        fs::create_directories(p.parent_path());
        if (fs::exists(p) && read_file(p) == bytes) continue;
        std::ofstream f(p, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!f) throw GenError("cannot write " + p.string());
    }
    // Drop folders left empty by removed cases.
    if (fs::exists(out / "cases"))
        for (bool again = true; again;) {
            again = false;
            for (const auto& e : fs::recursive_directory_iterator(out / "cases"))
                if (e.is_directory() && fs::is_empty(e.path())) {
                    fs::remove(e.path());
                    again = true;
                    break;
                }
        }
}

std::vector<std::string> check_tree(const Tree& t, const fs::path& dir) {
    std::vector<std::string> diffs;
    for (const auto& [rel, bytes] : t) {
        const fs::path p = dir / rel;
        if (!fs::exists(p)) {
            diffs.push_back("missing: " + rel);
            continue;
        }
        const std::string have = read_file(p);
        if (have != bytes) {
            std::size_t at = 0;
            while (at < have.size() && at < bytes.size() && have[at] == bytes[at]) ++at;
            diffs.push_back("differs: " + rel + " (first difference at byte " + std::to_string(at) + ")");
        }
    }
    for (const std::string& rel : generated_on_disk(dir, t))
        if (!t.count(rel)) diffs.push_back("not generated (stale or hand-made): " + rel);
    return diffs;
}

}  // namespace ond::corpus::gen
