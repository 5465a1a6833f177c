// Images for bug reports: the timeline or the whole window as PNG (at 1x or 2x) or SVG, each with
// a one-line grey footer (trace file, compile id, time range, Dynascope version) so a screenshot
// pasted into an issue explains itself. The timeline paints through one QPainter
// (TimelineView::render), so the PNG and the SVG come from the same geometry as the screen.
// These functions write only to the device or path their caller chose (a file dialog, the command
// line); nothing here derives a path from trace content.
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/timelinegeometry.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

class QIODevice;
class QPainter;
class QWidget;

namespace dynascope::ui {

class TimelineView;

inline constexpr int kFooterHeight = 18; // logical pixels

// "example.log · [3/2] · 10:41:02.100 – 10:41:03.500 (1.40 s) · Dynascope 0.1.0"
QString imageFooterText(const Trace* trace, const QStringList& paths, uint32_t compile,
    const timeline::TimeRange& range, int tzOffsetMinutes);

// Paints the footer line into `rect` (small grey type on the window colour).
void paintFooter(QPainter& p, const QRect& rect, const QString& text, const QPalette& palette);

// The timeline painted at `size` logical pixels in all (footer included), at `scale` device
// pixels per logical pixel: the image is size * scale.
QImage timelineImage(TimelineView& view, const QSize& size, qreal scale, const QString& footer);
// A widget (the whole window) as shown, with the footer below: (w, h + footer) * scale.
QImage widgetImage(QWidget& widget, qreal scale, const QString& footer);

// The same as SVG (vector: rectangles and text) into `device`. False when it cannot be written.
bool writeTimelineSvg(
    TimelineView& view, const QSize& size, const QString& footer, QIODevice* device);
bool writeWidgetSvg(QWidget& widget, const QString& footer, QIODevice* device);

} // namespace dynascope::ui
