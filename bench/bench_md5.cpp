#include "bench/bench_md5.h"

#include "core/util/md5_many.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace dynascope::bench {

namespace {
// Seconds of the fastest of `runs` runs of f (each hashes everything once).
template <typename F> double fastest(int runs, F&& f)
{
    double best = 1e300;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}
} // namespace

int benchMd5(uint64_t size, int runs)
{
    // Text-like bytes (the speed does not depend on them).
    std::string bytes(size, '\0');
    std::mt19937 rng(1);
    for (char& c : bytes)
        c = static_cast<char>(' ' + rng() % 95);
    // The bench trace's payloads: most are 0.2-0.5 KB; most of the bytes are in 8-128 KB ones.
    for (const uint64_t typical : { 300ull, 2000ull, 20000ull, 100000ull }) {
        std::vector<Md5Message> messages;
        std::uniform_int_distribution<uint64_t> length(typical / 2, typical * 3 / 2);
        for (uint64_t at = 0; at < size;) {
            const uint64_t n = std::min(length(rng), size - at);
            messages.push_back({ std::string_view(bytes).substr(at, n) });
            at += n;
        }
        // A chunk scanner hashes the payloads of one 4 MB chunk at a time.
        const uint64_t batch = std::max<uint64_t>(1, (4ull << 20) / typical);
        auto hashAll = [&](int lanes) {
            for (size_t i = 0; i < messages.size(); i += batch)
                md5ManyWith(
                    lanes, messages.data() + i, std::min<size_t>(batch, messages.size() - i));
        };
        std::printf("{\"message_bytes\": %llu, \"messages\": %zu", (unsigned long long)typical,
            messages.size());
        for (int lanes : md5ManyWidths())
            std::printf(", \"lanes_%d_gb_s\": %.2f", lanes,
                double(size) / 1e9 / fastest(runs, [&] { hashAll(lanes); }));
        std::printf(
            ", \"openssl_gb_s\": %.2f}\n", double(size) / 1e9 / fastest(runs, [&] { hashAll(0); }));
    }
    return 0;
}

} // namespace dynascope::bench
