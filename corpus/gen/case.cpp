#include "case.hpp"

#include <stdexcept>

#include "ond/writer.hpp"

namespace ond::corpus::gen {

const char* to_string(Kind k) {
    switch (k) {
        case Kind::decode: return "decode";
        case Kind::stream: return "stream";
        case Kind::encode: return "encode";
    }
    return "?";
}

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::valid: return "valid";
        case Verdict::noncanonical: return "noncanonical";
        case Verdict::invalid: return "invalid";
        case Verdict::impl: return "impl";
    }
    return "?";
}

namespace {
std::string ext_of(const Buf& b) {
    return b.size() >= 4 && b[0] == 'O' && b[1] == 'N' && b[2] == 'D' && b[3] == 'B' ? "ondb" : "ondc";
}
}  // namespace

Case& Registry::add(std::string name, Rules rules, std::string desc) {
    if (area_.empty()) throw std::logic_error("case " + name + " declared before its area");
    Case& c = cases_.emplace_back();
    c.area = area_;
    c.name = std::move(name);
    c.rules = std::move(rules);
    c.description = std::move(desc);
    return c;
}

void Registry::valid(std::string name, Rules rules, std::string desc, const Container& content) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.verdict = Verdict::valid;
    c.folder = "valid";
    try {
        c.input = to_buf(ond::encode(content));
    } catch (const std::exception& e) {
        throw std::runtime_error("valid case " + area_ + "/" + c.name + ": the reference cannot write it: " + e.what());
    }
    c.ext = content.format == Format::ondb ? "ondb" : "ondc";
    c.expected = content;
}

void Registry::noncanonical(std::string name, Rules rules, std::string desc, Buf bytes, const Container& expected) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.verdict = Verdict::noncanonical;
    c.folder = "noncanonical";
    c.ext = ext_of(bytes);
    c.input = std::move(bytes);
    c.expected = expected;
}

void Registry::invalid(std::string name, Rules rules, std::string desc, Buf bytes, std::string code) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.verdict = Verdict::invalid;
    c.folder = "invalid";
    c.ext = ext_of(bytes);
    c.input = std::move(bytes);
    c.error = std::move(code);
}

void Registry::single_fault(std::string name, Rules rules, std::string desc, Buf bytes, std::string code) {
    invalid(std::move(name), std::move(rules), std::move(desc), std::move(bytes), code);
    cases_.back().isolates = std::move(code);
}

void Registry::mark_single_fault(const std::string& area, const std::string& name) {
    for (Case& c : cases_)
        if (c.area == area && c.name == name) {
            if (c.error.empty()) throw std::logic_error("single-fault case " + area + "/" + name + " has no error code");
            c.isolates = c.error;
            return;
        }
    throw std::logic_error("no case " + area + "/" + name + " to mark as single-fault");
}

void Registry::impl(std::string name, Rules rules, std::string desc, Buf bytes, std::string code,
                    Container if_accepted, std::optional<ReadAlike> read_alike) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.verdict = Verdict::impl;
    c.folder = "impl";
    c.ext = ext_of(bytes);
    c.input = std::move(bytes);
    c.error = std::move(code);
    c.if_accepted = std::move(if_accepted);
    c.read_alike = std::move(read_alike);
}

void Registry::stream(std::string name, Verdict v, Rules rules, std::string desc, Buf bytes,
                      std::vector<Container> read, std::string code, std::vector<Container> if_accepted) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.kind = Kind::stream;
    c.verdict = v;
    c.folder = to_string(v);
    c.ext = "stream";
    c.input = std::move(bytes);
    c.stream_read = std::move(read);
    c.error = std::move(code);
    c.stream_if_accepted = std::move(if_accepted);
}

void Registry::encode(std::string name, Rules rules, std::string desc, const Container& content) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.kind = Kind::encode;
    c.verdict = Verdict::valid;
    c.folder = "encode";
    c.content = content;
    c.ext = content.format == Format::ondb ? "ondb" : "ondc";
}

void Registry::refuse(std::string name, Rules rules, std::string desc, const Container& content, std::string code) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.kind = Kind::encode;
    c.verdict = Verdict::invalid;
    c.folder = "encode-refuse";
    c.content = content;
    c.error = std::move(code);
}

void Registry::encode_impl(std::string name, Rules rules, std::string desc, const Container& content, std::string code) {
    Case& c = add(std::move(name), std::move(rules), std::move(desc));
    c.kind = Kind::encode;
    c.verdict = Verdict::impl;
    c.folder = "encode-impl";
    c.content = content;
    c.if_accepted = content;
    c.error = std::move(code);
    c.ext = content.format == Format::ondb ? "ondb" : "ondc";
}

std::vector<Case> all_cases() {
    Registry r;
    void (*const areas[])(Registry&) = {
        add_header_cases,  add_crc_cases,      add_varint_cases,     add_string_cases, add_table_cases,
        add_section_cases, add_text_cases,     add_tokens_cases,     add_entities_cases, add_categories_cases,
        add_spans_cases,   add_bin_cases,      add_stream_cases,     add_encode_cases, add_document_cases,
        add_rulings_cases,
        add_single_fault_cases,  // last: it also marks single-fault cases of the other areas
    };
    for (auto* f : areas) f(r);
    return std::move(r.cases());
}

}  // namespace ond::corpus::gen
