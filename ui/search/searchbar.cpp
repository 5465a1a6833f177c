#include "ui/search/searchbar.h"

#include "ui/compileselection.h"
#include "ui/search/compilesearch.h"
#include "ui/timeline/timelineview.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace dynascope::ui {

SearchBar::SearchBar(CompileSelection* selection, TimelineView* timeline, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_timeline(timeline)
    , m_edit(new QLineEdit(this))
    , m_count(new QLabel(this))
    , m_prev(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("searchBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 0, 0);
    layout->setSpacing(4);
    m_edit->setObjectName(QStringLiteral("searchEdit"));
    m_edit->setAccessibleName(tr("Search"));
    m_edit->setAccessibleDescription(tr("Search ids, functions, files, reasons and guards"));
    m_edit->setPlaceholderText(tr("Search ids, functions, files, reasons, guards  (Ctrl+F)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(260);
    m_edit->setMaximumWidth(460);
    m_edit->installEventFilter(this);
    m_count->setTextFormat(Qt::PlainText);
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(QStringLiteral("888/888")));
    m_count->setForegroundRole(QPalette::PlaceholderText);
    m_prev->setText(QStringLiteral("▲"));
    m_prev->setToolTip(tr("Previous hit (Shift+Enter)"));
    m_prev->setAccessibleName(tr("Previous hit"));
    m_prev->setAutoRaise(true);
    m_next->setText(QStringLiteral("▼"));
    m_next->setToolTip(tr("Next hit (Enter)"));
    m_next->setAccessibleName(tr("Next hit"));
    m_next->setAutoRaise(true);
    layout->addWidget(m_edit);
    layout->addWidget(m_count);
    layout->addWidget(m_prev);
    layout->addWidget(m_next);
    layout->addStretch(1); // the count and arrows stay next to the field

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(180);
    connect(m_debounce, &QTimer::timeout, this, &SearchBar::searchNow);
    connect(m_edit, &QLineEdit::textChanged, this, [this] { m_debounce->start(); });
    connect(m_prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::next);
    setEnabled(false);
    updateCount();
}

void SearchBar::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    setEnabled(m_trace != nullptr);
    m_searched.clear();
    searchNow();
}

void SearchBar::focusSearch()
{
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void SearchBar::searchNow()
{
    m_debounce->stop();
    const QString text = m_edit->text().trimmed();
    if (text == m_searched && !(text.isEmpty() && !m_hits.empty()))
        return;
    m_searched = text;
    m_hits = m_trace ? searchCompiles(*m_trace, text) : std::vector<uint32_t> {};
    m_current = -1;
    m_timeline->setSearchHits(m_hits);
    updateCount();
    Q_EMIT hitsChanged();
}

QString SearchBar::countText() const
{
    if (m_searched.isEmpty())
        return {};
    if (m_hits.empty())
        return tr("no hits");
    if (m_current < 0)
        return tr("%1 hits").arg(m_hits.size());
    return QStringLiteral("%1/%2").arg(m_current + 1).arg(m_hits.size());
}

void SearchBar::updateCount()
{
    m_count->setText(countText());
    m_prev->setEnabled(!m_hits.empty());
    m_next->setEnabled(!m_hits.empty());
}

void SearchBar::next()
{
    step(1);
}

void SearchBar::previous()
{
    step(-1);
}

void SearchBar::step(int direction)
{
    searchNow();
    if (m_hits.empty())
        return;
    const int n = static_cast<int>(m_hits.size());
    if (m_current < 0) {
        // The first step goes from the selected compile, so Enter finds the next hit after it.
        const uint32_t cur = m_selection->current();
        if (cur == kNone) {
            m_current = direction > 0 ? 0 : n - 1;
        } else if (direction > 0) {
            const auto it = std::upper_bound(m_hits.begin(), m_hits.end(), cur);
            m_current = it == m_hits.end() ? 0 : static_cast<int>(it - m_hits.begin());
        } else {
            const auto it = std::lower_bound(m_hits.begin(), m_hits.end(), cur);
            m_current = it == m_hits.begin() ? n - 1 : static_cast<int>(it - m_hits.begin()) - 1;
        }
    } else {
        m_current = ((m_current + direction) % n + n) % n;
    }
    const uint32_t hit = m_hits[static_cast<size_t>(m_current)];
    m_selection->setCurrent(hit);
    m_timeline->revealCompile(hit);
    updateCount();
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step((key->modifiers() & Qt::ShiftModifier) ? -1 : 1);
            return true;
        }
        if (key->key() == Qt::Key_Escape && !m_edit->text().isEmpty()) {
            m_edit->clear();
            searchNow();
            m_timeline->setFocus();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace dynascope::ui
