#include "suite/reference.hpp"

#include <algorithm>
#include <chrono>

#include "ond/content_json.hpp"
#include "ond/ond.hpp"

namespace ond::conformance {

// ---- reference answers ----------------------------------------------------------------------

namespace {

RefAnswer from_error(const ond::Error& e) {
    RefAnswer a;
    a.accept = false;
    a.code = std::string(e.code());
    a.message = e.what();
    a.impl_defined = e.verdict() == ErrorVerdict::implementation_defined;
    a.offset = e.offset();
    a.path = e.path();
    return a;
}

// Thrown by the capped sink: the JSON would pass the cap.
struct JsonCapReached {};

// Appends content JSON to `out` and stops (JsonCapReached) before it passes `cap` bytes.
void append_capped(const Container& c, std::string& out, std::size_t cap) {
    json::write_json(c, [&](std::string_view piece) {
        if (piece.size() > cap - std::min(cap, out.size())) throw JsonCapReached{};
        out.append(piece);
    });
}

RefAnswer too_large(std::size_t cap) {
    RefAnswer a;
    a.too_large = true;
    a.message = "the reference's content JSON for this input exceeds " + std::to_string(cap) + " bytes";
    return a;
}

}  // namespace

std::size_t reference_json_cap(std::size_t input_size) { return (std::size_t{1} << 20) + 64 * input_size; }

RefAnswer reference_decode(std::string_view bytes) { return reference_decode(bytes, reference_json_cap(bytes.size())); }

RefAnswer reference_decode(std::string_view bytes, std::size_t json_cap) {
    try {
        Container c = ond::decode(as_bytes(bytes.data(), bytes.size()));
        RefAnswer a;
        a.accept = true;
        append_capped(c, a.out, json_cap);
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
    } catch (const JsonCapReached&) {
        return too_large(json_cap);
    }
}

RefAnswer reference_encode(std::string_view content_json) {
    Container c;
    try {
        c = json::from_json(content_json);
    } catch (const json::JsonError& e) {
        RefAnswer a;
        a.code = "";
        a.message = std::string("not content JSON: ") + e.what();
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
    }
    try {
        auto bytes = ond::encode(c);
        RefAnswer a;
        a.accept = true;
        a.out.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return a;
    } catch (const ond::Error& e) {
        return from_error(e);
    }
}

RefAnswer reference_stream(std::string_view bytes) {
    RefAnswer a;
    StreamReader reader(as_bytes(bytes.data(), bytes.size()));
    const std::size_t cap = reference_json_cap(bytes.size());
    try {
        while (auto c = reader.next()) {
            append_capped(*c, a.out, cap);
            if (a.out.size() == cap) throw JsonCapReached{};
            a.out += '\n';
        }
        a.accept = true;
    } catch (const ond::Error& e) {
        RefAnswer r = from_error(e);
        r.out = std::move(a.out);
        return r;
    } catch (const JsonCapReached&) {
        return too_large(cap);
    }
    return a;
}

RefAnswer reference_answer(Op op, std::string_view input) {
    switch (op) {
        case Op::decode: return reference_decode(input);
        case Op::encode: return reference_encode(input);
        case Op::stream: return reference_stream(input);
    }
    return {};
}

// ---- the reference as a testee ----------------------------------------------------------------

namespace {

class ReferenceTestee final : public Testee {
public:
    bool supports(Op) const override { return true; }
    using Testee::run;
    TesteeResult run(Op op, const Input& input, unsigned, const RunContext&) override {
        TesteeResult o;
        if (input.next) {
            o.status = Answer::not_run;
            o.detail = "an input of " + std::to_string(input.size) + " bytes given piece by piece is too large to run in-process";
            return o;
        }
        auto t0 = std::chrono::steady_clock::now();
        RefAnswer a = reference_answer(op, input.held);
        o.status = a.accept ? Answer::accept : a.too_large ? Answer::output : Answer::reject;
        if (a.too_large) o.detail = a.message;
        o.out = std::move(a.out);
        o.code = std::move(a.code);
        if (!a.accept && a.offset != no_offset) o.offset = a.offset;
        o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return o;
    }
    std::string describe() const override { return "reference codec (in-process)"; }
};

}  // namespace

std::unique_ptr<Testee> make_reference_testee() { return std::make_unique<ReferenceTestee>(); }

}  // namespace ond::conformance
