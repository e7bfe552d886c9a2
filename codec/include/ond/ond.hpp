// The public API of the ONDC/ONDB reference codec: the content model, its views, and the
// readers, writer and builder. The annotated walk over a container's bytes and its listing are
// tooling, included on their own: ond/inspect.hpp, ond/listing.hpp.
#pragma once

#include "ond/bin_index.hpp"
#include "ond/builder.hpp"
#include "ond/error.hpp"
#include "ond/model.hpp"
#include "ond/reader.hpp"
#include "ond/result.hpp"
#include "ond/stream.hpp"
#include "ond/unicode.hpp"
#include "ond/view.hpp"
#include "ond/writer.hpp"
