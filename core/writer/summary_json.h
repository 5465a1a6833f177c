// The `dynascope-cli summary --json` document (schema in docs/cli.md, "Summary JSON"). Golden
// tests compare it byte for byte, so field order and number formatting are stable.
#pragma once

#include "core/model/trace.h"

#include <string>

namespace dynascope {

struct SummaryOptions {
    bool verifyPayloads = true; // fills payload_hash_mismatches (Trace::verifyPayloads: what
                                // the load found, or every payload read again)
    const Trace::PayloadCheck* check = nullptr; // a check already made (else made here)
    int indent = 2;
};

std::string summaryJson(const Trace& trace, const SummaryOptions& options = {});
// The plain-text summary the CLI prints without --json.
std::string summaryText(const Trace& trace, const SummaryOptions& options = {});

} // namespace dynascope
