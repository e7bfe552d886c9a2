// Validation as the bytes arrive against validation of the whole input, over every binary input of
// the golden corpus (valid and invalid) fed in random chunk sizes: validate_arriving() (ond
// validate of a pipe) against validate(), and StreamReader::skip_next() (validate --stream)
// against next() reading the whole stream. Same verdict, code and offset, with one difference
// by design: validate() and next() hold the whole container and see its size before its
// sections, where reading as the bytes arrive meets the end of the input where it is. A fault
// met before that end is then the fault the whole-input reader gives for the same container
// made the size it declares (cut there, or zero-padded to it).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ond/ond.hpp"

namespace stream_validate_test {

namespace fs = std::filesystem;

struct Verdict {
    bool ok = true;
    std::string code;
    std::uint64_t offset = 0;
    std::uint64_t containers = 0;  // streams: read before the end
    std::uint64_t tokens = 0;      // accepted: over the documents
};
bool operator==(const Verdict& a, const Verdict& b) {
    return a.ok == b.ok && a.code == b.code && a.offset == b.offset && a.containers == b.containers && a.tokens == b.tokens;
}
std::ostream& operator<<(std::ostream& os, const Verdict& v) {
    if (v.ok) return os << "ok (" << v.containers << " containers, " << v.tokens << " tokens)";
    return os << v.code << " at " << v.offset << " after " << v.containers << " containers";
}

template <class F>
Verdict verdict_of(F&& f) {
    Verdict v;
    try {
        f(v);
    } catch (const ond::Error& e) {
        v.ok = false;
        v.code = std::string(e.code());
        v.offset = e.offset();
        v.tokens = 0;
    }
    return v;
}

// A source that hands out the bytes in chunks of 1 to `most` bytes, drawn at random.
struct RandomChunks {
    const std::vector<std::byte>& bytes;
    std::mt19937_64& rng;
    std::size_t most;
    std::size_t pos = 0;
    ond::ReadFn fn() {
        return [this](std::byte* dst, std::size_t max) -> std::size_t {
            const std::size_t want = std::uniform_int_distribution<std::size_t>(1, most)(rng);
            const std::size_t n = std::min({max, want, bytes.size() - pos});
            if (n) std::memcpy(dst, bytes.data() + pos, n);
            pos += n;
            return n;
        };
    }
};

Verdict whole_buffer(const std::vector<std::byte>& b) {
    return verdict_of([&](Verdict& v) {
        const ond::Summary s = ond::validate(b);
        v.containers = 1;
        v.tokens = s.tokens;
    });
}

Verdict arriving(const std::vector<std::byte>& b, std::mt19937_64& rng, std::size_t most) {
    RandomChunks src{b, rng, most};
    return verdict_of([&](Verdict& v) {
        const ond::Summary s = ond::validate_arriving(src.fn());
        v.containers = 1;
        v.tokens = s.tokens;
    });
}

// next() over the whole stream (one read); `last_start` is where the container it stopped in began.
Verdict stream_whole(const std::vector<std::byte>& b, std::uint64_t* last_start = nullptr) {
    std::size_t pos = 0;
    ond::StreamReader r([&](std::byte* dst, std::size_t max) -> std::size_t {
        const std::size_t n = std::min(max, b.size() - pos);
        if (n) std::memcpy(dst, b.data() + pos, n);
        pos += n;
        return n;
    });
    std::uint64_t tokens = 0;
    Verdict v = verdict_of([&](Verdict&) {
        while (auto c = r.next())
            for (std::size_t i = 0; i < c->docs.size(); ++i) tokens += c->docs[i].tokens.size();
    });
    v.containers = r.containers_read();
    if (v.ok) v.tokens = tokens;
    if (last_start) *last_start = r.offset();
    return v;
}

Verdict stream_skipping(const std::vector<std::byte>& b, std::mt19937_64& rng, std::size_t most) {
    RandomChunks src{b, rng, most};
    ond::StreamReader r(src.fn());
    std::uint64_t tokens = 0;
    Verdict v = verdict_of([&](Verdict&) {
        ond::StreamReader::Skipped s;
        while (r.skip_next(s)) tokens += s.tokens;
    });
    v.containers = r.containers_read();
    if (v.ok) v.tokens = tokens;
    return v;
}

std::vector<std::byte> slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    const std::string s((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::byte> b(s.size());
    if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());  // an empty file: no buffer to copy to
    return b;
}

// The size the first 12 bytes declare, when they are a header.
std::optional<std::uint64_t> declared(const std::vector<std::byte>& b) {
    return ond::declared_size(std::span<const std::byte>(b.data(), std::min<std::size_t>(b.size(), 12)));
}

// The container resized to the size it declares: cut there, or zero-padded (at most 64 MiB).
std::optional<std::vector<std::byte>> made_whole(std::vector<std::byte> b, std::uint64_t size) {
    if (size > b.size() + (std::uint64_t{64} << 20)) return std::nullopt;
    b.resize(static_cast<std::size_t>(size));
    return b;
}

struct Inputs {
    std::vector<std::pair<std::string, fs::path>> containers, streams;
};
Inputs corpus_inputs() {
    const fs::path root(OND_SOURCE_CORPUS);
    std::ifstream in(root / "manifest.json");
    const nlohmann::json m = nlohmann::json::parse(in);
    Inputs out;
    for (const auto& c : m.at("cases")) {
        const std::string kind = c.at("kind");
        if (kind == "decode") out.containers.emplace_back(c.at("id"), root / std::string(c.at("input")));
        if (kind == "stream") out.streams.emplace_back(c.at("id"), root / std::string(c.at("input")));
    }
    return out;
}

constexpr std::size_t chunk_bounds[] = {1, 7, 4096, std::size_t{1} << 21};

TEST(StreamValidate, OneContainerAsItArrivesGivesValidatesVerdict) {
    const Inputs inputs = corpus_inputs();
    ASSERT_GT(inputs.containers.size(), 300u);  // the corpus is there
    std::mt19937_64 rng(27);
    std::size_t size_faults = 0, met_first = 0;
    for (const auto& [id, path] : inputs.containers) {
        const std::vector<std::byte> b = slurp(path);
        const Verdict whole = whole_buffer(b);
        Verdict expected = whole;
        std::optional<Verdict> or_else;  // a second verdict that is right for a container cut short
        if (!whole.ok && (whole.code == "container.trailing-bytes" || whole.code == "container.truncated")) {
            ++size_faults;
            const auto sized = made_whole(b, *declared(b));
            const std::optional<Verdict> right_size = sized ? std::optional<Verdict>(whole_buffer(*sized)) : std::nullopt;
            if (whole.code == "container.trailing-bytes") {
                ASSERT_TRUE(right_size) << id;
                if (!right_size->ok) expected = *right_size;  // all of the container came before the extra bytes
            } else if (right_size && !right_size->ok && right_size->offset <= b.size()) {
                or_else = right_size;  // the fault, if its section came whole before the end
            }
        }
        for (std::size_t most : chunk_bounds) {
            const Verdict got = arriving(b, rng, most);
            if (or_else && got == *or_else) {
                ++met_first;
                continue;
            }
            EXPECT_EQ(got, expected) << id << ", chunks of at most " << most << " bytes; validate(): " << whole;
        }
    }
    EXPECT_GT(size_faults, 0u);  // the exception is exercised,
    EXPECT_GT(met_first, 0u);    // and met (invalid/header/body-length-one-more: section.truncated at its end)
}

TEST(StreamValidate, SkipNextAsTheBytesArriveGivesNextsVerdict) {
    const Inputs inputs = corpus_inputs();
    ASSERT_GT(inputs.streams.size(), 15u);
    std::vector<std::pair<std::string, std::vector<std::byte>>> streams;
    for (const auto& [id, path] : inputs.streams) streams.emplace_back(id, slurp(path));
    // And every single-container input, as a stream of one.
    for (const auto& [id, path] : inputs.containers) streams.emplace_back(id + " (as a stream)", slurp(path));
    std::mt19937_64 rng(26);
    for (const auto& [id, b] : streams) {
        std::uint64_t last = 0;
        const Verdict whole = stream_whole(b, &last);
        Verdict expected = whole;
        std::optional<Verdict> or_else;
        if (!whole.ok && whole.code == "stream.truncated" && b.size() - last >= 12) {
            // Cut inside a container: a fault in a part of it that came whole is met first.
            const std::vector<std::byte> rest(b.begin() + static_cast<std::ptrdiff_t>(last), b.end());
            if (const auto size = declared(rest)) {
                if (const auto sized = made_whole(rest, *size)) {
                    Verdict v = whole_buffer(*sized);
                    if (!v.ok) {
                        v.offset += last;
                        v.containers = whole.containers;
                        or_else = v;
                    }
                }
            }
        }
        for (std::size_t most : chunk_bounds) {
            const Verdict got = stream_skipping(b, rng, most);
            if (or_else && got == *or_else) continue;
            EXPECT_EQ(got, expected) << id << ", chunks of at most " << most << " bytes";
        }
    }
}

// The exception above, built on purpose: a container cut after a fault. The whole-input readers
// report the size first (R28); read as it arrives, the fault comes first, with the offset the
// whole-input reader gives once the container has its declared size.
TEST(StreamValidate, AFaultBeforeTheCutIsMetFirst) {
    ond::Container c;
    ond::Doc d;
    d.set_text("hello");
    c.docs.push_back(d);
    std::vector<std::byte> b = ond::encode(c);
    // Section 1 is first at byte 12; its id becomes 9, an unknown id: the string table is missing.
    ASSERT_EQ(b[12], std::byte{1});
    b[12] = std::byte{9};
    const Verdict fault = whole_buffer(b);
    ASSERT_FALSE(fault.ok);
    EXPECT_EQ(fault.code, "section.missing");
    EXPECT_EQ(fault.offset, 12u);
    std::vector<std::byte> cut(b.begin(), b.end() - 1);
    EXPECT_EQ(whole_buffer(cut).code, "container.truncated");
    std::mt19937_64 rng(1);
    for (std::size_t most : chunk_bounds) {
        EXPECT_EQ(arriving(cut, rng, most), fault) << most;
        Verdict in_stream = fault;
        in_stream.containers = 0;
        EXPECT_EQ(stream_skipping(cut, rng, most), in_stream) << most;
        EXPECT_EQ(stream_whole(cut).code, "stream.truncated");
    }
    std::vector<std::byte> longer = b;
    longer.push_back(std::byte{0});
    EXPECT_EQ(whole_buffer(longer).code, "container.trailing-bytes");
    EXPECT_EQ(arriving(longer, rng, 3), fault);
    // A sound container followed by one byte: the trailing byte is met after all of it.
    std::vector<std::byte> good = ond::encode(c);
    good.push_back(std::byte{0});
    const Verdict trailing = arriving(good, rng, 5);
    EXPECT_EQ(trailing.code, "container.trailing-bytes");
    EXPECT_EQ(trailing.offset, good.size() - 1);
    EXPECT_EQ(trailing, whole_buffer(good));
}

}  // namespace stream_validate_test
