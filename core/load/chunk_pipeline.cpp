#include "core/load/chunk_pipeline.h"

#include "core/io/input_buffer.h"

#include <algorithm>

namespace dynascope {

ChunkPipeline::ChunkPipeline(const InputBuffer& buffer, uint64_t chunkBytes, unsigned helpers)
    : m_buffer(buffer)
    , m_chunkBytes(chunkBytes)
    , m_chunks(std::max<size_t>(1, (buffer.size() + chunkBytes - 1) / chunkBytes))
    , m_window(2 * (size_t(helpers) + 1))
    , m_ready(m_chunks)
{
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
        m_cv.wait(lock, [&] { return m_ready[k].done; });
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
    const uint64_t b = chunkStart(m_buffer, k * m_chunkBytes);
    const uint64_t e
        = k + 1 < m_chunks ? chunkStart(m_buffer, (k + 1) * m_chunkBytes) : m_buffer.size();
    scanner.scan(m_buffer, b, std::max(b, e), out);
}

void ChunkPipeline::work()
{
    ChunkScanner scanner;
    std::unique_lock lock(m_mutex);
    while (true) {
        m_cv.wait(lock, [&] {
            return m_quit || (m_nextClaim < m_chunks && m_nextClaim < m_consumed + m_window);
        });
        if (m_quit)
            return;
        const size_t k = m_nextClaim++;
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
}

} // namespace dynascope
