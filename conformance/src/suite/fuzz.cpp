#include "suite/fuzz.hpp"

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <map>
#include <mutex>
#include <ostream>
#include <random>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "suite/reference.hpp"
#include "ond/text_escape.hpp"
#include "ond/internal/framing.hpp"
#include "suite/mutate.hpp"
#include "ond/content_json.hpp"
#include "ond/corpus_sha256.hpp"

namespace ond::conformance {

using namespace ond::framing;  // Layout and the edit helpers

namespace {

// What kind of disagreement an input shows; empty when the testee agrees with the reference.
std::string disagreement(const RefAnswer& ref, const TesteeResult& o, bool spec_profile, std::string* detail) {
    using S = TesteeResult::Status;
    if (o.status == S::crash || o.status == S::timeout || o.status == S::start_error || o.status == S::protocol ||
        o.status == S::output) {
        if (detail) *detail = o.detail;
        return o.status == S::timeout ? "timeout" : "crash";
    }
    if (o.status == S::unsupported) return {};
    bool acc = o.status == S::accept;
    if (ref.accept && !acc) {
        if (detail) *detail = "the reference accepts; the testee rejects" + (o.code.empty() ? std::string() : " (" + o.code + ")");
        return "testee-rejects";
    }
    if (!ref.accept && acc) {
        if (spec_profile && ref.impl_defined) return {};
        if (detail) *detail = "the reference rejects (" + ref.code + "); the testee accepts";
        return "testee-accepts:" + ref.code;
    }
    if (ref.accept) {
        try {
            if (auto d = json::compare_content(ref.out, o.out)) {
                if (detail) *detail = *d;
                return "content";
            }
        } catch (const json::JsonError& e) {
            if (detail) *detail = std::string("malformed output: ") + e.what();
            return "malformed-output";
        }
    }
    return {};
}

std::string today() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::tm tm {};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

// The corpus's decode inputs whose framing the mutator can parse: what the run mutates.
std::vector<const Case*> mutation_sources(const Corpus& corpus) {
    std::vector<const Case*> sources;
    for (const auto& c : corpus.cases)
        if (c.kind == CaseKind::decode && Layout::parse(c.input)) sources.push_back(&c);
    if (sources.empty()) throw std::runtime_error("no decode case of the corpus has a parseable framing to mutate");
    return sources;
}

// One kind of disagreement, as first found: the input and the corpus case it was mutated from.
struct Disagreement {
    std::string input;
    std::string source;
};

struct Exploration {
    std::uint64_t inputs = 0, disagreements = 0;
    std::map<std::string, Disagreement> found;  // signature -> its first input
};

// Mutates the sources until the deadline, opt.jobs workers at once, and keeps the first input of
// each kind of disagreement between the testee's decoder and the reference.
Exploration explore(const std::vector<const Case*>& sources, Testee& testee, const FuzzOptions& opt, const RunContext& ctx,
                    std::ostream& err) {
    std::mutex mu;
    Exploration ex;
    std::atomic<std::uint64_t> inputs{0}, disagreements{0};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(opt.seconds);
    auto worker = [&](unsigned w) {
        Mutator m(opt.seed * 1000003u + w);
        while (std::chrono::steady_clock::now() < deadline) {
            const Case& src = *sources[m.rng()() % sources.size()];
            std::string input = src.input;
            for (auto n = 1 + m.rng()() % 3; n > 0; --n) input = m.mutate(input);
            RefAnswer ref = reference_decode(input);
            if (ref.too_large) continue;  // no reference answer to compare with (reference_json_cap)
            TesteeResult o = testee.run(Op::decode, input, w, ctx);
            inputs++;
            std::string sig = disagreement(ref, o, opt.spec_profile, nullptr);
            if (sig.empty()) continue;
            disagreements++;
            std::lock_guard<std::mutex> lock(mu);
            if (!ex.found.count(sig)) {
                ex.found[sig] = {input, src.id};
                err << "fuzz: new disagreement '" << escape_text(sig) << "' from " << src.id << "\n" << std::flush;
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < std::max(1u, opt.jobs); ++w) threads.emplace_back(worker, w);
    for (auto& t : threads) t.join();
    ex.inputs = inputs;
    ex.disagreements = disagreements;
    return ex;
}

// The smallest input found that still shows disagreement `sig`, bounded by tries and by time so
// that a slow testee cannot stretch the run much: first structurally (drop whole sections and
// records, then bytes inside one section, re-framing lengths and the CRC each time), then by raw
// byte deletion.
std::string minimise(const std::string& input, const std::string& sig, Testee& testee, bool spec, const RunContext& ctx) {
    std::string cur = input;
    int tries = 0;
    const auto stop_at = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto budget_left = [&] { return tries < 2000 && std::chrono::steady_clock::now() < stop_at; };
    auto keeps = [&](const std::string& cand) {
        ++tries;
        return cand != cur && disagreement(reference_decode(cand), testee.run(Op::decode, cand, 0, ctx), spec, nullptr) == sig;
    };
    for (bool progress = true; progress && budget_left();) {
        progress = false;
        auto l = Layout::parse(cur);
        if (!l) break;
        // Drops one element of `items` (a section or a record) if the disagreement stays.
        auto drop_one_of = [&](auto& items) {
            for (std::size_t i = 0; i < items.size() && !progress && budget_left(); ++i) {
                auto removed = items[i];
                items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
                std::string cand = l->serialize();
                if (keeps(cand)) cur = std::move(cand), progress = true;
                else items.insert(items.begin() + static_cast<std::ptrdiff_t>(i), std::move(removed));
            }
        };
        // Whole sections of the body and of each record, then whole records.
        drop_one_of(l->sections);
        for (auto& sec : l->sections)
            if (sec.has_records)
                for (auto& r : sec.records)
                    if (!progress) drop_one_of(r.sections);
        for (auto& sec : l->sections)
            if (!progress && sec.has_records) drop_one_of(sec.records);
        if (progress) continue;
        // Bytes inside one section, halving the chunk.
        for (auto* leaf : l->leaves()) {
            std::string& content = leaf->content;
            for (std::size_t chunk = std::max<std::size_t>(1, content.size() / 2); chunk >= 1 && budget_left(); chunk /= 2) {
                for (std::size_t at = 0; at + chunk <= content.size() && budget_left();) {
                    std::string saved = content;
                    content.erase(at, chunk);
                    std::string cand = l->serialize();
                    if (keeps(cand)) cur = std::move(cand), progress = true;
                    else content = std::move(saved), at += chunk;
                }
                if (chunk == 1) break;
            }
        }
    }
    for (std::size_t chunk = std::max<std::size_t>(1, cur.size() / 2); chunk >= 1 && budget_left(); chunk /= 2) {
        for (std::size_t at = 0; at + chunk <= cur.size() && budget_left();) {
            std::string cand = cur.substr(0, at) + cur.substr(at + chunk);
            if (keeps(cand)) cur = std::move(cand);
            else at += chunk;
        }
        if (chunk == 1) break;
    }
    return cur;
}

// A minimised input as a regression case: `cur` (and the reference's content, when it accepts)
// written under opt.out_dir with its metadata, and the case of this run that expects the
// reference's answer of the testee.
FuzzFinding save_finding(const std::string& sig, const Disagreement& first, const std::string& cur, RefAnswer ref,
                         TesteeResult o, const std::string& raw_detail, const Testee& testee, const FuzzOptions& opt,
                         std::ostream& out) {
    const std::string detail = escape_text(raw_detail, false);  // the testee's text: printable, valid UTF-8
    const std::string hash = corpus::sha256_hex(cur).substr(0, 12);
    const std::string ext = cur.compare(0, 4, "ONDB") == 0 ? ".ondb" : ".ondc";
    const std::string base = opt.out_dir + "/fuzz-" + hash;
    write_file(base + ext, cur);
    nlohmann::json meta;
    const std::string area = ref.accept ? "document" : ref.code.substr(0, ref.code.find('.'));
    meta["id"] = "regressions/" + area + "/fuzz-" + hash;
    meta["kind"] = "decode";
    meta["area"] = area;
    meta["verdict"] = ref.accept ? "valid" : ref.impl_defined ? "impl" : "invalid";
    meta["error"] = ref.accept ? nlohmann::json() : nlohmann::json(ref.code);
    meta["description"] = "found by differential fuzzing: " + detail;
    meta["input"] = "fuzz-" + hash + ext;
    if (ref.accept) {
        write_file(base + ".json", ref.out + "\n");
        meta["expected"] = "fuzz-" + hash + ".json";
    } else {
        meta["expected"] = nullptr;
    }
    meta["reference_message"] = ref.message;
    meta["testee_answer"] = answer_name(o.status);
    meta["disagreement"] = sig;
    meta["minimised_from_bytes"] = first.input.size();
    meta["source"] = {{"harness", "ond conform --fuzz"}, {"date", today()}, {"seed", opt.seed},
                      {"testee", escape_text(testee.describe(), false)}, {"mutated_from", first.source}};
    write_file(base + ".meta.json", meta.dump(2) + "\n");
    out << "  " << escape_text(sig) << ": " << detail << "\n    saved " << base << ext << " (" << cur.size()
        << " bytes, minimised from " << first.input.size() << ")\n";
    FuzzFinding f;
    f.c.id = "fuzz/" + area + "/fuzz-" + hash;
    f.c.kind = CaseKind::decode;
    f.c.area = "fuzz";
    f.c.origin = Origin::fuzz;
    f.c.source = first.source;
    f.c.verdict = ref.accept ? CaseVerdict::valid : ref.impl_defined ? CaseVerdict::impl : CaseVerdict::invalid;
    f.c.description = "found by differential fuzzing (seed " + std::to_string(opt.seed) + "), saved as " + base + ext;
    f.c.input_path = base + ext;
    f.c.input = cur;
    if (ref.accept) f.c.expected = std::move(ref.out), f.c.expected_path = base + ".json";
    f.c.error = ref.accept ? std::string() : ref.code;
    f.c.expect_accept = ref.accept;
    f.answer = std::move(o);
    return f;
}

}  // namespace

FuzzReport run_fuzz(const Corpus& corpus, Testee& testee, const FuzzOptions& opt, std::ostream& out, std::ostream& err) {
    const std::vector<const Case*> sources = mutation_sources(corpus);
    const RunContext ctx{opt.case_index, 256u << 20, {}};
    out << "fuzz: the decoder against the reference, " << opt.seconds << " s, seed " << opt.seed << " (--seed " << opt.seed
        << " replays the mutations), " << sources.size() << " seed inputs\n" << std::flush;
    const Exploration ex = explore(sources, testee, opt, ctx, err);
    FuzzReport rep;
    rep.inputs = ex.inputs;
    rep.disagreements = ex.disagreements;
    if (!ex.found.empty()) ::mkdir(opt.out_dir.c_str(), 0777);
    for (const auto& [sig, first] : ex.found) {
        const std::string cur = minimise(first.input, sig, testee, opt.spec_profile, ctx);
        RefAnswer ref = reference_decode(cur);
        TesteeResult o = testee.run(Op::decode, cur, 0, ctx);
        std::string raw_detail;
        if (disagreement(ref, o, opt.spec_profile, &raw_detail) != sig) continue;  // flaky (e.g. a time-out): keep nothing
        rep.findings.push_back(save_finding(sig, first, cur, std::move(ref), std::move(o), raw_detail, testee, opt, out));
        rep.saved++;
    }
    out << "fuzz: " << rep.inputs << " inputs, " << rep.disagreements << " disagreements, " << rep.saved
        << " minimised cases saved" << (rep.saved ? " under " + opt.out_dir + " (each a case of this run: fuzz/...)" : "")
        << "; seed " << opt.seed << "\n";
    return rep;
}

}  // namespace ond::conformance
