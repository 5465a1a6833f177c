#include "core/load/finish/status.h"

#include "core/load/finish/graph_break_text.h"

#include <algorithm>

namespace dynascope {

CompileStatus computeStatus(const Compile& c, TraceFormat format)
{
    if (c.failure)
        return CompileStatus::Error;
    if (format == TraceFormat::TorchLogs)
        return !c.graphBreaks.empty() ? CompileStatus::GraphBreak
            : c.guardsRecord != kNone ? CompileStatus::Ok
                                      : CompileStatus::Missing;
    if (c.metricsRecord == kNone)
        return CompileStatus::Missing;
    if (!c.graphOpCount || *c.graphOpCount == 0)
        return CompileStatus::Empty;
    // A restart that is not a break (a float made dynamic, a failed speculation) leaves the
    // compile ok: its only signal is "<class '...RestartAnalysis'>" in restart_reasons.
    const bool onlyOtherRestarts = !c.restartReasons.empty()
        && std::all_of(c.restartReasons.begin(), c.restartReasons.end(),
            [](const std::string& r) { return isRestartWithoutBreak(r); });
    if (!c.graphBreaks.empty()
        || (!onlyOtherRestarts && (!c.restartReasons.empty() || c.attempts.size() > 1)))
        return CompileStatus::GraphBreak;
    return CompileStatus::Ok;
}

} // namespace dynascope
