// TORCH_TRACE subset export: the records of selected compiles as a valid TORCH_TRACE file that
// this loader and tlparse read, for attaching one recompile or failure to a bug report.
//
// Written: every record of the selected compiles (those before their dynamo_start included), in
// file order, plus the string-table entries they use (renumbered densely from 0 and written just
// before first use, as PyTorch does) and, unless redacting, the torch_version artifact. Headers
// keep their glog prefix; a header is copied byte for byte unless a string index or a redaction
// changes it, then it is re-serialised the way Python's json.dumps writes it. Payloads are
// re-encoded from their decoded text (so CRLF or stray blank lines do not survive), keeping the
// declared has_payload MD5: a payload that did not match its hash in the input still does not.
//
// With redact: payloads are dropped and has_payload removed, except chromium_event payloads,
// which are cut down to their timing (name, ph, ts, dur, cat, pid, tid and args.compile_id; the
// other args can hold graph code or a metrics copy) with a recomputed MD5; file
// paths and function names become placeholders (redactor.h) everywhere, in stacks, metrics
// (co_name, co_filename, fail_reason ...), reasons and the glog prefix.
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

struct CompileSelection {
    std::vector<uint32_t> compiles; // Trace::compiles indices, sorted, distinct
    std::string error; // non-empty: the first id that could not be resolved, and why
};

// Resolves a comma-separated list of compile ids: "[0/1]", "0/1", "[0/0_1]" (the compile of that
// attempt), "!0/3/0", or "#7" (Trace::compiles index; needed when ids repeat after
// torch._dynamo.reset() or across ranks, where a plain id is ambiguous and an error).
CompileSelection selectCompiles(const Trace& trace, std::string_view list);

struct SubsetOptions {
    std::vector<uint32_t> compiles;
    bool redact = false;
};

struct SubsetResult {
    std::string error; // non-empty: nothing useful was written
    uint64_t records = 0; // records written, string-table entries included
    uint64_t strings = 0;
    uint64_t payloadsDropped = 0;
    uint64_t rewrittenHeaders = 0;
    uint64_t skipped = 0; // records whose header JSON does not parse (left out)
};

SubsetResult writeSubset(const Trace& trace, const SubsetOptions& options, std::ostream& out);

} // namespace dynascope
