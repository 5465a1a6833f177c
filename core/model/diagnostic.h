// Diagnostic: a problem found while reading a trace, always with the file and line it is about.
// Loading never stops at a diagnostic; whatever parsed around it is kept.
#pragma once

#include <cstdint>
#include <string>

namespace dynascope {

enum class Severity : uint8_t { Info, Warning, Error };

enum class DiagnosticCode : uint8_t {
    BadPrefix, // a line that is neither a header nor a payload line
    BadJson, // a header whose JSON does not parse
    BadPayload, // a payload that should be JSON and is not
    Md5Mismatch, // payload differs from its has_payload hash (checked when asked:
                 // LoadOptions::verifyPayloads, Trace::verifyPayloads)
    UnknownStringIndex, // a stack frame names a string-table index never defined
    UnmatchedBegin, // chromium B event without E
    UnmatchedEnd, // chromium E event without B
    TruncatedRecord, // the file ends inside a record
    MissingPayload, // has_payload but no payload lines follow
    OrphanPayload, // payload lines with no header before them
    IoError, // the file could not be read or decompressed
    NotATrace, // the file is something else (a text log, a Chrome trace, tlparse's output, binary)
    OtherRuns, // a folder holds files of other runs, not loaded (core/load/runs.h)
    DuplicateFile, // a file identical to another input, left out
    Other,
};

struct Diagnostic {
    Severity severity = Severity::Warning;
    DiagnosticCode code = DiagnosticCode::Other;
    std::string file; // path as given by the user
    uint64_t line = 0; // 1-based; 0 when it is about the whole file
    std::string message;

    // "file:line: message" (or "file: message" when line is 0).
    std::string format() const;
};

const char* toString(DiagnosticCode code);
const char* toString(Severity s); // "info", "warning", "error"

} // namespace dynascope
