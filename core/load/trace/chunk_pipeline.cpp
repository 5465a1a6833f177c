#include "core/load/trace/chunk_pipeline.h"

#include "core/io/trace_source.h"

#include <algorithm>
#include <utility>

namespace dynascope {

ChunkPipeline::ChunkPipeline(const TraceSource& source, uint64_t chunkBytes, unsigned helpers,
    bool verifyPayloads, ScanHook hook)
    : m_source(source)
    , m_chunks(std::max<size_t>(1, (source.size() + chunkBytes - 1) / chunkBytes))
    , m_window(2 * (size_t(helpers) + 1))
    , m_ready(m_chunks)
    , m_starts(m_chunks + 1, source.size())
    , m_hook(std::move(hook))
    , m_verifyPayloads(verifyPayloads)
{
    // Chunk k starts at the first line at or after k * chunkBytes that can start a record
    // (chunkStart). A start found past the next boundary is that chunk's start too, so no byte is
    // searched twice: a file of blank lines, of payload lines or of one huge line made every
    // chunk search to the end of the file (quadratic: 16 -> 32 MiB of newlines took 0.52 ->
    // 2.57 s).
    m_starts[0] = 0;
    std::string window; // the bytes findStart reads, reused
    for (size_t k = 1; k < m_chunks; ++k) {
        const uint64_t at = k * chunkBytes;
        m_starts[k] = m_starts[k - 1] >= at ? m_starts[k - 1] : findStart(at, window);
    }
    helpers = static_cast<unsigned>(std::min<size_t>(helpers, m_chunks - 1));
    for (unsigned i = 0; i < helpers; ++i)
        m_threads.emplace_back([this] { work(); });
}

ChunkPipeline::~ChunkPipeline()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_cv.notify_all();
    m_threads.clear(); // joins
}

std::unique_ptr<ScannedChunk> ChunkPipeline::take(size_t k, ChunkScanner& scanner)
{
    std::unique_lock lock(m_mutex);
    std::unique_ptr<ScannedChunk> c;
    std::exception_ptr error;
    if (m_nextClaim <= k) {
        m_nextClaim = k + 1;
        c = fresh();
        lock.unlock();
        try {
            scan(k, scanner, *c);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
    } else {
        // Chunk k is being scanned by a helper. Rather than wait, scan the next chunk nobody has
        // started: when scanning is the slower side (payload hashes checked as they are
        // scanned), the consumer waited for the one helper of a two-core machine and the load
        // ran on one core.
        while (!m_ready[k].done) {
            if (canClaim()) {
                scanAhead(lock, m_nextClaim++, scanner);
                continue;
            }
            m_cv.wait(lock, [&] { return m_ready[k].done || canClaim(); });
        }
        c = std::move(m_ready[k].chunk);
        error = std::move(m_ready[k].error);
    }
    m_consumed = k + 1;
    m_cv.notify_all();
    lock.unlock();
    if (error)
        std::rethrow_exception(error);
    return c;
}

void ChunkPipeline::recycle(std::unique_ptr<ScannedChunk> c)
{
    if (!c)
        return;
    std::lock_guard lock(m_mutex);
    m_free.push_back(std::move(c));
}

std::unique_ptr<ScannedChunk> ChunkPipeline::fresh()
{
    if (m_free.empty())
        return std::make_unique<ScannedChunk>();
    auto c = std::move(m_free.back());
    m_free.pop_back();
    return c;
}

void ChunkPipeline::scan(size_t k, ChunkScanner& scanner, ScannedChunk& out) const
{
    if (m_hook)
        m_hook(k);
    const uint64_t b = m_starts[k];
    const uint64_t e = std::max(b, m_starts[k + 1]);
    if (const InputBuffer* memory = m_source.memory()) {
        out.window = memory->window();
        scanner.scan(out.window, b, e, out, m_verifyPayloads);
        return;
    }
    // A buffer that grew for one huge chunk goes back rather than stay with the pipeline.
    if (out.bytes.capacity() > 2 * (e - b) + (64u << 20))
        std::string().swap(out.bytes);
    out.window = m_source.read(b, e - b, out.bytes);
    // A file that changed meanwhile (shorter than indexed) gives an empty chunk: the rest of the
    // file is left out, and the loader says why (TraceSource::problem()).
    if (out.window.empty() || out.window.end != e)
        out.window = { out.bytes.data(), b, b };
    scanner.scan(out.window, b, out.window.end, out, m_verifyPayloads);
}

uint64_t ChunkPipeline::findStart(uint64_t pos, std::string& bytes) const
{
    if (const InputBuffer* memory = m_source.memory())
        return chunkStart(memory->window(), pos);
    // Forward in 64 KB steps, each window starting at the previous one's last byte (chunkStart
    // looks at the byte before `pos`): the memory stays 64 KB however long the line is.
    constexpr uint64_t kStep = 64u << 10;
    for (uint64_t at = pos;;) {
        const ByteWindow w = m_source.read(at - 1, kStep, bytes);
        if (w.empty())
            return m_source.size();
        const uint64_t c = chunkStart(w, at);
        if (c < w.end || w.end >= m_source.size())
            return c;
        at = w.end;
    }
}

bool ChunkPipeline::canClaim() const
{
    return m_nextClaim < m_chunks && m_nextClaim < m_consumed + m_window;
}

void ChunkPipeline::scanAhead(std::unique_lock<std::mutex>& lock, size_t k, ChunkScanner& scanner)
{
    Slot slot;
    try {
        slot.chunk = fresh();
        lock.unlock();
        scan(k, scanner, *slot.chunk);
    } catch (...) {
        slot.error = std::current_exception();
    }
    if (!lock.owns_lock())
        lock.lock();
    slot.done = true;
    m_ready[k] = std::move(slot);
    m_cv.notify_all();
}

void ChunkPipeline::work()
{
    ChunkScanner scanner;
    std::unique_lock lock(m_mutex);
    while (true) {
        m_cv.wait(lock, [&] { return m_quit || canClaim(); });
        if (m_quit)
            return;
        scanAhead(lock, m_nextClaim++, scanner);
    }
}

} // namespace dynascope
