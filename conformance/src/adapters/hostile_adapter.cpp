// An honest adapter (the reference codec's answers) with one transport trouble, chosen by the
// first argument, for the runner's transport tests:
//
//   ond_hostile_adapter MODE [N] serve|decode|encode|stream
//
//   honest          no trouble
//   helper          keeps a helper process (forked at start) that it asks on every request;
//                   an answer without the helper is an exit with status 3
//   fork-hop        on the first request leaves a process behind that keeps forking and exiting
//   early-answer    (serve) answers a request of more than 64 KiB after reading its first 64 KiB,
//                   then reads and drops the rest
//   late-duplicate  (serve, version 2) sends its N-th answer again 30 ms after its next one
//   exit-after      (serve) exits with status 0 right after its N-th answer
//   close-then-exit (serve) closes its output right after its N-th answer and exits with status 0
//                   100 ms later: the runner sees the end of its output while it is still alive
//   close-input-then-exit  (serve) closes its input right after its N-th answer and exits with
//                   status 0 100 ms later: the runner's next request finds no reader while the
//                   adapter is still alive
//   slow-hello      (serve) waits N ms before it reads anything
//   linger          (serve) does not exit at the end of its input
//   reserve         maps 8 GiB of address space it never touches, then answers
//   touch           touches N MiB on every request and keeps it until the next
//   touch-first     touches 400 MiB on the first request of each operation, and 200 MiB on every
//                   later input the reference rejects, freeing it each time
//   daemon          on its third request (per case: on every run) double-forks; the grandchild
//                   leaves the session (setsid), touches N MiB, says so and sleeps; the adapter
//                   answers once it has heard
//   shm-write       on its first request writes N MiB with write(2) to a file of its own in
//                   /dev/shm (ond-hostile-RUNNER-PID) and keeps the file
//   bought-baseline on the first request of each operation touches N MiB and keeps it; every
//                   later request touches 3/4 of it again (headroom bought with the baseline)
//   stray-flood     (serve) after each answer to an encode request waits for the next request
//                   to arrive, then writes 16 bytes 0x01 before it reads it
//   never-sent-number  (serve, version 2) numbers every answer to an encode request with the
//                   request's number + 1000, a number never sent
//   cannot-start    exits with status 2 before it reads anything, having written only to stderr
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <thread>

#include "suite/reference.hpp"
#include "transport/frame.hpp"

namespace {

using namespace ond::conformance;

std::string mode;
long n_arg = 0;
int helper_fd = -1;

void start_helper() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) std::exit(3);
    if (::fork() == 0) {
        ::close(sv[0]);
        char c;
        while (::read(sv[1], &c, 1) == 1)
            if (::write(sv[1], &c, 1) != 1) break;
        ::_exit(0);
    }
    ::close(sv[1]);
    helper_fd = sv[0];
}

void ask_helper() {
    char c = 'x';
    if (::write(helper_fd, &c, 1) != 1 || ::read(helper_fd, &c, 1) != 1) {
        std::fprintf(stderr, "the helper is gone\n");
        std::exit(3);
    }
}

void fork_hop() {
    if (::fork() != 0) return;
    ::setsid();
    // A hopper the runner failed to stop would eat a core until the machine restarts (init may
    // never reap it): it gives up after a minute, long after the test has judged the runner.
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        const pid_t p = ::fork();
        if (p > 0) ::_exit(0);  // the parent goes, the child carries on
        ::usleep(p < 0 ? 1000 : 100);  // thousands of hops a second, not all the machine has
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(60)) ::_exit(0);
    }
}

volatile char* kept = nullptr;
std::size_t kept_size = 0;

void touch_mib(long mib, bool keep) {
    if (kept) ::munmap(const_cast<char*>(kept), kept_size), kept = nullptr;
    std::size_t n = static_cast<std::size_t>(mib) << 20;
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    auto* c = static_cast<volatile char*>(p);
    for (std::size_t i = 0; i < n; i += 4096) c[i] = 1;
    if (keep) kept = c, kept_size = n;
    else ::munmap(p, n);
}

// A daemon the runner did not start directly: out of the adapter's session and process tree.
void start_daemon(long mib) {
    int told[2];
    if (::pipe(told) != 0) std::exit(3);
    const pid_t child = ::fork();
    if (child == 0) {
        if (::fork() != 0) ::_exit(0);
        ::setsid();
        ::close(told[0]);
        touch_mib(mib, true);
        if (::write(told[1], "x", 1) != 1) ::_exit(1);
        ::close(told[1]);
        ::sleep(60);  // until the runner kills it; a minute at most should it fail to
        ::_exit(0);
    }
    ::close(told[1]);
    if (child > 0) ::waitpid(child, nullptr, 0);
    char c;
    if (::read(told[0], &c, 1) < 0) std::exit(3);  // 0: the grandchild died first (killed over a limit)
    ::close(told[0]);
}

void write_shm(long mib) {
    // Named after the runner that started it (its marker), so that a test counts only its own.
    const char* marker = std::getenv("OND_CONFORM_TESTEE");
    const std::string runner = marker ? std::string(marker).substr(0, std::string(marker).find(':')) : "none";
    const std::string path = "/dev/shm/ond-hostile-" + runner + "-" + std::to_string(::getpid());
    const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    const std::string chunk(1u << 20, 'x');
    for (long i = 0; i < mib; ++i)
        if (::write(fd, chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size())) break;
    ::close(fd);  // the file stays
}

// The first request of each operation buys the memory; later ones spend it without growing.
void buy_or_spend(char op) {
    static std::set<char> bought;
    const std::size_t size = static_cast<std::size_t>(n_arg) << 20;
    if (bought.insert(op).second) {
        if (!kept) {
            void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) std::exit(3);
            kept = static_cast<volatile char*>(p), kept_size = size;
        }
        for (std::size_t i = 0; i < size; i += 4096) kept[i] = 1;
        return;
    }
    for (std::size_t i = 0; i < size / 4 * 3; i += 4096) kept[i] = 2;
}

bool serving = false;

void before_answer(char op, std::string_view input) {
    static std::set<char> seen;
    static bool first = true;
    static long requests = 0;
    ++requests;
    if (mode == "daemon" && (!serving || requests == 3)) start_daemon(n_arg);
    if (mode == "shm-write" && first) write_shm(n_arg);
    if (mode == "bought-baseline") buy_or_spend(op);
    if (mode == "helper") ask_helper();
    if (mode == "fork-hop" && first) fork_hop();
    if (mode == "touch") touch_mib(n_arg, true);
    if (mode == "touch-first" && seen.insert(op).second) touch_mib(400, false);
    else if (mode == "touch-first" && !reference_answer(static_cast<Op>(op), input).accept) touch_mib(200, false);
    first = false;
}

std::string answer_payload(const RefAnswer& a) {
    return a.accept ? a.out : frame::reject_body(a.code, a.out);
}

int serve() {
    if (mode == "slow-hello") std::this_thread::sleep_for(std::chrono::milliseconds(n_arg));
    int version = 1;
    long answered = 0;
    std::string payload;
    for (;;) {
        // Early answer: read the length and the first 64 KiB only, answer, then drop the rest.
        unsigned char len[4];
        if (std::fread(len, 1, 4, stdin) != 4) {
            while (mode == "linger") ::pause();
            return 0;
        }
        const std::uint32_t size = frame::get_le32(std::string_view(reinterpret_cast<char*>(len), 4), 0);
        const bool early = mode == "early-answer" && size > (64u << 10);
        const std::size_t first_part = early ? (64u << 10) : size;
        payload.assign(first_part, '\0');
        if (std::fread(payload.data(), 1, first_part, stdin) != first_part || payload.empty()) return 1;
        if (payload[0] == 'V') {
            version = payload == frame::hello_payload ? 2 : 1;
            frame::write_frame(stdout, version == 2 ? std::string(frame::hello_accepted) : std::string(1, '\2'));
            continue;
        }
        auto rq = frame::parse_request(payload, version);
        if (!rq) return 1;
        before_answer(rq->op, rq->input);
        // An early answer is judged on what was read: a prefix of the input.
        const RefAnswer a = reference_answer(static_cast<Op>(rq->op), rq->input);
        const bool encode = rq->op == 'E';
        const std::uint32_t number = mode == "never-sent-number" && encode ? rq->number + 1000 : rq->number;
        const std::string reply = frame::response_prefix(version, number, a.accept ? frame::accept : frame::reject) + answer_payload(a);
        frame::write_frame(stdout, reply);
        if (mode == "stray-flood" && encode) {
            // After the runner has sent its next request (or closed its input): the stray bytes
            // come where that request's response is due.
            std::fflush(stdout);
            pollfd pf{STDIN_FILENO, POLLIN, 0};
            ::poll(&pf, 1, 5000);
            const std::string flood(16, '\x01');
            std::fwrite(flood.data(), 1, flood.size(), stdout);
            std::fflush(stdout);
        }
        if (early) {
            std::string rest(size - first_part, '\0');
            if (std::fread(rest.data(), 1, rest.size(), stdin) != rest.size()) return 1;
        }
        ++answered;
        static std::string kept_reply;
        if (mode == "late-duplicate" && answered == n_arg) kept_reply = reply;
        if (mode == "late-duplicate" && answered == n_arg + 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            frame::write_frame(stdout, kept_reply);
        }
        if (mode == "exit-after" && answered == n_arg) return 0;
        if (mode == "close-input-then-exit" && answered == n_arg) {
            std::fflush(stdout);
            ::close(STDIN_FILENO);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            std::_Exit(0);
        }
        if (mode == "close-then-exit" && answered == n_arg) {
            std::fflush(stdout);
            ::close(STDOUT_FILENO);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            std::_Exit(0);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: ond_hostile_adapter MODE [N] serve|decode|encode|stream\n");
        return 2;
    }
    mode = argv[1];
    if (mode == "cannot-start") {
        std::fprintf(stderr, "cannot load its runtime\n");
        return 2;
    }
    int at = 2;
    if (argc > 3) n_arg = std::atol(argv[at++]);
    const std::string op = argv[at];
    if (mode == "helper") start_helper();
    if (mode == "reserve") {
        void* p = ::mmap(nullptr, std::size_t{8} << 30, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            std::fprintf(stderr, "cannot reserve 8 GiB of address space\n");
            return 3;
        }
    }
    serving = op == "serve";
    if (op == "serve") return serve();
    const char code = op == "decode" ? 'D' : op == "encode" ? 'E' : op == "stream" ? 'S' : 0;
    if (!code) return 2;
    const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    before_answer(code, input);
    RefAnswer a = reference_answer(static_cast<Op>(code), input);
    std::fwrite(a.out.data(), 1, a.out.size(), stdout);
    std::fflush(stdout);
    if (a.accept) return 0;
    std::fprintf(stderr, "error: %s\n", a.code.c_str());
    return 1;
}
