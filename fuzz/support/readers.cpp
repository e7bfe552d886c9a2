#include "readers.hpp"

#include "model_reader.hpp"
#include "ond/hex.hpp"
#include "ond/listing.hpp"
#include "ond/result.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace ond::fuzz {

namespace {

// A container full of unrelated content in every field, as decode_into() may find its target
// after a previous, different document: nothing of it may survive into the next result.
Container dirty_container() {
    Container c;
    c.format = Format::ondb;
    c.crc = true;
    for (const char* s : {"stale", "PER", "\xED\xA0\x80", "ORG"}) c.strings.append(s);
    for (int d = 0; d < 3; ++d) {
        Doc doc;
        doc.set_text("stale text that no input holds");
        doc.tokens.resize(static_cast<std::size_t>(5 + d));
        for (std::size_t t = 0; t < doc.tokens.size(); ++t) {
            doc.tokens.start[t] = static_cast<std::uint32_t>(t);
            doc.tokens.length[t] = 1;
            for (auto& col : doc.tokens.attrs) col[t] = 1 + static_cast<StringId>(t % 4);
            doc.tokens.head[t] = 0;
            doc.tokens.sent[t] = Sentence::inside;
            doc.tokens.conf[t] = 0.25f;
        }
        doc.has_ents = true;
        doc.ents.push_back({0, 2, 2, 0.5f});
        doc.has_cats = true;
        doc.cats.push_back({4, 0.75f});
        doc.spans.push_back({1, {{1, 2, 3, 0.125f}}});
        c.docs.push_back(std::move(doc));
    }
    return c;
}

}  // namespace

DecodeResult read_decode(Bytes input) {
    DecodeResult r;
    r.outcome = capture([&] { r.content = decode(input); });
    return r;
}

ReadFn cut_reader(Bytes input, const std::vector<std::size_t>& cuts, std::size_t& pos) {
    return [input, &cuts, &pos, k = std::size_t{0}](std::byte* dst, std::size_t max) mutable -> std::size_t {
        std::size_t n = std::min(max, input.size() - pos);
        if (!cuts.empty()) n = std::min(n, std::max<std::size_t>(cuts[k++ % cuts.size()], 1));
        if (n) std::memcpy(dst, input.data() + pos, n);
        pos += n;
        return n;
    };
}

StreamResult read_stream(Bytes input, const std::vector<std::size_t>& cuts, bool validate_only, std::uint64_t* count) {
    std::size_t pos = 0;
    StreamReader sr(cut_reader(input, cuts, pos));
    StreamResult r;
    r.end = capture([&] {
        if (validate_only) {
            while (sr.skip_next()) r.containers.emplace_back();
        } else {
            while (auto c = sr.next()) r.containers.push_back(std::move(*c));
        }
    });
    OND_FUZZ_CHECK(sr.containers_read() == r.containers.size());
    if (count) *count = sr.containers_read();
    if (r.end.ok) OND_FUZZ_CHECK(sr.offset() == input.size());
    return r;
}

StreamResult model_stream(Bytes input) {
    StreamResult r;
    const auto* p = reinterpret_cast<const std::uint8_t*>(input.data());
    const std::size_t len = input.size();
    std::size_t pos = 0;
    auto fail = [&](Errc e, std::uint64_t off) {
        r.end.ok = false;
        r.end.errc = e;
        r.end.offset = off;
        r.end.what = std::string(error_info(e).code) + " (model) at " + std::to_string(off);
    };
    while (pos < len) {
        if (len - pos < 12) return fail(Errc::stream_truncated, len), r;
        if (std::memcmp(p + pos, "ONDB", 4) == 0) return fail(Errc::stream_bin_in_stream, pos), r;
        // Header faults are those decode() finds first: decode 12 bytes alone and keep any
        // header.* error (the size error that follows for a well-formed header is ignored).
        const DecodeResult h = read_decode(input.subspan(pos, 12));
        if (!h.outcome.ok && h.outcome.errc != Errc::container_truncated && h.outcome.errc != Errc::container_trailing_bytes) {
            const auto code = error_info(h.outcome.errc).code;
            if (code.substr(0, 7) == "header.") return fail(h.outcome.errc, pos + h.outcome.offset), r;
        }
        const std::uint32_t body = detail::Cursor::load_u32(p + pos + 8);
        const bool crc = (p[pos + 6] & 1) != 0;
        if (body > stream_max_body_length) return fail(Errc::stream_length_too_large, pos + 8), r;
        const std::uint64_t total = 12 + std::uint64_t{body} + (crc ? 4 : 0);
        if (total > len - pos) return fail(Errc::stream_truncated, len), r;
        DecodeResult d = read_decode(input.subspan(pos, static_cast<std::size_t>(total)));
        if (!d.outcome.ok) return fail(d.outcome.errc, pos + d.outcome.offset), r;
        r.containers.push_back(std::move(d.content));
        pos += static_cast<std::size_t>(total);
    }
    return r;
}

void check_skip_next(Bytes input, const StreamResult& model, const Outcome& skipped, const char* what) {
    if (model.end.ok || model.end.errc != Errc::stream_truncated || skipped.ok || skipped.errc == Errc::stream_truncated)
        return check_same(model.end, skipped, "stream model", what);
    // The container the model stopped in starts after those it read.
    std::size_t pos = 0;
    for (std::size_t i = 0; i < model.containers.size(); ++i) pos += static_cast<std::size_t>(*declared_size(input.subspan(pos, 12)));
    const Bytes rest = input.subspan(pos);
    const std::optional<std::uint64_t> size = rest.size() >= 12 ? declared_size(rest.first(12)) : std::nullopt;
    OND_FUZZ_CHECK_MSG(size && *size > rest.size() && skipped.offset <= input.size(),
                       std::string(what) + ": " + skipped.describe() + " where the model says " + model.end.describe());
    if (*size - rest.size() > (std::size_t{1} << 20)) return;
    std::vector<std::byte> padded(rest.begin(), rest.end());
    padded.resize(static_cast<std::size_t>(*size));
    const DecodeResult d = read_decode(bytes_of(padded));
    Outcome expected = d.outcome;
    expected.offset += pos;
    OND_FUZZ_CHECK_MSG(!d.outcome.ok && expected.same_verdict(skipped),
                       std::string(what) + ": " + skipped.describe() + ", but the container made whole gives " + d.outcome.describe());
}

void check_same_stream(const StreamResult& a, const StreamResult& b, const char* what_a, const char* what_b) {
    OND_FUZZ_CHECK_MSG(a.containers.size() == b.containers.size(),
                       std::string(what_a) + ": " + std::to_string(a.containers.size()) + " containers, " + what_b +
                           ": " + std::to_string(b.containers.size()));
    for (std::size_t i = 0; i < a.containers.size(); ++i)
        OND_FUZZ_CHECK_MSG(same_content(a.containers[i], b.containers[i]), "container " + std::to_string(i));
    check_same(a.end, b.end, what_a, what_b);
}

void check_stream_against_model(Bytes input, const StreamResult& reader, const char* what) {
    const model::StreamResult m = model::read_stream(input);
    if (!model::check_against_model(reader.end, m.end, what)) return;
    OND_FUZZ_CHECK_MSG(m.containers.size() == reader.containers.size(),
                       std::string(what) + ": " + std::to_string(reader.containers.size()) + " containers, model " +
                           std::to_string(m.containers.size()));
    for (std::size_t i = 0; i < m.containers.size(); ++i)
        OND_FUZZ_CHECK_MSG(same_content(m.containers[i], reader.containers[i]), std::string(what) + ": container " + std::to_string(i));
}

// Long (about 130 lines) by design: one flat checklist, a paragraph per reader, each comparing
// with decode()'s answer kept above; splitting it would only pass that answer around.
DecodeResult check_all_readers(Bytes input, const std::vector<std::size_t>& cuts) {
    DecodeResult d = read_decode(input);
    model::check_decode_against_model(input, d.outcome, &d.content);

    // validate(): same verdict; its summary describes what decode() built.
    Summary sum;
    const Outcome v = capture([&] { sum = validate(input); });
    check_same(d.outcome, v, "decode", "validate");
    if (d.outcome.ok) {
        const Container& c = d.content;
        OND_FUZZ_CHECK(sum.format == c.format && sum.crc == c.crc && sum.docs == c.docs.size());
        OND_FUZZ_CHECK(sum.strings + 1 == c.strings.size());
        std::uint64_t tokens = 0;
        for (const DocSlice doc : c.docs) tokens += doc.tokens.size();
        OND_FUZZ_CHECK(sum.tokens == tokens);
        OND_FUZZ_CHECK(c.format == Format::ondb || c.docs.size() == 1);
    }

    // decode_into(): over a container left full of other content, and over decode()'s own
    // result, the same verdict and, when accepted, the same content.
    static const Container dirty = dirty_container();
    for (const Container* start : {&dirty, &std::as_const(d.content)}) {
        Container target = *start;
        const Outcome r = capture([&] { decode_into(input, target); });
        check_same(d.outcome, r, "decode", "decode_into");
        if (!d.outcome.ok) continue;
        OND_FUZZ_CHECK_MSG(same_content(d.content, target), "decode_into kept stale content");
        OND_FUZZ_CHECK_MSG(target.strings == d.content.strings, "decode_into kept stale table entries");
        for (std::size_t k = 0; k < target.docs.size(); ++k)
            OND_FUZZ_CHECK(target.docs[k].text_utf16_length == d.content.docs[k].text_utf16_length);
    }

    // declared_size(): the size a header decode() accepts declares; nothing for a header it refuses.
    {
        const std::optional<std::uint64_t> declared = declared_size(input.first(std::min<std::size_t>(input.size(), 12)));
        const bool header_refused = !d.outcome.ok && error_info(d.outcome.errc).code.substr(0, 7) == "header.";
        OND_FUZZ_CHECK_MSG(declared.has_value() == !header_refused, "declared_size disagrees with decode on the header");
        if (d.outcome.ok) OND_FUZZ_CHECK(*declared == input.size());
        if (!d.outcome.ok && d.outcome.errc == Errc::container_trailing_bytes) OND_FUZZ_CHECK(*declared == d.outcome.offset);
    }

    // The non-throwing forms: the same verdict, and the same error (code and offset).
    const auto as_outcome = [](const Error& e) {
        Outcome o;
        o.ok = false;
        o.errc = e.errc();
        o.offset = e.offset();
        o.what = e.what();
        return o;
    };
    {
        const Result<Container> t = try_decode(input);
        check_same(d.outcome, t.ok() ? Outcome{} : as_outcome(t.error()), "decode", "try_decode");
        if (t.ok()) OND_FUZZ_CHECK(same_content(d.content, *t.operator->()));
        const Result<Summary> tv = try_validate(input);
        check_same(d.outcome, tv.ok() ? Outcome{} : as_outcome(tv.error()), "decode", "try_validate");
        Container into;
        const Status ti = try_decode_into(input, into);
        check_same(d.outcome, ti.ok() ? Outcome{} : as_outcome(ti.error()), "decode", "try_decode_into");
    }

    // The annotated listing: the reader's verdict, and a refusal's last line names its code and offset.
    {
        bool listed_ok = false;
        const std::string listing = format_listing(input, listed_ok);
        OND_FUZZ_CHECK_MSG(listed_ok == d.outcome.ok, "format_listing's verdict differs from decode's");
        if (!d.outcome.ok) {
            const std::size_t last = listing.rfind("\n!! ", listing.size() - 1);
            const std::string fault = listing.substr(last == std::string::npos ? 0 : last + 1);
            std::string expect = "!! ";
            hex::append(expect, d.outcome.offset, 8);
            expect += " " + std::string(error_info(d.outcome.errc).code) + " (";
            OND_FUZZ_CHECK_MSG(fault.rfind(expect, 0) == 0, "listing ends with " + fault + ", expected " + expect);
        }
    }

    // inspect(): same verdict; events stay inside the input.
    const Outcome i = capture([&] {
        inspect(input, [&](const InspectEvent& e) { OND_FUZZ_CHECK_MSG(e.offset + e.length <= input.size(), e.name); });
    });
    check_same(d.outcome, i, "decode", "inspect");

    // DocBinReader: the records one at a time; ONDC refused as header.bad-magic at 0.
    Container bin;
    bin.format = Format::ondb;
    const Outcome b = capture([&] {
        DocBinReader r(input);
        bin.crc = r.crc();
        bin.strings = r.strings();
        std::uint32_t k = 0;
        while (r.next()) {
            bin.docs.push_back(r.doc().slice().to_doc());
            ++k;
            OND_FUZZ_CHECK(k <= r.count());
        }
        OND_FUZZ_CHECK(k == r.count());
        OND_FUZZ_CHECK(!r.next());  // stays finished
    });
    const bool header_fault = !d.outcome.ok && error_info(d.outcome.errc).code.substr(0, 7) == "header.";
    if (d.outcome.ok && d.content.format == Format::ondc) {
        OND_FUZZ_CHECK_MSG(!b.ok && b.errc == Errc::header_bad_magic && b.offset == 0, b.describe());
    } else if (!d.outcome.ok && !header_fault && input.size() >= 4 && std::memcmp(input.data(), "ONDC", 4) == 0) {
        OND_FUZZ_CHECK_MSG(!b.ok && b.errc == Errc::header_bad_magic && b.offset == 0, b.describe());
    } else {
        check_same(d.outcome, b, "decode", "DocBinReader");
        if (d.outcome.ok) OND_FUZZ_CHECK(same_content(d.content, bin));
    }

    // StreamReader: as the model says, with reads cut anywhere, decoding and validate-only.
    const StreamResult model = model_stream(input);
    const StreamResult s = read_stream(input, cuts, false);
    check_stream_against_model(input, s, "StreamReader::next vs model reader");
    check_same_stream(model, s, "stream model", "StreamReader::next");
    std::uint64_t skipped = 0;
    const StreamResult sv = read_stream(input, cuts, true, &skipped);
    check_skip_next(input, model, sv.end, "StreamReader::skip_next");
    OND_FUZZ_CHECK(skipped == model.containers.size());
    // The stream listings: the stream reader's verdict, whole or as the reads arrive.
    {
        bool listed_ok = false;
        (void)format_stream_listing(input, listed_ok);
        OND_FUZZ_CHECK_MSG(listed_ok == s.end.ok, "format_stream_listing's verdict differs from StreamReader's");
        std::size_t pos = 0;
        std::uint64_t lines = 0;
        const bool streamed_ok = write_stream_listing(cut_reader(input, cuts, pos), [&](std::string_view) { ++lines; });
        OND_FUZZ_CHECK_MSG(streamed_ok == s.end.ok, "write_stream_listing's verdict differs from StreamReader's");
        OND_FUZZ_CHECK(streamed_ok || lines > 0);
    }
    // A whole ONDC that decodes is a one-container stream with the same content.
    if (d.outcome.ok && d.content.format == Format::ondc) {
        OND_FUZZ_CHECK(s.end.ok && s.containers.size() == 1 && same_content(s.containers[0], d.content));
    }
    return d;
}

}  // namespace ond::fuzz
