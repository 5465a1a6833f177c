// MD5 of many independent messages at once ("multi-buffer"): each lane of a SIMD vector hashes
// its own message, a block at a time, and a lane whose message ends takes the next one. MD5 is a
// chain of dependent steps, so one message goes no faster than OpenSSL hashes it; a trace's
// payloads are many and mostly a few KB, and side by side they hash several times faster (the
// loader's scanners check every payload against its has_payload MD5: LoadOptions::verifyPayloads).
// A message of more than a quarter of the batch's bytes goes to OpenSSL: in a lane it would
// end with the others idle. Checked against OpenSSL by tests/core/tst_md5many.cpp.
#pragma once

#include <cstddef>
#include <string_view>

namespace dynascope {

struct Md5Message {
    std::string_view data;
    unsigned char digest[16] = {}; // set by md5Many
};

void md5Many(Md5Message* messages, size_t count);

} // namespace dynascope
