// Heap accounting for the size tests: live bytes, their peak and the number of allocations,
// through every operator new. Include in exactly one source file of a test program (it replaces
// the global operator new and delete). Sanitizer builds keep their own allocator (replacing
// operator new there mixes allocators): kHeapCounted is false there and the size tests skip.
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define DYNASCOPE_COUNT_HEAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DYNASCOPE_COUNT_HEAP 0
#endif
#endif
#ifndef DYNASCOPE_COUNT_HEAP
#define DYNASCOPE_COUNT_HEAP 1
#endif

namespace dynascope::testing {

inline constexpr bool kHeapCounted = DYNASCOPE_COUNT_HEAP;
inline std::atomic<int64_t> g_live { 0 }, g_peak { 0 }, g_allocations { 0 };

inline int64_t liveHeap()
{
    return g_live.load();
}
// The peak since the last resetPeak().
inline int64_t peakHeap()
{
    return g_peak.load();
}
inline void resetPeak()
{
    g_peak = g_live.load();
}
inline int64_t allocations()
{
    return g_allocations.load();
}

#if DYNASCOPE_COUNT_HEAP
inline void* countedAlloc(size_t n)
{
    void* p = std::malloc(n ? n : 1);
    if (!p)
        throw std::bad_alloc();
    ++g_allocations;
    const int64_t live = g_live += static_cast<int64_t>(malloc_usable_size(p));
    int64_t peak = g_peak.load();
    while (live > peak && !g_peak.compare_exchange_weak(peak, live)) { }
    return p;
}
inline void countedFree(void* p)
{
    if (!p)
        return;
    g_live -= static_cast<int64_t>(malloc_usable_size(p));
    std::free(p);
}
#endif

} // namespace dynascope::testing

#if DYNASCOPE_COUNT_HEAP
void* operator new(size_t n)
{
    return dynascope::testing::countedAlloc(n);
}
void* operator new[](size_t n)
{
    return dynascope::testing::countedAlloc(n);
}
void operator delete(void* p) noexcept
{
    dynascope::testing::countedFree(p);
}
void operator delete[](void* p) noexcept
{
    dynascope::testing::countedFree(p);
}
void operator delete(void* p, size_t) noexcept
{
    dynascope::testing::countedFree(p);
}
void operator delete[](void* p, size_t) noexcept
{
    dynascope::testing::countedFree(p);
}
#endif
