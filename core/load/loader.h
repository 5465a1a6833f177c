// Loading: paths -> an immutable Trace plus diagnostics. Synchronous; callers that want a
// responsive UI run it on a worker thread and pass a stop_token to cancel.
#pragma once

#include "core/model/trace.h"

#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

class InputBuffer;

// Which run of the inputs to load (core/load/runs.h). Files named one by one always load;
// the choice picks among the files found in folders. Duplicates never load.
enum class RunChoice : uint8_t { Newest, All, Number };

struct LoadOptions {
    bool newestOnly = false; // for folders: only the newest trace file (by mtime)
    RunChoice run = RunChoice::Newest;
    uint32_t runNumber = 0; // TraceRun::number, with RunChoice::Number
    uint64_t maxDecompressedBytes = 64ull << 30; // limit for .zst/.gz expansion
    unsigned threads = 0; // 0 = hardware concurrency
    // Check every payload against its has_payload MD5 while the files are scanned, on the
    // scanning threads (TraceFile::payloadMismatches; Trace::verifyPayloads reports them).
    bool verifyPayloads = false;
};

struct LoadProgress {
    uint64_t bytesDone = 0;
    uint64_t bytesTotal = 0;
    std::string stage; // "reading", "indexing", "linking"
};
using ProgressSink = std::function<void(const LoadProgress&)>;

struct LoadResult {
    // Null when no input could be read at all (errors says why); otherwise every file that
    // opened, even when others did not.
    std::shared_ptr<const Trace> trace;
    std::vector<Diagnostic> errors; // inputs that could not be read at all (also in trace)
    bool cancelled = false;
};

// Expands folders into their dedicated_log_torch_trace*.log[.zst|.gz] files (sorted by name, runs
// of digits as numbers: rank_2 before rank_10), and keeps plain files as given. Errors (missing
// path, empty folder) go to `errors`.
std::vector<std::string> expandInputs(const std::vector<std::string>& paths,
    const LoadOptions& options, std::vector<Diagnostic>& errors);

// "newest", "all" or a run number (1 = the oldest) into `options`; false when it is none.
bool parseRunChoice(const std::string& text, LoadOptions& options);

LoadResult load(const std::vector<std::string>& paths, const LoadOptions& options = {},
    const ProgressSink& progress = {}, std::stop_token stop = {});

// A file's bytes already in memory, loaded as if read from `path`: what a live follower
// (live_trace.h) has read so far of a file that is still being written.
struct LoadedBytes {
    std::string path;
    std::shared_ptr<const InputBuffer> buffer;
    std::string warning; // said first among the file's diagnostics (empty: none)
};

// Loads `inputs` as load() loads files: each built on its own, grouped into runs (folders named
// in `given` choose among their files as in load()), merged. `given`: what the user named.
LoadResult loadFromMemory(const std::vector<LoadedBytes>& inputs,
    const std::vector<std::string>& given, const LoadOptions& options = {},
    std::stop_token stop = {});

// Text from memory (the app's File > Paste Log): TORCH_LOGS text, or a TORCH_TRACE, recognised
// by content. `name` is what diagnostics and the window call it.
LoadResult loadText(
    const std::string& name, std::string_view bytes, const LoadOptions& options = {});

} // namespace dynascope
