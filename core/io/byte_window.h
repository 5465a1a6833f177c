// ByteWindow: some bytes of a trace file in memory, addressed by their offsets in the file. The
// loader's chunks, a record read again from its file, and a whole file held in memory
// (InputBuffer) are all windows, so the code that reads a record's header and payload
// (record_payload.h, chunk_scan.h) does not care which it is given.
#pragma once

#include <cstdint>
#include <string_view>

namespace dynascope {

struct ByteWindow {
    const char* data = nullptr; // the byte at file offset `begin`
    uint64_t begin = 0, end = 0; // [begin, end) of the file; InputBuffer::kPadding bytes follow

    bool empty() const { return data == nullptr; }
    bool holds(uint64_t offset, uint64_t length) const
    {
        return data && offset >= begin && offset <= end && length <= end - offset;
    }
    const char* at(uint64_t offset) const { return data + (offset - begin); }
    std::string_view view(uint64_t offset, uint64_t length) const
    {
        return { at(offset), static_cast<size_t>(length) };
    }
};

} // namespace dynascope
