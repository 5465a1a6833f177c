// The few lines `dynascope-cli record` prints when the program ends: the counts, the compile
// time, and the top items of the compile report (failures, then graph breaks, then recompile
// groups, each one line). The Findings of a later issue will take the top items' place.
#pragma once

#include "core/model/trace.h"

#include <string>

namespace dynascope {

std::string runSummaryText(const Trace& trace, size_t maxItemsPerKind = 3);

} // namespace dynascope
