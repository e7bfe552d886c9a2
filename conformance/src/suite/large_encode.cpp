#include "suite/large_encode.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>

#include "suite/large.hpp"
#include "suite/large_judge.hpp"
#include "suite/writer_check.hpp"

namespace ond::conformance {

namespace {

// Bytes kept in an unlinked file of the runner's temporary directory rather than in its memory:
// a differing answer of the body case may be 4.3 GB. Read back mapped, as one view.
class KeptBytes {
public:
    KeptBytes() {
        std::error_code ec;
        const std::string dir = std::filesystem::temp_directory_path(ec).string();
        if (ec) {
            error_ = "no temporary directory: " + ec.message();
            return;
        }
        fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd_ < 0) {  // a file system without O_TMPFILE
            std::string name = dir + "/ond-answer-XXXXXX";
            fd_ = ::mkostemp(name.data(), O_CLOEXEC);
            if (fd_ >= 0) ::unlink(name.c_str());
        }
        if (fd_ < 0) error_ = "cannot make a file in " + dir + ": " + std::strerror(errno);
    }
    KeptBytes(const KeptBytes&) = delete;
    KeptBytes& operator=(const KeptBytes&) = delete;
    ~KeptBytes() {
        if (map_) ::munmap(map_, size_);
        if (fd_ >= 0) ::close(fd_);
    }

    void append(std::string_view b) {
        while (error_.empty() && !b.empty()) {
            const ssize_t k = ::write(fd_, b.data(), b.size());
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                error_ = std::string("cannot keep the answer: ") + std::strerror(k < 0 ? errno : ENOSPC);
                break;
            }
            size_ += static_cast<std::uint64_t>(k);
            b.remove_prefix(static_cast<std::size_t>(k));
        }
    }
    std::uint64_t size() const noexcept { return size_; }
    // Every byte appended, valid while this lives; "" if one could not be kept (error()).
    std::string_view view() {
        if (!error_.empty() || size_ == 0) return {};
        if (!map_) {
            void* m = ::mmap(nullptr, static_cast<std::size_t>(size_), PROT_READ, MAP_PRIVATE, fd_, 0);
            if (m == MAP_FAILED) {
                error_ = std::string("cannot read the kept answer: ") + std::strerror(errno);
                return {};
            }
            map_ = m;
        }
        return std::string_view(static_cast<const char*>(map_), static_cast<std::size_t>(size_));
    }
    const std::string& error() const noexcept { return error_; }

private:
    int fd_ = -1;
    std::uint64_t size_ = 0;
    void* map_ = nullptr;
    std::string error_;
};

// An encoder's answer compared, as it arrives, with canonical bytes made piece by piece beside
// it; from the first difference on it is kept (from its start, up to keep_limit) and judged whole
// at the end: as an ordinary encode case up to exact_up_to canonical bytes, else by `judge`.
class BytesAnswer final : public StreamedAnswer {
public:
    using Judge = std::function<std::vector<Finding>(std::string_view got)>;
    BytesAnswer(std::function<PieceReader()> canonical, std::uint64_t size, Judge judge, std::vector<std::string> rules,
                std::uint64_t keep_limit, std::uint64_t exact_up_to)
        : open_(std::move(canonical)), judge_(std::move(judge)), rules_(std::move(rules)), keep_limit_(keep_limit),
          exact_up_to_(exact_up_to), size_(size), canonical_(open_()) {}

    bool feed(std::string_view b) override {
        while (!kept_ && !b.empty()) {
            if (pending_.empty() && (pending_ = canonical_()).empty()) {
                keep_from_here();  // more than the canonical bytes
                break;
            }
            const std::size_t k = std::min(b.size(), pending_.size());
            if (std::memcmp(b.data(), pending_.data(), k) != 0) {
                const std::size_t same = static_cast<std::size_t>(std::mismatch(b.begin(), b.begin() + k, pending_.begin()).first - b.begin());
                matched_ += same;  // the first byte that differs, for the findings
                b.remove_prefix(same);
                keep_from_here();
                break;
            }
            matched_ += k;
            b.remove_prefix(k);
            pending_.remove_prefix(k);
        }
        if (kept_) {  // past the limit the transport cuts the answer off; nothing more is kept
            const std::uint64_t room = keep_limit_ - std::min<std::uint64_t>(keep_limit_, kept_->size());
            kept_->append(b.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(b.size(), room))));
        }
        return true;
    }

    std::vector<Finding> finish() override {
        if (!kept_ && matched_ == size_) return {};
        if (!kept_) keep_from_here();  // a prefix of the canonical bytes
        const std::string_view got = kept_->view();
        if (!kept_->error().empty())  // the runner's fault, not the testee's: said, not charged
            return {{Level::info, Check::canonical_writer,
                     "the bytes differ from the canonical bytes from byte " + std::to_string(matched_) + "; not judged further: " +
                         kept_->error(),
                     rules_.empty() ? std::string() : rules_.front(), "byte " + std::to_string(matched_)}};
        if (size_ <= exact_up_to_) {
            CaseResult r;
            r.rules = rules_;
            add_writer_findings(large_judge::prefix_of(open_(), size_), got, Check::canonical_writer, r);
            return std::move(r.findings);
        }
        return judge_(got);
    }
    bool refused() const override { return false; }  // every byte up to the limit is judged

private:
    // The answer differs from here on: what matched so far is made again, and kept with the rest.
    void keep_from_here() {
        kept_ = std::make_unique<KeptBytes>();
        PieceReader again = open_();
        for (std::uint64_t left = matched_; left > 0;) {
            const std::string_view p = again();
            const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(left, p.size()));
            kept_->append(p.substr(0, k));
            left -= k;
        }
    }

    std::function<PieceReader()> open_;
    Judge judge_;
    std::vector<std::string> rules_;
    std::uint64_t keep_limit_, exact_up_to_, size_;
    PieceReader canonical_;
    std::string_view pending_;
    std::uint64_t matched_ = 0;
    std::unique_ptr<KeptBytes> kept_;
};

}  // namespace

std::shared_ptr<StreamedAnswer> expect_token_bytes(std::uint32_t n, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                   std::uint64_t exact_up_to) {
    auto judge = [n, rules](std::string_view got) { return judge_token_bytes(n, got, rules); };
    return std::make_shared<BytesAnswer>([n] { return token_document_pieces(n); }, token_document_bytes(n), judge, std::move(rules),
                                         keep_limit, exact_up_to);
}

std::shared_ptr<StreamedAnswer> expect_category_bytes(CategoryLabels labels, std::vector<std::string> rules, std::uint64_t keep_limit,
                                                      std::uint64_t exact_up_to) {
    auto judge = [labels, rules](std::string_view got) { return judge_category_bytes(labels, got, rules); };
    return std::make_shared<BytesAnswer>([labels] { return category_document_pieces(labels); }, category_document_bytes(labels), judge,
                                         std::move(rules), keep_limit, exact_up_to);
}

}  // namespace ond::conformance
