// DocBinReader: an ONDB's records one at a time (R27).
#include <optional>

#include "ond/internal/doc_list_build.hpp"
#include "ond/reader.hpp"
#include "ond/internal/sections.hpp"

namespace ond {

struct DocBinReader::State {
    State();
    std::vector<std::byte> owned;  // the bytes, when the reader was given them to keep
    Bytes input;
    StringStore strings;
    detail::TableView table;
    detail::Cursor records{Bytes{}};
    std::uint32_t count = 0;
    std::uint32_t next = 0;
    bool crc = false;
    bool done = false;
    DocList current;           // the record read last, alone
    RecordView view{current, strings};
    bool has_current = false;  // the last next() returned true
    std::optional<Error> error;  // once a record fails, every later next() raises the same error

    // Runs f, a step of the reader. An error it raises ends the reader: kept (every later call
    // raises it again), then raised; without exceptions the step returns false.
    template <class F>
    bool run(F&& f) {
        std::optional<Error> e = detail::capture(std::forward<F>(f));
        if (!e) return true;
        current.clear();  // a record cut short may have token rows never written
        error = *e;
        return detail::raise(std::move(*e));
    }
};

DocBinReader::DocBinReader(Bytes input) : s_(std::make_unique<State>()) { open(input); }

DocBinReader::State::State() { detail::build(current).bind(strings); }  // Docs copied out name the reader's strings

DocBinReader::DocBinReader(std::vector<std::byte>&& bytes) : s_(std::make_unique<State>()) {
    s_->owned = std::move(bytes);
    open(Bytes(s_->owned));
}

void DocBinReader::open(Bytes input) {
    s_->input = input;
    // Without exceptions a reader that failed to open lives on (empty), raising the same error.
    detail::OpenedBin opened{};
    const char* refusal = "DocBinReader reads ONDB containers; this one is ONDC";
    if (!s_->run([&] { opened = detail::open_bin(input, s_->table, s_->strings, refusal); })) return;
    s_->crc = opened.crc;
    s_->records = opened.bin.records;
    s_->count = opened.bin.count;
}

DocBinReader::~DocBinReader() = default;
DocBinReader::DocBinReader(DocBinReader&&) noexcept = default;
DocBinReader& DocBinReader::operator=(DocBinReader&&) noexcept = default;

const StringStore& DocBinReader::strings() const& noexcept { return s_->strings; }
bool DocBinReader::crc() const noexcept { return s_->crc; }
std::uint32_t DocBinReader::count() const noexcept { return s_->count; }
const RecordView& DocBinReader::doc() const& noexcept { return s_->view; }

DocBinReader::iterator DocBinReader::begin() {
    // Idempotent: a record already read is where the range starts; only otherwise is one read.
    if (s_->has_current || s_->done || s_->error) return iterator(this, s_->has_current);
    const bool more = next();
    OND_BAIL({});
    return iterator(this, more);
}

std::size_t DocBinReader::skip(std::size_t n) {
    s_->has_current = false;
    if (s_->error) return detail::raise(Error(*s_->error));
    std::size_t skipped = 0;
    const bool ok = s_->run([&] {
        for (; skipped < n && s_->next < s_->count; ++skipped) {
            detail::skip_record(s_->records, s_->next);
            OND_BAIL();
            ++s_->next;
        }
    });
    if (!ok) return 0;
    s_->current.clear();
    if (skipped < n && !s_->done) {
        next();  // past the last record: the end checks
        OND_BAIL({});
    }
    return skipped;
}

bool DocBinReader::next(Doc& doc) {
    if (!next()) return false;
    doc = s_->view.to_doc();
    return true;
}

bool DocBinReader::next() {
    s_->has_current = false;
    if (s_->error) return detail::raise(Error(*s_->error));
    if (s_->done) return false;
    const bool ok = s_->run([&] {
        if (s_->next < s_->count) {
            s_->current.clear();
            detail::decode_record<detail::DecodeMode>(s_->records, s_->next, s_->table, &s_->current, nullptr);
            OND_BAIL();
            s_->view.record_ = s_->next;
            ++s_->next;
            s_->has_current = true;
            return;
        }
        detail::check_records_end(s_->records);
        OND_BAIL();
        if (s_->crc) detail::check_trailer<detail::DecodeMode>(s_->input, 0, nullptr);
        OND_BAIL();
        s_->done = true;
    });
    return ok && s_->has_current;
}

}  // namespace ond
