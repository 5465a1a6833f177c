#include "ui/inspector/whyview.h"

#include "core/analysis/why_chain.h"
#include "ui/compileselection.h"
#include "ui/models/format.h"
#include "ui/models/statusstyle.h"

#include <QFontDatabase>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace dynascope::ui {

// Writes the Why document: runs of plain text, monospace text and links, paragraph by paragraph.
class WhyWriter {
public:
    WhyWriter(WhyView& view, QTextDocument* doc)
        : m_view(view)
        , m_cursor(doc)
    {
        const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        m_mono.setFontFamilies({ fixed.family() });
        m_mono.setFontFixedPitch(true);
        m_bold.setFontWeight(QFont::Bold);
        m_heading.setFontWeight(QFont::Bold);
        m_heading.setFontPointSize(view.font().pointSizeF() * 1.15);
        m_dim.setForeground(view.palette().color(QPalette::PlaceholderText));
        m_link.setAnchor(true);
        // The palette's link colour, lightened or darkened until it reads on the base (dark
        // themes often keep Qt's dark blue).
        m_link.setForeground(
            readableOn(view.palette().color(QPalette::Link), view.palette().color(QPalette::Base)));
        m_link.setFontUnderline(true);
    }

    void text(const QString& s) { m_cursor.insertText(s, m_plain); }
    void bold(const QString& s) { m_cursor.insertText(s, m_bold); }
    void dim(const QString& s) { m_cursor.insertText(s, m_dim); }
    void mono(const QString& s) { m_cursor.insertText(s, m_mono); }
    void link(const QString& s, const QString& href, bool monospace = false)
    {
        QTextCharFormat f = monospace ? m_mono : m_plain;
        f.merge(m_link);
        f.setAnchorHref(href);
        f.setToolTip(tooltipFor(href));
        m_cursor.insertText(s, f);
    }
    void heading(const QString& s)
    {
        if (m_cursor.position() > 0)
            paragraph(10);
        m_cursor.insertText(s, m_heading);
        paragraph(2);
    }
    // Ends the current paragraph; the next one starts `space` px lower and `indent` levels in.
    void paragraph(int space = 2, int indent = 0)
    {
        QTextBlockFormat b;
        b.setTopMargin(space);
        b.setIndent(indent);
        m_cursor.insertBlock(b, m_plain);
    }
    void setIndent(int indent)
    {
        QTextBlockFormat b = m_cursor.blockFormat();
        b.setIndent(indent);
        m_cursor.setBlockFormat(b);
    }

    void compileLink(uint32_t ci)
    {
        const Trace& t = *m_view.m_trace;
        if (ci >= t.compiles.size())
            return;
        link(qs(t.compiles[ci].id.display()), QStringLiteral("compile:%1").arg(ci), true);
    }
    void sourceLink(std::string_view file, int64_t line, const QString& label = {})
    {
        if (file.empty()) {
            text(label);
            return;
        }
        m_view.m_locations.push_back({ qs(file), line });
        link(label.isEmpty() ? fileLine(file, line) : label,
            QStringLiteral("source:%1").arg(m_view.m_locations.size() - 1), true);
    }
    void recordLink(uint32_t record, const QString& label)
    {
        if (record == kNone)
            return;
        link(label, QStringLiteral("record:%1").arg(record));
    }
    // Multi-line text as indented paragraphs.
    void lines(const QString& s, int indent, bool monospace = false)
    {
        const QStringList ls = s.split(QLatin1Char('\n'));
        for (const QString& l : ls) {
            paragraph(0, indent);
            monospace ? mono(l) : text(l);
        }
    }

private:
    QString tooltipFor(const QString& href) const
    {
        if (href.startsWith(QLatin1String("compile:")))
            return WhyView::tr("Select this compile");
        if (href.startsWith(QLatin1String("guard:")))
            return WhyView::tr("Show this guard in the Guards tab");
        if (href.startsWith(QLatin1String("source:")))
            return WhyView::tr("Open this line in the Source tab");
        if (href.startsWith(QLatin1String("record:")))
            return WhyView::tr("Show the raw record in the Raw tab");
        if (href.startsWith(QLatin1String("toggle:")))
            return WhyView::tr("Show or hide the details");
        return {};
    }

    WhyView& m_view;
    QTextCursor m_cursor;
    QTextCharFormat m_plain, m_mono, m_bold, m_heading, m_dim, m_link;
};

namespace {
// A Python traceback with every `File "...", line N, in fn` line a link.
void writeTraceback(WhyWriter& w, const std::string& traceback, int indent)
{
    static const QRegularExpression frameRe(
        QStringLiteral("^(\\s*)File \"(.+)\", line (\\d+)(.*)$"));
    const QStringList lines = qs(traceback).split(QLatin1Char('\n'));
    for (const QString& l : lines) {
        w.paragraph(0, indent);
        const auto m = frameRe.match(l);
        if (m.hasMatch()) {
            w.mono(m.captured(1) + QStringLiteral("File \""));
            w.sourceLink(m.captured(2).toStdString(), m.captured(3).toLongLong(), m.captured(2));
            w.mono(QStringLiteral("\", line ") + m.captured(3) + m.captured(4));
        } else {
            w.mono(l);
        }
    }
}

// "x.size(0)" for a size mismatch at dimension 0 of x, "x.dtype", "factor.value": what the value
// chain is the values of.
QString valueLabel(const Rejection& r)
{
    QString src = qs(r.loggedSource);
    if (src.startsWith(QLatin1String("L['")) && src.endsWith(QLatin1String("']")) && src.size() > 5)
        src = src.mid(3, src.size() - 5);
    if (src.isEmpty())
        return {};
    QString label = src + QLatin1Char('.') + QString::fromLatin1(toString(r.mismatch));
    if (isShapeChange(r.mismatch) && r.dim)
        label += QStringLiteral("(%1)").arg(*r.dim);
    return label;
}

// What to do about it, in a sentence.
QString fixText(const Fix& fix, Mismatch mismatch)
{
    switch (fix.kind) {
    case FixKind::MarkDynamic:
        return fix.code.empty()
            ? QObject::tr("Sizes change between calls: marking the dimension dynamic "
                          "(torch._dynamo.mark_dynamic) or compiling with dynamic=True avoids one "
                          "compile per size.")
            : QObject::tr("Sizes change between calls: %1 before the call, or compiling with "
                          "dynamic=True, avoids one compile per size.")
                  .arg(qs(fix.code));
    case FixKind::StableObject:
        return QObject::tr("An object the function reads (a global, a closure, a module) is a new "
                           "object on each call: keep one object, or pass it as an argument.");
    case FixKind::OneCompilePerValue:
        return QObject::tr("The input's %1 differs between calls: each %1 gets its own compile.")
            .arg(QString::fromLatin1(toString(mismatch)));
    case FixKind::None:
        break;
    }
    return {};
}

// "2 → 3 → 4 → … → 15 → 16": the first three and the last two values of a long chain.
QString valueChainText(const std::vector<std::string>& chain)
{
    QStringList values;
    for (const std::string& v : chain)
        values << qs(v);
    const QString arrow = QStringLiteral(" → ");
    if (values.size() <= 8)
        return values.join(arrow);
    return values.mid(0, 3).join(arrow) + arrow + QStringLiteral("…") + arrow
        + values.mid(values.size() - 2).join(arrow)
        + QObject::tr("  (%1 values)").arg(values.size());
}

// PyTorch's structured break text: the type in bold with its GB code, the explanation, the
// hints, chained breaks; the documentation link as plain text (never opened from here).
void writeBreakDetails(
    WhyWriter& w, const std::vector<GraphBreakDetail>& details, const QString& operation)
{
    for (size_t i = 0; i < details.size(); ++i) {
        const GraphBreakDetail& d = details[i];
        if (i > 0) {
            w.paragraph(6, 1);
            w.text(WhyView::tr("While handling it, another graph break occurred: "));
        }
        w.bold(qs(d.title.substr(0, d.title.find('\n'))));
        if (!d.gbCode.empty())
            w.dim(QStringLiteral("  (") + qs(d.gbCode) + QStringLiteral(")"));
        if (i == 0 && !operation.isEmpty()) {
            w.paragraph(2, 1);
            w.dim(WhyView::tr("while tracing ") + operation);
        }
        if (!d.explanation.empty())
            w.lines(qs(d.explanation).trimmed(), 1);
        for (const std::string& h : d.hints) {
            w.paragraph(2, 1);
            w.text(WhyView::tr("Hint: "));
            w.text(qs(h));
        }
        if (!d.link.empty()) {
            w.paragraph(2, 1);
            w.dim(WhyView::tr("More: "));
            w.mono(qs(d.link));
        }
    }
}
} // namespace

// One rejection: "[0/13] rejected it: <reason>", the guard that failed and where it was made.
void WhyView::writeRejection(WhyWriter& w, const Rejection& r, int indent)
{
    w.paragraph(6, indent);
    w.text(QStringLiteral("• "));
    if (r.earlierCompile != kNone)
        w.compileLink(r.earlierCompile);
    else if (!r.earlierKey.empty())
        w.mono(QLatin1Char('[') + qs(r.earlierKey) + QStringLiteral("] "));
    w.text(r.earlierCompile != kNone || !r.earlierKey.empty() ? tr(" rejected it: ") : QString());
    w.bold(qs(r.detail).trimmed());
    if ((!r.expected.empty() || !r.actual.empty())
        && r.detail.find("expected") == std::string::npos) {
        w.paragraph(2, indent + 1);
        if (!r.expected.empty()) {
            w.text(tr("expected "));
            w.mono(qs(r.expected));
        }
        if (!r.actual.empty()) {
            w.text(r.expected.empty() ? tr("actual ") : tr(", actual "));
            w.mono(qs(r.actual));
        }
        if (r.mismatch != Mismatch::None)
            w.dim(QStringLiteral("  (") + QString::fromLatin1(toString(r.mismatch))
                + QStringLiteral(" mismatch)"));
    }
    if (r.guardFound()) {
        w.paragraph(2, indent + 1);
        w.text(tr("failed guard: "));
        w.link(
            qs(r.guardKind) + (r.guardSource.empty() ? QString() : tr(" on ") + qs(r.guardSource)),
            QStringLiteral("guard:%1:%2").arg(r.earlierCompile).arg(r.guardNode), true);
        w.text(tr(" in the guards of "));
        w.compileLink(r.earlierCompile);
        w.paragraph(0, indent + 2);
        w.mono(qs(r.guardExpr));
        if (!r.guardWhere.empty()) {
            w.paragraph(2, indent + 1);
            w.text(tr("guard made at "));
            if (r.guardMadeAt.known())
                w.sourceLink(r.guardMadeAt.file, r.guardMadeAt.line, qs(r.guardWhere));
            else
                w.mono(qs(r.guardWhere));
        }
        if (!r.guardUserStack.empty()) {
            w.paragraph(2, indent + 1);
            w.text(tr("user stack: "));
            w.mono(qs(r.guardUserStack));
        }
    } else if (r.earlierCompile != kNone) {
        w.paragraph(2, indent + 1);
        w.dim(r.loggedSource.empty()
                ? tr("(the guard that failed was not found in the earlier compile's guards)")
                : tr("guarded source %1 (its guard was not found in the earlier compile's guards)")
                      .arg(qs(r.loggedSource)));
    }
    if (r.userLine.known()) {
        w.paragraph(2, indent + 1);
        w.text(tr("user code that made the guard: "));
        w.sourceLink(r.userLine.file, r.userLine.line);
        if (!r.userLine.function.empty())
            w.text(tr(" in ") + qs(r.userLine.function));
        if (!r.userLine.code.empty()) {
            w.text(QStringLiteral("   "));
            w.mono(qs(r.userLine.code));
        }
    }
}

WhyView::WhyView(CompileSelection* selection, QWidget* parent)
    : QTextBrowser(parent)
    , m_selection(selection)
{
    setObjectName(QStringLiteral("whyView"));
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setUndoRedoEnabled(false);
    setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(this, &QTextBrowser::anchorClicked, this,
        [this](const QUrl& url) { activate(url.toString()); });
}

void WhyView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_compile = kNone;
    showCompile(kNone);
}

QList<WhyView::Link> WhyView::links() const
{
    QList<Link> out;
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.isValid() && f.charFormat().isAnchor())
                out.push_back({ f.text(), f.charFormat().anchorHref() });
        }
    }
    return out;
}

bool WhyView::activate(const QString& href)
{
    if (!m_trace)
        return false;
    const qsizetype colon = href.indexOf(QLatin1Char(':'));
    if (colon < 0)
        return false;
    const QString scheme = href.left(colon);
    if (href == QLatin1String("toggle:rejections")) {
        m_showAllRejections = !m_showAllRejections;
        const int scroll = verticalScrollBar()->value();
        showCompile(m_compile, true);
        verticalScrollBar()->setValue(scroll);
        return true;
    }
    const QStringList parts = href.mid(colon + 1).split(QLatin1Char(':'));
    bool ok = false;
    const qulonglong a = parts.value(0).toULongLong(&ok);
    if (!ok)
        return false;
    if (scheme == QLatin1String("compile") && a < m_trace->compiles.size()) {
        m_selection->setCurrent(static_cast<uint32_t>(a));
        return true;
    }
    if (scheme == QLatin1String("guard") && a < m_trace->compiles.size() && parts.size() == 2) {
        Q_EMIT guardRequested(static_cast<uint32_t>(a), parts[1].toInt());
        return true;
    }
    if (scheme == QLatin1String("source") && a < m_locations.size()) {
        Q_EMIT sourceRequested(m_locations[a].file, m_locations[a].line);
        return true;
    }
    if (scheme == QLatin1String("record") && a < m_trace->records.size()) {
        Q_EMIT recordRequested(static_cast<uint32_t>(a));
        return true;
    }
    return false;
}

void WhyView::setOverview(const QString& text)
{
    m_overview = text;
    if (m_compile == kNone || !m_trace || m_compile >= m_trace->compiles.size())
        showCompile(kNone);
}

void WhyView::showCompile(uint32_t ci)
{
    showCompile(ci, false);
}

void WhyView::showCompile(uint32_t ci, bool keepFolding)
{
    if (!keepFolding)
        m_showAllRejections = false;
    m_compile = ci;
    m_locations.clear();
    document()->clear();
    if (!m_trace || ci >= m_trace->compiles.size()) {
        const QString select = tr("Select a compile in the tree, the timeline or the stack trie to "
                                  "see why it compiled and what went wrong.");
        setPlaceholderText(!m_trace    ? QString()
                : m_overview.isEmpty() ? select
                                       : m_overview + QStringLiteral("\n\n") + select);
        return;
    }
    const Trace& t = *m_trace;
    const Compile& c = t.compiles[ci];
    WhyWriter w(*this, document());
    const StatusStyle st = statusStyle(c.status);

    // Title: "[3/2] scale (train.py:25)  ↻ recompile · ✓ ok · 66 ms"
    w.link(qs(c.id.display()), QStringLiteral("compile:%1").arg(ci), true);
    w.text(QStringLiteral("  "));
    w.bold(compileFunction(c));
    const QString file = compileFile(c);
    if (!file.isEmpty()) {
        w.text(QStringLiteral(" ("));
        w.sourceLink(file.toStdString(), compileLine(c));
        w.text(QStringLiteral(")"));
    }
    w.text(QStringLiteral("   "));
    if (c.isRecompile())
        w.text(QStringLiteral("↻ recompile · "));
    w.text(st.label());
    if (c.timeSource != TimeSource::None)
        w.dim(QStringLiteral(" · ") + formatDuration(c.durationUs()));

    const WhyChain why = explainCompile(t, ci);
    bool said = false;

    // Resume frame: where it comes from.
    if (why.resumesAfter) {
        const ResumeOrigin& o = *why.resumesAfter;
        w.heading(tr("Resumes after a graph break"));
        w.text(qs(c.id.display()) + tr(" resumes after the graph break in "));
        w.compileLink(o.compile);
        if (o.breakLine.known()) {
            w.text(tr(" at "));
            w.sourceLink(o.breakLine.file, o.breakLine.line);
        }
        if (!o.reason.empty()) {
            w.text(QStringLiteral(": "));
            w.text(firstLine(o.reason));
        }
        w.text(QStringLiteral("."));
        said = true;
    }

    // Recompile: the primary reason with the guard that failed, the values that changed across
    // the frame's compiles and what to do about it; then the other cache entries' rejections,
    // folded (a frame recompiled 14 times would otherwise list 14 near-identical paragraphs).
    if (why.recompile) {
        const RecompileWhy& r = *why.recompile;
        w.heading(tr("↻ Why it recompiled"));
        // Lead with what changed and what to do; then the guard that failed, then the rest.
        if (r.primary) {
            w.text(r.earlierCompiles > 1
                    ? tr("The call matched none of the frame's %1 earlier compiles (a guard of "
                         "each failed), so Dynamo compiled again.")
                          .arg(r.earlierCompiles)
                    : tr("A guard of the frame's earlier compile failed, so Dynamo compiled "
                         "again."));
        } else if (!r.metricReason.empty()) {
            w.paragraph(4, 1);
            w.bold(qs(r.metricReason).trimmed());
        } else {
            w.paragraph(4, 1);
            w.text(tr("This is a recompile of the frame, but the trace logged no reason "
                      "(PyTorch before 2.5 does not log recompile_reasons)."));
        }
        if (r.primary && r.values.size() >= 2) {
            w.paragraph(8, 1);
            w.bold(valueLabel(*r.primary));
            w.text(tr(" across the frame's compiles: "));
            w.mono(valueChainText(r.values));
        }
        const QString fix = r.primary ? fixText(r.fix, r.primary->mismatch) : QString();
        if (!fix.isEmpty()) {
            w.paragraph(6, 1);
            w.bold(tr("Hint: "));
            w.text(fix);
        }
        if (r.primary) {
            w.paragraph(8, 1);
            w.text(r.others.empty() ? tr("The guard that failed:")
                                    : tr("The newest cache entry's guard that failed:"));
            writeRejection(w, *r.primary, 1);
        }
        if (!r.others.empty()) {
            w.paragraph(8, 1);
            const QString what
                = plural(r.others.size(), tr("other rejection"), tr("other rejections"));
            w.link((m_showAllRejections ? QStringLiteral("▾ ") : QStringLiteral("▸ "))
                    + (m_showAllRejections ? tr("Hide the %1").arg(what)
                                           : tr("Show the %1").arg(what)),
                QStringLiteral("toggle:rejections"));
            w.dim(tr("  (the older cache entries the call was checked against)"));
            if (m_showAllRejections) {
                for (const Rejection& other : r.others)
                    writeRejection(w, other, 2);
            }
        }
        said = true;
    }

    // Graph breaks: reason, user traceback, resume frame.
    for (const BreakWhy& g : why.graphBreaks) {
        w.heading(why.graphBreaks.size() > 1
                ? tr("⚡ Graph break %1 of %2").arg(g.index + 1).arg(why.graphBreaks.size())
                : tr("⚡ Graph break"));
        w.text(qs(c.id.display()) + tr(" broke the graph"));
        if (g.userLine.known()) {
            w.text(tr(" at "));
            w.sourceLink(g.userLine.file, g.userLine.line);
        }
        QString reason = qs(g.reason).trimmed();
        if (reason.startsWith(QLatin1String("Graph Break Reason: ")))
            reason = reason.mid(20);
        const qsizetype nl = reason.indexOf(QLatin1Char('\n'));
        w.text(QStringLiteral(": "));
        if (reason.isEmpty() && g.record < t.records.size()
            && t.files[t.fileOf(g.record)].format == TraceFormat::TorchLogs)
            w.dim(tr("(its reason is not in the text: the paste starts inside this message) "));
        if (!g.details.empty()) {
            writeBreakDetails(w, g.details, !g.operation.empty() ? qs(g.operation) : QString());
            if (g.skipsFrame) {
                w.paragraph(4, 1);
                w.bold(tr("Dynamo skipped the whole frame: it runs in eager, nothing of it is "
                          "compiled (no resume function)."));
            } else if (g.cannotResume) {
                w.paragraph(4, 1);
                w.bold(tr("Dynamo could not resume after this break: the rest of the function "
                          "runs in eager."));
            }
        } else {
            w.bold(nl < 0 ? reason : reason.left(nl));
            if (nl >= 0)
                w.lines(reason.mid(nl + 1).trimmed(), 1);
        }
        if (!g.userFrames.empty()) {
            w.paragraph(6);
            w.text(tr("User code traceback (innermost last):"));
            for (const StackFrame& f : g.userFrames) {
                w.paragraph(2, 1);
                w.sourceLink(f.file, f.line);
                if (!f.name.empty())
                    w.text(tr(" in ") + qs(f.name));
                if (!f.loc.empty()) {
                    w.paragraph(0, 2);
                    w.mono(qs(f.loc));
                }
            }
        }
        w.paragraph(6);
        if (g.resumeCompile < t.compiles.size()) {
            w.text(tr("The code after the break resumes in "));
            w.compileLink(g.resumeCompile);
            const Compile& rc = t.compiles[g.resumeCompile];
            w.text(QStringLiteral(" ("));
            w.mono(compileFunction(rc));
            w.text(QStringLiteral(")."));
        } else {
            w.dim(tr("No compile of the code after the break was found in the trace."));
        }
        if (g.record != kNone) {
            w.text(QStringLiteral("  "));
            w.recordLink(g.record, tr("raw record"));
        }
        said = true;
    }
    if (!why.restartReasons.empty()) {
        w.heading(tr("⚡ Restarted analysis"));
        w.text(tr("Dynamo restarted the analysis of this frame:"));
        for (const std::string& r : why.restartReasons) {
            w.paragraph(2, 1);
            w.text(QStringLiteral("• ") + qs(r));
        }
        said = true;
    }

    // Failure: type, reason, user frame, traceback.
    if (why.failure) {
        const FailureWhy& f = *why.failure;
        w.heading(f.frameSkipped   ? tr("✕ Frame skipped (runs in eager)")
                : f.recompileLimit ? tr("✕ Recompile limit reached")
                                   : tr("✕ Compile failed"));
        w.bold(qs(f.type));
        if (!f.layer.empty())
            w.dim(tr("  in ") + qs(f.layer));
        if (f.userFrame.known()) {
            w.text(tr(" at user frame "));
            w.sourceLink(f.userFrame.file, f.userFrame.line);
        }
        if (f.frameSkipped) {
            w.paragraph(4, 1);
            w.text(tr("Not a crash: Dynamo could not handle a graph break in this frame, so it "
                      "skipped the frame and the program ran it in eager."));
        } else if (f.recompileLimit) {
            w.paragraph(4, 1);
            w.text(tr("The frame's cache is full: this and later calls that miss its guards run in "
                      "eager. The reasons above say what kept changing."));
        }
        if (!f.details.empty()) {
            w.paragraph(4, 1);
            writeBreakDetails(w, f.details, QString());
        } else if (!f.reason.empty()) {
            w.lines(qs(f.reason).trimmed(), 1, true);
        }
        if (!f.traceback.empty()) {
            w.paragraph(6);
            w.text(tr("Traceback:"));
            if (f.record != kNone) {
                w.text(QStringLiteral("  "));
                w.recordLink(f.record, tr("raw record"));
            }
            writeTraceback(w, f.traceback, 1);
        }
        said = true;
    }

    // Dynamic shapes: symbols and shape guards, with the user line behind each.
    if (!c.shapeEvents.empty()) {
        w.heading(tr("Dynamic shapes"));
        w.text(plural(c.shapeEvents.size(), tr("shape event"), tr("shape events"))
            + tr(": symbols, shape guards and specialisations (all in the Guards tab)."));
        size_t shown = 0;
        for (const ShapeEvent& e : c.shapeEvents) {
            if (++shown > 12) {
                w.paragraph(2, 1);
                w.dim(tr("…"));
                break;
            }
            w.paragraph(2, 1);
            w.text(QStringLiteral("• ") + qs(e.kind) + QStringLiteral(" "));
            w.mono(qs(e.expr));
            if (!e.value.empty())
                w.mono(QStringLiteral(" = ") + qs(e.value));
            const Stack& us = e.userStack.empty() ? e.stack : e.userStack;
            if (!us.empty()) {
                w.text(tr(" at "));
                w.sourceLink(us.back().file, us.back().line);
                if (!us.back().loc.empty()) {
                    w.text(QStringLiteral("  "));
                    w.mono(qs(us.back().loc));
                }
            }
        }
    }

    // Nothing went wrong: say so plainly, and name the frame's later compiles.
    if (!said) {
        w.heading(st.glyph + QLatin1Char(' ') + tr("No surprises"));
        const bool only = why.frameCompiles.size() <= 1;
        const bool text
            = c.file < t.files.size() && t.files[c.file].format == TraceFormat::TorchLogs;
        if (c.status == CompileStatus::Missing && text)
            w.text(tr("The text does not say how this compile ended: it logged no guards, graph "
                      "break or failure for it (TORCH_LOGS without \"guards\", a failure PyTorch "
                      "did not log, or the text is cut)."));
        else if (c.status == CompileStatus::Missing)
            w.text(tr("The compile did not finish: no compilation_metrics were logged (the "
                      "process died mid-compile or the log is cut)."));
        else if (c.status == CompileStatus::Empty)
            w.text(tr("Compiled once; the graph was empty (no ops), so there was nothing to run."));
        else if (only)
            w.text(tr("Compiled once, no recompiles."));
        if (!only) {
            if (c.status == CompileStatus::Empty || c.status == CompileStatus::Missing)
                w.paragraph(4);
            w.text(tr("First compile of this frame, no recompile of its own; the frame was "
                      "recompiled later (%1): ")
                       .arg(plural(why.frameCompiles.size() - 1, tr("time"), tr("times"))));
            bool firstLink = true;
            for (uint32_t other : why.frameCompiles) {
                if (other == ci)
                    continue;
                if (!firstLink)
                    w.text(QStringLiteral(", "));
                firstLink = false;
                w.compileLink(other);
            }
            w.text(QStringLiteral("."));
        }
    }

    // Call site: the stack that led here.
    if (!why.callers.empty()) {
        w.heading(tr("Called from"));
        for (const SourceLine& f : why.callers) {
            w.paragraph(0, 1);
            w.sourceLink(f.file, f.line);
            w.text(tr(" in ") + qs(f.function));
            if (!f.code.empty()) {
                w.text(QStringLiteral("   "));
                w.mono(qs(f.code));
            }
        }
    }
    moveCursor(QTextCursor::Start);
}

} // namespace dynascope::ui
