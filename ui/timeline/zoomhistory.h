// ZoomHistory: back and forward through the timeline's visible ranges, as in a web browser.
// The view pushes the range it leaves on every navigation (fit, double-click, search step, a
// gesture that starts after a pause); back() and forward() move between them. Pure data, tested
// without a widget.
#pragma once

#include "ui/timeline/timelinegeometry.h"

#include <cstddef>
#include <vector>

namespace dynascope::ui::timeline {

class ZoomHistory {
public:
    explicit ZoomHistory(size_t limit = 100)
        : m_limit(limit)
    {
    }

    // Remembers `left` (the range being left) and drops the forward entries.
    void push(const TimeRange& left);
    bool canBack() const { return !m_back.empty(); }
    bool canForward() const { return !m_forward.empty(); }
    // The range to show instead of `current`; current goes to the other stack. Call only when
    // canBack() / canForward().
    TimeRange back(const TimeRange& current);
    TimeRange forward(const TimeRange& current);
    void clear();
    size_t backCount() const { return m_back.size(); }

private:
    size_t m_limit;
    std::vector<TimeRange> m_back, m_forward;
};

} // namespace dynascope::ui::timeline
