// The escaping of testee text lives in the library's public header, which the `ond` tool uses too.
#pragma once

#include "ond/text_escape.hpp"
