// Timeline figures for dynascope-bench; see bench_ui.h.
#include "bench/bench_ui.h"

namespace dynascope::bench {

RenderFigures measureTimeline(const std::shared_ptr<const Trace>&, uint64_t, int, char**)
{
    return {};
}

} // namespace dynascope::bench
