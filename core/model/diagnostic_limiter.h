// DiagnosticLimiter: at most kKeptPerCode diagnostics of each code are listed one by one; the
// rest are counted with their line range and said in one diagnostic per code at the end, so a
// file of millions of bad lines (or of edited payloads) holds a few dozen diagnostics, not
// millions. Used by the trace loader (per file) and by payload verification (per file).
#pragma once

#include "core/model/diagnostic.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dynascope {

class DiagnosticLimiter {
public:
    static constexpr uint64_t kKeptPerCode = 20;

    // Whether a diagnostic of code `c` on `line` is to be listed; when not, it is counted.
    bool keep(Severity s, DiagnosticCode c, uint64_t line);
    // Counts `n` diagnostics of code `c` on lines [first, last] that are not listed.
    void countUnlisted(Severity s, DiagnosticCode c, uint64_t first, uint64_t last, uint64_t n);
    // Appends one diagnostic per code with unlisted ones: "4,194,203 more lines that are not
    // trace records (lines 101-4,194,304), not listed one by one", on the first unlisted line.
    void appendAggregates(const std::string& file, std::vector<Diagnostic>& out) const;

private:
    struct Aggregate {
        uint64_t listed = 0;
        uint64_t unlisted = 0;
        uint64_t firstLine = 0, lastLine = 0; // of the unlisted ones
        Severity severity = Severity::Info;
    };
    std::array<Aggregate, static_cast<size_t>(DiagnosticCode::Other) + 1> m_aggregates {};
};

// 4194304 -> "4,194,304".
std::string withThousands(uint64_t n);

} // namespace dynascope
