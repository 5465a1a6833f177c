// The guard lab's answer (core/analysis/guard_lab.h) as people read it: plain text, what
// `dynascope-cli guards` prints, and the "dynascope-guard-lab" JSON document (docs/cli.md).
#pragma once

#include "core/analysis/guard_lab.h"

#include <optional>
#include <string>

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

} // namespace dynascope
