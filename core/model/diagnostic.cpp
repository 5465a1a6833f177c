#include "core/model/diagnostic.h"

namespace dynascope {

std::string Diagnostic::format() const
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    s += ": ";
    s += severity == Severity::Error ? "error: " : severity == Severity::Warning ? "warning: " : "";
    s += message;
    return s;
}

const char* toString(Severity s)
{
    switch (s) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Info:
        break;
    }
    return "info";
}

const char* toString(DiagnosticCode code)
{
    switch (code) {
    case DiagnosticCode::BadPrefix:
        return "bad_prefix";
    case DiagnosticCode::BadJson:
        return "bad_json";
    case DiagnosticCode::BadPayload:
        return "bad_payload";
    case DiagnosticCode::Md5Mismatch:
        return "md5_mismatch";
    case DiagnosticCode::UnknownStringIndex:
        return "unknown_string_index";
    case DiagnosticCode::UnmatchedBegin:
        return "unmatched_begin";
    case DiagnosticCode::UnmatchedEnd:
        return "unmatched_end";
    case DiagnosticCode::TruncatedRecord:
        return "truncated_record";
    case DiagnosticCode::MissingPayload:
        return "missing_payload";
    case DiagnosticCode::OrphanPayload:
        return "orphan_payload";
    case DiagnosticCode::IoError:
        return "io_error";
    case DiagnosticCode::NotATrace:
        return "not_a_trace";
    case DiagnosticCode::OtherRuns:
        return "other_runs";
    case DiagnosticCode::DuplicateFile:
        return "duplicate_file";
    case DiagnosticCode::Other:
        break;
    }
    return "other";
}

} // namespace dynascope
