// `ond`: the command-line face of the reference codec.
//
//   ond decode|encode|stream   the testee protocol (docs/protocol.md) on stdin/stdout
//   ond validate FILE...       one verdict line per file
//   ond inspect FILE           an annotated byte listing
//   ond conform ... / corpus ... / serve ...   the runner, the corpus generator, the framed testee
//
// Exit status: 0 accepted, 1 rejected (for decode/encode/stream the first stderr line is then
// "error: CODE"), 2 usage or I/O error.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ond/content_json.hpp"
#include "ond/hex.hpp"
#include "ond/listing.hpp"
#include "ond/ond.hpp"

#include "conform_cli.hpp"
#include "ond/conformance.hpp"
#include "ond/rejection.hpp"
#include "ond/text_escape.hpp"
#include "corpus_cli.hpp"

#ifndef OND_VERSION
#define OND_VERSION "unknown"
#endif

namespace {

constexpr int exit_ok = 0;
constexpr int exit_rejected = 1;
constexpr int exit_usage = 2;

// A file or stdin that cannot be read, or stdout that cannot be written.
struct IoError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A file name as it is printed: control characters (C0, DEL, C1) and the backslash escaped, so
// a name cannot start a line of its own or forge a verdict.
std::string escaped_name(std::string_view name) {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto b = static_cast<unsigned char>(name[i]);
        if (b == '\\') {
            out += "\\\\";
        } else if (b == '\n') {
            out += "\\n";
        } else if (b == '\t') {
            out += "\\t";
        } else if (b == '\r') {
            out += "\\r";
        } else if (b < 0x20 || b == 0x7F) {
            out += "\\x";
            ond::hex::append(out, b, 2);
        } else if (b == 0xC2 && i + 1 < name.size() && static_cast<unsigned char>(name[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(name[i + 1]) <= 0x9F) {
            out += "\\u";
            ond::hex::append(out, static_cast<unsigned char>(name[++i]), 4);
        } else {
            out += static_cast<char>(b);
        }
    }
    return out;
}

std::string display_name(const std::string& path) {
    return path.empty() || path == "-" ? "<stdin>" : escaped_name(path);
}

// An open input: a file, or stdin for "" and "-".
class Input {
public:
    explicit Input(const std::string& path) : name_(display_name(path)) {
        if (path.empty() || path == "-") {
            fd_ = STDIN_FILENO;
        } else {
            fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd_ < 0) throw IoError("cannot open " + name_ + ": " + std::strerror(errno));
            owned_ = true;
        }
    }
    ~Input() {
        if (owned_) ::close(fd_);
    }
    Input(const Input&) = delete;
    Input& operator=(const Input&) = delete;

    // Up to max bytes; 0 only at end of input.
    std::size_t read(std::byte* dst, std::size_t max) {
        for (;;) {
            const ssize_t n = ::read(fd_, dst, max);
            if (n >= 0) return static_cast<std::size_t>(n);
            if (errno == EINTR) continue;
            throw IoError("cannot read " + name_ + ": " + std::strerror(errno));
        }
    }

    // Fills dst unless the input ends first; returns the bytes read.
    std::size_t read_fully(std::byte* dst, std::size_t want) {
        std::size_t got = 0;
        while (got < want) {
            const std::size_t n = read(dst + got, want - got);
            if (n == 0) break;
            got += n;
        }
        return got;
    }

    // One container: the 12-byte header first. A header the codec refuses ends the reading
    // there (decoding those bytes reports it); else at most the declared size plus one byte is
    // read (that byte is enough to report container.trailing-bytes). The buffer grows with the
    // bytes that arrive, never ahead of them from the declared size.
    std::vector<std::byte> read_container() {
        std::vector<std::byte> data(12);
        data.resize(read_fully(data.data(), data.size()));
        const std::optional<std::uint64_t> declared = ond::declared_size(data);
        if (!declared) return data;
        const std::uint64_t limit = *declared + 1;
        std::size_t used = data.size();
        // A regular file's size is bytes that exist: read it in one step rather than doubling.
        const std::uint64_t first_step = std::max<std::uint64_t>(regular_file_size() + 1, used) - used;
        while (used < limit) {
            const std::uint64_t step =
                std::min<std::uint64_t>(limit - used, std::max<std::uint64_t>({65536, used, used == 12 ? first_step : 0}));
            data.resize(used + static_cast<std::size_t>(step));
            const std::size_t n = read_fully(data.data() + used, static_cast<std::size_t>(step));
            used += n;
            if (n < step) break;
        }
        data.resize(used);
        return data;
    }

    // The size of a regular file (0 for a pipe or a terminal).
    std::uint64_t regular_file_size() const {
        struct stat st {};
        return ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
    }

    // All of a JSON input into `text`, each piece checked as it arrives, so that input that
    // cannot become content JSON (binary bytes, /dev/zero, a syntax error) ends the reading at
    // the first hopeless byte (JsonError). Endless JSON-looking text (spaces, an open string)
    // stops at `limit` bytes: IoError. Memory: what was read, and a growth step past it.
    void read_json(std::size_t limit, ond::json::ContentJsonText& text) {
        const std::size_t past_limit = limit == SIZE_MAX ? limit : limit + 1;  // --max-input may be SIZE_MAX
        text.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(regular_file_size(), limit)) + 1);
        for (;;) {
            if (text.size() == text.capacity()) {
                if (text.size() > limit)
                    throw IoError(name_ + " holds more than " + std::to_string(limit) + " bytes of JSON (the limit of --max-input)");
                text.grow(past_limit);
            }
            const std::size_t n = read(reinterpret_cast<std::byte*>(text.end()), text.capacity() - text.size());
            if (n == 0) break;
            text.add(n);
        }
    }

    const std::string& name() const noexcept { return name_; }

private:
    std::string name_;
    int fd_ = -1;
    bool owned_ = false;
};

void write_out(const void* data, std::size_t size) {
    if (size && std::fwrite(data, 1, size, stdout) != size) throw IoError(std::string("cannot write to stdout: ") + std::strerror(errno));
}
void write_out(std::string_view s) { write_out(s.data(), s.size()); }
void flush_out() {
    if (std::fflush(stdout) != 0) throw IoError(std::string("cannot write to stdout: ") + std::strerror(errno));
}

// The reject report of the testee protocol: "error: CODE", then one line for people.
int reject(std::string_view code, std::string_view message) {
    std::fprintf(stderr, "error: %.*s\n%.*s\n", static_cast<int>(code.size()), code.data(),
                 static_cast<int>(message.size()), message.data());
    return exit_rejected;
}
// The code and, for a fault in the input, its offset: "error: CODE at byte N" (docs/protocol.md).
int reject(const ond::Error& e) { return reject(ond::conformance::rejection_report(e.code(), e.offset()), e.what()); }

const char* verdict_name(ond::ErrorVerdict v) {
    switch (v) {
    case ond::ErrorVerdict::invalid: return "invalid";
    case ond::ErrorVerdict::implementation_defined: return "implementation-defined";
    case ond::ErrorVerdict::content: return "content";
    }
    return "?";
}

// ---- decode / encode / stream ------------------------------------------------------------

// The JSON goes to stdout as it is made: its size does not count against memory.
const ond::json::JsonSink json_to_stdout = [](std::string_view piece) { write_out(piece.data(), piece.size()); };

int cmd_decode(const std::string& file, bool pretty) {
    Input in(file);
    ond::Container c;
    {
        const std::vector<std::byte> data = in.read_container();
        try {
            ond::decode_into(data, c);
        } catch (const ond::Error& e) {
            return reject(e);
        }
    }
    ond::json::write_json(c, json_to_stdout, pretty);
    flush_out();
    return exit_ok;
}

// The JSON `ond encode` reads at most, unless --max-input says otherwise.
constexpr std::size_t default_max_json = std::size_t{1} << 30;

int cmd_encode(const std::string& file, std::size_t max_input) {
    Input in(file);
    std::vector<std::byte> bytes;
    try {
        ond::json::ContentJsonText text;
        in.read_json(max_input, text);
        const ond::Container content = ond::json::from_json(text.text());
        text.release();  // the JSON is no longer needed while the bytes are made
        bytes = ond::encode(content);
    } catch (const ond::json::JsonError& e) {
        return reject("json.invalid", e.what());
    } catch (const ond::Error& e) {
        return reject(e);
    }
    write_out(bytes.data(), bytes.size());
    flush_out();
    return exit_ok;
}

int cmd_stream(const std::string& file, bool pretty) {
    Input in(file);
    ond::StreamReader reader([&](std::byte* dst, std::size_t max) { return in.read(dst, max); });
    try {
        while (auto c = reader.next()) {
            ond::json::write_json(*c, json_to_stdout, pretty);
            flush_out();
        }
    } catch (const ond::Error& e) {
        flush_out();
        return reject(e);
    }
    return exit_ok;
}

// ---- validate ----------------------------------------------------------------------------

struct Verdict {
    std::string file;      // as printed in a verdict line (escaped)
    std::string raw_file;  // as given (JSON escapes it itself)
    bool ok = false;
    std::string format;  // "ONDC", "ONDB", "stream"
    std::uint64_t docs = 0;
    std::uint64_t tokens = 0;
    std::string crc;  // "crc", "no crc", "mixed crc" (streams)
    std::optional<ond::Error> error;
    std::string io_error;
};

Verdict validate_one(const std::string& path, bool stream) {
    Verdict v;
    v.file = display_name(path);
    v.raw_file = path.empty() || path == "-" ? "<stdin>" : path;
    try {
        Input in(path);
        if (!stream) {
            // A regular file's size is known: read it whole and check it as validate() does,
            // its size first (R28). A pipe's bytes are checked as they arrive, and the first
            // fault ends the reading: never held beyond what came, never read to a declared end.
            const bool regular = in.regular_file_size() > 0;
            const std::vector<std::byte> data = regular ? in.read_container() : std::vector<std::byte>{};
            try {
                const ond::Summary s =
                    regular ? ond::validate(data)
                            : ond::validate_arriving([&](std::byte* dst, std::size_t max) { return in.read(dst, max); });
                v.ok = true;
                v.format = ond::to_string(s.format);
                v.docs = s.docs;
                v.tokens = s.tokens;
                v.crc = s.crc ? "crc" : "no crc";
            } catch (const ond::Error& e) {
                v.error = e;
            }
        } else {
            v.format = "stream";
            ond::StreamReader reader([&](std::byte* dst, std::size_t max) { return in.read(dst, max); });
            std::uint64_t with_crc = 0;
            try {
                // Each section is checked as it arrives, the first fault ends the reading, and no
                // more than the string table and one other section is held (skip_next).
                ond::StreamReader::Skipped c;
                while (reader.skip_next(c)) {
                    ++v.docs;
                    v.tokens += c.tokens;
                    with_crc += c.crc ? 1 : 0;
                }
                v.ok = true;
                v.crc = with_crc == 0 ? "no crc" : with_crc == v.docs ? "crc" : "mixed crc";
            } catch (const ond::Error& e) {
                v.error = e;
            }
        }
    } catch (const IoError& e) {
        v.io_error = e.what();
    }
    return v;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string verdict_line(const Verdict& v) {
    std::string s = v.file + ": ";
    if (v.ok) {
        const bool is_stream = v.format == "stream";
        s += "ok (" + v.format + ", " +
             (is_stream ? plural(v.docs, "container", "containers") : plural(v.docs, "document", "documents")) + ", " +
             plural(v.tokens, "token", "tokens") + ", " + v.crc + ")";
        return s;
    }
    const ond::Error& e = *v.error;
    s += e.verdict() == ond::ErrorVerdict::implementation_defined ? "rejected (implementation-defined)" : "invalid";
    s += " at byte " + std::to_string(e.offset()) + ": ";
    s += e.code();
    s += " (";
    s += e.rule();
    s += "): ";
    s += e.detail().empty() ? std::string(ond::error_info(e.errc()).summary) : e.detail();
    return s;
}

int cmd_validate(const std::vector<std::string>& files, bool json, bool stream) {
    bool any_invalid = false;
    bool any_io = false;
    nlohmann::ordered_json report = nlohmann::ordered_json::array();
    for (const std::string& f : files) {
        const Verdict v = validate_one(f, stream);
        if (!v.io_error.empty()) {
            any_io = true;
            std::fprintf(stderr, "ond validate: %s\n", v.io_error.c_str());
        } else if (!v.ok) {
            any_invalid = true;
        }
        if (json) {
            nlohmann::ordered_json o;
            o["file"] = v.raw_file;
            o["ok"] = v.ok;
            o["format"] = v.ok ? nlohmann::ordered_json(v.format) : nlohmann::ordered_json(nullptr);
            o["docs"] = v.ok ? nlohmann::ordered_json(v.docs) : nlohmann::ordered_json(nullptr);
            o["tokens"] = v.ok ? nlohmann::ordered_json(v.tokens) : nlohmann::ordered_json(nullptr);
            if (v.ok && v.crc != "mixed crc")
                o["crc"] = v.crc == "crc";
            else
                o["crc"] = nullptr;
            if (v.error) {
                const ond::Error& e = *v.error;
                o["error"] = {{"code", std::string(e.code())},
                              {"rule", std::string(e.rule())},
                              {"offset", e.offset()},
                              {"message", e.detail().empty() ? std::string(ond::error_info(e.errc()).summary) : e.detail()},
                              {"verdict", verdict_name(e.verdict())}};
            } else if (!v.io_error.empty()) {
                o["error"] = {{"code", "io.error"},
                              {"rule", nullptr},
                              {"offset", nullptr},
                              {"message", v.io_error},
                              {"verdict", "io-error"}};
            } else {
                o["error"] = nullptr;
            }
            report.push_back(std::move(o));
        } else if (v.io_error.empty()) {
            write_out(verdict_line(v) + "\n");
        }
    }
    if (json) write_out(report.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
    flush_out();
    return any_io ? exit_usage : any_invalid ? exit_rejected : exit_ok;
}

// ---- inspect -----------------------------------------------------------------------------

int cmd_inspect(const std::string& file, bool stream) {
    Input in(file);
    // Decoded strings are the input's: bidi controls, line separators and other invisible
    // characters are shown as \u{XXXX}, as in the reports, so a listing shows what is there.
    const ond::LineSink to_stdout = [](std::string_view line) { write_out(ond::conformance::escape_text(line, false, true)); };
    bool ok = false;
    if (stream) {
        ok = ond::write_stream_listing([&](std::byte* dst, std::size_t max) { return in.read(dst, max); },
                                              to_stdout);
    } else {
        const std::vector<std::byte> data = in.read_container();
        ok = ond::write_listing(data, to_stdout);
    }
    flush_out();
    return ok ? exit_ok : exit_rejected;
}

// ---- the tools of other libraries ----------------------------------------------------------

// `ond serve`: no options but --help; the loop is the conformance library's.
int serve_command(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::printf(
                "usage: ond serve\n"
                "Answers framed requests on stdin with the reference codec (the persistent adapter protocol of\n"
                "docs/protocol.md): each request and each response is a 4-byte little-endian length and a\n"
                "payload; a request is one op byte (D decode, E encode, S stream) and the input; a response is\n"
                "a status byte (0 accept, 1 reject) and the output (accept) or the error code (reject). After the\n"
                "hello request 'V2' it speaks version 2: a request number follows the op byte and leads the response.\n");
            return 0;
        }
        std::fprintf(stderr, "ond serve: unknown argument '%s' (see --help)\n", argv[i]);
        return 2;
    }
    return ond::conformance::serve();
}

int forward(const std::string& word, int argc, char** argv) {
    if (word == "conform") return ond::conformance::conform_main(argc, argv);
    if (word == "serve") return serve_command(argc, argv);
    return ond::corpus::corpus_main(argc, argv);
}

// An installed `ond` (the .deb: <prefix>/bin/ond and <prefix>/share/ond/corpus) uses the corpus
// installed beside it unless OND_CORPUS_DIR names one; a build tree's `ond` has none beside it and
// keeps the source tree's corpus that the build names.
void use_installed_corpus() {
#ifdef OND_CORPUS_FROM_BIN
    if (const char* env = std::getenv("OND_CORPUS_DIR"); env && *env) return;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return;
    const std::filesystem::path corpus = (exe.parent_path() / OND_CORPUS_FROM_BIN).lexically_normal();
    if (std::filesystem::is_regular_file(corpus / "manifest.json", ec)) ::setenv("OND_CORPUS_DIR", corpus.c_str(), 1);
#endif
}

int run(int argc, char** argv) {
    use_installed_corpus();
    if (argc >= 2) {
        const std::string word = argv[1];
        if (word == "conform" || word == "corpus" || word == "serve") return forward(word, argc - 1, argv + 1);
    }

    CLI::App app{"ond " OND_VERSION ": reference codec tool for the OneNLP binary document format (ONDC/ONDB)", "ond"};
    app.set_version_flag("--version", "ond " OND_VERSION);
    app.require_subcommand(1);
    app.failure_message(CLI::FailureMessage::help);

    std::string file;
    bool pretty = false;
    auto* decode = app.add_subcommand("decode", "Decode one container (stdin or FILE) and print its content as JSON; "
                                                "exit 1 with \"error: CODE\" on stderr if it is refused");
    decode->add_option("file", file, "input file (default: stdin)");
    decode->add_flag("--pretty", pretty, "indent the JSON");

    auto* encode = app.add_subcommand("encode", "Read content JSON (stdin or FILE) and write its canonical bytes to stdout; "
                                                "exit 1 with \"error: CODE\" on stderr if it cannot be written");
    encode->add_option("file", file, "input file (default: stdin)");
    std::size_t max_input = default_max_json;
    encode->add_option("--max-input", max_input, "read at most this many bytes of JSON; more is an error (exit 2)")
        ->default_str("1073741824 (1 GiB)")
        ->check(CLI::PositiveNumber);

    auto* stream = app.add_subcommand("stream", "Read back-to-back ONDC containers (stdin or FILE) and print one JSON line "
                                                "per container as soon as it is checked; exit 1 at the first fault");
    stream->add_option("file", file, "input file (default: stdin)");
    stream->add_flag("--pretty", pretty, "indent the JSON (one object per container, no longer one line)");

    std::vector<std::string> files;
    bool as_json = false;
    bool as_stream = false;
    auto* validate = app.add_subcommand("validate", "Check files and print one verdict line per file; exit 0 when all are "
                                                    "valid, 1 when some are not, 2 on an I/O error");
    validate->add_option("files", files, "files to check (- for stdin)")->required();
    validate->add_flag("--json", as_json, "print a JSON array of verdicts instead");
    validate->add_flag("--stream", as_stream, "treat each file as back-to-back ONDC containers");

    auto* inspect = app.add_subcommand("inspect", "Print an annotated listing of a container's bytes, ending with the "
                                                  "fault (\"!! offset code (rule): detail\") if it is refused");
    inspect->add_option("file", file, "input file (default: stdin)");
    inspect->add_flag("--stream", as_stream, "list back-to-back ONDC containers");

    // Listed for --help; handled above before parsing.
    app.add_subcommand("conform", "Run the conformance suite (ond conform --help)")->allow_extras();
    app.add_subcommand("corpus", "Generate or check the golden corpus (ond corpus --help)")->allow_extras();
    app.add_subcommand("serve", "Serve the reference codec as a persistent testee (framed protocol)")->allow_extras();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? exit_ok : exit_usage;
    }

    if (*decode) return cmd_decode(file, pretty);
    if (*encode) return cmd_encode(file, max_input);
    if (*stream) return cmd_stream(file, pretty);
    if (*validate) return cmd_validate(files, as_json, as_stream);
    if (*inspect) return cmd_inspect(file, as_stream);
    return exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const IoError& e) {
        std::fprintf(stderr, "ond: %s\n", e.what());
        return exit_usage;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "ond: out of memory\n");
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ond: internal error: %s\n", e.what());
        return exit_usage;
    }
}
