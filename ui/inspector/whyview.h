// WhyView: the Why tab, the heart of the inspector. It says in sentences why the selected compile
// happened and what went wrong, and every fact is a link that selects what it names: an earlier
// compile (the shared selection), the guard that failed (the Guards tab), a user frame (the
// Source tab), a record (the Raw tab).
//
// The document is built with QTextCursor::insertText and character formats carrying anchors,
// never from HTML, so trace text (untrusted) always shows literally. Links are handled here
// (openLinks off): nothing is ever opened outside the application.
#pragma once

#include "core/model/trace.h"

#include <QTextBrowser>

#include <memory>
#include <vector>

namespace dynascope::ui {

class CompileSelection;

class WhyView : public QTextBrowser {
    Q_OBJECT
public:
    explicit WhyView(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);
    // What the view says while no compile is selected: the trace's top findings (plain text,
    // one per line), or nothing.
    void setOverview(const QString& text);
    // Whether the other cache entries' rejections of a recompile are shown (a link flips it).
    bool showsAllRejections() const { return m_showAllRejections; }

    struct Link {
        QString text;
        QString href;
    };
    // The links of the current document, in reading order.
    QList<Link> links() const;
    // Does what clicking a link with this href does; false for an unknown href.
    bool activate(const QString& href);

Q_SIGNALS:
    void sourceRequested(const QString& file, qint64 line);
    void guardRequested(uint32_t compile, int node);
    void recordRequested(uint32_t record);

private:
    void showCompile(uint32_t compile, bool keepFolding);

    CompileSelection* m_selection;
    QString m_overview;
    bool m_showAllRejections = false;
    std::shared_ptr<const Trace> m_trace;
    uint32_t m_compile = kNone;
    struct Location {
        QString file;
        qint64 line = 0;
    };
    std::vector<Location> m_locations;
    friend class WhyWriter;
};

} // namespace dynascope::ui
