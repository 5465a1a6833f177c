#include "core/model/diagnostic_limiter.h"

#include <algorithm>

namespace dynascope {

namespace {
// What a diagnostic code's lines are, for the one diagnostic that counts those not listed.
const char* describeLines(DiagnosticCode c)
{
    switch (c) {
    case DiagnosticCode::BadPrefix:
        return "lines that are not trace records";
    case DiagnosticCode::BadJson:
        return "headers whose JSON does not parse";
    case DiagnosticCode::BadPayload:
        return "payloads that are not the JSON they should be";
    case DiagnosticCode::Md5Mismatch:
        return "payloads that do not match their has_payload MD5 (the file was edited)";
    case DiagnosticCode::OrphanPayload:
        return "runs of payload lines with no header before them";
    case DiagnosticCode::UnknownStringIndex:
        return "unknown string-table indices";
    case DiagnosticCode::MissingPayload:
        return "headers that declare a payload none follows";
    case DiagnosticCode::UnmatchedBegin:
    case DiagnosticCode::UnmatchedEnd:
        return "unmatched chromium events";
    default:
        return "problems of the same kind";
    }
}
} // namespace

std::string withThousands(uint64_t n)
{
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

bool DiagnosticLimiter::keep(Severity s, DiagnosticCode c, uint64_t line)
{
    Aggregate& a = m_aggregates[static_cast<size_t>(c)];
    if (a.listed < kKeptPerCode) {
        ++a.listed;
        return true;
    }
    countUnlisted(s, c, line, line, 1);
    return false;
}

void DiagnosticLimiter::countUnlisted(
    Severity s, DiagnosticCode c, uint64_t first, uint64_t last, uint64_t n)
{
    Aggregate& a = m_aggregates[static_cast<size_t>(c)];
    a.firstLine = a.unlisted ? std::min(a.firstLine, first) : first;
    a.lastLine = std::max(a.lastLine, last);
    a.unlisted += n;
    a.severity = std::max(a.severity, s);
}

void DiagnosticLimiter::appendAggregates(
    const std::string& file, std::vector<Diagnostic>& out) const
{
    for (size_t c = 0; c < m_aggregates.size(); ++c) {
        const Aggregate& a = m_aggregates[c];
        if (a.unlisted == 0)
            continue;
        out.push_back({ a.severity, static_cast<DiagnosticCode>(c), file, a.firstLine,
            withThousands(a.unlisted) + " more " + describeLines(static_cast<DiagnosticCode>(c))
                + " (lines " + withThousands(a.firstLine) + "-" + withThousands(a.lastLine)
                + "), not listed one by one" });
    }
}

} // namespace dynascope
