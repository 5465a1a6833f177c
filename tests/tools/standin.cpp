// dynascope-standin: a stand-in for a PyTorch program in the record tests (no torch needed). It
// writes a synthetic trace into $TORCH_TRACE the way PyTorch does (a
// dedicated_log_torch_trace_<random>.log file), then behaves as told:
//
//   --trace graph_break|recompile_chain|none   what to write (default graph_break)
//   --exit N                                   exit with status N (default 0)
//   --raise SIGNAL                             end by this signal (INT, TERM, KILL, SEGV, ...)
//   --catch-sigint                             print "ready", then count SIGINTs for up to 20 s;
//                                              0.3 s after the first, exit 10 + count
//   --echo-stdin                               copy stdin to stdout first
//   --print-env NAME                           print NAME=value of the environment
//   --trace-from FILE --pieces N --every MS    write FILE's trace (decompressed) instead, in N
//                                              pieces cut anywhere, MS apart (live following)
#include "core/io/input_buffer.h"
#include "core/synth/scenarios.h"

#include <algorithm>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace {
std::atomic<int> g_sigints { 0 };

void onSigint(int)
{
    g_sigints.fetch_add(1);
}

int signalNumber(const std::string& name)
{
    const std::string n = name.starts_with("SIG") ? name.substr(3) : name;
    if (n == "INT")
        return SIGINT;
    if (n == "TERM")
        return SIGTERM;
    if (n == "KILL")
        return SIGKILL;
    if (n == "SEGV")
        return SIGSEGV;
    if (n == "HUP")
        return SIGHUP;
    if (n == "ABRT")
        return SIGABRT;
    return std::atoi(n.c_str());
}
} // namespace

int main(int argc, char** argv)
{
    std::string trace = "graph_break";
    int exitCode = 0, raise = 0;
    bool catchSigint = false, echo = false;
    std::string traceFrom;
    int pieces = 1, everyMs = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--trace")
            trace = next();
        else if (a == "--exit")
            exitCode = std::atoi(next().c_str());
        else if (a == "--raise")
            raise = signalNumber(next());
        else if (a == "--catch-sigint")
            catchSigint = true;
        else if (a == "--trace-from")
            traceFrom = next();
        else if (a == "--pieces")
            pieces = std::max(1, std::atoi(next().c_str()));
        else if (a == "--every")
            everyMs = std::atoi(next().c_str());
        else if (a == "--echo-stdin")
            echo = true;
        else if (a == "--print-env") {
            const std::string name = next();
            const char* v = std::getenv(name.c_str());
            std::cout << name << "=" << (v ? v : "") << "\n" << std::flush;
        } else {
            std::cerr << "dynascope-standin: unknown argument " << a << "\n";
            return 64;
        }
    }
    if (echo) {
        std::string line;
        while (std::getline(std::cin, line))
            std::cout << line << "\n";
        std::cout << std::flush;
    }
    const char* dir = std::getenv("TORCH_TRACE");
    if (dir && *dir && !traceFrom.empty()) {
        std::string error;
        auto in = dynascope::InputBuffer::open(traceFrom, 1ull << 30, error);
        if (!in) {
            std::cerr << "dynascope-standin: " << traceFrom << ": " << error << "\n";
            return 66;
        }
        std::ofstream out(
            std::string(dir) + "/dedicated_log_torch_trace_st4nd1n_.log", std::ios::binary);
        const std::string_view bytes = in->view();
        size_t written = 0;
        for (int k = 1; k <= pieces; ++k) {
            // Cut anywhere: inside lines and payloads, as a writer's buffer flushes.
            const size_t end
                = k == pieces ? bytes.size() : bytes.size() * size_t(k) / size_t(pieces) + 7;
            const size_t stop = std::min(end, bytes.size());
            out.write(bytes.data() + written, static_cast<std::streamsize>(stop - written));
            out.flush();
            written = stop;
            if (k < pieces)
                std::this_thread::sleep_for(std::chrono::milliseconds(everyMs));
        }
    } else if (dir && *dir && trace != "none") {
        std::ofstream out(
            std::string(dir) + "/dedicated_log_torch_trace_st4nd1n_.log", std::ios::binary);
        if (trace == "recompile_chain")
            dynascope::writeRecompileChainFixture(out);
        else
            dynascope::writeGraphBreakFixture(out);
    }
    if (catchSigint) {
        std::signal(SIGINT, onSigint);
        std::cout << "ready" << std::endl;
        using namespace std::chrono;
        const auto until = steady_clock::now() + seconds(20);
        while (g_sigints.load() == 0 && steady_clock::now() < until)
            std::this_thread::sleep_for(milliseconds(10));
        std::this_thread::sleep_for(milliseconds(300)); // a second delivery would land here
        return 10 + g_sigints.load();
    }
    if (raise) {
        struct rlimit none {
            0, 0
        };
        setrlimit(RLIMIT_CORE, &none); // no core file from a SIGSEGV test
        std::signal(raise, SIG_DFL);
        std::raise(raise);
    }
    return exitCode;
}
