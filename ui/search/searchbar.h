// SearchBar: the toolbar's search field (Ctrl+F). Typing searches compile ids, functions, files,
// reasons and guard text (compilesearch.h) after a short pause; the hits are marked on the
// timeline and counted ("3/14"); Enter / Shift+Enter (or the ▼ ▲ buttons, F3 / Shift+F3) step to
// the next / previous hit, which selects it, so the timeline scrolls and zooms to it.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace dynascope::ui {

class CompileSelection;
class TimelineView;

class SearchBar : public QWidget {
    Q_OBJECT
public:
    SearchBar(CompileSelection* selection, TimelineView* timeline, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    QLineEdit* lineEdit() const { return m_edit; }
    // Runs the pending search now (tests, and Enter before the pause is over).
    void searchNow();
    const std::vector<uint32_t>& hits() const { return m_hits; }
    int currentHit() const { return m_current; } // -1 before the first step
    QString countText() const;

public Q_SLOTS:
    void focusSearch();
    void next();
    void previous();

Q_SIGNALS:
    void hitsChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void step(int direction);
    void updateCount();

    CompileSelection* m_selection;
    TimelineView* m_timeline;
    std::shared_ptr<const Trace> m_trace;
    QLineEdit* m_edit;
    QLabel* m_count;
    QToolButton* m_prev;
    QToolButton* m_next;
    QTimer* m_debounce;
    QString m_searched; // the text m_hits belong to
    std::vector<uint32_t> m_hits;
    int m_current = -1;
};

} // namespace dynascope::ui
