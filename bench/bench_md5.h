// dynascope-bench --md5: throughput of the payload hashing (bench_md5.cpp).
#pragma once

#include <cstdint>

namespace dynascope::bench {

// Hashes `size` bytes cut into messages of several typical payload sizes with each md5Many
// kernel this CPU runs and with OpenSSL one message at a time, in batches as a chunk scanner
// hands them over; prints one JSON line per message size. Returns the exit status.
int benchMd5(uint64_t size, int runs);

} // namespace dynascope::bench
