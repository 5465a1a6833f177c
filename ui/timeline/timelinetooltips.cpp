#include "ui/timeline/timelinetooltips.h"

#include "core/analysis/why_chain.h"
#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineconstants.h"
#include "ui/timeline/timelinerankmarkspass.h"

namespace dynascope::ui::timeline {

QString TimelineToolTips::text(const Hit& hit, const Trace& trace, const TimelineLayout& layout,
    const TimelineScene& scene, const RankMarksPass& rankMarks, int tzOffsetMinutes)
{
    switch (hit.kind) {
    case Hit::Kind::None:
        return {};
    case Hit::Kind::Gap:
        return gap(hit.item, layout, tzOffsetMinutes);
    case Hit::Kind::RankMark:
        return rankMarks.toolTip(hit.item, trace);
    case Hit::Kind::Marker:
        return marker(hit, trace, layout, scene);
    case Hit::Kind::Span:
    case Hit::Kind::Folded:
        break;
    }
    if (hit.row < 0 || static_cast<size_t>(hit.row) >= layout.rows().size())
        return {};
    const Row& row = layout.rows()[static_cast<size_t>(hit.row)];
    if (hit.kind == Hit::Kind::Folded) {
        const FoldedSpan* f = scene.span(hit);
        return tr("%1 %2 too narrow to draw; zoom in (Ctrl+wheel, W) or click the block")
            .arg(f ? f->count : 2)
            .arg(row.kind == Row::Kind::Lane ? tr("compiles") : tr("phases"));
    }
    if (hit.item >= row.spans.size())
        return {};
    return span(row.spans[hit.item], trace);
}

QString TimelineToolTips::marker(
    const Hit& hit, const Trace& trace, const TimelineLayout& layout, const TimelineScene& scene)
{
    const TimelineScene::CachedMarker* cm = scene.marker(hit);
    if (hit.item >= layout.markers().size())
        return {};
    const Marker& m = layout.markers()[hit.item];
    const auto st = markerStyle(m.kind);
    QString s = st.glyph + QLatin1Char(' ') + st.word + QStringLiteral("  ")
        + qs(trace.compiles[m.compile].id.display());
    if (cm && cm->count > 1)
        s += QStringLiteral("  (+%1 more here; zoom in)").arg(cm->count - 1);
    if (!m.text.isEmpty())
        s += QLatin1Char('\n') + elideText(m.text, 140);
    return s;
}

QString TimelineToolTips::span(const Span& s, const Trace& trace)
{
    const Compile& c = trace.compiles[s.compile];
    if (s.phase >= 0) {
        const PhaseSpan& p = c.phases[static_cast<size_t>(s.phase)];
        QString t = qs(p.name()) + QStringLiteral("  ") + formatDuration(s.end - s.start)
            + QStringLiteral("  · ") + phaseGroupStyle(s.group).label + QStringLiteral("\n")
            + qs(c.id.display()) + QStringLiteral("  ") + compileFunction(c);
        if (p.openEnd)
            t += tr("\nno end event (cut log)");
        return t;
    }
    const auto st = compileStyle(c);
    QString t = qs(c.id.display()) + QStringLiteral("  ") + st.label() + QStringLiteral("  ")
        + formatDuration(c.durationUs()) + QLatin1Char('\n') + compileFunction(c)
        + QStringLiteral("  ") + fileLine(compileFile(c).toStdString(), compileLine(c));
    QString why;
    if (c.failure)
        why = QStringLiteral("✕ ") + qs(c.failure->type) + QStringLiteral(": ")
            + firstLine(c.failure->reason);
    else if (!c.recompileReasons.empty())
        why = QStringLiteral("↻ ") + firstLine(primaryReason(c)->text);
    else if (!c.graphBreaks.empty())
        why = QStringLiteral("⚡ ") + firstLine(c.graphBreaks.front().reason);
    if (!why.isEmpty())
        t += QLatin1Char('\n') + elideText(why, 140);
    return t;
}

QString TimelineToolTips::gap(uint32_t fold, const TimelineLayout& layout, int tzOffsetMinutes)
{
    const auto& folds = layout.folding().folds();
    if (fold >= folds.size())
        return {};
    const IdleGap& g = folds[fold].gap;
    const QString from = layout.aligned()
        ? QStringLiteral("+") + formatDuration(g.start - layout.alignOrigin())
        : formatDateTime(g.start, tzOffsetMinutes);
    const QString to = layout.aligned()
        ? QStringLiteral("+") + formatDuration(g.end - layout.alignOrigin())
        : formatDateTime(g.end, tzOffsetMinutes);
    return tr("%1 without compiles, folded (%2 – %3)\n"
              "Alt+click to unfold it; View > Fold Idle Gaps shows all time to scale")
        .arg(formatLongDuration(g.span()), from, to);
}

} // namespace dynascope::ui::timeline
