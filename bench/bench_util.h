// Small helpers shared by dynascope-bench's modes: wall time, medians, malloc'd bytes.
#pragma once

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace dynascope::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Bytes malloc holds now (in use, mapped blocks included); 0 where glibc cannot say.
inline double heapBytes()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 mi = mallinfo2();
    return static_cast<double>(mi.uordblks) + static_cast<double>(mi.hblkhd);
#else
    return 0;
#endif
}

} // namespace dynascope::bench
