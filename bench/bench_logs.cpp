// dynascope-bench --torch-logs FILE: the TORCH_LOGS text reader's speed on a large capture.
//
// The capture is FILE (a real one, e.g. tests/scenarios/recorded/torch-2.13.0/example/
// torch_logs.txt.zst; .zst/.gz are read like traces) repeated to --size bytes, each repetition
// with its frame ids moved on (the prefixes' "[3/1]", the reasons' "3/0:"), as one long job
// that compiled many frames. One JSON line on stdout:
//
//   torch_logs_bytes, lines, statements, compiles   the capture and what the load found
//   scan_s        memchr newline count over the same bytes in memory (the floor)
//   load_s        dynascope::load of the file (median of --runs after a warm-up)
//   mb_per_s      torch_logs_bytes / load_s
//   load_over_scan
//   heap_mb_after_load  the loaded trace's heap (its statements' text included: the input's
//                       bytes are not kept)
#include "bench/bench_logs.h"
#include "bench/bench_util.h"

#include "core/io/input_buffer.h"
#include "core/load/loader.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace dynascope::bench {

namespace {

// The seed with every frame id moved on by `offset`: "] [3/1" -> "] [103/1", "- 3/0:" ->
// "- 103/0:", "last reason: 3/0:" likewise.
std::string shifted(const std::string& seed, int offset)
{
    std::string out;
    out.reserve(seed.size() + seed.size() / 50);
    size_t i = 0;
    while (i < seed.size()) {
        size_t best = std::string::npos, len = 0;
        for (const char* t : { "] [", "- ", "last reason: " }) {
            const size_t p = seed.find(t, i);
            if (p < best) {
                best = p;
                len = std::strlen(t);
            }
        }
        if (best == std::string::npos) {
            out.append(seed, i, std::string::npos);
            break;
        }
        size_t d = best + len, e = d;
        while (e < seed.size() && seed[e] >= '0' && seed[e] <= '9')
            ++e;
        out.append(seed, i, d - i);
        if (e > d && e < seed.size() && seed[e] == '/') {
            out += std::to_string(std::stoll(seed.substr(d, e - d)) + offset);
            i = e;
        } else {
            i = d;
        }
    }
    return out;
}
} // namespace

int benchTorchLogs(const std::string& seedPath, uint64_t size, int runs)
{
    std::string error;
    auto seedBuffer = InputBuffer::open(seedPath, 1ull << 30, error);
    if (!seedBuffer) {
        std::fprintf(stderr, "dynascope-bench: %s: %s\n", seedPath.c_str(), error.c_str());
        return 2;
    }
    const std::string seed(seedBuffer->view());
    if (seed.empty()) {
        std::fprintf(stderr, "dynascope-bench: %s is empty\n", seedPath.c_str());
        return 2;
    }
    // The frame ids of one repetition stay below the next one's.
    int step = 1;
    for (const auto& t : { std::string("] ["), std::string("- ") }) {
        for (size_t p = seed.find(t); p != std::string::npos; p = seed.find(t, p + 1))
            step = std::max(step, std::atoi(seed.c_str() + p + t.size()) + 1);
    }
    std::string text;
    text.reserve(size + seed.size());
    for (int rep = 0; text.size() < size; ++rep)
        text += rep == 0 ? seed : shifted(seed, rep * step);

    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const std::string path
        = (dir / ("dynascope-bench-logs-" + std::to_string(getpid()) + ".txt")).string();
    {
        std::ofstream out(path, std::ios::binary);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out) {
            std::fprintf(stderr, "dynascope-bench: cannot write %s\n", path.c_str());
            return 2;
        }
    }
    uint64_t lines = 0;
    std::vector<double> scan, loads;
    for (int i = 0; i <= runs; ++i) {
        const auto t0 = Clock::now();
        const char* d = text.data();
        const char* end = d + text.size();
        uint64_t n = 0;
        while (const void* nl = std::memchr(d, '\n', static_cast<size_t>(end - d))) {
            ++n;
            d = static_cast<const char*>(nl) + 1;
        }
        lines = n;
        if (i > 0)
            scan.push_back(seconds(Clock::now() - t0));
    }
    const uint64_t bytes = text.size();
    text = std::string();
    size_t statements = 0, compiles = 0;
    double heapMb = 0;
    for (int i = 0; i <= runs; ++i) { // the first is the warm-up
        malloc_trim(0);
        const double before = heapBytes();
        const auto t0 = Clock::now();
        auto r = load({ path });
        const double s = seconds(Clock::now() - t0);
        if (!r.trace) {
            std::fprintf(stderr, "dynascope-bench: the capture does not load\n");
            std::filesystem::remove(path);
            return 2;
        }
        if (i > 0)
            loads.push_back(s);
        statements = r.trace->records.size();
        compiles = r.trace->compiles.size();
        // The trace keeps the statements' text (its buffer), not the input bytes.
        heapMb = (heapBytes() - before) / 1048576.0;
    }
    std::filesystem::remove(path);
    const double load = median(loads), sc = median(scan);
    std::printf("{\"torch_logs_bytes\": %llu, \"lines\": %llu, \"statements\": %zu, \"compiles\": "
                "%zu, \"scan_s\": %.4f, \"load_s\": %.4f, \"mb_per_s\": %.1f, \"load_over_scan\": "
                "%.1f, \"heap_mb_after_load\": %.1f}\n",
        static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(lines), statements,
        compiles, sc, load, load > 0 ? static_cast<double>(bytes) / 1048576.0 / load : 0,
        sc > 0 ? load / sc : 0, heapMb);
    return 0;
}

} // namespace dynascope::bench
