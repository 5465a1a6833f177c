// Transparent huge pages for large buffers that are about to be filled. On first touch every 4 KB
// page of fresh memory costs a page fault; on virtual machines with shadow paging that fault is
// most of the cost of reading a file into memory (measured on the project's 2-core VM: 0.6 s of
// CPU per 100 MB with 4 KB pages, 0.05 s with 2 MB pages). No effect where THP is disabled.
#pragma once

#include <cstddef>

namespace dynascope {

// Asks the kernel to back the whole 2 MB pages inside [data, data + bytes) with huge pages. Call
// it before the memory is first written; buffers under a few MB are left alone.
void adviseHugePages(void* data, size_t bytes);

} // namespace dynascope
