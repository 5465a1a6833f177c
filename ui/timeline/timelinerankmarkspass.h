// RankMarksPass: ranks that findings single out (Finding::files: the straggler, a rank that
// recompiled or broke where the others did not). A bar at the label column's edge of the rank's
// row in the severity's colour (note, warning, error) and, on an open rank's header, a badge
// "≠ straggler, recompiles" at the start of its lanes; the findings' titles are the mark's
// tooltip. Owns the marks (MainWindow sets them; a new trace clears them). Cost: the visible
// rank rows, one hash lookup each.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <QCoreApplication>
#include <QStringList>

#include <unordered_map>

namespace dynascope::ui::timeline {

struct RankMark {
    int severity = 0; // 0 note, 1 warning, 2 error
    QStringList words; // short: "straggler", "recompiles"
    QStringList titles; // the findings' titles
};

class RankMarksPass : public TimelineRenderPass {
    Q_DECLARE_TR_FUNCTIONS(RankMarksPass)
public:
    void setMarks(std::unordered_map<uint32_t, RankMark> byFile) { m_marks = std::move(byFile); }
    const std::unordered_map<uint32_t, RankMark>& marks() const { return m_marks; }
    bool marked(uint32_t file) const { return m_marks.count(file) != 0; }
    // "rank 17 stands out:\n• <title>..."; empty when the file has no mark.
    QString toolTip(uint32_t file, const Trace& trace) const;

    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    void paintMark(QPainter& p, const PaintContext& ctx, const Row& row, const QRect& rect) const;

    std::unordered_map<uint32_t, RankMark> m_marks;
};

} // namespace dynascope::ui::timeline
