// Peer: FlatBuffers (ond_peer.fbs): the Verifier, then a read of every element.
#include <stdexcept>
#include <vector>

#include "../bench_common.hpp"
#include "ond_peer_generated.h"

namespace ond::bench {
namespace {

std::vector<std::uint8_t> build(const Container& c) {
    flatbuffers::FlatBufferBuilder fbb(1 << 20);
    std::vector<flatbuffers::Offset<flatbuffers::String>> strings;
    for (std::size_t id = 1; id < c.strings.size(); ++id) {
        const std::string_view s = c.strings.view(static_cast<StringId>(id));
        strings.push_back(fbb.CreateString(s.data(), s.size()));
    }
    std::vector<flatbuffers::Offset<ondpeer::fb::Doc>> docs;
    for (const DocSlice slice : c.docs) {
        const Doc d = slice.to_doc();  // CreateDocDirect takes vectors (setup only, not timed)
        const Tokens& t = d.tokens;
        bool all_one = true;
        for (float f : t.conf) all_one = all_one && f == 1.0f;
        std::vector<std::uint8_t> sent;
        for (Sentence s : t.sent) sent.push_back(static_cast<std::uint8_t>(s));
        std::vector<ondpeer::fb::Entity> ents;
        for (const Entity& e : d.ents) ents.emplace_back(e.start, e.length, e.label, e.conf);
        const std::vector<float> no_conf;
        docs.push_back(ondpeer::fb::CreateDocDirect(
            fbb, d.text.c_str(), &t.start, &t.length, &t.column(TokenColumn::norm), &t.column(TokenColumn::lemma),
            &t.column(TokenColumn::pos), &t.column(TokenColumn::tag), &t.column(TokenColumn::dep),
            &t.column(TokenColumn::morph), &t.head, &sent, all_one ? &no_conf : &t.conf, d.has_ents, &ents));
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
}

}  // namespace ond::bench
