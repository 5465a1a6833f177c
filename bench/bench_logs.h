// dynascope-bench --torch-logs FILE: TORCH_LOGS text reading speed (bench_logs.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace dynascope::bench {

// Repeats the capture at `seed` to `size` bytes, loads it `runs` times after a warm-up and prints
// one JSON line. Returns the exit status.
int benchTorchLogs(const std::string& seed, uint64_t size, int runs);

} // namespace dynascope::bench
