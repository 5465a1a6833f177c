#include "ui/startpage.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace dynascope::ui {

namespace {
QLabel* plainLabel(const QString& text, QWidget* parent)
{
    auto* l = new QLabel(text, parent);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    return l;
}

QLabel* sectionTitle(const QString& text, QWidget* parent)
{
    auto* l = plainLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}
} // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("startPage"));
    auto* column = new QWidget(this);
    column->setMaximumWidth(620);
    auto* v = new QVBoxLayout(column);
    v->setSpacing(6);

    auto* title = plainLabel(tr("Dynascope"), column);
    QFont tf = title->font();
    tf.setPointSizeF(tf.pointSizeF() * 2.2);
    tf.setBold(true);
    title->setFont(tf);
    v->addWidget(title);
    auto* subtitle
        = plainLabel(tr("Explore PyTorch compiler traces (TORCH_TRACE logs): which frames "
                        "compiled, why they recompiled, where the graph broke and what "
                        "failed."),
            column);
    subtitle->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(subtitle);
    v->addSpacing(16);

    auto* open = new QCommandLinkButton(tr("Open a trace file…"),
        tr("A dedicated_log_torch_trace_*.log, also .zst or .gz  (Ctrl+O)"), column);
    auto* folder = new QCommandLinkButton(tr("Open a trace folder…"),
        tr("Every rank's log in a TORCH_TRACE folder  (Ctrl+Shift+O)"), column);
    auto* paste = new QCommandLinkButton(tr("Paste a TORCH_LOGS text"),
        tr("What a bug report shows: TORCH_LOGS=\"graph_breaks,recompiles,guards\" output, "
           "from the clipboard  (Ctrl+Shift+V)"),
        column);
    m_example = new QCommandLinkButton(tr("Open the example trace"),
        tr("A small training run with recompiles, a graph break and a failure"), column);
    auto* record = new QCommandLinkButton(tr("Record a run…"),
        tr("Run your program with TORCH_TRACE set and open its trace when it ends  (Ctrl+Shift+R)"),
        column);
    record->setObjectName(QStringLiteral("startRecord"));
    connect(record, &QAbstractButton::clicked, this, &StartPage::recordRequested);
    open->setObjectName(QStringLiteral("startOpenFile"));
    folder->setObjectName(QStringLiteral("startOpenFolder"));
    m_example->setObjectName(QStringLiteral("startOpenExample"));
    paste->setObjectName(QStringLiteral("startPaste"));
    connect(paste, &QAbstractButton::clicked, this, &StartPage::pasteRequested);
    connect(open, &QAbstractButton::clicked, this, &StartPage::openFileRequested);
    connect(folder, &QAbstractButton::clicked, this, &StartPage::openFolderRequested);
    connect(m_example, &QAbstractButton::clicked, this, &StartPage::openExampleRequested);
    v->addWidget(open);
    v->addWidget(folder);
    v->addWidget(paste);
    v->addWidget(m_example);
    v->addWidget(record);

    v->addSpacing(16);
    m_recentTitle = sectionTitle(tr("Recent"), column);
    v->addWidget(m_recentTitle);
    m_recentLayout = new QVBoxLayout;
    m_recentLayout->setSpacing(0);
    v->addLayout(m_recentLayout);

    v->addSpacing(16);
    v->addWidget(sectionTitle(tr("Make a trace"), column));
    v->addWidget(
        plainLabel(tr("Run your program with TORCH_TRACE set, then open the folder (or let "
                      "dynascope --record run it):"),
            column));
    auto* box = new QFrame(column);
    box->setFrameShape(QFrame::StyledPanel);
    box->setAutoFillBackground(true);
    box->setBackgroundRole(QPalette::Base);
    auto* boxLayout = new QVBoxLayout(box);
    auto* code
        = plainLabel(QStringLiteral("TORCH_TRACE=/tmp/tt python train.py\ndynascope /tmp/tt\n\n"
                                    "dynascope --record -- python train.py"),
            box);
    code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    code->setTextInteractionFlags(Qt::TextSelectableByMouse);
    code->setWordWrap(false);
    boxLayout->addWidget(code);
    v->addWidget(box);
    v->addStretch(1);

    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    auto* centre = new QVBoxLayout;
    centre->addStretch(1);
    centre->addWidget(column);
    centre->addStretch(2);
    outer->addLayout(centre, 4);
    outer->addStretch(1);

    setRecentFiles({});
}

void StartPage::setRecentFiles(const QStringList& paths)
{
    while (QLayoutItem* item = m_recentLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_recentTitle->setVisible(!paths.isEmpty());
    for (const QString& p : paths.mid(0, 6)) {
        const QFileInfo fi(p);
        auto* b = new QCommandLinkButton(
            fi.fileName(), QDir::toNativeSeparators(fi.absolutePath()), this);
        b->setIcon(QIcon());
        b->setToolTip(p);
        connect(b, &QAbstractButton::clicked, this, [this, p] { Q_EMIT openRecentRequested(p); });
        m_recentLayout->addWidget(b);
    }
}

void StartPage::setExampleAvailable(bool available)
{
    m_example->setEnabled(available);
    if (!available)
        m_example->setDescription(
            tr("Not found next to the program (resources/examples/example.log)"));
}

} // namespace dynascope::ui
