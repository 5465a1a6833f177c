#include "core/analysis/status.h"

namespace dynascope {

CompileStatus computeStatus(const Compile& c)
{
    if (c.failure)
        return CompileStatus::Error;
    if (c.metricsRecord == kNone)
        return CompileStatus::Missing;
    if (!c.graphOpCount || *c.graphOpCount == 0)
        return CompileStatus::Empty;
    if (!c.graphBreaks.empty() || !c.restartReasons.empty() || c.attempts.size() > 1)
        return CompileStatus::GraphBreak;
    return CompileStatus::Ok;
}

} // namespace dynascope
