#include "suite/large_answer.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <istream>
#include <mutex>
#include <optional>
#include <streambuf>
#include <thread>

#include <nlohmann/json.hpp>

#include "ond/text_escape.hpp"

namespace ond::conformance {

namespace {

// Bytes handed from feed() (the worker that reads the testee) to the parser's thread, at most
// `cap` queued: a fast testee waits for the parser instead of filling the runner's memory.
class ByteQueue : public std::streambuf {
public:
    // False when the parser has stopped (it found the answer wrong or complete).
    bool push(std::string_view b) {
        std::unique_lock lock(m_);
        room_.wait(lock, [&] { return queued_ < cap || stopped_; });
        if (stopped_) return false;
        q_.emplace_back(b);
        queued_ += b.size();
        ready_.notify_one();
        return true;
    }
    void close() {
        std::lock_guard lock(m_);
        closed_ = true;
        ready_.notify_one();
    }
    void stop() {
        std::lock_guard lock(m_);
        stopped_ = true;
        q_.clear();
        queued_ = 0;
        room_.notify_all();
    }

protected:
    int_type underflow() override {
        std::unique_lock lock(m_);
        ready_.wait(lock, [&] { return !q_.empty() || closed_; });
        if (q_.empty()) return traits_type::eof();
        cur_ = std::move(q_.front());
        q_.pop_front();
        queued_ -= cur_.size();
        room_.notify_all();
        setg(cur_.data(), cur_.data(), cur_.data() + cur_.size());
        return traits_type::to_int_type(cur_[0]);
    }

private:
    static constexpr std::size_t cap = std::size_t{4} << 20;
    std::mutex m_;
    std::condition_variable ready_, room_;
    std::deque<std::string> q_;
    std::size_t queued_ = 0;
    bool closed_ = false, stopped_ = false;
    std::string cur_;
};

// What the parser would hold: one string or number at a time. Counted before it gets the bytes,
// so that no token longer than the content can have reaches it.
class TokenLengths {
public:
    explicit TokenLengths(std::uint64_t max_string) : max_string_(max_string) {}
    // Empty while every string and number fits; else why not.
    std::string scan(std::string_view b) {
        for (char ch : b) {
            if (in_string_) {
                if (hex_left_ > 0) --hex_left_;
                else if (escaped_) escaped_ = false, hex_left_ = ch == 'u' ? 4 : 0;
                else if (ch == '\\') escaped_ = true, ++string_len_;
                else if (ch == '"') in_string_ = false;
                else ++string_len_;
                if (string_len_ > max_string_)
                    return "a string of more than " + std::to_string(max_string_) + " characters, longer than any the content holds";
                continue;
            }
            if (ch == '"') {
                in_string_ = true, string_len_ = 0;
                number_len_ = 0;
            } else if ((ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E') {
                if (++number_len_ > max_number)
                    return "a number of more than " + std::to_string(max_number) + " characters, longer than any the content holds";
            } else {
                number_len_ = 0;
            }
        }
        return {};
    }

private:
    static constexpr std::uint64_t max_number = 64;
    std::uint64_t max_string_;
    bool in_string_ = false, escaped_ = false;
    int hex_left_ = 0;
    std::uint64_t string_len_ = 0, number_len_ = 0;
};

using json = nlohmann::json;

// The SAX events of the expected content, checked one by one (large_answer.hpp says which).
class TokenContentSax {
public:
    explicit TokenContentSax(std::uint32_t n) : n_(n) {}

    // The first difference: (path, what is wrong there), once there is one.
    const std::optional<std::pair<std::string, std::string>>& wrong() const { return wrong_; }

    bool null() { return scalar("null", [](const Expect& e) { return e.kind == Expect::null_v; }); }
    bool boolean(bool v) {
        return scalar(v ? "true" : "false", [&](const Expect& e) { return e.kind == Expect::bool_v && !v; });
    }
    bool number_integer(json::number_integer_t v) { return number(static_cast<double>(v), v >= 0, static_cast<std::uint64_t>(v), std::to_string(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return number(static_cast<double>(v), true, v, std::to_string(v)); }
    bool number_float(json::number_float_t v, const json::string_t& text) { return number(v, false, 0, text); }
    bool string(json::string_t& s) {
        return scalar(s.size() > 40 ? "a string of " + std::to_string(s.size()) + " bytes" : "\"" + capped(s) + "\"",
                      [&](const Expect& e) { return e.kind == Expect::string_v && (e.text_is_doc_text ? is_text(s) : s == e.str); });
    }
    bool binary(json::binary_t&) { return fail(path(), "binary data"); }
    bool start_object(std::size_t) {
        Frame::Kind k;
        if (st_.empty()) k = Frame::root;
        else if (top().kind == Frame::root && top().key == "doc") k = Frame::doc;
        else if (top().kind == Frame::tokens) k = Frame::token;
        else return fail(path(), "expected " + expected_here() + ", got an object");
        if (k == Frame::token && ++tokens_ > n_) return fail(path(), "more than the " + std::to_string(n_) + " tokens");
        st_.push_back({k, {}, 0});
        return true;
    }
    bool key(json::string_t& k) {
        Frame& f = top();
        const auto& names = keys(f.kind);
        for (std::size_t i = 0; i < names.size(); ++i)
            if (k == names[i]) {
                if (f.seen & (1u << i)) return fail(path(false) + "." + k, "the key comes twice");
                f.seen |= 1u << i;
                f.key = k;
                return true;
            }
        return fail(path(false), "unexpected key \"" + capped(k) + "\"");
    }
    bool end_object() {
        const Frame& f = top();
        const auto& names = keys(f.kind);
        for (std::size_t i = 0; i < names.size(); ++i)
            if (!(f.seen & (1u << i))) return fail(path(false), "missing key \"" + names[i] + "\"");
        st_.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        if (!st_.empty() && top().kind == Frame::doc && (top().key == "tokens" || top().key == "spans")) {
            st_.push_back({top().key == "tokens" ? Frame::tokens : Frame::spans, {}, 0});
            return true;
        }
        return fail(path(), "expected " + expected_here() + ", got an array");
    }
    bool end_array() {
        if (top().kind == Frame::tokens && tokens_ != n_)
            return fail(path(), "expected " + std::to_string(n_) + " tokens, got " + std::to_string(tokens_));
        st_.pop_back();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
        std::string what = ex.what();
        if (auto at = what.find("] "); at != std::string::npos) what = what.substr(at + 2);
        return fail(path(), "not content JSON at byte " + std::to_string(position) + ": " + capped(what));
    }

private:
    struct Frame {
        enum Kind { root, doc, tokens, token, spans } kind;
        std::string key;
        unsigned seen;
    };
    struct Expect {
        enum Kind { null_v, bool_v, string_v, number_v, container_v } kind;
        bool text_is_doc_text = false;
        std::uint64_t number = 0;
        bool is_float = false;  // the number is a confidence (compared as binary32)
        const char* str = "";   // the string, unless it is the text
    };
    static const std::vector<std::string>& keys(Frame::Kind k) {
        static const std::vector<std::string> root{"format", "crc", "doc"}, doc{"text", "tokens", "ents", "cats", "spans"},
            token{"start", "length", "norm", "lemma", "pos", "tag", "dep", "morph", "head", "sent", "conf"}, none;
        return k == Frame::root ? root : k == Frame::doc ? doc : k == Frame::token ? token : none;
    }
    Frame& top() { return st_.back(); }
    bool is_text(const std::string& s) const {
        return s.size() == n_ && std::all_of(s.begin(), s.end(), [](char ch) { return ch == 'a'; });
    }
    // What the current place must hold.
    Expect expect() const {
        if (st_.empty()) return {Expect::container_v};
        const Frame& f = st_.back();
        const std::string& k = f.key;
        switch (f.kind) {
            case Frame::root:
                if (k == "format") return {Expect::string_v, false, 0, false, "ONDC"};
                if (k == "crc") return {Expect::bool_v};
                return {Expect::container_v};
            case Frame::doc:
                if (k == "text") return {Expect::string_v, true};
                if (k == "ents" || k == "cats") return {Expect::null_v};
                return {Expect::container_v};
            case Frame::token:
                if (k == "start" || k == "head") return {Expect::number_v, false, std::uint64_t{tokens_} - 1};
                if (k == "length") return {Expect::number_v, false, 1};
                if (k == "sent") return {Expect::number_v, false, 0};
                if (k == "conf") return {Expect::number_v, false, 1, true};
                return {Expect::string_v};
            default: return {Expect::container_v};
        }
    }
    std::string expected_here() const {
        const Expect e = expect();
        switch (e.kind) {
            case Expect::null_v: return "null";
            case Expect::bool_v: return "false";
            case Expect::string_v: return e.text_is_doc_text ? "the text (" + std::to_string(n_) + " x \"a\")" : "\"" + std::string(e.str) + "\"";
            case Expect::number_v: return std::to_string(e.number);
            case Expect::container_v: break;
        }
        if (st_.empty()) return "an object";
        if (st_.back().kind == Frame::tokens) return "a token object";
        if (st_.back().kind == Frame::spans) return "no span group";
        if (st_.back().kind == Frame::doc && st_.back().key == "tokens") return "the tokens array";
        if (st_.back().kind == Frame::doc && st_.back().key == "spans") return "an empty array";
        return "an object";
    }
    template <class Match>
    bool scalar(const std::string& got, Match match) {
        Expect e = expect();
        if (!match(e)) return fail(path(), "expected " + expected_here() + ", got " + got);
        return true;
    }
    bool number(double v, bool whole, std::uint64_t u, const std::string& text) {
        return scalar(capped(text), [&](const Expect& e) {
            if (e.kind != Expect::number_v) return false;
            if (e.is_float) return static_cast<float>(v) == 1.0f;
            return whole && u == e.number;
        });
    }
    // Where the parser is: the innermost object's current key too, unless `with_key` is false
    // (a fault of the object itself).
    std::string path(bool with_key = true) const {
        std::string p;
        for (const Frame& f : st_) {
            if (f.kind == Frame::token) p += "[" + std::to_string(tokens_ - 1) + "]";
            if (!with_key && &f == &st_.back()) break;
            if ((f.kind == Frame::root || f.kind == Frame::doc || f.kind == Frame::token) && !f.key.empty())
                p += (p.empty() ? "" : ".") + f.key;
        }
        return p.empty() ? "(top level)" : p;
    }
    bool fail(std::string at, std::string why) {
        if (!wrong_) wrong_ = {std::move(at), std::move(why)};
        return false;
    }

    std::uint32_t n_;
    std::vector<Frame> st_;
    std::uint32_t tokens_ = 0;
    std::optional<std::pair<std::string, std::string>> wrong_;
};

class TokenContentAnswer final : public StreamedAnswer {
public:
    TokenContentAnswer(std::uint32_t n, bool stream_line)
        : sax_(n), lengths_(std::max<std::uint64_t>(n, 64)), stream_line_(stream_line), in_(&queue_) {
        parser_ = std::thread([this] {
            try {
                json::sax_parse(in_, &sax_, json::input_format_t::json, true);
            } catch (const std::exception& e) {  // the input ended in a way the parser throws for
                if (!sax_.wrong()) thrown_ = e.what();
            }
            queue_.stop();
        });
    }
    ~TokenContentAnswer() override { end(); }

    bool feed(std::string_view bytes) override {
        if (refused_) return false;
        bytes_ += bytes.size();
        for (char ch : bytes) newlines_ += ch == '\n';
        if (!bytes.empty()) last_ = bytes.back();
        if (std::string why = lengths_.scan(bytes); !why.empty()) {
            cut_ = why + " (after " + std::to_string(bytes_) + " bytes)";
            return refuse();
        }
        if (stream_line_ && newlines_ > 1) {
            cut_ = "more than one line: the stream holds one container";
            return refuse();
        }
        if (!queue_.push(bytes)) return refuse();
        return true;
    }

    std::vector<Finding> finish() override {
        end();
        std::vector<Finding> out;
        const std::string line = stream_line_ ? "line 1: " : "";
        auto add = [&](const std::string& field, const std::string& message) {
            out.push_back({Level::required, Check::content, line + field + ": " + message, content_rule(field), line + field});
        };
        if (!cut_.empty()) add("(top level)", cut_);
        else if (sax_.wrong()) add(sax_.wrong()->first, sax_.wrong()->second);
        else if (!thrown_.empty()) add("(top level)", "not content JSON: " + capped(thrown_));
        else if (stream_line_ && (newlines_ != 1 || last_ != '\n')) add("(top level)", "the line does not end with one \"\\n\"");
        return out;
    }
    bool refused() const override { return refused_; }

private:
    bool refuse() {
        refused_ = true;
        queue_.stop();
        return false;
    }
    void end() {
        if (!parser_.joinable()) return;
        queue_.close();
        parser_.join();
    }

    TokenContentSax sax_;
    TokenLengths lengths_;
    bool stream_line_;
    ByteQueue queue_;
    std::istream in_;
    std::thread parser_;
    std::string thrown_, cut_;
    bool refused_ = false;
    std::uint64_t bytes_ = 0, newlines_ = 0;
    char last_ = 0;
};

}  // namespace

std::shared_ptr<StreamedAnswer> expect_token_content(std::uint32_t n, bool stream_line) {
    return std::make_shared<TokenContentAnswer>(n, stream_line);
}

CaseResult judge_streamed(const Case& c, const TesteeResult& o, StreamedAnswer& answer, std::uint64_t answer_limit,
                          const ClassifyOptions& opt) {
    std::vector<Finding> found = answer.finish();
    const bool judged = o.status == Answer::accept || (o.status == Answer::output && answer.refused());
    if (!judged || !c.expect_accept) {
        CaseResult r = classify(c, o, opt);
        r.output_limit = static_cast<std::size_t>(answer_limit);
        return r;
    }
    CaseResult r;
    static_cast<CaseInfo&>(r) = c;
    r.answer = Answer::accept;
    r.peak_kb = o.peak_kb;
    r.growth_kb = o.growth_kb;
    r.output_limit = static_cast<std::size_t>(answer_limit);
    r.ms = o.ms;
    r.findings = std::move(found);
    // The writer rules are recommended checks too, counted as an ordinary encode case counts them.
    for (const Finding& f : r.findings) r.recommended_fail += f.level == Level::recommended;
    if (c.kind == CaseKind::encode && r.findings.empty()) ++r.recommended_pass;
    r.status = r.required_failed() ? Status::fail : Status::pass;
    return r;
}

}  // namespace ond::conformance
