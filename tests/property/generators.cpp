#include "generators.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

#include "fuzz_support.hpp"

namespace ond::prop {

namespace {

std::string wtf8(const std::u16string& u) { return unicode::wtf8_from_utf16(u); }

float bits_float(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

}  // namespace

rc::Gen<std::u16string> gen_text() {
    using namespace rc;
    const Gen<std::u16string> piece = gen::weightedOneOf<std::u16string>({
        {6, gen::map(full_range<int>(0x20, 0x7F), [](int c) { return std::u16string(1, static_cast<char16_t>(c)); })},
        {2, gen::just(std::u16string(u" "))},
        {2, gen::element<std::u16string>(u"\u00e9", u"\u65e5\u672c", u"\u00df", u"\u0416", u"\ufeff")},
        {2, gen::element<std::u16string>(u"\U0001F600", u"\U00010348")},
        {1, gen::element<std::u16string>(std::u16string(1, char16_t{0xD800}), std::u16string(1, char16_t{0xDBFF}))},
        {1, gen::element<std::u16string>(std::u16string(1, char16_t{0xDC00}), std::u16string(1, char16_t{0xDFFF}))},
    });
    return gen::map(gen::container<std::vector<std::u16string>>(piece), [](const std::vector<std::u16string>& ps) {
        std::u16string t;
        for (const auto& p : ps) t += p;
        return t;
    });
}

rc::Gen<std::vector<std::u16string>> gen_vocab() {
    using namespace rc;
    const Gen<std::u16string> word = gen::suchThat(gen::map(gen_text(), [](std::u16string s) {
        if (s.size() > 12) s.resize(12);  // may cut a pair: a lone surrogate, which is fine
        return s;
    }), [](const std::u16string& s) { return !s.empty(); });
    return gen::oneOf(gen::container<std::vector<std::u16string>>(word),
                      // A large vocabulary: hundreds of distinct strings, so indexes need 2 bytes.
                      gen::map(full_range<int>(130, 400), [](int n) {
                          std::vector<std::u16string> v;
                          for (int i = 0; i < n; ++i) {
                              std::u16string w = u"w";
                              for (char ch : std::to_string(i)) w += static_cast<char16_t>(ch);
                              v.push_back(w);
                          }
                          return v;
                      }));
}

rc::Gen<float> gen_confidence() {
    using namespace rc;
    return gen::weightedOneOf<float>({
        {3, gen::element<float>(1.0f, 0.0f, -0.0f, std::numeric_limits<float>::denorm_min(),
                                std::numeric_limits<float>::min() / 4.0f, std::numeric_limits<float>::min(),
                                bits_float(0x3F7FFFFF), 0.5f)},
        {2, gen::map(full_range<std::uint32_t>(0, 0x3F800001), [](std::uint32_t b) { return bits_float(b); })},
    });
}

rc::Gen<DocSpec> gen_doc(bool with_extras) {
    using namespace rc;
    const Gen<TokenSpec> tok = gen::build<TokenSpec>(
        gen::set(&TokenSpec::gap, full_range<std::uint32_t>(0, 3)),
        gen::set(&TokenSpec::len, full_range<std::uint32_t>(1, 5)),
        gen::set(&TokenSpec::attrs, gen::container<std::vector<std::uint32_t>>(6, full_range<std::uint32_t>(0, 1000))),
        gen::set(&TokenSpec::head, gen::arbitrary<std::uint32_t>()),
        gen::set(&TokenSpec::sent, full_range<std::uint8_t>(0, 3)),
        gen::set(&TokenSpec::conf, gen_confidence()));
    const Gen<ItemSpec> item = gen::build<ItemSpec>(
        gen::set(&ItemSpec::at, full_range<std::uint32_t>(0, 4)), gen::set(&ItemSpec::len, full_range<std::uint32_t>(1, 4)),
        gen::set(&ItemSpec::label, full_range<std::uint32_t>(0, 1000)), gen::set(&ItemSpec::conf, gen_confidence()));
    const Gen<CatSpec> cat = gen::build<CatSpec>(gen::set(&CatSpec::label, full_range<std::uint32_t>(0, 1000)),
                                                 gen::set(&CatSpec::score, gen_confidence()));
    const Gen<GroupSpec> group = gen::build<GroupSpec>(gen::set(&GroupSpec::name, full_range<std::uint32_t>(0, 1000)),
                                                       gen::set(&GroupSpec::spans, gen::container<std::vector<ItemSpec>>(item)));
    return gen::build<DocSpec>(
        gen::set(&DocSpec::text, gen_text()), gen::set(&DocSpec::tokens, gen::container<std::vector<TokenSpec>>(tok)),
        gen::set(&DocSpec::all_conf_one, gen::arbitrary<bool>()), gen::set(&DocSpec::has_ents, gen::arbitrary<bool>()),
        gen::set(&DocSpec::ents, gen::container<std::vector<ItemSpec>>(item)),
        gen::set(&DocSpec::has_cats, with_extras ? gen::arbitrary<bool>() : gen::just(false)),
        gen::set(&DocSpec::cats, with_extras ? gen::container<std::vector<CatSpec>>(cat) : gen::just(std::vector<CatSpec>{})),
        gen::set(&DocSpec::groups,
                 with_extras ? gen::resize(6, gen::container<std::vector<GroupSpec>>(group)) : gen::just(std::vector<GroupSpec>{})));
}

rc::Gen<ContentSpec> gen_content(bool ondb, bool crc) {
    using namespace rc;
    return gen::build<ContentSpec>(
        gen::set(&ContentSpec::ondb, gen::just(ondb)), gen::set(&ContentSpec::crc, gen::just(crc)),
        gen::set(&ContentSpec::vocab, gen_vocab()),
        gen::set(&ContentSpec::docs, ondb ? gen::resize(12, gen::container<std::vector<DocSpec>>(gen_doc(false)))
                                          : gen::container<std::vector<DocSpec>>(1, gen_doc(true))));
}

rc::Gen<ContentSpec> gen_content() {
    using namespace rc;
    return gen::mapcat(gen::pair(gen::arbitrary<bool>(), gen::arbitrary<bool>()),
                       [](const std::pair<bool, bool>& p) { return gen_content(p.first, p.second); });
}

Container to_container(const ContentSpec& s) {
    Container c;
    c.format = s.ondb ? Format::ondb : Format::ondc;
    c.crc = s.crc;
    std::vector<StringId> vocab;
    for (const auto& w : s.vocab) vocab.push_back(c.strings.intern(wtf8(w)));
    auto pick = [&](std::uint32_t k) -> StringId { return vocab.empty() || k % (vocab.size() + 1) == 0 ? 0 : vocab[k % (vocab.size() + 1) - 1]; };
    auto label = [&](std::uint32_t k) -> StringId { return vocab.empty() ? c.strings.intern("L") : vocab[k % vocab.size()]; };
    for (const DocSpec& ds : s.docs) {
        Doc d;
        d.set_text(wtf8(ds.text));
        const std::uint64_t len = d.text_utf16_length();
        std::uint64_t pos = 0;
        std::vector<const TokenSpec*> kept;
        for (const TokenSpec& t : ds.tokens) {
            if (pos + t.gap + t.len > len) break;
            d.tokens.start.push_back(static_cast<std::uint32_t>(pos + t.gap));
            d.tokens.length.push_back(t.len);
            pos += t.gap + t.len;
            kept.push_back(&t);
        }
        const std::size_t n = kept.size();
        for (std::size_t col = 0; col < token_column_count; ++col)
            for (const TokenSpec* t : kept) d.tokens.attrs[col].push_back(pick(t->attrs.size() > col ? t->attrs[col] : 0));
        for (const TokenSpec* t : kept) {
            d.tokens.head.push_back(static_cast<std::int32_t>(t->head % n));
            d.tokens.sent.push_back(static_cast<Sentence>(t->sent % 3));
            d.tokens.conf.push_back(ds.all_conf_one ? 1.0f : t->conf);
        }
        d.has_ents = ds.has_ents;
        if (d.has_ents) {
            std::uint64_t at = 0;
            for (const ItemSpec& e : ds.ents) {
                if (at + e.at + e.len > n) break;
                d.ents.push_back(Entity{static_cast<std::uint32_t>(at + e.at), e.len, label(e.label), e.conf});
                at += e.at + e.len;
            }
        }
        d.has_cats = ds.has_cats;
        std::set<std::string> seen;
        for (const CatSpec& k : ds.cats) {
            if (!d.has_cats) break;
            const StringId l = label(k.label);
            if (!seen.insert(std::string(c.strings.view(l))).second) continue;
            d.cats.push_back(Category{l, k.score});
        }
        std::set<std::string> names;
        for (const GroupSpec& g : ds.groups) {
            const StringId nm = label(g.name);
            if (!names.insert(std::string(c.strings.view(nm))).second) continue;
            SpanGroup grp{nm, {}};
            for (const ItemSpec& sp : g.spans)
                if (n > 0 && sp.len <= n) {
                    const std::uint32_t start = static_cast<std::uint32_t>(sp.at % (n - sp.len + 1));
                    grp.spans.push_back(Span{start, sp.len, label(sp.label), sp.conf});
                }
            d.spans.push_back(std::move(grp));
        }
        c.docs.push_back(std::move(d));
    }
    return c;
}

std::string describe(const Container& c) {
    std::ostringstream os;
    auto str = [&](StringId id) {
        std::string out = "\"";
        for (char16_t u : unicode::utf16_from_wtf8(c.strings.view(id))) {
            if (u >= 0x20 && u < 0x7F && u != '"' && u != '\\')
                out += static_cast<char>(u);
            else {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(u));
                out += buf;
            }
        }
        return out + "\"";
    };
    auto flt = [](float f) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
        return std::string(buf) + (std::signbit(f) && f == 0.0f ? "(-0)" : "");
    };
    os << (c.format == Format::ondc ? "ONDC" : "ONDB") << (c.crc ? " +crc" : "") << ", " << c.docs.size() << " doc(s)\n";
    for (const DocSlice d : c.docs) {
        std::u16string t = unicode::utf16_from_wtf8(d.text);
        os << "  text (" << t.size() << " units):";
        for (char16_t u : t) os << ' ' << std::hex << static_cast<unsigned>(u) << std::dec;
        os << "\n";
        for (std::size_t i = 0; i < d.tokens.size(); ++i) {
            os << "  tok " << i << " [" << d.tokens.start[i] << "+" << d.tokens.length[i] << "] head " << d.tokens.head[i]
               << " sent " << static_cast<int>(d.tokens.sent[i]) << " conf " << flt(d.tokens.conf[i]) << " attrs";
            for (const auto& col : d.tokens.attrs) os << ' ' << str(col[i]);
            os << "\n";
        }
        if (d.has_ents) {
            os << "  ents:";
            for (const Entity& e : d.ents) os << " [" << e.start << "+" << e.length << " " << str(e.label) << " " << flt(e.conf) << "]";
            os << "\n";
        }
        if (d.has_cats) {
            os << "  cats:";
            for (const Category& k : d.cats) os << " [" << str(k.label) << " " << flt(k.score) << "]";
            os << "\n";
        }
        for (const SpanGroupSlice g : d.spans) {
            os << "  group " << str(g.name) << ":";
            for (const Span& s : g.spans) os << " [" << s.start << "+" << s.length << " " << str(s.label) << " " << flt(s.conf) << "]";
            os << "\n";
        }
    }
    return os.str();
}

rc::Gen<Damaged> gen_damaged(const std::vector<std::byte>& valid, const std::vector<std::byte>& other) {
    using namespace rc;
    const std::size_t n = valid.size();
    return gen::mapcat(gen::tuple(full_range(0, 6), full_range<std::size_t>(0, n * 8), gen::arbitrary<std::uint32_t>(),
                                  gen::arbitrary<bool>()),
                       [valid, other, n](const std::tuple<int, std::size_t, std::uint32_t, bool>& t) {
        const auto [op, at_bit, value, fix_crc] = t;
        Damaged d{valid, ""};
        const std::size_t at = at_bit / 8;
        switch (op) {
            case 0:
                d.bytes[at] ^= static_cast<std::byte>(1u << (at_bit % 8));
                d.what = "bit " + std::to_string(at_bit) + " flipped";
                break;
            case 1:
                d.bytes.resize(at);
                d.what = "truncated to " + std::to_string(at) + " bytes";
                break;
            case 2: {  // splice: bytes of the other encoding replace a stretch of this one
                const std::size_t from = other.empty() ? 0 : value % other.size();
                const std::size_t len = other.empty() ? 0 : std::min<std::size_t>(1 + (value >> 16) % 24, other.size() - from);
                const std::size_t cut = std::min<std::size_t>(len, n - at);
                d.bytes.erase(d.bytes.begin() + static_cast<std::ptrdiff_t>(at), d.bytes.begin() + static_cast<std::ptrdiff_t>(at + cut));
                d.bytes.insert(d.bytes.begin() + static_cast<std::ptrdiff_t>(at), other.begin() + static_cast<std::ptrdiff_t>(from),
                               other.begin() + static_cast<std::ptrdiff_t>(from + len));
                d.what = "spliced " + std::to_string(len) + " bytes of another encoding at " + std::to_string(at);
                break;
            }
            case 3: {  // a u32 field (a length or a count) changed
                if (at + 4 <= n) {
                    const std::uint32_t v = value % 3 == 0 ? value : value % 3 == 1 ? (value & 0xFF) : 0xFFFFFFFFu - (value & 0xF);
                    for (int k = 0; k < 4; ++k) d.bytes[at + static_cast<std::size_t>(k)] = static_cast<std::byte>(v >> (8 * k));
                    d.what = "u32 at " + std::to_string(at) + " set to " + std::to_string(v);
                }
                break;
            }
            case 4: {  // a byte (a count or an index varint) overwritten by a varint
                std::vector<std::byte> v;
                fuzz::put_varint(v, value % 5 == 0 ? value : value % 300);
                d.bytes.erase(d.bytes.begin() + static_cast<std::ptrdiff_t>(at));
                d.bytes.insert(d.bytes.begin() + static_cast<std::ptrdiff_t>(at), v.begin(), v.end());
                d.what = "byte " + std::to_string(at) + " replaced by a varint";
                break;
            }
            default:
                d.bytes[at] = static_cast<std::byte>(value & 0xFF);
                d.what = "byte " + std::to_string(at) + " set to " + std::to_string(value & 0xFF);
        }
        // Re-frame: the body length, and the CRC when the flag is set, so damage reaches the body.
        if (fix_crc && op != 1 && d.bytes.size() >= 12 && at >= 12) {
            const bool crc = (static_cast<unsigned>(d.bytes[6]) & 1) != 0;
            const std::size_t body = d.bytes.size() - 12 - (crc ? 4 : 0);
            if (crc && d.bytes.size() >= 16) {
                for (int k = 0; k < 4; ++k) d.bytes[8 + static_cast<std::size_t>(k)] = static_cast<std::byte>(body >> (8 * k));
                const std::uint32_t sum = fuzz::slow_crc32(reinterpret_cast<const std::uint8_t*>(d.bytes.data()), d.bytes.size() - 4);
                for (int k = 0; k < 4; ++k) d.bytes[d.bytes.size() - 4 + static_cast<std::size_t>(k)] = static_cast<std::byte>(sum >> (8 * k));
            } else if (!crc) {
                for (int k = 0; k < 4; ++k) d.bytes[8 + static_cast<std::size_t>(k)] = static_cast<std::byte>(body >> (8 * k));
            }
            d.what += ", body length and CRC re-framed";
        }
        return gen::just(d);
    });
}

rc::Gen<std::vector<std::byte>> gen_huge_counts() {
    using namespace rc;
    using fuzz::put_u32;
    using fuzz::put_u8;
    using fuzz::put_varint;
    return gen::map(gen::tuple(full_range(0, 7), full_range<std::uint32_t>(1u << 20, 0xFFFFFFFFu), gen::arbitrary<bool>()),
                    [](const std::tuple<int, std::uint32_t, bool>& t) {
        const auto [what, big, crc] = t;
        std::vector<std::byte> body;
        auto section = [&](std::uint8_t id, const std::vector<std::byte>& content) {
            put_u8(body, id);
            put_u32(body, static_cast<std::uint32_t>(content.size()));
            body.insert(body.end(), content.begin(), content.end());
        };
        std::vector<std::byte> table, text{std::byte{0}, std::byte{'a'}}, tokens, huge;
        put_varint(table, what == 0 ? big : 0);
        put_varint(huge, big);
        for (int i = 0; i < 64; ++i) put_u8(huge, 1);  // a little padding after the count
        if (what == 0) table.insert(table.end(), huge.begin() + 1, huge.end());
        put_varint(tokens, 0);
        put_u8(tokens, 0);
        const char* magic = what == 3 ? "ONDB" : "ONDC";
        section(1, table);
        if (what == 3) {
            std::vector<std::byte> recs;
            put_u32(recs, big);
            for (int i = 0; i < 16; ++i) put_u8(recs, 0);
            section(5, recs);
        } else {
            section(2, text);
            section(3, what == 1 ? huge : tokens);
            if (what == 2) section(4, huge);
            if (what == 4) section(6, huge);
            if (what == 5) section(7, huge);
        }
        std::vector<std::byte> out = fuzz::frame_container(magic, crc, body);
        if (what == 6) {  // a body length far beyond the bytes
            for (int k = 0; k < 4; ++k) out[8 + static_cast<std::size_t>(k)] = static_cast<std::byte>(big >> (8 * k));
        }
        return out;
    });
}

}  // namespace ond::prop
