// LiveTrace: a trace that is still being written (the TORCH_TRACE folder of a running program or
// job), followed by reading only what was appended. Each poll() lists the followed folders (rank
// files that appear join), stats every file and reads the bytes past what it read before, with
// positional reads (never a mapping: the writer may truncate). snapshot() loads what was read,
// each file up to its last complete line, through the same loader as a file opened from disk
// (loadFromMemory), so a live trace shows exactly what opening the file at that moment would.
//
// A file that shrank or was replaced (another inode at its path) is read again from its start
// and said in a diagnostic; a file that vanished keeps what was read. Compressed files cannot be
// followed by their end: one that grew is read again whole.
//
// Cost: poll() reads each byte once. A snapshot indexes everything read so far (the model is
// built in one pass, not patched), so callers space snapshots by the time the last one took
// (ui/record/livefollower.h waits twice that): indexing then takes at most a third of a core,
// and a run's snapshots together cost a small multiple of indexing the final trace once.
// Memory: the bytes read, plus one snapshot's copy of them while it is built and shown.
#pragma once

#include "core/load/loader.h"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace dynascope {

class LiveTrace {
public:
    // paths: trace files and folders, as load() takes them; a folder that does not exist yet
    // or holds no trace file yet is polled until it does.
    explicit LiveTrace(std::vector<std::string> paths, LoadOptions options = {});

    struct Poll {
        bool changed = false; // complete lines arrived, or a file appeared or was replaced
        uint64_t bytesRead = 0; // read from disk by this poll
    };
    Poll poll();

    // Everything read so far, loaded. No trace (result.trace null) while no file has a
    // complete line yet.
    LoadResult snapshot(std::stop_token stop = {}) const;

    const std::vector<std::string>& paths() const { return m_paths; }
    size_t fileCount() const { return m_files.size(); }
    uint64_t totalBytesRead() const { return m_totalRead; } // over all polls
    uint64_t bytesHeld() const; // what was read and is kept, over all files

private:
    struct Followed {
        std::string path;
        uint64_t device = 0, inode = 0;
        uint64_t offset = 0; // bytes of the file read so far (bytes.size())
        std::string bytes;
        size_t complete = 0; // bytes up to and including the last '\n'
        bool compressed = false;
        bool vanished = false;
        std::string note; // the last thing said of it: replaced, shrank, vanished
    };
    bool readMore(Followed& f, uint64_t& read);

    std::vector<std::string> m_paths;
    LoadOptions m_options;
    std::vector<Followed> m_files;
    std::unordered_set<std::string> m_known; // the paths of m_files
    uint64_t m_totalRead = 0;
};

} // namespace dynascope
