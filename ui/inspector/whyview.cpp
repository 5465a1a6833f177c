#include "ui/inspector/whyview.h"

#include "core/analysis/why_document.h"
#include "ui/compileselection.h"
#include "ui/models/format.h"
#include "ui/models/statusstyle.h"

#include <QFontDatabase>
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
    // A heading in its own block, 10 px below the text before it.
    void heading(const QString& s)
    {
        if (m_cursor.position() > 0)
            paragraph(10);
        m_cursor.insertText(s, m_heading);
    }
    // Ends the current paragraph; the next one starts `space` px lower and `indent` levels in.
    void paragraph(int space = 2, int indent = 0)
    {
        QTextBlockFormat b;
        b.setTopMargin(space);
        b.setIndent(indent);
        m_cursor.insertBlock(b, m_plain);
    }
    // A span of the core's Why document: its style, and its link as an href this view handles.
    void span(const WhySpan& s)
    {
        const QString t = qs(s.text);
        const bool monospace = s.style == WhyStyle::Mono;
        switch (s.link.kind) {
        case WhyLink::Kind::None:
            break;
        case WhyLink::Kind::Compile:
            link(t, QStringLiteral("compile:%1").arg(s.link.compile), monospace);
            return;
        case WhyLink::Kind::Guard:
            link(t, QStringLiteral("guard:%1:%2").arg(s.link.compile).arg(s.link.guardNode),
                monospace);
            return;
        case WhyLink::Kind::Source:
            m_view.m_locations.push_back({ qs(s.link.file), s.link.line });
            link(t, QStringLiteral("source:%1").arg(m_view.m_locations.size() - 1), monospace);
            return;
        case WhyLink::Kind::Record:
            link(t, QStringLiteral("record:%1").arg(s.link.record), monospace);
            return;
        case WhyLink::Kind::ToggleRejections:
            link(t, QStringLiteral("toggle:rejections"), monospace);
            return;
        }
        switch (s.style) {
        case WhyStyle::Plain:
            text(t);
            break;
        case WhyStyle::Bold:
            bold(t);
            break;
        case WhyStyle::Dim:
            dim(t);
            break;
        case WhyStyle::Mono:
            mono(t);
            break;
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
    WhyOptions options;
    options.showAllRejections = m_showAllRejections;
    const WhyDocument doc = whyDocument(*m_trace, ci, options);
    WhyWriter w(*this, document());
    for (const WhyBlock& b : doc.blocks) {
        if (b.kind == WhyBlock::Kind::Heading) {
            QString heading;
            for (const WhySpan& span : b.spans)
                heading += qs(span.text);
            w.heading(heading);
            continue;
        }
        if (b.kind != WhyBlock::Kind::Title)
            w.paragraph(b.spaceBefore, b.indent);
        for (const WhySpan& span : b.spans)
            w.span(span);
    }
    moveCursor(QTextCursor::Start);
}

} // namespace dynascope::ui
