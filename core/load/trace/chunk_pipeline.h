// ChunkPipeline: scans the chunks of one file ahead on helper threads (chunk_scan.h); take()
// hands them over in file order, scanning a chunk itself when no helper has started it, and
// scanning later chunks while a helper finishes the one it needs, so the consumer never waits on
// an idle pool nor idles while the helpers are behind. At most `window` chunks are scanned ahead
// of the one being consumed.
//
// A chunk of a file is read into the chunk's own buffer (reused when the chunk is recycled), so
// a file is scanned in a few chunks' worth of memory however large it is; bytes in memory are
// scanned where they lie.
//
// A helper never lets an exception escape its thread (that would end the process): what a scan
// throws is kept with its chunk and rethrown by take() on the consumer's thread, where the file
// builder's caller turns it into a diagnostic.
#pragma once

#include "core/load/trace/chunk_scan.h"

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dynascope {

class TraceSource;

class ChunkPipeline {
public:
    // Called with a chunk's index before it is scanned, on the thread that scans it (tests use
    // it to make a scan throw; the loader passes none).
    using ScanHook = std::function<void(size_t chunk)>;

    // `verifyPayloads`: the scans check payload hashes (ChunkScanner::scan).
    ChunkPipeline(const TraceSource& source, uint64_t chunkBytes, unsigned helpers,
        bool verifyPayloads = false, ScanHook hook = {});
    ~ChunkPipeline();
    ChunkPipeline(const ChunkPipeline&) = delete;
    ChunkPipeline& operator=(const ChunkPipeline&) = delete;

    size_t chunks() const { return m_chunks; }

    // Chunk k, scanned (k must not decrease between calls). Rethrows what its scan threw.
    std::unique_ptr<ScannedChunk> take(size_t k, ChunkScanner& scanner);

    // A consumed chunk goes back for reuse: its vectors keep their capacity, so scanning does
    // not write to fresh memory (and take page faults) for every chunk.
    void recycle(std::unique_ptr<ScannedChunk> c);

private:
    struct Slot {
        std::unique_ptr<ScannedChunk> chunk;
        std::exception_ptr error;
        bool done = false;
    };
    std::unique_ptr<ScannedChunk> fresh(); // with m_mutex held
    bool canClaim() const; // a chunk is left to scan within the window (m_mutex held)
    // Scans chunk k (claimed) into a slot of m_ready; called and returns with `lock` held.
    void scanAhead(std::unique_lock<std::mutex>& lock, size_t k, ChunkScanner& scanner);
    void scan(size_t k, ChunkScanner& scanner, ScannedChunk& out) const;
    // chunkStart() over the file: reads from pos on, 64 KB at a time into `bytes`, until a chunk
    // start (or the end) is found.
    uint64_t findStart(uint64_t pos, std::string& bytes) const;
    void work();

    const TraceSource& m_source;
    const size_t m_chunks;
    const size_t m_window;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<Slot> m_ready;
    std::vector<uint64_t> m_starts; // chunk k is [m_starts[k], m_starts[k + 1])
    const ScanHook m_hook;
    const bool m_verifyPayloads;
    size_t m_nextClaim = 0; // chunks below it are being scanned or done
    size_t m_consumed = 0; // chunks handed to the consumer
    bool m_quit = false;
    std::vector<std::unique_ptr<ScannedChunk>> m_free;
    std::vector<std::jthread> m_threads; // last: joined before the rest is destroyed
};

} // namespace dynascope
