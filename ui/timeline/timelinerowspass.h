// RowsPass: the lanes' base layer, left to right: each visible row's background (rank headers,
// banded lanes, compact rank rows of many ranks) and its label (a rank and its compile count; a
// lane's function, file:line, compile count badge and ▸/▾ for its phase rows; a phase row's
// depth), with compact rows labelled every few rows. Spans come after (SpansPass). Cost: the
// visible rows that the exposed rectangle touches.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <QCoreApplication>

namespace dynascope::ui::timeline {

class RowsPass : public TimelineRenderPass {
    Q_DECLARE_TR_FUNCTIONS(RowsPass)
public:
    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    static void paintLaneLabel(QPainter& p, const PaintContext& ctx, const Row& row, int y);
};

} // namespace dynascope::ui::timeline
