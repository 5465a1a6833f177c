// dynascope-bench: where a loaded trace's heap goes (bench_heap.cpp), the profile behind
// heap_mb_after_load.
#pragma once

namespace dynascope {
class Trace;
}

namespace dynascope::bench {

// Prints on stderr the trace's heap by part, walking every container and string it owns and
// counting each allocation as glibc's malloc does (its chunk: the request plus an 8-byte header,
// rounded up to 16, at least 32), so that the parts add up to what mallinfo2 reports.
void printHeapParts(const Trace& t);

} // namespace dynascope::bench
