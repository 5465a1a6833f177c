// dynascope-bench: writes deterministic synthetic traces (core/synth/scale_trace.h) into a scratch
// folder, then measures in one process and prints one JSON line:
//   scan_s             memchr newline count over the same files, mapped (the loader reads them)
//   load_s             dynascope::load() of every file (default threads)
//   parallel_load_s    the same (threads = hardware concurrency); serial_load_s: threads = 1
//   verified_load_s    a load with payload hashes checked as the chunks are scanned (what
//                      dynascope-cli summary does by default); verified_over_load, its ratio to
//                      an unverified load run next to it (median of the rounds' ratios)
//   heap_mb_after_load malloc'd bytes held by the loaded Trace (mallinfo2 before/after); the trace
//                      reads its files again when asked (core/io/trace_source.h), so this is all
//                      it holds
//   peak_rss_mb        the process's peak resident set while loading and after (the loads above,
//                      one trace kept alive throughout): VmHWM, reset after the scan baseline
//   render_*, hover_*  the timeline widget painting into a 1920x1080 QImage (bench_ui.cpp)
//   findings_s         findFindings() on the loaded trace (what a face computes once per trace)
//   window_load_ms, gui_stall_ms  the app's window opening the trace: to the trace shown with
//                      its findings, and the GUI thread's longest stall meanwhile (bench_ui.cpp)
//   app_first_paint_ms, example_shown_ms  the dynascope app as a child process (see measureApp)
// Every time is the median of several runs after a warm-up run; the page cache is warm.
// Figures are printed, never judged: the CTest test only checks that the line is complete.
#include "bench/bench_heap.h"
#include "bench/bench_logs.h"
#include "bench/bench_md5.h"
#include "bench/bench_shapes.h"
#include "bench/bench_util.h"
#include "core/analysis/findings.h"
#include "core/io/input_buffer.h"
#include "core/load/loader.h"
#include "core/synth/scale_trace.h"

#ifdef DYNASCOPE_BENCH_UI
#include "bench/bench_ui.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <malloc.h>
#include <optional>
#include <spawn.h>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <type_traits>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;
using dynascope::bench::Clock;
using dynascope::bench::heapBytes;
using dynascope::bench::median;
using dynascope::bench::seconds;

namespace {

// Bump when the generator's output changes, so --keep folders are rewritten.
constexpr int kGeneratorVersion = 1;

struct Args {
    uint64_t size = 100ull << 20; // total bytes over all files
    int ranks = 1;
    std::string keep;
    int runs = 0; // 0: 5, or 3 above 256 MB
    uint64_t spans = 1000000;
    std::string app; // default: dynascope next to this program
    bool ui = true;
    bool appTimes = true;
    std::string tlparse; // default: DYNASCOPE_TLPARSE, the live stage's venv, PATH
    std::string torchLogs; // --torch-logs FILE: the TORCH_LOGS text figures instead
    bool shapes = false; // --shapes: throughput per pathological input shape instead
    bool md5 = false; // --md5: payload hashing throughput instead
};

bool parseBytes(const char* text, uint64_t& out)
{
    char* end = nullptr;
    double v = std::strtod(text, &end);
    if (end == text || v <= 0)
        return false;
    std::string unit(end);
    double mult = 1;
    if (unit == "K" || unit == "k" || unit == "KB" || unit == "KiB")
        mult = 1024;
    else if (unit == "M" || unit == "MB" || unit == "MiB")
        mult = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GiB")
        mult = 1024.0 * 1024 * 1024;
    else if (!unit.empty())
        return false;
    out = static_cast<uint64_t>(v * mult);
    return true;
}

int usage(const char* why)
{
    std::fprintf(stderr,
        "dynascope-bench: %s\n"
        "usage: dynascope-bench [--size BYTES] [--ranks N] [--keep DIR] [--runs N] [--spans N]\n"
        "                       [--app PATH] [--no-ui] [--no-app] [--tlparse PATH]\n"
        "                       [--shapes | --md5 | --torch-logs FILE]\n"
        "  --size BYTES  total size of the synthetic trace (suffix K, M or G; default 100M),\n"
        "                split over --ranks files (default 1)\n"
        "  --keep DIR    write the traces there and keep them (reused when they match)\n"
        "  --runs N      timed runs per figure after one warm-up (default 5, 3 above 256 MB)\n"
        "  --spans N     phase spans the timeline paints (default 1000000)\n"
        "  --tlparse PATH  tlparse to time on the same file (default: $DYNASCOPE_TLPARSE, the\n"
        "                live stage's build/pytorch-venv-2.13.0, then PATH; none: null)\n"
        "  --shapes      instead: load throughput per pathological input shape\n"
        "                (bench/bench_shapes.cpp)\n"
        "  --md5         instead: payload hashing throughput, each MD5 kernel and OpenSSL, on\n"
        "                --size bytes of messages (bench/bench_md5.cpp)\n"
        "  --torch-logs FILE  instead: TORCH_LOGS text reading, FILE (a capture) repeated to\n"
        "                --size bytes (bench/bench_logs.cpp)\n",
        why);
    return 1;
}

std::optional<Args> parse(int argc, char** argv, int& rc)
{
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string k = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* v = nullptr;
        if (k == "--no-ui") {
            a.ui = false;
        } else if (k == "--no-app") {
            a.appTimes = false;
        } else if (k == "--shapes") {
            a.shapes = true;
        } else if (k == "--md5") {
            a.md5 = true;
        } else if (k == "--help" || k == "-h") {
            rc = usage("benchmarks loading, memory, timeline painting and start-up");
            return std::nullopt;
        } else if (!(v = value())) {
            rc = usage(("missing value for " + k).c_str());
            return std::nullopt;
        } else if (k == "--size") {
            if (!parseBytes(v, a.size)) {
                rc = usage("bad --size");
                return std::nullopt;
            }
        } else if (k == "--ranks") {
            a.ranks = std::atoi(v);
        } else if (k == "--keep") {
            a.keep = v;
        } else if (k == "--runs") {
            a.runs = std::atoi(v);
        } else if (k == "--spans") {
            uint64_t s = 0;
            if (!parseBytes(v, s)) {
                rc = usage("bad --spans");
                return std::nullopt;
            }
            a.spans = s;
        } else if (k == "--tlparse") {
            a.tlparse = v;
        } else if (k == "--torch-logs") {
            a.torchLogs = v;
        } else if (k == "--app") {
            a.app = v;
        } else {
            rc = usage(("unknown option " + k).c_str());
            return std::nullopt;
        }
    }
    if (a.ranks < 1 || a.ranks > 1024) {
        rc = usage("--ranks wants 1..1024");
        return std::nullopt;
    }
    if (a.runs == 0)
        a.runs = a.size > (256ull << 20) ? 3 : 5;
    return a;
}

std::vector<std::string> tracePaths(const fs::path& dir, int ranks)
{
    std::vector<std::string> out;
    if (ranks == 1) {
        out.push_back((dir / "dedicated_log_torch_trace_bench.log").string());
        return out;
    }
    for (int r = 0; r < ranks; ++r)
        out.push_back((dir / ("dedicated_log_torch_trace_rank_" + std::to_string(r) + "_bench.log"))
                          .string());
    return out;
}

// Writes the traces (in parallel over ranks) unless a matching set is already there.
bool generate(const Args& a, const fs::path& dir, const std::vector<std::string>& paths)
{
    const std::string stamp = "dynascope-bench generator " + std::to_string(kGeneratorVersion)
        + " size " + std::to_string(a.size) + " ranks " + std::to_string(a.ranks) + "\n";
    const fs::path stampPath = dir / "bench.stamp";
    {
        std::ifstream in(stampPath);
        std::string have((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        bool all = have == stamp;
        for (const auto& p : paths)
            all = all && fs::exists(p);
        if (all) {
            std::fprintf(stderr, "dynascope-bench: reusing the traces in %s\n", dir.c_str());
            return true;
        }
    }
    std::error_code ec;
    fs::remove(stampPath, ec);
    const uint64_t perFile = a.size / uint64_t(a.ranks);
    auto t0 = Clock::now();
    std::atomic<size_t> next { 0 };
    std::atomic<bool> ok { true };
    auto work = [&] {
        for (size_t i; (i = next++) < paths.size();) {
            std::vector<char> buf(1 << 20);
            std::ofstream out;
            out.rdbuf()->pubsetbuf(buf.data(), static_cast<std::streamsize>(buf.size()));
            out.open(paths[i], std::ios::binary | std::ios::trunc);
            dynascope::ScaleTraceOptions o;
            o.targetBytes = perFile;
            if (a.ranks > 1)
                o.rank = static_cast<int64_t>(i);
            dynascope::writeScaleTrace(out, o);
            out.close();
            if (!out)
                ok = false;
        }
    };
    {
        unsigned n = std::max(1u,
            std::min<unsigned>(
                std::thread::hardware_concurrency(), static_cast<unsigned>(paths.size())));
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < n; ++t)
            pool.emplace_back(work);
        work();
    }
    if (!ok) {
        std::fprintf(stderr, "dynascope-bench: cannot write the traces into %s\n", dir.c_str());
        return false;
    }
    std::ofstream(stampPath) << stamp;
    std::fprintf(stderr, "dynascope-bench: wrote %zu file(s) in %.1f s\n", paths.size(),
        seconds(Clock::now() - t0));
    return true;
}

// memchr over each file, mapped (MAP_PRIVATE, MADV_SEQUENTIAL): the speed of reading the bytes at
// all.
uint64_t scanOnce(const std::vector<std::string>& paths)
{
    uint64_t lines = 0;
    for (const auto& p : paths) {
        int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat st { };
        fstat(fd, &st);
        size_t len = static_cast<size_t>(st.st_size);
        void* map = len ? mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
        ::close(fd);
        if (map == MAP_FAILED)
            continue;
        madvise(map, len, MADV_SEQUENTIAL | MADV_WILLNEED);
        const char* d = static_cast<const char*>(map);
        const char* end = d + len;
        while (const void* nl = std::memchr(d, '\n', static_cast<size_t>(end - d))) {
            ++lines;
            d = static_cast<const char*>(nl) + 1;
        }
        munmap(map, len);
    }
    return lines;
}

double cpuSeconds()
{
    struct rusage ru { };
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
        + static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// Sets the process's peak resident set (VmHWM) back to its current size (Linux 4.0+), so that the
// peak read next is that of what follows, not of the mapped scan before it.
void resetPeakRss()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

double peakRssMb()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("VmHWM:"))
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0; // kB
    struct rusage ru { };
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0; // KiB on Linux
}

std::string selfDir()
{
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : p.parent_path().string();
}

// Wall time of the app from exec to exit, in milliseconds; nullopt when it fails.
std::optional<double> runApp(const std::vector<std::string>& argv)
{
    std::vector<char*> args;
    for (const auto& s : argv)
        args.push_back(const_cast<char*>(s.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> envStore;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "QT_QPA_PLATFORM=", 16) != 0)
            envStore.emplace_back(*e);
    envStore.emplace_back("QT_QPA_PLATFORM=offscreen");
    std::vector<char*> env;
    for (auto& s : envStore)
        env.push_back(s.data());
    env.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    auto t0 = Clock::now();
    pid_t pid = 0;
    int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return std::nullopt;
    int status = 0;
    waitpid(pid, &status, 0);
    double ms = seconds(Clock::now() - t0) * 1000;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return std::nullopt;
    return ms;
}

// The app has no option that prints its own start-up timing, so these are wall times of
// `dynascope --screenshot OUT.png` (start page) and `dynascope --example --screenshot OUT.png`:
// process start to the window painted into a PNG, written, and the process gone. They include
// PNG encoding and exit, so they overstate what a user waits for.
std::pair<std::optional<double>, std::optional<double>> measureApp(
    const std::string& app, const fs::path& dir, int runs)
{
    if (app.empty() || access(app.c_str(), X_OK) != 0)
        return {};
    const std::string png = (dir / "bench-app.png").string();
    auto series = [&](std::vector<std::string> argv) -> std::optional<double> {
        if (!runApp(argv)) // warm-up (and a check that it works)
            return std::nullopt;
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i)
            if (auto t = runApp(argv))
                ms.push_back(*t);
        if (ms.empty())
            return std::nullopt;
        return median(ms);
    };
    auto first = series({ app, "--screenshot", png });
    auto example = series({ app, "--example", "--screenshot", png });
    std::error_code ec;
    fs::remove(png, ec);
    return { first, example };
}

// tlparse, the incumbent, as its users run it: the whole report of one file into a folder.
std::string findTlparse(const std::string& given)
{
    std::vector<std::string> candidates;
    if (!given.empty())
        candidates.push_back(given);
    if (const char* env = std::getenv("DYNASCOPE_TLPARSE"))
        candidates.emplace_back(env);
    candidates.push_back(selfDir() + "/../pytorch-venv-2.13.0/bin/tlparse");
    if (const char* path = std::getenv("PATH")) {
        std::string_view rest = path;
        while (!rest.empty()) {
            const size_t colon = rest.find(':');
            candidates.push_back(std::string(rest.substr(0, colon)) + "/tlparse");
            rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        }
    }
    for (const auto& c : candidates)
        if (!c.empty() && access(c.c_str(), X_OK) == 0)
            return c;
    return {};
}

std::optional<double> measureTlparse(
    const std::string& tlparse, const std::string& file, const fs::path& dir, int runs)
{
    if (tlparse.empty())
        return std::nullopt;
    const std::string out = (dir / "bench-tlparse-out").string();
    const std::vector<std::string> argv { tlparse, file, "-o", out, "--overwrite", "--no-browser" };
    std::optional<double> result;
    if (runApp(argv)) { // warm-up, and a check that it runs
        std::vector<double> s;
        for (int i = 0; i < runs; ++i)
            if (auto ms = runApp(argv))
                s.push_back(*ms / 1000.0);
        if (!s.empty())
            result = median(s);
    }
    std::error_code ec;
    fs::remove_all(out, ec);
    return result;
}

std::string num(std::optional<double> v, int decimals)
{
    if (!v || !std::isfinite(*v))
        return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
    return buf;
}

} // namespace

int main(int argc, char** argv)
{
    int rc = 0;
    auto parsed = parse(argc, argv, rc);
    if (!parsed)
        return rc;
    const Args a = *parsed;
    if (a.shapes)
        return dynascope::bench::benchShapes(a.size, a.runs ? a.runs : 3);
    if (a.md5)
        return dynascope::bench::benchMd5(a.size, a.runs);
    if (!a.torchLogs.empty())
        return dynascope::bench::benchTorchLogs(a.torchLogs, a.size, a.runs);

    fs::path dir;
    bool temporary = a.keep.empty();
    if (temporary) {
        std::string tmpl = (fs::temp_directory_path() / "dynascope-bench-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) {
            std::perror("dynascope-bench: mkdtemp");
            return 2;
        }
        dir = tmpl;
    } else {
        dir = a.keep;
        std::error_code ec;
        fs::create_directories(dir, ec);
    }
    const auto paths = tracePaths(dir, a.ranks);
    if (!generate(a, dir, paths))
        return 2;
    uint64_t bytes = 0;
    for (const auto& p : paths)
        bytes += fs::file_size(p);

    // Warm-up: the page cache, the allocator, the code.
    scanOnce(paths);
    {
        auto warm = dynascope::load(paths);
        if (!warm.trace || !warm.errors.empty()) {
            std::fprintf(stderr, "dynascope-bench: the synthetic trace does not load\n");
            return 2;
        }
        if (!warm.trace->diagnostics.empty())
            std::fprintf(stderr, "dynascope-bench: warning: %zu diagnostics, the first: %s\n",
                warm.trace->diagnostics.size(), warm.trace->diagnostics.front().format().c_str());
    }

    std::vector<double> scan;
    for (int i = 0; i < a.runs; ++i) {
        auto t0 = Clock::now();
        volatile uint64_t lines = scanOnce(paths);
        (void)lines;
        scan.push_back(seconds(Clock::now() - t0));
    }

    malloc_trim(0);
    resetPeakRss();
    const double heapBefore = heapBytes();
    auto kept = dynascope::load(paths);
    const double heapAfter = heapBytes();
    std::shared_ptr<const dynascope::Trace> trace = kept.trace;

    // CPU time (user + system, all threads) next to the wall time: on a shared machine the wall
    // time includes waiting for a core, the CPU time does not.
    auto loadSeries = [&](unsigned threads, const char* what) {
        std::vector<double> wall, cpu;
        dynascope::LoadOptions o;
        o.threads = threads;
        for (int i = 0; i < a.runs; ++i) {
            const double c0 = cpuSeconds();
            auto t0 = Clock::now();
            auto r = dynascope::load(paths, o);
            wall.push_back(seconds(Clock::now() - t0));
            cpu.push_back(cpuSeconds() - c0);
        }
        std::fprintf(stderr, "dynascope-bench: %s: wall %.3f s, cpu %.3f s (medians of %d)\n", what,
            median(wall), median(cpu), a.runs);
        return median(wall);
    };
    const double load = loadSeries(0, "load (default threads)");
    const double serial = loadSeries(1, "load (1 thread)");
    // Payload hashes, as dynascope-cli summary checks them by default: loads without them,
    // with them checked as the chunks are scanned, and with Trace::verifyPayloads() after an
    // unverified load, one after the other in each round, so that a machine busy with something
    // else for a while slows all three alike; verified_over_load is the median of the rounds'
    // ratios.
    double verified = 0, verifiedOverLoad = 0;
    {
        std::vector<double> wall[3], cpu[3], ratio, ratioAfter;
        for (int i = 0; i < a.runs; ++i) {
            for (int mode = 0; mode < 3; ++mode) {
                dynascope::LoadOptions o;
                o.verifyPayloads = mode == 1;
                const double c0 = cpuSeconds();
                auto t0 = Clock::now();
                auto r = dynascope::load(paths, o);
                if (mode > 0 && r.trace) {
                    volatile size_t n = r.trace->verifyPayloads().diagnostics.size();
                    (void)n;
                }
                wall[mode].push_back(seconds(Clock::now() - t0));
                cpu[mode].push_back(cpuSeconds() - c0);
            }
            ratio.push_back(wall[1].back() / wall[0].back());
            ratioAfter.push_back(wall[2].back() / wall[0].back());
        }
        const char* what[3] = { "unverified", "verified as scanned", "verified after the load" };
        for (int mode = 0; mode < 3; ++mode)
            std::fprintf(stderr,
                "dynascope-bench: load, %s: wall %.3f s, cpu %.3f s (medians of %d)\n", what[mode],
                median(wall[mode]), median(cpu[mode]), a.runs);
        verified = median(wall[1]);
        verifiedOverLoad = median(ratio);
        std::fprintf(stderr,
            "dynascope-bench: verified load over unverified, median of %d rounds: %.2fx as "
            "scanned, %.2fx after the load\n",
            a.runs, verifiedOverLoad, median(ratioAfter));
    }
    const double scanS = median(scan);
    {
        double inputMb = 0;
        for (const auto& f : trace->files)
            inputMb += static_cast<double>(f.decodedBytes) / (1024.0 * 1024.0);
        double la[3] = { 0, 0, 0 };
        if (getloadavg(la, 3) < 1)
            la[0] = -1;
        std::fprintf(stderr,
            "dynascope-bench: input %.1f MB decoded, read again from the files when asked (not "
            "held); load average %.2f on %u cores\n",
            inputMb, la[0], std::thread::hardware_concurrency());
        dynascope::bench::printHeapParts(*trace);
    }

    const double peakRss = peakRssMb(); // the loads' (the timeline below paints into images)
    std::optional<double> findingsS;
    if (trace) {
        std::vector<double> w;
        size_t found = 0;
        for (int i = 0; i < a.runs; ++i) {
            auto t0 = Clock::now();
            found = dynascope::findFindings(*trace).size();
            w.push_back(seconds(Clock::now() - t0));
        }
        findingsS = median(w);
        std::fprintf(stderr, "dynascope-bench: findings: %zu in %.3f s (median of %d)\n", found,
            *findingsS, a.runs);
    }
    std::optional<double> renderMedian, renderP95, hoverMedian, windowLoad, guiStall;
#ifdef DYNASCOPE_BENCH_UI
    if (a.ui) {
        auto r = dynascope::bench::measureTimeline(trace, paths, a.spans, argc, argv);
        renderMedian = r.renderMsMedian;
        windowLoad = r.windowLoadMs;
        guiStall = r.guiStallMs;
        renderP95 = r.renderMsP95;
        hoverMedian = r.hoverMsMedian;
        if (r.renderMsMedian)
            std::fprintf(stderr,
                "dynascope-bench: timeline: %llu spans over %llu compiles, %d frames, %d hovers\n",
                static_cast<unsigned long long>(r.spans),
                static_cast<unsigned long long>(r.compiles), r.frames, r.hovers);
        else
            std::fprintf(stderr, "dynascope-bench: timeline figures null: %s\n",
                "the timeline widget (ui/timeline/timelineview.h) was not built in");
    }
#endif

    std::optional<double> firstPaint, exampleShown;
    if (a.appTimes) {
        std::string app = a.app.empty() ? selfDir() + "/dynascope" : a.app;
        auto [f, e] = measureApp(app, dir, 3);
        firstPaint = f;
        exampleShown = e;
        if (f || e)
            std::fprintf(stderr,
                "dynascope-bench: app times are wall times of `dynascope --screenshot` runs "
                "(the app has no timing option)\n");
    }

    // Side by side with tlparse on the same file (the first one): Dynascope's load of that file
    // against tlparse's run, in this process run.
    std::optional<double> tlparseS, loadFirstS;
    if (const std::string tl = findTlparse(a.tlparse); !tl.empty()) {
        tlparseS = measureTlparse(tl, paths.front(), dir, a.runs);
        std::vector<double> w;
        for (int i = 0; i < a.runs; ++i) {
            auto t0 = Clock::now();
            auto r = dynascope::load({ paths.front() });
            w.push_back(seconds(Clock::now() - t0));
        }
        loadFirstS = median(w);
        std::fprintf(stderr,
            "dynascope-bench: tlparse (%s) on %s: %s s; Dynascope's load of the same file %s s\n",
            tl.c_str(), paths.front().c_str(), num(tlparseS, 3).c_str(),
            num(loadFirstS, 3).c_str());
    } else {
        std::fprintf(
            stderr, "dynascope-bench: tlparse figures null: no tlparse found (--tlparse)\n");
    }
    double tlparseOverLoad = std::nan(""); // printed as null unless both ran
    if (tlparseS && loadFirstS && *loadFirstS > 0)
        tlparseOverLoad = *tlparseS / *loadFirstS;

    const double heapMb = (heapAfter - heapBefore) / (1024.0 * 1024.0);
    std::printf("{\"bytes\": %llu, \"records\": %llu, \"compiles\": %llu, \"scan_s\": %s, "
                "\"load_s\": %s, \"load_over_scan\": %s, \"parallel_load_s\": %s, "
                "\"serial_load_s\": %s, \"verified_load_s\": %s, \"verified_over_load\": %s, "
                "\"heap_mb_after_load\": %s, \"peak_rss_mb\": %s, "
                "\"findings_s\": %s, \"window_load_ms\": %s, \"gui_stall_ms\": %s, "
                "\"render_ms_median\": %s, \"render_ms_p95\": %s, \"hover_ms_median\": %s, "
                "\"app_first_paint_ms\": %s, \"example_shown_ms\": %s, \"tlparse_s\": %s, "
                "\"tlparse_file_load_s\": %s, \"tlparse_over_load\": %s}\n",
        static_cast<unsigned long long>(bytes),
        static_cast<unsigned long long>(trace ? trace->records.size() : 0),
        static_cast<unsigned long long>(trace ? trace->compileCount() : 0), num(scanS, 4).c_str(),
        num(load, 4).c_str(), num(scanS > 0 ? load / scanS : std::optional<double>(), 2).c_str(),
        num(load, 4).c_str(), num(serial, 4).c_str(), num(verified, 4).c_str(),
        num(verifiedOverLoad, 2).c_str(), num(heapMb, 1).c_str(), num(peakRss, 1).c_str(),
        num(findingsS, 3).c_str(), num(windowLoad, 0).c_str(), num(guiStall, 0).c_str(),
        num(renderMedian, 2).c_str(), num(renderP95, 2).c_str(), num(hoverMedian, 2).c_str(),
        num(firstPaint, 0).c_str(), num(exampleShown, 0).c_str(), num(tlparseS, 3).c_str(),
        num(loadFirstS, 4).c_str(), num(tlparseOverLoad, 1).c_str());
    std::fflush(stdout);

    trace.reset();
    kept = {};
    if (temporary) {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    return 0;
}
