// FindingMarksPass: compiles that findings name (core/analysis/findings.h), each with a small
// flag on its span's top left corner in the worst severity's colour (amber for a warning,
// orange-red for an error). Owns the marks (MainWindow sets them; a new trace clears them).
// Cost: one pass over the marked compiles.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <unordered_map>

namespace dynascope::ui::timeline {

class FindingMarksPass : public TimelineRenderPass {
public:
    // Severity by compile: 1 warning, 2 error.
    void setMarks(std::unordered_map<uint32_t, int> severityByCompile)
    {
        m_marks = std::move(severityByCompile);
    }
    void clear() { m_marks.clear(); }
    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    std::unordered_map<uint32_t, int> m_marks;
};

} // namespace dynascope::ui::timeline
