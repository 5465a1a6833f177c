// The guard lab's answer (core/analysis/guard_lab.h) as people read it: plain text, what
// `dynascope-cli guards` prints, and the "dynascope-guard-lab" JSON document (docs/cli.md).
#pragma once

#include "core/analysis/guard_lab.h"

#include <optional>
#include <string>
#include <vector>

namespace dynascope {

struct GuardLabQuestion {
    std::string frameLabel; // "scale (example.py:36)"
    std::string input; // the description as given
    size_t entries = 0; // the frame's cache entries (its compiles with guards)
};

// One answer, or a range's table (then `answer` is the answer at the range's first size).
std::string guardLabText(const GuardLabQuestion& q, const GuardLabAnswer& answer,
    const std::optional<RangeAnswer>& range = std::nullopt);
std::string guardLabJson(const GuardLabQuestion& q, const GuardLabAnswer& answer,
    const std::optional<RangeAnswer>& range = std::nullopt);

// The whole question: the frame `frameKey` names (findGuardFrame), the descriptions in `inputs`
// (parseGuardInput, each in turn), the answer rendered as text or JSON: what `dynascope-cli
// guards` prints and Python's Trace.guards() reads. nullopt, with `error` naming the bad frame
// or description, when it cannot be asked.
std::optional<std::string> askGuardLab(const Trace& trace, const std::string& frameKey,
    const std::vector<std::string>& inputs, bool json, std::string& error);

} // namespace dynascope
