// Peer: FlatBuffers (ond_peer.fbs): the Verifier, then a read of every element; and the build of
// the same buffer from the content (the writer).
#include <algorithm>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "../bench_common.hpp"
#include "ond_peer_generated.h"

namespace ond::bench {
namespace {

// The writer: the container's columns straight into a builder (each vector from a span of the
// container, no copy of a document first), as a FlatBuffers user holding this content would.
std::vector<std::uint8_t> build(const Container& c) {
    flatbuffers::FlatBufferBuilder fbb(1 << 20);
    std::vector<flatbuffers::Offset<flatbuffers::String>> strings;
    strings.reserve(c.strings.size());
    for (std::size_t id = 1; id < c.strings.size(); ++id) {
        const std::string_view s = c.strings.view(static_cast<StringId>(id));
        strings.push_back(fbb.CreateString(s.data(), s.size()));
    }
    std::vector<flatbuffers::Offset<ondpeer::fb::Doc>> docs;
    docs.reserve(c.docs.size());
    std::vector<ondpeer::fb::Entity> ents;
    for (const DocSlice d : c.docs) {
        const TokenSlice& t = d.tokens;
        const auto u32 = [&](std::span<const std::uint32_t> v) { return fbb.CreateVector(v.data(), v.size()); };
        const auto text = fbb.CreateString(d.text.data(), d.text.size());
        const auto start = u32(t.start), length = u32(t.length);
        // An id column as FlatBuffers' uint32 vector, whatever width the model stores it in.
        const auto ids = [&](Ids v) {
            return v.visit([&](auto s) {
                if constexpr (std::is_same_v<typename decltype(s)::value_type, std::uint32_t>) return u32(s);
                else return fbb.CreateVector<std::uint32_t>(s.size(), [&](std::size_t i) { return std::uint32_t{s[i]}; });
            });
        };
        const auto norm = ids(t.column(TokenColumn::norm)), lemma = ids(t.column(TokenColumn::lemma));
        const auto pos = ids(t.column(TokenColumn::pos)), tag = ids(t.column(TokenColumn::tag));
        const auto dep = ids(t.column(TokenColumn::dep)), morph = ids(t.column(TokenColumn::morph));
        const auto head = fbb.CreateVector(t.head.data(), t.head.size());
        static_assert(sizeof(Sentence) == 1);
        const auto sent = fbb.CreateVector(reinterpret_cast<const std::uint8_t*>(t.sent.data()), t.sent.size());
        const float* stored = t.conf.stored();  // nullptr when every confidence is 1.0
        const bool all_one = !stored || std::all_of(stored, stored + t.size(), [](float f) { return f == 1.0f; });
        const auto conf = fbb.CreateVector(stored, all_one ? 0 : t.size());
        ents.clear();
        for (const Entity& e : d.ents) ents.emplace_back(e.start, e.length, e.label, e.conf);
        const auto ent_vec = fbb.CreateVectorOfStructs(ents);
        docs.push_back(ondpeer::fb::CreateDoc(fbb, text, start, length, norm, lemma, pos, tag, dep, morph, head, sent,
                                              conf, d.has_ents, ent_vec));
    }
    fbb.Finish(ondpeer::fb::CreateBinDirect(fbb, &strings, &docs));
    return std::vector<std::uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

template <class V>
std::uint64_t sum(const V* v) {
    std::uint64_t s = 0;
    if (v)
        for (auto x : *v) s += static_cast<std::uint64_t>(x);
    return s;
}

// Verifies, then touches every element; returns the token count (and folds the rest into `acc`).
std::uint64_t verify_and_read(const std::vector<std::uint8_t>& buf, std::uint64_t& acc) {
    flatbuffers::Verifier v(buf.data(), buf.size());
    if (!ondpeer::fb::VerifyBinBuffer(v)) throw std::runtime_error("FlatBuffers verifier rejected the buffer");
    const ondpeer::fb::Bin* bin = ondpeer::fb::GetBin(buf.data());
    std::uint64_t tokens = 0;
    for (const flatbuffers::String* s : *bin->strings()) acc += s->size() + static_cast<unsigned char>(s->c_str()[0]);
    for (const ondpeer::fb::Doc* d : *bin->docs()) {
        acc += d->text()->size();
        tokens += d->start()->size();
        acc += sum(d->start()) + sum(d->length()) + sum(d->norm()) + sum(d->lemma()) + sum(d->pos()) + sum(d->tag()) +
               sum(d->dep()) + sum(d->morph()) + sum(d->head()) + sum(d->sent());
        if (d->conf())
            for (float f : *d->conf()) acc += static_cast<std::uint64_t>(f * 1024.0f);
        acc += d->has_ents();
        if (d->ents())
            for (const ondpeer::fb::Entity* e : *d->ents()) acc += e->start() + e->length() + e->label() + static_cast<std::uint64_t>(e->conf() * 1024.0f);
    }
    return tokens;
}

}  // namespace

void register_flatbuffers(const WorkloadPtr& wp) {
    auto buf = std::make_shared<const std::vector<std::uint8_t>>(build(wp->content));
    std::uint64_t acc = 0;
    if (verify_and_read(*buf, acc) != wp->tokens) throw std::runtime_error("FlatBuffers peer: token count differs");
    const char kind[] = {'/', static_cast<char>(wp->kind), 0};
    const std::string_view sfx = kind;
    const std::uint64_t in = buf->size(), tokens = wp->tokens;
    benchmark::RegisterBenchmark(join({"peer/flatbuffers", sfx}).c_str(), [buf, in, tokens](benchmark::State& st) {
        std::uint64_t a = 0;
        const auto peak = measure_peak([&] { benchmark::DoNotOptimize(verify_and_read(*buf, a)); });
        for (auto _ : st) {
            benchmark::DoNotOptimize(verify_and_read(*buf, a));
            benchmark::DoNotOptimize(a);
        }
        report(st, in, tokens, peak);
    });
    auto content = std::shared_ptr<const Container>(wp, &wp->content);
    register_timed(join({"peer/flatbuffers_build", sfx}), in, tokens, [content] { return build(*content); });
}

}  // namespace ond::bench
