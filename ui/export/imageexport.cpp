#include "ui/export/imageexport.h"

#include "ui/models/format.h"
#include "ui/timeline/timelineview.h"

#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace dynascope::ui {

QString imageFooterText(const Trace* trace, const QStringList& paths, uint32_t compile,
    const timeline::TimeRange& range, int tz)
{
    const QString sep = QStringLiteral(" · ");
    QStringList parts;
    if (trace && trace->files.size() == 1)
        parts << baseName(trace->files.front().path);
    else if (paths.size() == 1)
        parts << QFileInfo(paths.front()).fileName();
    else if (trace)
        parts << QStringLiteral("%1 files").arg(trace->files.size());
    if (trace && compile < trace->compiles.size())
        parts << qs(trace->compiles[compile].id.display());
    if (trace && range.span() > 0)
        parts << formatWallClock(range.start, tz) + QStringLiteral(" – ")
                + formatWallClock(range.end, tz) + QStringLiteral(" (")
                + formatDuration(range.span()) + QLatin1Char(')');
    parts << QStringLiteral("Dynascope ") + QStringLiteral(DYNASCOPE_VERSION);
    return parts.join(sep);
}

void paintFooter(QPainter& p, const QRect& rect, const QString& text, const QPalette& palette)
{
    p.save();
    p.fillRect(rect, palette.color(QPalette::Window));
    p.setPen(palette.color(QPalette::Mid));
    p.drawLine(rect.topLeft(), rect.topRight());
    QFont f = p.font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    p.setPen(QColor(0x88, 0x88, 0x88));
    const QFontMetrics fm(f);
    p.drawText(rect.adjusted(8, 1, -8, 0), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(text, Qt::ElideMiddle, rect.width() - 16));
    p.restore();
}

QImage timelineImage(TimelineView& view, const QSize& size, qreal scale, const QString& footer)
{
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(view.palette().color(QPalette::Base));
    QPainter p(&image);
    p.setFont(view.font());
    const QSize content(size.width(), size.height() - kFooterHeight);
    view.renderTimeline(p, content);
    paintFooter(p, QRect(0, content.height(), size.width(), kFooterHeight), footer, view.palette());
    p.end();
    return image;
}

QImage widgetImage(QWidget& widget, qreal scale, const QString& footer)
{
    const QSize size(widget.width(), widget.height() + kFooterHeight);
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget.palette().color(QPalette::Window));
    QPainter p(&image);
    widget.render(&p);
    p.setFont(widget.font());
    paintFooter(
        p, QRect(0, widget.height(), widget.width(), kFooterHeight), footer, widget.palette());
    p.end();
    return image;
}

namespace {
bool startSvg(QSvgGenerator& gen, QIODevice* device, const QSize& size)
{
    if (!device)
        return false;
    gen.setOutputDevice(device);
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    gen.setResolution(96);
    gen.setTitle(QStringLiteral("Dynascope timeline"));
    gen.setDescription(
        QStringLiteral("Exported by Dynascope ") + QStringLiteral(DYNASCOPE_VERSION));
    return true;
}
} // namespace

bool writeTimelineSvg(
    TimelineView& view, const QSize& size, const QString& footer, QIODevice* device)
{
    QSvgGenerator gen;
    if (!startSvg(gen, device, size))
        return false;
    QPainter p;
    if (!p.begin(&gen))
        return false;
    p.setFont(view.font());
    const QSize content(size.width(), size.height() - kFooterHeight);
    view.renderTimeline(p, content);
    paintFooter(p, QRect(0, content.height(), size.width(), kFooterHeight), footer, view.palette());
    return p.end();
}

bool writeWidgetSvg(QWidget& widget, const QString& footer, QIODevice* device)
{
    const QSize size(widget.width(), widget.height() + kFooterHeight);
    QSvgGenerator gen;
    if (!startSvg(gen, device, size))
        return false;
    QPainter p;
    if (!p.begin(&gen))
        return false;
    widget.render(&p);
    p.setFont(widget.font());
    paintFooter(
        p, QRect(0, widget.height(), widget.width(), kFooterHeight), footer, widget.palette());
    return p.end();
}

} // namespace dynascope::ui
