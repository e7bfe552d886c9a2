// Peer: protobuf ParseFromArray of the same content (ond_peer.proto), into a fresh message, a
// reused message and a fresh arena over a reused first block; and the writers: a message
// serialised (protobuf's own model to bytes, as our encode is our model to bytes), and the
// message built from our container and serialised.
#include <google/protobuf/arena.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "../bench_common.hpp"
#include "ond_peer.pb.h"

namespace ond::bench {
namespace {

std::string serialise(const Container& c) {
    ondpeer::Bin bin;
    for (std::size_t id = 1; id < c.strings.size(); ++id) bin.add_strings(std::string(c.strings.view(static_cast<StringId>(id))));
    for (const DocSlice d : c.docs) {
        ondpeer::Doc* p = bin.add_docs();
        p->set_text(d.text.data(), d.text.size());
        const TokenSlice& t = d.tokens;
        std::uint32_t prev_end = 0;
        bool all_one = true;
        for (std::size_t i = 0; i < t.size(); ++i) {
            p->add_gap(t.start[i] - prev_end);
            p->add_length(t.length[i]);
            prev_end = t.start[i] + t.length[i];
            p->add_head(t.head[i] - static_cast<std::int32_t>(i));
            p->add_sent(static_cast<std::uint32_t>(t.sent[i]));
            all_one = all_one && t.conf[i] == 1.0f;
        }
        // The store ids are the string-table indexes here (ids 1..size-1 in store order).
        for (StringId id : t.column(TokenColumn::norm)) p->add_norm(id);
        for (StringId id : t.column(TokenColumn::lemma)) p->add_lemma(id);
        for (StringId id : t.column(TokenColumn::pos)) p->add_pos(id);
        for (StringId id : t.column(TokenColumn::tag)) p->add_tag(id);
        for (StringId id : t.column(TokenColumn::dep)) p->add_dep(id);
        for (StringId id : t.column(TokenColumn::morph)) p->add_morph(id);
        if (!all_one)
            for (float f : t.conf) p->add_conf(f);
        p->set_has_ents(d.has_ents);
        for (const Entity& e : d.ents) {
            ondpeer::Entity* pe = p->add_ents();
            pe->set_start(e.start);
            pe->set_length(e.length);
            pe->set_label(e.label);
            pe->set_conf(e.conf);
        }
    }
    return bin.SerializeAsString();
}

std::uint64_t tokens_in(const ondpeer::Bin& bin) {
    std::uint64_t n = 0;
    for (const auto& d : bin.docs()) n += static_cast<std::uint64_t>(d.length_size());
    return n;
}

void parse_or_throw(ondpeer::Bin& m, const std::string& data) {
    if (!m.ParseFromArray(data.data(), static_cast<int>(data.size()))) throw std::runtime_error("protobuf parse failed");
}

}  // namespace

void register_protobuf(const WorkloadPtr& wp) {
    auto data = std::make_shared<const std::string>(serialise(wp->content));
    {
        ondpeer::Bin check;
        parse_or_throw(check, *data);
        if (tokens_in(check) != wp->tokens) throw std::runtime_error("protobuf peer: token count differs");
    }
    const char kind[] = {'/', static_cast<char>(wp->kind), 0};
    const std::string_view sfx = kind;
    const std::uint64_t in = data->size(), tokens = wp->tokens;

    benchmark::RegisterBenchmark(join({"peer/protobuf_fresh", sfx}).c_str(), [data, in, tokens](benchmark::State& st) {
        const auto peak = measure_peak([&] {
            ondpeer::Bin m;
            parse_or_throw(m, *data);
        });
        for (auto _ : st) {
            ondpeer::Bin m;
            parse_or_throw(m, *data);
            benchmark::DoNotOptimize(m);
        }
        report(st, in, tokens, peak);
    });
    benchmark::RegisterBenchmark(join({"peer/protobuf_reused", sfx}).c_str(), [data, in, tokens](benchmark::State& st) {
        ondpeer::Bin m;
        parse_or_throw(m, *data);  // warm: capacity from the first parse is kept
        const auto peak = measure_peak([&] { parse_or_throw(m, *data); });
        for (auto _ : st) {
            parse_or_throw(m, *data);
            benchmark::DoNotOptimize(m);
        }
        report(st, in, tokens, peak);
    });
    benchmark::RegisterBenchmark(join({"peer/protobuf_arena", sfx}).c_str(), [data, in, tokens](benchmark::State& st) {
        // A first block big enough for the whole message, allocated once and reused.
        std::vector<char> block(8 * data->size() + (1 << 20));
        google::protobuf::ArenaOptions opt;
        opt.initial_block = block.data();
        opt.initial_block_size = block.size();
        const auto run = [&] {
            google::protobuf::Arena arena(opt);
            auto* m = google::protobuf::Arena::CreateMessage<ondpeer::Bin>(&arena);
            parse_or_throw(*m, *data);
            benchmark::DoNotOptimize(m);
        };
        const auto peak = measure_peak(run);
        for (auto _ : st) run();
        report(st, in, tokens, peak);
    });
    // Serialised from a message parsed once (const: serialising does not change it).
    auto parsed = std::make_shared<ondpeer::Bin>();
    parse_or_throw(*parsed, *data);
    const auto serialize = [m = std::shared_ptr<const ondpeer::Bin>(parsed)] {
        std::string out;
        if (!m->SerializeToString(&out)) throw std::runtime_error("protobuf serialize failed");
        return out;
    };
    if (serialize() != *data) throw std::runtime_error("protobuf peer: serialize differs from the bytes parsed");
    register_timed(join({"peer/protobuf_serialize", sfx}), in, tokens, serialize);
    auto content = std::shared_ptr<const Container>(wp, &wp->content);
    register_timed(join({"peer/protobuf_build_serialize", sfx}), in, tokens, [content] { return serialise(*content); });
}

}  // namespace ond::bench
