// Shared bits of the robustness tests: reading fixtures, loading bytes the way the loader does
// (InputBuffer + buildFile, without touching the disk), and the fuzzers' invariant checker.
#pragma once

#include "core/io/input_buffer.h"
#include "core/load/loader.h"
#include "core/load/trace/file_builder.h"
#include "fuzz/trace_invariants.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace dynascope::robustness {

inline std::string fixturePath(const std::string& name)
{
    return std::string(DYNASCOPE_FIXTURES_DIR) + "/" + name;
}

inline std::string readAll(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

inline void writeAll(const std::string& path, std::string_view bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct Loaded {
    std::unique_ptr<Trace> trace; // null when the bytes could not be decoded at all
    std::string ioError; // InputBuffer's message (cut or over-limit compressed input)
};

inline Loaded loadBytes(
    std::string_view bytes, uint64_t maxDecoded = 1ull << 30, const std::string& name = "input.log")
{
    Loaded out;
    auto buffer = InputBuffer::fromBytes(bytes, maxDecoded, out.ioError);
    if (buffer)
        out.trace = buildFile({ name, buffer, {}, {} });
    return out;
}

inline bool hasDiagnostic(const Trace& t, DiagnosticCode code)
{
    return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
        [&](const Diagnostic& d) { return d.code == code; });
}

inline std::string diagnosticsText(const Trace& t)
{
    std::string s;
    for (const auto& d : t.diagnostics)
        s += d.format() + "\n";
    return s;
}

// A glog header line for hand-made records.
inline std::string header(const std::string& json)
{
    return "V0314 10:41:02.000000 4242 torch/_dynamo/x.py:1] " + json + "\n";
}

} // namespace dynascope::robustness

// QVERIFY that the fuzzers' invariants hold, printing the violations when not.
#define VERIFY_INVARIANTS(trace)                                                                   \
    do {                                                                                           \
        const std::string violations_ = dynascope::fuzz::checkTrace(trace);                        \
        QVERIFY2(violations_.empty(), violations_.c_str());                                        \
    } while (false)
