// Stable ids: the manifest's former_ids (read strictly), an expected-failures list that names a
// former id, an entry that matches no case, and the bounds of reading the list.
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <pthread.h>
#include <signal.h>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suite/expected_failures.hpp"
#include "suite/plan.hpp"
#include "test_conform_run.hpp"

namespace ond::conformance {
namespace {

using namespace test_run;

// A manifest of two cases with the given former_ids values (JSON text, "" for none); only the
// ids matter, so the files it names need not exist.
corpus::Manifest manifest_with_former_ids(const std::string& former_a, const std::string& former_b) {
    static int n = 0;
    const std::string dir = work_dir() + "/manifest-" + std::to_string(++n);
    fs::create_directories(dir);
    auto entry = [](const std::string& id, const std::string& former) {
        return "{\"id\": \"" + id + "\", \"kind\": \"decode\", \"verdict\": \"impl\", \"input\": \"cases/x.ondc\"" +
               (former.empty() ? "" : ", \"former_ids\": " + former) + "}";
    };
    write_file(dir + "/manifest.json", "{\"corpus_version\": \"9.0.0\", \"cases\": [" + entry("impl/spans/zero-groups", former_a) +
                                           ", " + entry("impl/entities/none", former_b) + "]}");
    return corpus::Manifest::read(dir);
}

TEST(FormerIds, ManifestReadsThem) {
    auto m = manifest_with_former_ids(R"(["noncanonical/spans/zero-groups"])", R"(["valid/entities/none", "noncanonical/entities/none"])");
    EXPECT_TRUE(m.problems.empty()) << m.problems.front();
    ASSERT_EQ(m.cases.size(), 2u);
    EXPECT_EQ(m.cases[0].former_ids, std::vector<std::string>{"noncanonical/spans/zero-groups"});
    EXPECT_EQ(m.cases[1].former_ids, (std::vector<std::string>{"valid/entities/none", "noncanonical/entities/none"}));
    EXPECT_TRUE(manifest_with_former_ids("", "").cases[0].former_ids.empty());
}

TEST(FormerIds, ManifestRefusesWhatIsNotAListOfIds) {
    // A malformed field is a problem of its case (which is then left out, as for any field).
    for (const auto& [value, problem] : std::vector<std::pair<std::string, std::string>>{
             {R"("valid/spans/zero-groups")", "impl/spans/zero-groups: former_ids must be an array of case ids"},
             {R"([7])", "impl/spans/zero-groups: former_ids holds 7, not a case id"},
             {R"([null])", "impl/spans/zero-groups: former_ids holds null, not a case id"},
             {R"(["zero-groups"])", "impl/spans/zero-groups: former_ids holds \"zero-groups\", not a case id"},
             {R"(["Valid/spans/zero-groups"])", "impl/spans/zero-groups: former_ids holds \"Valid/spans/zero-groups\", not a case id"},
             {R"(["valid//zero-groups"])", "impl/spans/zero-groups: former_ids holds \"valid//zero-groups\", not a case id"},
             {R"(["valid/spans/"])", "impl/spans/zero-groups: former_ids holds \"valid/spans/\", not a case id"},
             {R"(["valid/../zero-groups"])", "impl/spans/zero-groups: former_ids holds \"valid/../zero-groups\", not a case id"},
             {R"(["valid/spans/zero groups"])", "impl/spans/zero-groups: former_ids holds \"valid/spans/zero groups\", not a case id"}}) {
        auto m = manifest_with_former_ids(value, "");
        EXPECT_EQ(m.problems, std::vector<std::string>{problem}) << value;
        EXPECT_EQ(m.cases.size(), 1u) << value;
    }
    // One id, one case, in every version.
    EXPECT_EQ(manifest_with_former_ids(R"(["impl/entities/none"])", "").problems,
              std::vector<std::string>{"impl/spans/zero-groups: former id 'impl/entities/none' is the id of a current case"});
    EXPECT_EQ(manifest_with_former_ids(R"(["valid/x/old"])", R"(["valid/x/old"])").problems,
              std::vector<std::string>{"impl/entities/none: former id 'valid/x/old' is also a former id of impl/spans/zero-groups"});
    EXPECT_EQ(manifest_with_former_ids(R"(["valid/x/old", "valid/x/old"])", "").problems,
              std::vector<std::string>{"impl/spans/zero-groups: former id 'valid/x/old' is listed twice"});
}

// resolve_expected_failures against a corpus of two cases, one of them renamed.
TEST(FormerIds, ResolveMapsFormerIdsAndJudgesTheRest) {
    Corpus corpus;
    corpus.corpus_version = "9.0.0";
    corpus.cases.resize(2);
    corpus.cases[0].id = "impl/spans/zero-groups";
    corpus.cases[1].id = "valid/document/basic";
    corpus.former_ids = {{"noncanonical/spans/zero-groups", "impl/spans/zero-groups"}};
    const std::set<std::string> planned = {"impl/spans/zero-groups", "valid/document/basic", "derived/bitflip/valid/document/basic/bit3",
                                           "derived/prefix/impl/spans/zero-groups/len4"};
    const std::vector<ListedFailure> list = {{1, "noncanonical/spans/zero-groups", "old name"},
                                             {2, "valid/document/basic", ""},
                                             {3, "derived/prefix/noncanonical/spans/zero-groups/len4", ""},
                                             {4, "derived/bitflip/valid/document/basic/bit99", ""},
                                             {5, "large/tokens-cap-plus-one", ""},
                                             {6, "fuzz/tokens/fuzz-0123abcd", ""},
                                             {7, "valid/document/basik", ""},
                                             {8, "derived/bitflip/valid/document/basik/bit3", ""},
                                             {9, "large/no-such-case", ""},
                                             {10, "valid/\x1b[31m", ""}};
    const ExpectedFailures r = resolve_expected_failures(list, corpus, planned, false);
    EXPECT_EQ(r.reasons, (std::map<std::string, std::string>{{"impl/spans/zero-groups", "old name"},
                                                            {"valid/document/basic", ""},
                                                            {"derived/prefix/impl/spans/zero-groups/len4", ""},
                                                            {"derived/bitflip/valid/document/basic/bit99", ""},
                                                            {"large/tokens-cap-plus-one", ""},
                                                            {"fuzz/tokens/fuzz-0123abcd", ""}}));
    EXPECT_EQ(r.notes, (std::vector<std::string>{
                           "expected-failures:1: 'noncanonical/spans/zero-groups' is now 'impl/spans/zero-groups' (renamed before "
                           "corpus 9.0.0); update the list",
                           "expected-failures:3: 'derived/prefix/noncanonical/spans/zero-groups/len4' is now "
                           "'derived/prefix/impl/spans/zero-groups/len4' (its source was renamed before corpus 9.0.0); update the list",
                           "expected-failures:4: 'derived/bitflip/valid/document/basic/bit99' is a case derived from 'valid/document/basic' "
                           "that this run did not make (the derived cases depend on --seed and --max-derived)",
                           "expected-failures:5: 'large/tokens-cap-plus-one' runs only with --large"}));
    EXPECT_EQ(r.unknown, (std::vector<std::string>{
                             "expected-failures:7: 'valid/document/basik' matches no case of corpus 9.0.0",
                             "expected-failures:8: 'derived/bitflip/valid/document/basik/bit3' matches no case of corpus 9.0.0",
                             "expected-failures:9: 'large/no-such-case' matches no case of corpus 9.0.0",
                             "expected-failures:10: 'valid/\\u{001B}[31m' matches no case of corpus 9.0.0"}));
    EXPECT_EQ(r.unknown_ids, (std::vector<std::string>{"valid/document/basik", "derived/bitflip/valid/document/basik/bit3",
                                                       "large/no-such-case", "valid/\x1b[31m"}));
    // With --large, a large case the run does not plan is unknown like any other.
    EXPECT_EQ(resolve_expected_failures({{1, "large/tokens-cap-plus-one", ""}}, corpus, planned, true).unknown_ids,
              std::vector<std::string>{"large/tokens-cap-plus-one"});
}

// The run: an entry naming a former id counts as the case's id, with a note in the output and
// the JSON.
TEST(FormerIds, AListNamingAFormerIdKeepsWorking) {
    const std::string dir = work_dir() + "/renamed-corpus";
    fs::remove_all(dir);
    fs::copy(fixture(), dir, fs::copy_options::recursive);
    auto manifest = nlohmann::json::parse(read_file(dir + "/manifest.json"));
    for (auto& c : manifest["cases"])
        if (c["id"] == "invalid/tokens/nan-confidence") c["former_ids"] = {"impl/tokens/nan-confidence"};
    write_file(dir + "/manifest.json", manifest.dump(1));
    const std::string list = work_dir() + "/xfail-renamed.txt";
    write_file(list, "# from corpus 0.0.0\nimpl/tokens/nan-confidence  # accepts NaN\n");
    ConformRun r = conform({"--corpus", dir, "--decoder", with_fault("nan-conf", "decode"), "--no-derived", "--expected-failures", list},
                           false);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    expect_consistent_last_line(r);
    EXPECT_EQ(r.result("invalid/tokens/nan-confidence")["status"], "xfail");
    EXPECT_EQ(r.result("invalid/tokens/nan-confidence")["xfail_reason"], "accepts NaN");
    const std::string note = "expected-failures:2: 'impl/tokens/nan-confidence' is now 'invalid/tokens/nan-confidence' (renamed before "
                             "corpus 0.0.1-test); update the list";
    EXPECT_NE(r.out.find("\n" + note + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n  " + note + "\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.results["expected_failures_notes"], nlohmann::json::array({note}));
    EXPECT_TRUE(r.results["unknown_expected_failures"].empty());
}

// Sixty typos: the first ten at the start, fifty in the summary, every one in the JSON.
TEST(FormerIds, ManyUnknownEntriesAreCutInTheTextNotInTheJson) {
    const std::string list = work_dir() + "/xfail-sixty.txt";
    std::string text;
    for (int i = 0; i < 60; ++i) text += "valid/typo/" + std::to_string(i) + "\n";
    write_file(list, text);
    ConformRun r = conform({"--decoder", adapter + " decode", "--no-derived", "--filter", "valid/document/*", "--expected-failures", list});
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(r.results["unknown_expected_failures"].size(), 60u);
    EXPECT_EQ(r.results["summary"]["unknown_expected_failures"], 60);
    EXPECT_NE(r.out.find("\nexpected-failures:10: 'valid/typo/9' matches no case of corpus 0.0.1-test (fails the run)\n"
                         "... 50 more lines about the expected-failures list in the summary\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\n  expected-failures:50: 'valid/typo/49' matches no case of corpus 0.0.1-test\n  ... 10 more (--verbose, "
                         "or see --json)\n"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("'valid/typo/50'"), std::string::npos) << r.out;
}

// ---- bounds ------------------------------------------------------------------------------------

std::string list_read_error(const std::string& path, int seconds = 30) {
    try {
        (void)read_expected_failures(path, seconds);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(read)";
}

TEST(ExpectedFailuresBounds, ExactlyAtTheBoundsIsRead) {
    const std::string lines = work_dir() + "/100000-lines.txt";
    std::string text;
    for (int i = 0; i < 100000; ++i) text += "valid/document/basic\n";  // 2.1 MB: over 1 MiB
    write_file(lines, text.substr(0, 1 << 20));
    EXPECT_EQ(read_expected_failures(lines).size(), (1u << 20) / 21 + 1);  // the last line cut short, but read
    write_file(lines, std::string(99999, '\n') + "valid/document/basic");  // 100000 lines, the last unterminated
    auto list = read_expected_failures(lines);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].line, 100000u);
    EXPECT_EQ(list[0].id, "valid/document/basic");
}

TEST(ExpectedFailuresBounds, TooLongTooManyLinesAndNulAreRefused) {
    const std::string big = work_dir() + "/2mib.txt";
    std::string text;
    while (text.size() < (2u << 20)) text += "valid/document/basic\n";
    write_file(big, text);
    // Byte 1048576 (0-based) is on line 1048576 / 21 + 1.
    EXPECT_EQ(list_read_error(big), "expected-failures:49933: " + big +
                                   " is longer than 1048576 bytes (1 MiB), the most an expected-failures list may hold");
    const std::string many = work_dir() + "/100001-lines.txt";
    write_file(many, std::string(100000, '\n') + "x");
    EXPECT_EQ(list_read_error(many), "expected-failures:100001: " + many + " has more than 100000 lines, the most an expected-failures list may hold");
    const std::string nul = work_dir() + "/nul.txt";
    write_file(nul, std::string("valid/document/basic\n# a comment\nvalid/text/boom") + '\0' + "\n");
    EXPECT_EQ(list_read_error(nul), "expected-failures:3: a NUL byte: " + nul + " is not a text list of case ids");
}

// /dev/zero and an endless pipe stop at the first NUL or at the bound, at once.
TEST(ExpectedFailuresBounds, EndlessInputsStopAtOnce) {
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(list_read_error("/dev/zero"), "expected-failures:1: a NUL byte: /dev/zero is not a text list of case ids");

    const std::string fifo = work_dir() + "/endless.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        sigset_t pipe_signal;  // this thread's write to the closed pipe fails with EPIPE instead
        sigemptyset(&pipe_signal);
        sigaddset(&pipe_signal, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
        // Waits for the reader for at most 5 s (a reader that never comes must not hang the test).
        int fd = -1;
        for (int tries = 0; fd < 0 && tries < 500; ++tries) {
            fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (fd >= 0) ::fcntl(fd, F_SETFL, 0);  // then blocking writes, until the reader closes
        const std::string lines = [] {
            std::string s;
            for (int i = 0; i < 1000; ++i) s += "valid/document/basic\n";
            return s;
        }();
        while (fd >= 0 && ::write(fd, lines.data(), lines.size()) > 0) {
        }
        if (fd >= 0) ::close(fd);
    });
    const std::string error = list_read_error(fifo);
    writer.join();
    EXPECT_EQ(error, "expected-failures:49933: " + fifo + " is longer than 1048576 bytes (1 MiB), the most an expected-failures list may hold");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));

    // A pipe whose writer never comes: refused after the time given.
    const std::string idle = work_dir() + "/idle.fifo";
    ASSERT_EQ(::mkfifo(idle.c_str(), 0600), 0);
    t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(list_read_error(idle, 1), "expected-failures: " + idle + " did not end within 1 s");
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(900));
}

// `ond conform --expected-failures /dev/zero`: a usage error at once, before any case is run.
TEST(ExpectedFailuresBounds, ConformRefusesDevZeroAtOnce) {
    const auto t0 = std::chrono::steady_clock::now();
    ConformRun r = conform({"--decoder", adapter + " decode", "--expected-failures", "/dev/zero"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "ond conform: expected-failures:1: a NUL byte: /dev/zero is not a text list of case ids\n");
    EXPECT_EQ(r.out, "");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

// The gate's seed (the action's default): one per corpus version, whatever else changes.
TEST(DefaultSeed, AFunctionOfTheCorpusVersionAlone) {
    EXPECT_EQ(default_seed("3.0.0"), default_seed(std::string("3.0.") + "0"));
    EXPECT_NE(default_seed("3.0.0"), default_seed("3.0.1"));
    EXPECT_NE(default_seed("3.0.0"), default_seed("2.0.0"));
    // FNV-1a (64-bit) of the version string, modulo 10^9, as conformance/README.md gives it.
    EXPECT_EQ(default_seed("3.0.0"), 812194784u);
    EXPECT_EQ(default_seed(""), 1469598103934665603u % 1000000000u);
}

}  // namespace
}  // namespace ond::conformance
