// TraceSource: where a loaded file's bytes are read again after loading. The model keeps offsets,
// not text (records, guard trees, metrics JSON), and reads a record's bytes from its source when
// a view asks for them, so a loaded trace does not hold its input in memory.
//
// - A plain regular file is indexed where it lies and read again with positional reads from the
//   descriptor opened for loading (never a mapping: a file truncated under a mapping raises
//   SIGBUS at the next access). Each read checks that the file is still the one indexed: a file
//   that shrank is said to have changed; one written since (appended to: a TORCH_TRACE of a
//   running job) is read, and the caller checks what it reads (Trace: the record's line and its
//   payload MD5).
// - A compressed file, a pipe or standard input is decoded once into an unlinked temporary file
//   (in $TMPDIR, else /tmp), at most the decoded-size limit; running out of temporary space is
//   an error that says where.
// - Bytes already in memory (tests, the live follower, pasted text) stay there.
#pragma once

#include "core/io/byte_window.h"
#include "core/io/input_buffer.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace dynascope {

class TraceSource {
public:
    static std::shared_ptr<const TraceSource> fromMemory(std::shared_ptr<const InputBuffer> bytes);
    // Opens `path` ("/dev/stdin" for standard input). Null with `error` set when nothing could be
    // read; non-null with `error` set is a warning (a cut compressed stream: what decoded is
    // kept). maxDecoded limits the decoded size, and what is read from a pipe.
    static std::shared_ptr<const TraceSource> open(
        const std::string& path, uint64_t maxDecoded, std::string& error);
    ~TraceSource();
    TraceSource(const TraceSource&) = delete;
    TraceSource& operator=(const TraceSource&) = delete;

    uint64_t size() const { return m_size; } // decoded bytes, all of which were indexed
    uint64_t fileBytes() const { return m_fileBytes; } // on disk
    InputBuffer::Compression compression() const { return m_compression; }
    // The bytes when they are held in memory, else null.
    const InputBuffer* memory() const { return m_memory.get(); }
    // Whether the bytes are in a file of Dynascope's own (decoded input), which nobody else
    // writes to.
    bool isPrivateCopy() const { return m_private; }

    // Bytes [offset, offset + length) (clamped to size()). From memory: a window into it, `out`
    // untouched. From a file: read into `out`, followed by InputBuffer::kPadding zero bytes. An
    // empty window when the file changed since it was indexed or cannot be read (problem()
    // says which). `written` (optional) is set when the file was written to since it was
    // indexed, so that the caller checks what it got.
    ByteWindow read(
        uint64_t offset, uint64_t length, std::string& out, bool* written = nullptr) const;

    // All the bytes (tests; a view that shows a whole file reads it in parts instead).
    std::string readAll() const;

    // What went wrong reading the file again, or "" (the first problem is kept).
    std::string problem() const;
    // Notes that what was read no longer matches what was indexed (the caller's checks).
    void reportChange(const std::string& what) const;

private:
    TraceSource() = default;
    bool stillIndexed(bool& written) const;

    std::shared_ptr<const InputBuffer> m_memory;
    int m_fd = -1;
    std::string m_path;
    bool m_private = false;
    uint64_t m_size = 0, m_fileBytes = 0;
    InputBuffer::Compression m_compression = InputBuffer::Compression::None;
    int64_t m_mtimeNs = 0; // when indexed
    mutable std::mutex m_mutex;
    mutable std::string m_problem;
};

// Whether two sources hold the same bytes (read a block at a time; false when either cannot be
// read).
bool sameBytes(const TraceSource& a, const TraceSource& b);

} // namespace dynascope
