// What an importer (core/load/trace, core/load/logs) is given to build the trace model of one
// input: its bytes or the source they are read again from, the stop token, progress and the
// scanning parameters.
#pragma once

#include "core/model/trace.h"

#include <functional>
#include <memory>
#include <stop_token>
#include <string>

namespace dynascope {

class InputBuffer;
class TraceSource;

struct FileBuildInput {
    std::string path;
    // The bytes in memory (tests, the live follower, TORCH_LOGS text), or null when `source`
    // reads them from a file.
    std::shared_ptr<const InputBuffer> buffer;
    std::stop_token stop;
    // Called now and then with the bytes indexed so far.
    std::function<void(uint64_t)> progress;
    // Threads that scan the file's lines and headers (chunk_scan.h); 1 = only the caller's.
    unsigned threads = 1;
    // Size of the chunks they scan (tests make it small to put boundaries everywhere).
    uint64_t chunkBytes = 4u << 20;
    // Records read at most (32-bit indices; tests make it small).
    uint64_t maxRecords = kMaxIndex - 1;
    // Check every payload against its has_payload MD5 on the scanning threads, as the chunks
    // are scanned (TraceFile::payloadMismatches).
    bool verifyPayloads = false;
    // Where the file is read from (core/io/trace_source.h); null: `buffer`.
    std::shared_ptr<const TraceSource> source = nullptr;
};

} // namespace dynascope
