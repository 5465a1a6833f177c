// dynascope-bench --shapes: load throughput per pathological input shape (bench_shapes.cpp).
#pragma once

#include <cstdint>

namespace dynascope::bench {

// Prints one JSON line per shape and one for a realistic trace of the same size. Returns the
// exit status.
int benchShapes(uint64_t size, int runs);

} // namespace dynascope::bench
