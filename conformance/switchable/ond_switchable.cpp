// ond-switchable: the reference codec as a testee, with one reader check or writer rule switched
// off. Test only (never installed): it links ond_codec_switchable, whose switches ond::codec
// does not have. The suite-power test runs the conformance suite against it once per switch.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "ond/internal/check_switch.hpp"
#include "ond/conformance.hpp"
#include "ond/writer_rules.hpp"
#include "suite/reference.hpp"

namespace {

int usage(int status) {
    std::string rules;
    for (const ond::WriterRuleInfo& r : ond::writer_rule_table()) rules += (rules.empty() ? "" : ", ") + std::string(r.id);
    std::fprintf(status ? stderr : stdout,
                 "usage: ond-switchable [--off CODE|RULE] decode|encode|stream|serve\n"
                 "The reference codec's testee operations (stdin to stdout, as in the testee protocol), with\n"
                 "the reader check of error code CODE (e.g. varint.overflow) or the writer rule RULE (%s)\n"
                 "switched off.\n",
                 rules.c_str());
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace ond::conformance;
    std::vector<std::string> args(argv + 1, argv + argc);
    std::size_t i = 0;
    if (i < args.size() && (args[i] == "-h" || args[i] == "--help")) return usage(0);
    if (i + 1 < args.size() && args[i] == "--off") {
        if (!ond::detail::switch_off(args[i + 1])) {
            std::fprintf(stderr, "ond-switchable: '%s' is neither an error code nor a writer rule\n", args[i + 1].c_str());
            return 2;
        }
        i += 2;
    }
    if (i + 1 != args.size()) return usage(2);
    const std::string& op = args[i];
    if (op == "serve") {
        return serve();
    }
    Op which;
    if (op == "decode")
        which = Op::decode;
    else if (op == "encode")
        which = Op::encode;
    else if (op == "stream")
        which = Op::stream;
    else
        return usage(2);
    std::freopen(nullptr, "rb", stdin);
    const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    const RefAnswer a = reference_answer(which, input);
    std::fwrite(a.out.data(), 1, a.out.size(), stdout);
    std::fflush(stdout);
    if (a.accept) return 0;
    if (!a.code.empty()) std::fprintf(stderr, "error: %s\n", a.code.c_str());
    std::fprintf(stderr, "%s\n", a.message.c_str());
    return 1;
}
