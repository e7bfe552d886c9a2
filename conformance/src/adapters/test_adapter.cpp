// A testee adapter built on the reference codec, with one deliberately planted fault chosen by
// --fault. The runner's tests point `ond conform` at it and check that each fault is reported
// on the right case. Without --fault it is a clean adapter.
//
//   ond_test_adapter [--fault F] [--protocol 1] [--max-tokens N] [--max-body N] decode|encode|stream|serve
//
// `serve` speaks version 2 of the persistent protocol (numbered frames) unless --protocol 1.
// --max-tokens N: the encoder refuses a document of more than N tokens (content.too-large), as
// the reference does past 2^25; --max-body N: it refuses content whose canonical body passes N
// bytes, as the reference does past 2^32 - 1: the --large encode cases at small caps.
//
// Faults:
//   nan-conf            accepts a NaN confidence (reads it as 1.0)
//   accept-impl         accepts category scores outside [0, 1] (an implementation-defined point)
//   ignore-crc          never checks the CRC trailer
//   lossy-floats        prints confidences and scores with %.3g
//   noncanonical-table  (encode) writes an extra unused string into the string table
//   crash-on-marker     dies of SIGSEGV on inputs containing the bytes "boom"
//   hang-on-marker      sleeps forever (with a sleeping child) on inputs containing "hang"
//   alloc-declared      allocates the header's declared body length up front (capped at 256 MiB
//                       so that the test cannot exhaust the machine) and touches every page
//   wrong-code          rejects with the right verdict but always says `error: header.bad-magic`
//   accept-impl-wrong   accepts category scores outside [0, 1] but reports them as 1.0
//   answer-twice        (serve) sends every response again ~50 ms later
//   bytes-before        (serve) writes a complete accept frame before the first request
//   child-alloc         on a lying length, a child process allocates and touches 300 MiB
//   big-heap            allocates and touches 120 MiB on its first request and keeps it
//   spawn-helpers       big-heap, and on every request two short helpers: a fork that waits
//                       30 ms before it execs `true`, and a vfork child that waits 30 ms in the
//                       adapter's own memory before it exits
//   setsid-sleeper      leaves a `setsid sleep` holding its stdout behind on every request
//   huge-output         floods stdout (serve: a response frame declaring 4 GiB, then a flood)
//   bad-utf8            rejects with `error: x\xC0\x80y` and invalid UTF-8 on stderr
//   loud-crash          exits 3 after a first stderr line, 300 lines of stack and a last line
//   bom-text            decodes with a U+FEFF before the text
//   lenient-conf-mode   reads every non-zero confidence mode as mode 1 (R21 lacked)
//   sorted-table        (encode) writes the string table sorted by value, every index renumbered
//                       (breaks the required first-use order, W3)
//   always-crash        dies of SIGSEGV on every input
//   conf-mode-1         (encode) writes confidence mode 1 and every 1.0, where mode 0 is due (W4)
//   wrong-first-head    (encode) writes token 0's head as token 1 (other content)
//   drop-last-byte      (encode) writes the canonical bytes but the last (they do not decode)
//
// Implementation-defined points (the rulings' if-accepted readings; each passes under the default
// profile, and only the clean adapter passes under --profile strict):
//   accept-empty-sections       accepts a section 4 without tokens (ents []) and a section 7
//                               with zero groups (no groups) (R22, R24)
//   accept-empty-sections-null  the same, giving ents as null for a document without tokens
//   skip-record-extras          accepts known sections in the wrong place, skipping them (R9)
//   read-record-extras          the same, but reads sections 6 and 7 of a record as the
//                               record's categories and span groups (R9's other reading)
//   impl-not-json               accepts every input the reference refuses as implementation-
//                               defined, answering `this is not JSON at all` (hostile)
//   write-impl                  (encode) writes implementation-defined content (scores outside
//                               [0, 1], repeated group names) as it is, canonically
//   write-impl-token-order      the same, with the string table numbered token by token
//   write-impl-varint5          the same, with the string count in a 5-byte varint
//   write-impl-lossy            the same, but clamps scores and drops the last of several groups
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <thread>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <ond/inspect.hpp>

#include "ond/internal/check_switch.hpp"
#include "ond/internal/framing.hpp"
#include "transport/frame.hpp"
#include "ond/content_json.hpp"
#include "ond/ond.hpp"

namespace {

using ond::framing::crc32_of;
using ond::framing::get_u32;
using ond::framing::put_u32;

std::string fault;
int protocol = 2;
std::uint64_t max_tokens = ~std::uint64_t{0};
std::uint64_t max_body = ~std::uint64_t{0};

// A heap kept on purpose stays reachable from here, so a leak checker does not call it a leak.
volatile char* kept_heap = nullptr;

void touch(std::size_t n, bool keep) {
    auto* p = static_cast<volatile char*>(std::malloc(n));
    if (!p) return;
    for (std::size_t i = 0; i < n; i += 4096) p[i] = 1;
    if (keep) kept_heap = p;
    else std::free(const_cast<char*>(p));
}

struct Answer {
    int status = 1;  // 0 accept, 1 reject
    std::string out;
    std::string code;
};

void fix_crc(std::string& b) {
    if (b.size() >= 16 && (static_cast<unsigned char>(b[6]) & 1))
        put_u32(b, b.size() - 4, crc32_of(std::string_view(b).substr(0, b.size() - 4)));
}

bool is_nan_at(const std::string& b, std::uint64_t off) {
    if (off + 4 > b.size()) return false;
    std::uint32_t bits = get_u32(b, static_cast<std::size_t>(off));
    float f;
    std::memcpy(&f, &bits, 4);
    return std::isnan(f);
}

void maybe_planted_trouble(const std::string& input) {
    if (fault == "always-crash") {
        ::signal(SIGSEGV, SIG_DFL);
        ::raise(SIGSEGV);
    }
    if (fault == "big-heap" || fault == "spawn-helpers") {
        static bool done = false;
        if (!done) touch(120u << 20, true), done = true;
    }
    if (fault == "spawn-helpers") {
        const timespec pause{0, 30'000'000};
        pid_t forked = ::fork();
        if (forked == 0) {
            ::nanosleep(&pause, nullptr);
            ::execlp("true", "true", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        if (forked > 0) ::waitpid(forked, nullptr, 0);
        pid_t shared = ::vfork();
        if (shared == 0) {
            ::syscall(SYS_nanosleep, &pause, nullptr);  // only system calls in a vfork child
            ::_exit(0);
        }
        if (shared > 0) ::waitpid(shared, nullptr, 0);
    }
    if (fault == "setsid-sleeper" && ::fork() == 0) {
        ::setsid();
        ::execlp("sleep", "sleep", "1000", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    if (fault == "child-alloc" && input.size() >= 12 && get_u32(input, 8) > input.size()) {
        pid_t pid = ::fork();
        if (pid == 0) {
            touch(300u << 20, false);
            ::_exit(0);
        }
        if (pid > 0) ::waitpid(pid, nullptr, 0);
    }
    if (fault == "loud-crash") {
        std::fprintf(stderr, "Error: the real message is on the first line\n");
        for (int i = 0; i < 300; ++i) std::fprintf(stderr, "    at frame%d (adapter.js:%d:1)\n", i, i);
        std::fprintf(stderr, "Node.js v18.19.0\n");
        std::exit(3);
    }
    if (fault == "crash-on-marker" && input.find("boom") != std::string::npos) {
        ::signal(SIGSEGV, SIG_DFL);  // a sanitizer's handler would turn the signal into an exit status
        ::raise(SIGSEGV);
    }
    if (fault == "hang-on-marker" && input.find("hang") != std::string::npos) {
        if (::fork() == 0) ::pause();  // a child in the same process group, which must die too
        for (;;) ::pause();
    }
    if (fault == "alloc-declared" && input.size() >= 12) {
        std::uint64_t declared = get_u32(input, 8);
        if (declared > input.size()) {
            std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(declared, 256u << 20));
            auto* p = static_cast<volatile char*>(std::malloc(n));
            if (p) {
                for (std::size_t i = 0; i < n; i += 4096) p[i] = 1;
                std::free(const_cast<char*>(p));
            }
        }
    }
}

std::string lossy(const std::string& json_text) {
    auto j = nlohmann::json::parse(json_text);
    std::function<void(nlohmann::json&)> walk = [&](nlohmann::json& v) {
        if (v.is_object()) {
            for (auto it = v.begin(); it != v.end(); ++it) {
                if ((it.key() == "conf" || it.key() == "score") && it->is_number()) {
                    char buf[32];
                    std::snprintf(buf, sizeof buf, "%.3g", it->get<double>());
                    *it = std::strtod(buf, nullptr);
                } else {
                    walk(*it);
                }
            }
        } else if (v.is_array()) {
            for (auto& e : v) walk(e);
        }
    };
    walk(j);
    return j.dump();
}

// The implementation-defined checks a decode fault lets through, and whether sections 6 and 7
// of a record are read as the record's own.
std::vector<ond::Errc> relaxed_reading(bool& record_extras) {
    record_extras = fault == "read-record-extras";
    if (fault == "accept-empty-sections" || fault == "accept-empty-sections-null")
        return {ond::Errc::entities_without_tokens, ond::Errc::spans_no_groups};
    if (fault == "skip-record-extras" || fault == "read-record-extras") return {ond::Errc::section_misplaced};
    return {};
}

Answer decode(std::string input) {
    maybe_planted_trouble(input);
    std::optional<float> kept_score;
    bool record_extras = false;
    const ond::detail::RelaxedChecks relax(relaxed_reading(record_extras), record_extras);
    for (int attempt = 0; attempt < 8; ++attempt) {
        try {
            auto c = ond::decode(ond::as_bytes(input.data(), input.size()));
            if (fault == "accept-empty-sections-null")
                for (std::size_t i = 0; i < c.docs.size(); ++i)
                    if (c.docs[i].tokens.size() == 0) c.docs.edit(i, [](ond::Doc& d) { d.has_ents = false; });
            if (fault == "accept-impl") {
                for (std::size_t i = 0; i < c.docs.size(); ++i)
                    c.docs.edit(i, [&](ond::Doc& d) {
                        for (auto& cat : d.cats)
                            if (cat.score == 1.0f && kept_score) cat.score = *kept_score;
                    });
            }
            if (fault == "bom-text")
                for (std::size_t i = 0; i < c.docs.size(); ++i)
                    c.docs.edit(i, [](ond::Doc& d) { d.set_text("\xEF\xBB\xBF" + d.text); });
            std::string j = ond::json::to_json(c);
            return {0, fault == "lossy-floats" ? lossy(j) : j, {}};
        } catch (const ond::Error& e) {
            if (fault == "lenient-conf-mode" && e.errc() == ond::Errc::tokens_bad_confidence_mode &&
                e.offset() < input.size()) {
                input[static_cast<std::size_t>(e.offset())] = 1;
                fix_crc(input);
                continue;
            }
            if (fault == "ignore-crc" && e.errc() == ond::Errc::crc_mismatch) {
                fix_crc(input);
                continue;
            }
            if (fault == "nan-conf" &&
                (e.errc() == ond::Errc::tokens_confidence_out_of_range || e.errc() == ond::Errc::entities_confidence_out_of_range ||
                 e.errc() == ond::Errc::spans_confidence_out_of_range) &&
                is_nan_at(input, e.offset())) {
                put_u32(input, static_cast<std::size_t>(e.offset()), 0x3F800000u);
                fix_crc(input);
                continue;
            }
            if ((fault == "accept-impl" || fault == "accept-impl-wrong") && e.errc() == ond::Errc::categories_score_out_of_range &&
                e.offset() + 4 <= input.size()) {
                std::uint32_t bits = get_u32(input, static_cast<std::size_t>(e.offset()));
                float f;
                std::memcpy(&f, &bits, 4);
                kept_score = f;
                put_u32(input, static_cast<std::size_t>(e.offset()), 0x3F800000u);
                fix_crc(input);
                continue;
            }
            if (fault == "impl-not-json" && e.verdict() == ond::ErrorVerdict::implementation_defined)
                return {0, "this is not JSON at all", {}};
            if (fault == "bad-utf8") return {1, {}, "x\xC0\x80y"};
            return {1, {}, fault == "wrong-code" ? "header.bad-magic" : std::string(e.code())};
        }
    }
    return {1, {}, "too.many-faults"};
}

// ---- writers of implementation-defined content ------------------------------------------------

const std::vector<ond::Errc> impl_content = {ond::Errc::content_score_out_of_range, ond::Errc::content_duplicate_group};
const std::vector<ond::Errc> impl_reading = {ond::Errc::categories_score_out_of_range, ond::Errc::spans_duplicate_group_name};

// The content's string ids in token-by-token order of first use (the six attributes of token 0,
// then of token 1, ...; then entity labels, category labels, group names and span labels).
std::vector<ond::StringId> token_by_token_order(const ond::Container& c) {
    std::vector<ond::StringId> order;
    std::vector<bool> seen(c.strings.size(), false);
    auto use = [&](ond::StringId id) {
        if (id != 0 && id < seen.size() && !seen[id]) seen[id] = true, order.push_back(id);
    };
    for (const ond::DocSlice d : c.docs) {
        for (std::size_t i = 0; i < d.tokens.size(); ++i)
            for (const auto& col : d.tokens.attrs) use(col[i]);
        for (const ond::Entity& e : d.ents) use(e.label);
        for (const ond::Category& k : d.cats) use(k.label);
        for (const ond::SpanGroupSlice g : d.spans) {
            use(g.name);
            for (const ond::Span& sp : g.spans) use(sp.label);
        }
    }
    return order;
}

bool is_attribute_field(const std::string& name) {
    for (const char* col : ond::token_column_names)
        if (name.rfind(std::string("tokens.") + col + "[", 0) == 0) return true;
    return false;
}

// The content's string ids sorted by their strings' bytes.
std::vector<ond::StringId> sorted_order(const ond::Container& c) {
    std::vector<ond::StringId> order = token_by_token_order(c);
    std::sort(order.begin(), order.end(),
              [&](ond::StringId a, ond::StringId b) { return c.strings.view(a) < c.strings.view(b); });
    return order;
}

// Canonical bytes renumbered in another order of the used strings (token by token, sorted): the
// table's entries reordered, every index rewritten.
std::string renumber(const std::string& bytes, std::vector<ond::StringId> (*order_of)(const ond::Container&)) {
    const ond::detail::RelaxedChecks relax(impl_reading);
    const ond::Bytes in = ond::as_bytes(bytes.data(), bytes.size());
    const ond::Container c = ond::decode(in);  // ids are table indexes
    const std::vector<ond::StringId> order = order_of(c);
    std::vector<std::uint32_t> renamed(c.strings.size(), 0);
    for (std::size_t k = 0; k < order.size(); ++k) renamed[order[k]] = static_cast<std::uint32_t>(k + 1);
    struct Edit {
        std::uint64_t at;
        std::size_t length;
        std::string with;
    };
    std::vector<Edit> edits;
    std::vector<std::string> entries(1);  // by old index
    std::uint64_t table_at = 0, table_end = 0;
    auto index_after = [&](std::uint64_t at, int skip) {  // the index after `skip` varints
        std::size_t pos = static_cast<std::size_t>(at);
        for (int k = 0; k < skip; ++k) pos += ond::framing::varint_size_at(bytes, pos);
        std::uint32_t v = 0;
        const std::size_t n = ond::framing::varint_size_at(bytes, pos, &v);
        edits.push_back({pos, n, ond::framing::encode_varint(v < renamed.size() ? renamed[v] : v)});
    };
    ond::inspect(in, [&](const ond::InspectEvent& e) {
        if (e.kind != ond::InspectEvent::Kind::field) return;
        const std::string& n = e.name;
        if (n == "strings.count") table_at = table_end = e.offset + e.length;
        else if (n.rfind("strings[", 0) == 0) entries.push_back(bytes.substr(e.offset, e.length)), table_end = e.offset + e.length;
        else if (is_attribute_field(n) || n.rfind("categories[", 0) == 0) index_after(e.offset, 0);
        else if (n.rfind("entities[", 0) == 0) index_after(e.offset, 2);
        else if (n.rfind("spans[", 0) == 0) index_after(e.offset, std::count(n.begin(), n.end(), '[') == 2 ? 2 : 0);
    });
    std::string table;
    for (ond::StringId id : order) table += entries.at(id);
    edits.push_back({table_at, static_cast<std::size_t>(table_end - table_at), table});
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
    auto l = ond::framing::Layout::parse(bytes);
    if (!l) return bytes;
    for (ond::framing::Section* leaf : l->leaves())
        for (const Edit& e : edits)
            if (e.at >= leaf->content_offset && e.at < leaf->content_offset + leaf->content.size())
                leaf->content.replace(static_cast<std::size_t>(e.at - leaf->content_offset), e.length, e.with);
    return l->serialize();
}

// The string count of section 1 in 5 bytes (an overlong LEB128 form every reader accepts, R1).
std::string string_count_in_5_bytes(const std::string& bytes) {
    auto l = ond::framing::Layout::parse(bytes);
    if (!l) return bytes;
    for (auto& sec : l->sections) {
        std::uint32_t v = 0;
        const std::size_t n = sec.id == 1 ? ond::framing::varint_size_at(sec.content, 0, &v) : 0;
        if (n == 0) continue;
        std::string wide;
        for (int k = 0; k < 4; ++k) wide.push_back(static_cast<char>(0x80 | ((v >> (7 * k)) & 0x7F)));
        wide.push_back(static_cast<char>(v >> 28));
        sec.content.replace(0, n, wide);
    }
    return l->serialize();
}

// write-impl-lossy: scores clamped into [0, 1], and the last of several span groups dropped.
void lose_impl_content(ond::Container& c) {
    for (std::size_t i = 0; i < c.docs.size(); ++i)
        c.docs.edit(i, [](ond::Doc& d) {
            for (auto& cat : d.cats)
                if (!(cat.score >= 0.0f && cat.score <= 1.0f)) cat.score = 1.0f;
            if (d.spans.size() > 1) d.spans.pop_back();
        });
}

// conf-mode-1: the ONDC's tokens section ends in confidence mode 1 and n floats of 1.0 (the
// canonical writer's mode 0 there says the same).
std::string confidences_in_mode_1(const std::string& bytes, std::size_t n) {
    auto l = ond::framing::Layout::parse(bytes);
    if (!l) return bytes;
    for (auto& sec : l->sections)
        if (sec.id == 3 && !sec.content.empty() && sec.content.back() == 0) {
            sec.content.back() = 1;
            for (std::size_t i = 0; i < n; ++i) sec.content += std::string("\x00\x00\x80\x3f", 4);
        }
    return l->serialize();
}

Answer encode(const std::string& input) {
    ond::Container c;
    try {
        c = ond::json::from_json(input);
        for (std::size_t i = 0; i < c.docs.size(); ++i)
            if (c.docs[i].tokens.size() > max_tokens) return {1, {}, "content.too-large"};
        if (fault == "wrong-first-head" && !c.docs.empty() && c.docs[0].tokens.size() > 1)
            c.docs.edit(0, [](ond::Doc& d) { d.tokens.head[0] = 1; });
        const bool write_impl = fault.rfind("write-impl", 0) == 0;
        if (fault == "write-impl-lossy") lose_impl_content(c);
        std::vector<std::byte> bytes;
        {
            const ond::detail::RelaxedChecks relax(write_impl ? impl_content : std::vector<ond::Errc>{});
            bytes = ond::encode(c);
        }
        if (bytes.size() - 12 - (c.crc ? 4 : 0) > max_body) return {1, {}, "content.too-large"};
        std::string out(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        if (fault == "write-impl-token-order") out = renumber(out, token_by_token_order);
        if (fault == "sorted-table") out = renumber(out, sorted_order);
        if (fault == "write-impl-varint5") out = string_count_in_5_bytes(out);
        if (fault == "conf-mode-1" && !c.docs.empty()) out = confidences_in_mode_1(out, c.docs[0].tokens.size());
        if (fault == "drop-last-byte" && !out.empty()) out.pop_back();
        if (fault == "noncanonical-table") {
            auto l = ond::framing::Layout::parse(out);
            if (l) {
                for (auto& s : l->sections) {
                    if (s.id != 1) continue;
                    std::uint32_t count = 0;
                    std::size_t n = ond::framing::varint_size_at(s.content, 0, &count);
                    s.content.replace(0, n, ond::framing::encode_varint(count + 1));
                    s.content += ond::framing::encode_varint(6 << 1);
                    s.content += "unused";
                }
                out = l->serialize();
            }
        }
        return {0, out, {}};
    } catch (const ond::Error& e) {
        return {1, {}, fault == "wrong-code" ? "header.bad-magic" : std::string(e.code())};
    } catch (const ond::json::JsonError& e) {
        return {1, {}, "json.malformed"};
    }
}

Answer stream(const std::string& input) {
    maybe_planted_trouble(input);
    Answer a;
    std::size_t pos = 0;
    ond::StreamReader r([&](std::byte* dst, std::size_t max) {
        std::size_t n = std::min(max, input.size() - pos);
        std::memcpy(dst, input.data() + pos, n);
        pos += n;
        return n;
    });
    try {
        while (auto c = r.next()) a.out += ond::json::to_json(*c) + "\n";
        a.status = 0;
    } catch (const ond::Error& e) {
        a.status = 1;
        a.code = fault == "wrong-code" ? "header.bad-magic" : std::string(e.code());
    }
    return a;
}

Answer handle(char op, const std::string& input) {
    switch (op) {
        case 'D': return decode(input);
        case 'E': return encode(input);
        case 'S': return stream(input);
    }
    return {2, {}, {}};
}

void send(const std::string& payload) { ond::conformance::frame::write_frame(stdout, payload); }

int serve() {
    namespace frame = ond::conformance::frame;
    if (fault == "bytes-before") send(std::string(1, '\0') + "{}");
    int version = 1;  // until the hello asks for 2
    std::string payload;
    for (;;) {
        auto got = frame::read_frame(stdin, payload);
        if (got == frame::ReadStatus::end) return 0;
        if (got != frame::ReadStatus::frame || payload.empty()) return 1;
        if (payload[0] == 'V') {  // the hello: version 2 when asked for it
            if (protocol >= 2 && payload == frame::hello_payload) version = 2;
            send(version == 2 ? std::string(frame::hello_accepted) : std::string(1, '\2'));
            continue;
        }
        auto rq = frame::parse_request(payload, version);
        if (!rq) return 1;
        if (fault == "huge-output") {
            std::string flood(1u << 16, ' ');
            frame::write_length(stdout, 0xFFFFFFFFu);
            if (version >= 2) {  // numbered for this request: a response, only too long
                std::string number;
                frame::put_le32(number, rq->number);
                std::fwrite(number.data(), 1, number.size(), stdout);
            }
            for (;;) std::fwrite(flood.data(), 1, flood.size(), stdout);
        }
        Answer a = handle(rq->op, std::string(rq->input));
        // 'unsupported' (status 2) for every request, for the stream requests, or only where it would reject.
        if (fault == "unsupported-all" || (fault == "unsupported-stream" && rq->op == 'S') ||
            (fault == "unsupported-rejects" && a.status == 1))
            a = {2, {}, {}};
        std::string reply = frame::response_prefix(version, rq->number, static_cast<unsigned char>(a.status));
        if (a.status == 0) reply += a.out;
        else if (a.status == 1) reply += frame::reject_body(a.code, a.out);
        send(reply);
        if (fault == "answer-twice") {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            send(reply);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string op;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--fault" && i + 1 < argc) fault = argv[++i];
        else if (a == "--protocol" && i + 1 < argc) protocol = std::atoi(argv[++i]);
        else if (a == "--max-tokens" && i + 1 < argc) max_tokens = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--max-body" && i + 1 < argc) max_body = std::strtoull(argv[++i], nullptr, 10);
        else op = a;
    }
    if (op == "serve") return serve();
    char code = op == "decode" ? 'D' : op == "encode" ? 'E' : op == "stream" ? 'S' : 0;
    if (!code) {
        std::fprintf(stderr, "usage: ond_test_adapter [--fault F] [--protocol 1] [--max-tokens N] [--max-body N] decode|encode|stream|serve\n");
        return 2;
    }
    std::string input;  // read in blocks: the --large encode input is 4.1 GB
    for (char block[1 << 16];;) {
        const std::size_t n = std::fread(block, 1, sizeof block, stdin);
        if (n == 0) break;
        input.append(block, n);
    }
    Answer a = handle(code, input);
    if (fault == "huge-output") {
        std::string flood(1u << 16, '0');
        for (;;) std::fwrite(flood.data(), 1, flood.size(), stdout);
    }
    std::fwrite(a.out.data(), 1, a.out.size(), stdout);
    std::fflush(stdout);
    if (a.status != 0) std::fprintf(stderr, "error: %s\n", a.code.c_str());
    if (fault == "bad-utf8") std::fprintf(stderr, "more: \xff\xfe\x01 bytes\n");
    return a.status;
}
