// inspect(): an annotated walk over the bytes with decode()'s checks.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

std::vector<InspectEvent> events_of(const std::vector<std::uint8_t>& bytes, std::optional<Caught>* err = nullptr) {
    std::vector<InspectEvent> ev;
    auto e = catch_error([&] { inspect(view(bytes), [&](const InspectEvent& x) { ev.push_back(x); }); });
    if (err) {
        *err = e;
    } else {
        EXPECT_FALSE(e) << (e ? e->what : "");
    }
    return ev;
}

const InspectEvent* find(const std::vector<InspectEvent>& ev, std::string_view name) {
    for (const auto& e : ev)
        if (e.name == name) return &e;
    return nullptr;
}

// Enter/leave balance, depths, and every field and group inside the input and inside the group
// that encloses it.
void check_structure(const std::vector<InspectEvent>& ev, std::size_t input_size) {
    struct Open {
        std::uint64_t begin, end;
    };
    std::vector<Open> stack;
    for (const auto& e : ev) {
        if (e.kind == InspectEvent::Kind::leave) {
            ASSERT_FALSE(stack.empty()) << "leave without enter";
            stack.pop_back();
            EXPECT_EQ(e.depth, static_cast<int>(stack.size()));
            continue;
        }
        EXPECT_EQ(e.depth, static_cast<int>(stack.size())) << e.name;
        EXPECT_LE(e.offset + e.length, input_size) << e.name;
        if (!stack.empty()) {
            EXPECT_GE(e.offset, stack.back().begin) << e.name;
            EXPECT_LE(e.offset + e.length, stack.back().end) << e.name;
        }
        if (e.kind == InspectEvent::Kind::enter) stack.push_back({e.offset, e.offset + e.length});
    }
    EXPECT_TRUE(stack.empty()) << "unbalanced enter";
}

TEST(Inspect, HeaderFields) {
    const auto bytes = HelloOndc().c.build(true);
    const auto ev = events_of(bytes);
    ASSERT_GE(ev.size(), 4u);
    EXPECT_EQ(ev[0].name, "header.magic");
    EXPECT_EQ(ev[0].offset, 0u);
    EXPECT_EQ(ev[0].length, 4u);
    EXPECT_EQ(ev[0].value, "ONDC");
    const InspectEvent* version = find(ev, "header.version");
    ASSERT_TRUE(version);
    EXPECT_EQ(version->offset, 4u);
    const InspectEvent* flags = find(ev, "header.flags");
    ASSERT_TRUE(flags);
    EXPECT_EQ(flags->offset, 6u);
    const InspectEvent* len = find(ev, "header.body-length");
    ASSERT_TRUE(len);
    EXPECT_EQ(len->offset, 8u);
    EXPECT_EQ(len->value, std::to_string(bytes.size() - 16));
    const InspectEvent* crc = find(ev, "trailer.crc32");
    ASSERT_TRUE(crc);
    EXPECT_EQ(crc->offset, bytes.size() - 4);
    EXPECT_EQ(crc->length, 4u);
    check_structure(ev, bytes.size());
}

TEST(Inspect, FieldsAtTheirOffsets) {
    HelloOndc h({"PER"});
    const std::size_t ents_at = h.c.add(4, entities_content({{1, 1, 1, 0.5f}}));
    h.c.add(6, categories_content({{1, 0.25f}}));
    const auto bytes = h.c.build();
    const auto ev = events_of(bytes);
    check_structure(ev, bytes.size());
    const InspectEvent* head = find(ev, "tokens.head[1]");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->offset, h.tokens_at + h.tok.head[1]);
    EXPECT_EQ(head->length, 1u);
    EXPECT_NE(head->value.find("-1"), std::string::npos) << head->value;
    const InspectEvent* count = find(ev, "tokens.count");
    ASSERT_TRUE(count);
    EXPECT_EQ(count->offset, h.tokens_at);
    EXPECT_EQ(count->value, "2");
    const InspectEvent* ent = find(ev, "entities[0]");
    ASSERT_TRUE(ent);
    EXPECT_EQ(ent->offset, ents_at + 1);
    EXPECT_EQ(ent->length, 7u);
    const InspectEvent* s = find(ev, "strings[1]");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->offset, h.strings_at + 1);
    EXPECT_NE(s->value.find("PER"), std::string::npos);
    // Every known section is entered once, in order.
    std::vector<std::uint64_t> sections;
    for (const auto& e : ev)
        if (e.kind == InspectEvent::Kind::enter && e.name.rfind("section ", 0) == 0) sections.push_back(e.offset);
    EXPECT_EQ(sections, (std::vector<std::uint64_t>{h.strings_at - kFrame, h.text_at - kFrame, h.tokens_at - kFrame,
                                                    ents_at - kFrame, ents_at + 8}));
}

TEST(Inspect, UnknownSectionIsReportedAndSkipped) {
    HelloOndc h;
    const std::size_t at = h.c.add(9, B{}.raw("abc"));
    const auto bytes = h.c.build();
    const auto ev = events_of(bytes);
    bool seen = false;
    for (const auto& e : ev)
        if (e.offset == at - kFrame && e.kind == InspectEvent::Kind::field) {
            seen = true;
            EXPECT_EQ(e.length, kFrame + 3);
        }
    EXPECT_TRUE(seen);
}

TEST(Inspect, BinRecords) {
    Ctr c("ONDB");
    c.add(1, strings_content({}));
    B rec;
    rec.section(2, text_content("Hi"));
    rec.section(3, tokens_content({{0, 2}}));
    const std::size_t s5 = c.add(5, B{}.u32(2).u32(static_cast<std::uint32_t>(rec.size())).append(rec)
                                           .u32(static_cast<std::uint32_t>(rec.size())).append(rec));
    const auto bytes = c.build(true);
    const auto ev = events_of(bytes);
    check_structure(ev, bytes.size());
    const InspectEvent* count = find(ev, "records.count");
    ASSERT_TRUE(count);
    EXPECT_EQ(count->offset, s5);
    EXPECT_EQ(count->value, "2");
    const InspectEvent* r1 = find(ev, "record 1");
    ASSERT_TRUE(r1);
    EXPECT_EQ(r1->kind, InspectEvent::Kind::enter);
    EXPECT_EQ(r1->offset, s5 + 4 + 4 + rec.size());
    EXPECT_EQ(r1->length, 4 + rec.size());
}

TEST(Inspect, FaultThrowsTheDecodeErrorAfterWhatCameBefore) {
    HelloOndc h;
    auto bytes = h.c.build();
    bytes[h.tokens_at + h.tok.head[1]] = 2;  // head one past the end
    std::optional<Caught> err;
    const auto ev = events_of(bytes, &err);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->code, "tokens.head-out-of-range");
    EXPECT_EQ(err->offset, h.tokens_at + h.tok.head[1]);
    EXPECT_TRUE(find(ev, "tokens.head[0]"));
    EXPECT_FALSE(find(ev, "tokens.head[1]"));
    for (const auto& e : ev) {
        if (e.kind == InspectEvent::Kind::field) {
            EXPECT_LE(e.offset + e.length, err->offset) << e.name;
        }
    }
}

TEST(Inspect, ValuesForPeople) {
    // A UTF-16 table entry holding a lone surrogate, a token confidence and a -0.0.
    Ctr c;
    c.add(1, B{}.varint(1).str16(std::u16string{u'A', 0xD800}));
    c.add(2, text_content("Hello world"));
    c.add(3, tokens_content(hello_tokens(), std::vector<float>{0.5f, 1.0f}));
    c.add(4, entities_content({{0, 1, 1, -0.0f}}));
    const auto bytes = c.build();
    const auto ev = events_of(bytes);
    const InspectEvent* s = find(ev, "strings[1]");
    ASSERT_TRUE(s);
    EXPECT_NE(s->value.find("\\uD800"), std::string::npos) << s->value;
    EXPECT_NE(s->value.find("UTF-16"), std::string::npos) << s->value;
    const InspectEvent* conf = find(ev, "tokens.conf[0]");
    ASSERT_TRUE(conf);
    EXPECT_EQ(conf->value, "0.5");
    const InspectEvent* ent = find(ev, "entities[0]");
    ASSERT_TRUE(ent);
    EXPECT_NE(ent->value.find("-0.0"), std::string::npos) << ent->value;
}

}  // namespace
}  // namespace ond
