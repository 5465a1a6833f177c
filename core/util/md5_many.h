// MD5 of many independent messages at once ("multi-buffer"): each lane of a SIMD vector hashes
// its own message, a block at a time, and a lane whose message ends takes the next one. MD5 is a
// chain of dependent steps, so one message goes no faster than OpenSSL hashes it; a trace's
// payloads are many and mostly a few KB, and side by side they hash several times faster (the
// loader's scanners check every payload against its has_payload MD5: LoadOptions::verifyPayloads).
// A message of a large share of the batch's bytes goes to OpenSSL: in a lane it would end with
// the others idle. Checked against OpenSSL by tests/core/tst_md5many.cpp.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace dynascope {

struct Md5Message {
    std::string_view data;
    unsigned char digest[16] = {}; // set by md5Many
};

void md5Many(Md5Message* messages, size_t count);

// The lane counts this CPU has a kernel for, widest (md5Many's) first: 32 (AVX-512), 16 (AVX2),
// 8 (SSE2 or plain vector code); none on a big-endian machine. For tests, which check each.
std::vector<int> md5ManyWidths();
// md5Many with the kernel of `lanes` lanes (one of md5ManyWidths(); anything else: OpenSSL).
void md5ManyWith(int lanes, Md5Message* messages, size_t count);

} // namespace dynascope
