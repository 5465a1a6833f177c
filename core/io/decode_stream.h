// Streaming zstd and gzip decoding: compressed bytes pulled from a reader, decoded bytes pushed
// to a writer a block at a time, so neither side needs the whole stream in memory. InputBuffer
// decodes into memory with it, TraceSource into a temporary file.
#pragma once

#include "core/io/input_buffer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace dynascope {

// Fills `buffer` with at most `capacity` compressed bytes: the count, 0 at the end of the
// input, or -1 with errno set.
using DecodeReader = std::function<ssize_t(char* buffer, size_t capacity)>;
// A reader that gives `first` (bytes already in memory: a whole compressed buffer, or the head
// read to sniff the format), then what `fd` reads (-1: nothing more). `first` must outlive it.
DecodeReader readerOf(std::string_view first, int fd = -1);

// Takes `size` decoded bytes; false (with `error` set) stops decoding.
using DecodeWriter = std::function<bool(const char* data, size_t size, std::string& error)>;

// Decodes a zstd or gzip stream (concatenated gzip members included) of at most `limit` decoded
// bytes. False with `error` set when nothing usable came out: the limit was passed, the writer
// or the reader failed, or the stream is corrupt from its start. True with `error` set is a
// warning: the stream is cut short or corrupt after some bytes, which were kept.
bool decodeStream(InputBuffer::Compression kind, const DecodeReader& read,
    const DecodeWriter& write, uint64_t limit, uint64_t& decoded, std::string& error);

// "decompressed size exceeds the limit of N bytes (raise it with --max-decompressed)"
std::string decodeLimitMessage(uint64_t limit, const char* what = "decompressed size");

} // namespace dynascope
