// Opening an input for reading: a regular file, a pipe, a FIFO or a device, never a folder.
//
// A FIFO is opened without blocking (a FIFO that no writer ever opens would otherwise hang the
// open for good), then waited on until a writer connects, for `fifoWaitMs` at most: a producer
// that starts a moment after the reader (`dynascope-cli summary <(zstdcat trace.zst)`, a FIFO
// fed by another thread) is read to its end instead of read as empty, and one that never comes
// is an error that says so. The descriptor is returned in blocking mode.
#pragma once

#include <string>
#include <sys/stat.h>

namespace dynascope {

inline constexpr int kFifoWaitMs = 10'000;

// The open descriptor (and its `st`), or -1 with `error` set to a one-line reason (no path).
int openInput(
    const std::string& path, struct stat& st, std::string& error, int fifoWaitMs = kFifoWaitMs);

} // namespace dynascope
