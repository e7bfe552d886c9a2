// The whole public API of the ONDC/ONDB reference codec.
#pragma once

#include "ond/builder.hpp"
#include "ond/error.hpp"
#include "ond/inspect.hpp"
#include "ond/listing.hpp"
#include "ond/model.hpp"
#include "ond/reader.hpp"
#include "ond/result.hpp"
#include "ond/stream.hpp"
#include "ond/unicode.hpp"
#include "ond/view.hpp"
#include "ond/writer.hpp"
