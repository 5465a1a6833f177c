#include "ui/runs/runsbar.h"

#include "core/load/runs.h"
#include "ui/models/format.h"

#include <QActionGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QStyle>
#include <QToolButton>

namespace dynascope::ui {

namespace {
size_t duplicateCount(const Trace& t)
{
    size_t n = 0;
    for (const auto& run : t.runs)
        for (const auto& f : run.files)
            n += f.duplicateOf.empty() ? 0 : 1;
    return n;
}

QString noticeText(const Trace& t, const LoadOptions& choice)
{
    QStringList shown, others;
    for (const auto& run : t.runs)
        (run.loaded ? shown : others) << qs(describeRun(run));
    QString text;
    if (t.runs.size() > 1) {
        text = QObject::tr("This folder holds %1 runs. Showing %2%3.")
                   .arg(t.runs.size())
                   .arg(shown.isEmpty() ? QObject::tr("none") : shown.join(QStringLiteral("; ")))
                   .arg(choice.run == RunChoice::Newest && others.size()
                           ? QObject::tr(", the newest")
                           : QString());
        if (!others.isEmpty())
            text += QObject::tr(" Also here: %1.").arg(others.join(QStringLiteral("; ")));
    }
    if (size_t dups = duplicateCount(t))
        text += (text.isEmpty() ? QString() : QStringLiteral(" "))
            + QObject::tr("%n identical file(s) left out (see Diagnostics).", nullptr,
                static_cast<int>(dups));
    return text;
}
} // namespace

RunsBar::RunsBar(QMenu* menu, QWidget* parent)
    : QFrame(parent)
    , m_fileMenu(menu)
    , m_buttonMenu(new QMenu(this))
    , m_label(new QLabel(this))
    , m_choose(new QToolButton(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("runsBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, QColor(0xfff4d6));
    pal.setColor(QPalette::WindowText, QColor(0x3d3000));
    setPalette(pal);
    m_label->setTextFormat(Qt::PlainText); // file names come from the user's disk
    m_label->setWordWrap(true);
    m_choose->setObjectName(QStringLiteral("chooseRun"));
    m_choose->setText(tr("Choose Run"));
    m_choose->setPopupMode(QToolButton::InstantPopup);
    m_choose->setMenu(m_buttonMenu);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Hide this notice (File > Runs still offers the runs)"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 3, 4, 3);
    row->addWidget(m_label, 1);
    row->addWidget(m_choose);
    row->addWidget(m_close);
    hide();
}

QString RunsBar::text() const
{
    return m_label->text();
}

void RunsBar::setTrace(const Trace* trace, const LoadOptions& choice)
{
    const bool several = trace && trace->runs.size() > 1;
    for (QMenu* menu : { m_fileMenu, m_buttonMenu }) {
        if (!menu)
            continue;
        menu->clear();
        if (several)
            fill(menu, *trace, choice);
        menu->setEnabled(several);
    }
    m_choose->setVisible(several);
    const QString text = trace ? noticeText(*trace, choice) : QString();
    m_label->setText(text);
    setVisible(!text.isEmpty());
}

void RunsBar::fill(QMenu* menu, const Trace& trace, const LoadOptions& choice)
{
    auto* group = new QActionGroup(menu);
    for (const auto& run : trace.runs) {
        QAction* a = menu->addAction(qs(describeRun(run)));
        a->setCheckable(true);
        a->setChecked(run.loaded && choice.run != RunChoice::All);
        group->addAction(a);
        const uint32_t number = run.number;
        connect(a, &QAction::triggered, this, [this, number] {
            LoadOptions o;
            o.run = RunChoice::Number;
            o.runNumber = number;
            Q_EMIT runChosen(o);
        });
    }
    menu->addSeparator();
    QAction* all = menu->addAction(tr("All Runs"));
    all->setCheckable(true);
    all->setChecked(choice.run == RunChoice::All);
    group->addAction(all);
    connect(all, &QAction::triggered, this, [this] {
        LoadOptions o;
        o.run = RunChoice::All;
        Q_EMIT runChosen(o);
    });
}

} // namespace dynascope::ui
