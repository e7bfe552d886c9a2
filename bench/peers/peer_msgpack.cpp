// Peer: spaCy's DocBin layout (a msgpack map of numpy buffers, zlib-compressed), read with
// msgpack-cxx. The read does the least spaCy's DocBin.from_bytes + get_docs must do in C++:
// inflate, unpack, add every string to a hash-keyed store, split the token matrix per document
// and resolve every token's ORTH hash to its string.
#define MSGPACK_NO_BOOST 1
#include <msgpack.hpp>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "../bench_common.hpp"

namespace ond::bench {
namespace {

// spaCy's attribute ids (spacy/attrs.pxd) of its DocBin default attribute list, sorted, as it stores them.
enum : std::uint64_t {
    ORTH = 65, NORM = 67, LEMMA = 73, POS = 74, TAG = 75, DEP = 76, ENT_IOB = 77, ENT_TYPE = 78,
    HEAD = 79, SENT_START = 80, ENT_KB_ID = 452, MORPH = 453, ENT_ID = 454,
};
constexpr std::uint64_t attrs[] = {ORTH, NORM, LEMMA, POS, TAG, DEP, ENT_IOB, ENT_TYPE, HEAD, SENT_START, ENT_KB_ID, MORPH, ENT_ID};
constexpr std::size_t n_attrs = std::size(attrs);

// spaCy hashes strings with 64-bit MurmurHash; any good 64-bit hash costs the same here (FNV-1a).
std::uint64_t hash_string(std::string_view s) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char ch : s) h = (h ^ ch) * 0x100000001B3ull;
    return h;
}

struct Packed {
    std::string raw;         // msgpack bytes
    std::string compressed;  // zlib.compress(raw) as spaCy writes it
};

Packed pack_docbin(const Container& c) {
    std::vector<std::uint64_t> tokens;
    std::vector<std::uint8_t> spaces;
    std::vector<std::int32_t> lengths;
    std::set<std::string> strings;
    auto h = [&](std::string_view s) {
        if (s.empty()) return std::uint64_t{0};
        strings.emplace(s);
        return hash_string(s);
    };
    for (const DocSlice d : c.docs) {
        const TokenSlice& t = d.tokens;
        const std::size_t n = t.size();
        lengths.push_back(static_cast<std::int32_t>(n));
        // Token texts: the model's offsets are UTF-16; turn them into byte ranges of the WTF-8 text.
        std::vector<std::size_t> byte_at;  // byte offset of each UTF-16 unit index (and the end)
        byte_at.reserve(d.text_utf16_length + 1);
        for (std::size_t b = 0; b < d.text.size();) {
            const auto lead = static_cast<unsigned char>(d.text[b]);
            const std::size_t len = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            byte_at.push_back(b);
            if (len == 4) byte_at.push_back(b);  // the low surrogate's index points at the same character
            b += len;
        }
        byte_at.push_back(d.text.size());
        std::vector<std::uint64_t> iob(n, d.has_ents ? 2 : 0), ent_type(n, 0);
        for (const Entity& e : d.ents)
            for (std::uint32_t k = 0; k < e.length; ++k) {
                iob[e.start + k] = k == 0 ? 3 : 1;
                ent_type[e.start + k] = h(c.strings.view(e.label));
            }
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t b0 = byte_at[t.start[i]], b1 = byte_at[t.start[i] + t.length[i]];
            const std::string_view orth = std::string_view(d.text).substr(b0, b1 - b0);
            const std::uint64_t row[n_attrs] = {
                h(orth),
                h(c.strings.view(t.column(TokenColumn::norm)[i])),
                h(c.strings.view(t.column(TokenColumn::lemma)[i])),
                h(c.strings.view(t.column(TokenColumn::pos)[i])),
                h(c.strings.view(t.column(TokenColumn::tag)[i])),
                h(c.strings.view(t.column(TokenColumn::dep)[i])),
                iob[i],
                ent_type[i],
                static_cast<std::uint64_t>(static_cast<std::int64_t>(t.head[i]) - static_cast<std::int64_t>(i)),
                t.sent[i] == Sentence::start ? 1u : t.sent[i] == Sentence::inside ? ~std::uint64_t{0} : 0u,
                0,
                h(c.strings.view(t.column(TokenColumn::morph)[i])),
                0,
            };
            tokens.insert(tokens.end(), std::begin(row), std::end(row));
            spaces.push_back(b1 < d.text.size() && d.text[b1] == ' ' ? 1 : 0);
        }
    }
    msgpack::sbuffer buf;
    msgpack::packer<msgpack::sbuffer> pk(buf);
    auto pack_bin = [&](const void* p, std::size_t n) {
        pk.pack_bin(static_cast<std::uint32_t>(n));
        pk.pack_bin_body(static_cast<const char*>(p), static_cast<std::uint32_t>(n));
    };
    pk.pack_map(9);
    pk.pack(std::string("version"));
    pk.pack(std::string("0.1"));
    pk.pack(std::string("attrs"));
    pk.pack_array(n_attrs);
    for (std::uint64_t a : attrs) pk.pack(a);
    pk.pack(std::string("tokens"));
    pack_bin(tokens.data(), tokens.size() * sizeof(std::uint64_t));
    pk.pack(std::string("spaces"));
    pack_bin(spaces.data(), spaces.size());
    pk.pack(std::string("lengths"));
    pack_bin(lengths.data(), lengths.size() * sizeof(std::int32_t));
    pk.pack(std::string("strings"));
    pk.pack_array(static_cast<std::uint32_t>(strings.size()));
    for (const std::string& s : strings) pk.pack(s);
    pk.pack(std::string("cats"));
    pk.pack_array(static_cast<std::uint32_t>(c.docs.size()));
    for (std::size_t i = 0; i < c.docs.size(); ++i) pk.pack_map(0);
    pk.pack(std::string("flags"));
    pk.pack_array(static_cast<std::uint32_t>(c.docs.size()));
    for (std::size_t i = 0; i < c.docs.size(); ++i) {
        pk.pack_map(1);
        pk.pack(std::string("has_unknown_spaces"));
        pk.pack(false);
    }
    pk.pack(std::string("span_groups"));
    pk.pack_array(static_cast<std::uint32_t>(c.docs.size()));
    for (std::size_t i = 0; i < c.docs.size(); ++i) pack_bin("\x90", 1);  // msgpack of an empty list

    Packed out;
    out.raw.assign(buf.data(), buf.size());
    uLongf clen = compressBound(static_cast<uLong>(out.raw.size()));
    out.compressed.resize(clen);
    if (compress2(reinterpret_cast<Bytef*>(out.compressed.data()), &clen, reinterpret_cast<const Bytef*>(out.raw.data()),
                  static_cast<uLong>(out.raw.size()), Z_DEFAULT_COMPRESSION) != Z_OK)
        throw std::runtime_error("zlib compress failed");
    out.compressed.resize(clen);
    return out;
}

// zlib.decompress: the output size is not known in advance, so the buffer grows.
std::string inflate_all(const std::string& in) {
    std::string out(in.size() * 4, '\0');
    z_stream zs{};
    if (inflateInit(&zs) != Z_OK) throw std::runtime_error("inflateInit failed");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    std::size_t done = 0;
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + done);
        zs.avail_out = static_cast<uInt>(out.size() - done);
        const int rc = inflate(&zs, Z_NO_FLUSH);
        done = out.size() - zs.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            inflateEnd(&zs);
            throw std::runtime_error("inflate failed");
        }
        if (zs.avail_out == 0) out.resize(out.size() * 2);
    }
    inflateEnd(&zs);
    out.resize(done);
    return out;
}

struct SpacyDoc {
    std::vector<std::uint64_t> attrs;  // n x n_attrs, owned by the doc as in Doc.from_array
    std::vector<std::string_view> words;
    std::vector<bool> spaces;
};

const msgpack::object& field(const msgpack::object& map, std::string_view key) {
    for (std::uint32_t i = 0; i < map.via.map.size; ++i) {
        const msgpack::object_kv& kv = map.via.map.ptr[i];
        if (kv.key.type == msgpack::type::STR && std::string_view(kv.key.via.str.ptr, kv.key.via.str.size) == key) return kv.val;
    }
    throw std::runtime_error("DocBin field missing");
}

// DocBin.from_bytes + get_docs, minus Python: returns the token count read.
std::uint64_t read_docbin(const char* data, std::size_t size) {
    const msgpack::object_handle oh = msgpack::unpack(data, size);
    const msgpack::object& msg = oh.get();
    if (msg.type != msgpack::type::MAP) throw std::runtime_error("DocBin is not a map");
    const msgpack::object& strings = field(msg, "strings");
    std::unordered_map<std::uint64_t, std::string_view> store;
    store.reserve(strings.via.array.size);
    for (std::uint32_t i = 0; i < strings.via.array.size; ++i) {
        const msgpack::object& s = strings.via.array.ptr[i];
        const std::string_view v(s.via.str.ptr, s.via.str.size);
        store.emplace(hash_string(v), v);
    }
    const msgpack::object& tok = field(msg, "tokens");
    const msgpack::object& spc = field(msg, "spaces");
    const msgpack::object& len = field(msg, "lengths");
    const std::size_t ndocs = len.via.bin.size / sizeof(std::int32_t);
    std::uint64_t row = 0, total = 0;
    for (std::size_t k = 0; k < ndocs; ++k) {
        std::int32_t n32;
        std::memcpy(&n32, len.via.bin.ptr + k * sizeof(std::int32_t), sizeof n32);
        const auto n = static_cast<std::size_t>(n32);
        if ((row + n) * n_attrs * sizeof(std::uint64_t) > tok.via.bin.size || row + n > spc.via.bin.size)
            throw std::runtime_error("DocBin arrays too short");
        SpacyDoc doc;
        doc.attrs.resize(n * n_attrs);
        std::memcpy(doc.attrs.data(), tok.via.bin.ptr + row * n_attrs * sizeof(std::uint64_t), n * n_attrs * sizeof(std::uint64_t));
        doc.words.reserve(n);
        doc.spaces.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto it = store.find(doc.attrs[i * n_attrs]);  // ORTH -> string, as Doc(words=...) needs
            if (it == store.end()) throw std::runtime_error("DocBin ORTH not in strings");
            doc.words.push_back(it->second);
            doc.spaces[i] = spc.via.bin.ptr[row + i] != 0;
        }
        benchmark::DoNotOptimize(doc);
        row += n;
        total += n;
    }
    return total;
}

}  // namespace

void register_msgpack(const WorkloadPtr& wp) {
    auto packed = std::make_shared<const Packed>(pack_docbin(wp->content));
    if (read_docbin(packed->raw.data(), packed->raw.size()) != wp->tokens ||
        inflate_all(packed->compressed) != packed->raw)
        throw std::runtime_error("msgpack DocBin peer: self-check failed");
    const char kind[] = {'/', static_cast<char>(wp->kind), 0};
    const std::string_view sfx = kind;
    const std::uint64_t tokens = wp->tokens;

    register_timed(join({"peer/docbin_msgpack_zlib", sfx}), packed->compressed.size(), tokens, [packed] {
        const std::string raw = inflate_all(packed->compressed);
        return read_docbin(raw.data(), raw.size());
    });
    register_timed(join({"peer/docbin_msgpack", sfx}), packed->raw.size(), tokens,
                   [packed] { return read_docbin(packed->raw.data(), packed->raw.size()); });
    // The writer: DocBin.add + to_bytes from the same content (token arrays, hashes, the sorted
    // string list, msgpack, zlib), timed whole.
    auto content = std::shared_ptr<const Container>(wp, &wp->content);
    register_timed(join({"peer/docbin_msgpack_zlib_write", sfx}), packed->compressed.size(), tokens,
                   [content] { return pack_docbin(*content); });
}

}  // namespace ond::bench
