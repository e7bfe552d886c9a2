// The annotated listings kept beside the cases come from the ond tool's formatter.
#include "generator.hpp"
#include "ond/listing.hpp"

namespace ond::corpus::gen {

std::string listing_of(const Buf& bytes) {
    bool ok = false;
    return ond::format_listing(ond::as_bytes(bytes.data(), bytes.size()), ok);
}

std::string stream_listing_of(const Buf& bytes) {
    bool ok = false;
    return ond::format_stream_listing(ond::as_bytes(bytes.data(), bytes.size()), ok);
}

}  // namespace ond::corpus::gen
