// The codec's internal surface: the few parts of the codec's implementation that the project's
// other folders (fuzz/, corpus/, conformance/, tests/) may use beyond the public API
// (codec/include/ond/). This header lists them; it declares nothing itself.
//
// Reach it through the CMake target ond::codec_internal (the codec plus this folder on the include
// path; ond::framing adds the framing's code, and the test-only ond_codec_switchable carries the
// same folder). Nothing else of codec/src is on any include path outside codec/, none of this is
// installed or exported, and scripts/check_codec_surface.py (CTest codec.internal-surface) fails
// when a file outside codec/ includes a codec/src header, a CMake file outside codec/ names
// codec/src, or a header here is missing from the list below. A new entry is a deliberate choice:
// add it here with what it is for and who uses it; anything else is reached through the public API.
//
// ond/internal/framing.hpp       A container's framing as an editable tree (ond::framing: Layout,
//                                Section, the varint/u32/CRC helpers); link ond::framing. The fuzz
//                                mutator and API checks, the container harness; the runner's
//                                derived cases, mutator and fuzz command; the faulty test adapters.
// ond/internal/check_switch.hpp  Relaxed reading (RelaxedChecks, reader_check_of) for the corpus
//                                generator's if-accepted cross-check, the runner's writer checks
//                                and the test adapters; the check and rule switches (switch_off,
//                                OND_CHECK_SWITCHES) for the switchable reference and fuzz power.
// ond/internal/limits.hpp        The format's size limits (max_tokens, the writer's field limits):
//                                the fuzz mutator's boundary values, the runner's token-count case,
//                                the hostile-input limit tests.
// ond/internal/sections.hpp      The section entry points (decode_*_section<Mode>, the frame,
// ond/internal/cursor.hpp        header and trailer checks) and the bounded Cursor they read
//                                with: the per-section fuzz harnesses and their support code.
// ond/internal/doc_list_build.hpp  The hooks that fill a DocList's last document in place
//                                (detail::build): the section harnesses that decode one section
//                                into a document of their own.
// ond/internal/fault.hpp         How the codec raises an error with or without exceptions; needed
//                                by the two above, not used on its own outside codec/.
// ond/internal/varint_level.hpp  The tokens section's varint fast-path levels: the fuzz harnesses
//                                that run or compare each level.
// ond/internal/outcomes.hpp      Every outcome of some bytes through the non-throwing API, as
//                                lines: the codec's codec_outcomes program and the `noexcept`
//                                fuzz harness, which must print the same lines.
#pragma once
