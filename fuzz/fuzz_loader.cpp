// libFuzzer target: arbitrary bytes -> InputBuffer::fromBytes (zstd/gzip decompressed with a
// 1 MiB limit) -> buildFile -> the model's invariants (trace_invariants.h). Any violation aborts,
// so libFuzzer saves the input as a crash. Built by the `fuzz` preset (clang,
// -fsanitize=fuzzer,address,undefined); docs/robustness.md, "Fuzzing", says how to run it.
#include "fuzz/trace_invariants.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string violations = dynascope::fuzz::runOne(
        std::string_view(reinterpret_cast<const char*>(data), size), 1u << 20);
    if (!violations.empty()) {
        std::fprintf(stderr, "dynascope: trace invariant violated:\n%s", violations.c_str());
        std::abort();
    }
    return 0;
}
