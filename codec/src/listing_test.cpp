// The listing formatter (ond/listing.hpp): the line layout of one event.
#include "ond/listing.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ond {
namespace {

using namespace ond::test;

TEST(Listing, LongItemsAreCut) {
    ond::InspectEvent ev;
    ev.offset = 2;
    ev.length = 20;
    ev.depth = 1;
    ev.name = "x";
    ev.value = "v";
    std::vector<std::uint8_t> data(22);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
    const std::string line = ond::format_event(ev, view(data), 0x100);
    // 8-digit offset, the first 16 bytes and the full length, padded to the name column, then
    // two spaces per level of depth.
    EXPECT_EQ(line, "00000102  02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 ... (20 bytes)    x: v");
    ev.length = 2;
    ev.depth = 0;
    ev.value.clear();
    EXPECT_EQ(ond::format_event(ev, view(data)), "00000002  02 03" + std::string(64 - 5, ' ') + "x");
}

}  // namespace
}  // namespace ond
