// AxisPass: the time axis along the top. Tick labels at least one label apart, by the wall clock
// (with the date when the view crosses midnight) or, with aligned ranks, from each rank's start
// ("+1.5 s"); ticks per stretch between folded idle gaps, in trace time; each fold's break with
// its length ("11 d idle"); and the corner: what the axis shows and how much idle time the view
// folds away. Also the label column's edge line down the canvas. Cost: the ticks (at most one per
// label width) and the folds in view.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <QCoreApplication>

namespace dynascope::ui::timeline {

class AxisPass : public TimelineRenderPass {
    Q_DECLARE_TR_FUNCTIONS(AxisPass)
public:
    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    static void paintTicks(QPainter& p, const PaintContext& ctx);
    static void paintFoldLabels(QPainter& p, const PaintContext& ctx);
    static void paintCorner(QPainter& p, const PaintContext& ctx);
};

} // namespace dynascope::ui::timeline
