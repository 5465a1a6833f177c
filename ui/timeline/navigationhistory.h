// NavigationHistory: back and forward through the places the user has been, as in a web browser.
// A place is what the timeline showed (its visible range) and which compile was selected. The
// view pushes the place it leaves on every navigation: a fit, a double-click, a search step, a
// gesture that starts after a pause, and every change of the selected compile (a click, a link
// in the Why tab, Go > Next); back() and forward() move between them. Pure data, tested without
// a widget.
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/timelinegeometry.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dynascope::ui::timeline {

struct Place {
    TimeRange range;
    uint32_t compile = kNone; // the selection, kNone for none
    bool operator==(const Place&) const = default;
};

class NavigationHistory {
public:
    explicit NavigationHistory(size_t limit = 100)
        : m_limit(limit)
    {
    }

    // Remembers `left` (the place being left) and drops the forward entries.
    void push(const Place& left);
    bool canBack() const { return !m_back.empty(); }
    bool canForward() const { return !m_forward.empty(); }
    // The place to show instead of `current`; current goes to the other stack. Call only when
    // canBack() / canForward().
    Place back(const Place& current);
    Place forward(const Place& current);
    void clear();
    size_t backCount() const { return m_back.size(); }

private:
    size_t m_limit;
    std::vector<Place> m_back, m_forward;
};

} // namespace dynascope::ui::timeline
