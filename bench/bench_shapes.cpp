// dynascope-bench --shapes: what each pathological shape of input (core/synth/pathological.h)
// costs to load, against a realistic trace of the same size (core/synth/scale_trace.h). One JSON
// line per shape on stdout:
//
//   shape, bytes, records     the input and what the build found
//   build_s        buildFile over the bytes in memory (median of --runs after a warm-up)
//   mb_per_s       bytes / build_s
//   over_trace     build_s / the realistic trace's build_s (the same size)
//   heap_mb        the built trace's heap, not counting the input buffer
//   open_s         dynascope::load of the shape written to a file: what a user waits for (a
//                  file that is not a trace is refused from its first megabyte)
//   verdict        "loaded" or the refusal's diagnostic code
//
// And a last line for a gzip of --size newlines: gunzip_s (zlib alone, into memory) against
// open_s (the whole load).
#include "bench/bench_shapes.h"
#include "bench/bench_util.h"

#include "core/io/input_buffer.h"
#include "core/load/loader.h"
#include "core/load/trace/file_builder.h"
#include "core/synth/pathological.h"
#include "core/synth/scale_trace.h"
#include "core/writer/compress.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace dynascope::bench {

namespace {

template <typename F> double timed(int runs, F f)
{
    std::vector<double> t;
    for (int i = 0; i <= runs; ++i) {
        const auto t0 = Clock::now();
        f();
        if (i > 0)
            t.push_back(seconds(Clock::now() - t0));
    }
    return median(t);
}

struct Figures {
    size_t records = 0;
    double buildS = 0, heapMb = 0, openS = 0;
    std::string verdict;
};

Figures measure(const std::string& text, const std::string& path, int runs)
{
    Figures f;
    std::string error;
    auto buffer = InputBuffer::fromBytes(text, ~0ull, error);
    f.buildS = timed(runs, [&] {
        malloc_trim(0);
        const double before = heapBytes();
        auto t = buildFile({ "shape.log", buffer, {}, {} });
        f.records = t->records.size();
        f.heapMb = (heapBytes() - before) / 1048576.0;
    });
    {
        std::ofstream out(path, std::ios::binary);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    f.openS = timed(runs, [&] {
        auto r = load({ path });
        f.verdict = r.trace ? "loaded" : r.errors.empty() ? "none" : toString(r.errors[0].code);
    });
    std::filesystem::remove(path);
    return f;
}
} // namespace

int benchShapes(uint64_t size, int runs)
{
    const std::string path = (std::filesystem::temp_directory_path()
        / ("dynascope-bench-shape-" + std::to_string(getpid()) + ".log"))
                                 .string();
    std::ostringstream real;
    writeScaleTrace(real, { size, std::nullopt, 1 });
    const Figures trace = measure(real.str(), path, runs);
    const double mb = static_cast<double>(size) / 1048576.0;
    auto print = [&](const char* shape, uint64_t bytes, const Figures& f) {
        const double mbs = static_cast<double>(bytes) / 1048576.0;
        std::printf("{\"shape\": \"%s\", \"bytes\": %llu, \"records\": %zu, \"build_s\": %.4f, "
                    "\"mb_per_s\": %.1f, \"over_trace\": %.2f, \"heap_mb\": %.1f, \"open_s\": "
                    "%.4f, \"verdict\": \"%s\"}\n",
            shape, static_cast<unsigned long long>(bytes), f.records, f.buildS,
            f.buildS > 0 ? mbs / f.buildS : 0,
            trace.buildS > 0 ? (f.buildS / trace.buildS) * (mb / mbs) : 0, f.heapMb, f.openS,
            f.verdict.c_str());
        std::fflush(stdout);
    };
    print("realistic_trace", real.str().size(), trace);
    for (const auto& s : synth::pathologicalShapes()) {
        const std::string text = synth::makePathological(s.name, size);
        print(s.name, text.size(), measure(text, path, runs));
    }
    // A gzip of newlines: a megabyte on disk for a gigabyte decoded.
    const std::string gz = compressGzip(std::string(size, '\n'));
    {
        std::ofstream out(path + ".gz", std::ios::binary);
        out.write(gz.data(), static_cast<std::streamsize>(gz.size()));
    }
    std::string error;
    const double gunzip = timed(runs, [&] { auto b = InputBuffer::fromBytes(gz, ~0ull, error); });
    const double open = timed(runs, [&] { auto r = load({ path + ".gz" }); });
    std::filesystem::remove(path + ".gz");
    std::printf("{\"shape\": \"gzip_blank_lines\", \"bytes\": %llu, \"gz_bytes\": %zu, "
                "\"gunzip_s\": %.4f, \"open_s\": %.4f, \"open_over_gunzip\": %.2f}\n",
        static_cast<unsigned long long>(size), gz.size(), gunzip, open,
        gunzip > 0 ? open / gunzip : 0);
    return 0;
}

} // namespace dynascope::bench
