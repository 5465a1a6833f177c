#include "ui/timeline/navigationhistory.h"

namespace dynascope::ui::timeline {

void NavigationHistory::push(const Place& left)
{
    if (!m_back.empty() && m_back.back() == left)
        return;
    m_back.push_back(left);
    if (m_back.size() > m_limit)
        m_back.erase(m_back.begin());
    m_forward.clear();
}

Place NavigationHistory::back(const Place& current)
{
    const Place r = m_back.back();
    m_back.pop_back();
    m_forward.push_back(current);
    return r;
}

Place NavigationHistory::forward(const Place& current)
{
    const Place r = m_forward.back();
    m_forward.pop_back();
    m_back.push_back(current);
    return r;
}

void NavigationHistory::clear()
{
    m_back.clear();
    m_forward.clear();
}

} // namespace dynascope::ui::timeline
