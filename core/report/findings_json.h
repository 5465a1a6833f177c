// Internal to core: one finding as the JSON object both documents hold (diagnose --json's
// "dynascope-findings" and the report's "findings"), given its compiles and frame as JSON.
#pragma once

#include "core/analysis/findings.h"

#include <nlohmann/json.hpp>

namespace dynascope {

nlohmann::ordered_json findingJson(
    const Finding& f, nlohmann::ordered_json compiles, nlohmann::ordered_json frame);

} // namespace dynascope
