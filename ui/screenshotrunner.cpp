#include "ui/screenshotrunner.h"

#include "ui/compare/changesmodel.h"
#include "ui/compare/comparecontroller.h"
#include "ui/inspector/guardstab.h"
#include "ui/inspector/whatifpanel.h"
#include "ui/inspectorview.h"
#include "ui/mainwindow.h"
#include "ui/models/format.h"
#include "ui/timeline/rangesummary.h"
#include "ui/timeline/timelineview.h"

#include <QApplication>
#include <QEventLoop>
#include <QPainter>
#include <QTimer>

namespace dynascope::ui {

QImage renderWidget(QWidget& widget, qreal scale)
{
    QImage image(widget.size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget.palette().color(QPalette::Window));
    QPainter p(&image);
    widget.render(&p);
    p.end();
    return image;
}

int runScreenshot(MainWindow& window, const ScreenshotRequest& request, QString* error)
{
    auto fail = [&](int code, const QString& message) {
        if (error)
            *error = message;
        return code;
    };
    window.resize(request.size);
    window.show();
    QApplication::processEvents();

    if (!request.paths.isEmpty()) {
        bool ok = false;
        bool done = false;
        QStringList errors;
        QEventLoop loop;
        auto conn = QObject::connect(
            &window, &MainWindow::loadFinished, &loop, [&](bool success, const QStringList& errs) {
                ok = success;
                errors = errs;
                done = true;
                loop.quit();
            });
        QTimer::singleShot(request.timeoutMs, &loop, &QEventLoop::quit);
        window.openPaths(request.paths, request.load);
        if (!done)
            loop.exec();
        QObject::disconnect(conn);
        if (!done)
            return fail(4,
                QStringLiteral("timed out loading %1")
                    .arg(request.paths.join(QStringLiteral(", "))));
        if (!ok)
            return fail(2,
                QStringLiteral("could not load: %1")
                    .arg(errors.isEmpty() ? request.paths.join(QStringLiteral(", "))
                                          : errors.join(QStringLiteral("; "))));
    }
    if (!request.compare.isEmpty()) {
        bool ok = false, done = false;
        QString why;
        QEventLoop loop;
        auto conn = QObject::connect(window.compare(), &CompareController::compareFinished, &loop,
            [&](bool success, const QString& message) {
                ok = success;
                why = message;
                done = true;
                loop.quit();
            });
        QTimer::singleShot(request.timeoutMs, &loop, &QEventLoop::quit);
        window.compare()->compareWith(request.compare);
        if (!done)
            loop.exec();
        QObject::disconnect(conn);
        if (!done)
            return fail(4, QStringLiteral("timed out comparing with %1").arg(request.compare));
        if (!ok)
            return fail(
                2, QStringLiteral("could not compare with %1: %2").arg(request.compare, why));
        // The frame change with the most impact, selected in both runs.
        for (int row = 0; row < window.compare()->model()->rowCount(); ++row)
            if (window.compare()->model()->row(row).frame) {
                window.compare()->activateRow(row);
                break;
            }
    }
    if (!request.select.isEmpty() && !window.selectCompile(request.select))
        return fail(2, QStringLiteral("no compile %1 in the trace").arg(request.select));
    if (!request.tab.isEmpty() && !window.inspector()->showTabNamed(request.tab))
        return fail(2, QStringLiteral("no inspector tab %1").arg(request.tab));
    if (!request.whatIf.isEmpty()) {
        if (window.inspector()->compile() == kNone)
            return fail(2, QStringLiteral("--what-if needs a selected compile (--select ID)"));
        if (request.tab.isEmpty())
            window.inspector()->showTabNamed(QStringLiteral("Guards"));
        window.inspector()->guardsTab()->whatIf()->setInput(request.whatIf);
    }
    if (!request.range.isEmpty()) {
        TimelineView* tl = window.timeline();
        const timeline::TimelineLayout& layout = tl->layout();
        if (!layout.hasTime())
            return fail(2, QStringLiteral("--range: the trace has no timing to show a range of"));
        QString why;
        // In trace time: the layout's bounds are in display time, with idle gaps folded.
        const timeline::TimeRange data = layout.toTrace(layout.dataRange());
        const auto range
            = timeline::parseTimeRange(request.range, data.start, tl->tzOffsetMinutes(), &why);
        if (!range)
            return fail(1, why);
        const timeline::TimeRange b = layout.toTrace(layout.bounds());
        if (range->end <= b.start || range->start >= b.end)
            return fail(2,
                QStringLiteral("--range %1 lies outside the trace (%2 – %3, %4 long)")
                    .arg(request.range, formatWallClock(data.start, tl->tzOffsetMinutes()),
                        formatWallClock(data.end, tl->tzOffsetMinutes()),
                        formatLongDuration(data.span())));
        // The part inside the trace, exactly: the view would otherwise shift a range to fit.
        QApplication::processEvents(); // the window's final layout, before the range is set
        tl->setViewRange({ std::max(range->start, b.start), std::min(range->end, b.end) });
    }

    // Let layouts, the view's scroll-to and deferred repaints settle.
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
    if (request.output.isEmpty())
        return 0;
    if (window.size() != request.size)
        window.resize(request.size);
    QApplication::processEvents();
    QImage image = renderWidget(window, request.scale);
    const QSize pixels = request.size * request.scale;
    if (image.size() != pixels)
        image = image.copy(QRect(QPoint(0, 0), pixels));
    if (!image.save(request.output, "PNG"))
        return fail(3, QStringLiteral("could not write the image %1").arg(request.output));
    return 0;
}

} // namespace dynascope::ui
