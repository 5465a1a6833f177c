#include "ui/timeline/zoomhistory.h"

namespace dynascope::ui::timeline {

void ZoomHistory::push(const TimeRange& left)
{
    if (!m_back.empty() && m_back.back() == left)
        return;
    m_back.push_back(left);
    if (m_back.size() > m_limit)
        m_back.erase(m_back.begin());
    m_forward.clear();
}

TimeRange ZoomHistory::back(const TimeRange& current)
{
    const TimeRange r = m_back.back();
    m_back.pop_back();
    m_forward.push_back(current);
    return r;
}

TimeRange ZoomHistory::forward(const TimeRange& current)
{
    const TimeRange r = m_forward.back();
    m_forward.pop_back();
    m_back.push_back(current);
    return r;
}

void ZoomHistory::clear()
{
    m_back.clear();
    m_forward.clear();
}

} // namespace dynascope::ui::timeline
