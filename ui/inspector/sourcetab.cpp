#include "ui/inspector/sourcetab.h"

#include "ui/inspector/codeviewer.h"
#include "ui/models/format.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace dynascope::ui {

namespace {
constexpr qint64 kMaxSourceBytes = 16 * 1024 * 1024;
}

SourceTab::SourceTab(QWidget* parent)
    : QWidget(parent)
    , m_remaps(loadSourceRemaps())
{
    setObjectName(QStringLiteral("sourceTab"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("sourceStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_viewer = new CodeViewer;

    m_remapRow = new QWidget;
    auto* rl = new QHBoxLayout(m_remapRow);
    rl->setContentsMargins(0, 0, 0, 0);
    m_from = new QLineEdit;
    m_from->setObjectName(QStringLiteral("remapFrom"));
    m_from->setAccessibleName(tr("Remap from"));
    m_from->setPlaceholderText(tr("path prefix in the trace, e.g. /home/alice/proj"));
    m_to = new QLineEdit;
    m_to->setObjectName(QStringLiteral("remapTo"));
    m_to->setAccessibleName(tr("Remap to"));
    m_to->setPlaceholderText(tr("the same folder on this machine"));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* apply = new QPushButton(tr("Remap"));
    apply->setToolTip(tr("Look for files under “from” in “to” instead (remembered)"));
    auto* edit = new QPushButton(tr("Remappings…"));
    rl->addWidget(new QLabel(tr("Remap")));
    rl->addWidget(m_from, 2);
    rl->addWidget(new QLabel(QStringLiteral("→")));
    rl->addWidget(m_to, 2);
    rl->addWidget(browse);
    rl->addWidget(apply);
    rl->addWidget(edit);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder on this machine"));
        if (!dir.isEmpty())
            m_to->setText(dir);
    });
    auto applyRemap = [this] {
        if (!m_from->text().trimmed().isEmpty() && !m_to->text().trimmed().isEmpty())
            addRemap({ m_from->text().trimmed(), m_to->text().trimmed() });
    };
    connect(apply, &QPushButton::clicked, this, applyRemap);
    connect(m_to, &QLineEdit::returnPressed, this, applyRemap);
    connect(edit, &QPushButton::clicked, this, &SourceTab::editRemaps);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_remapRow);
    layout->addWidget(m_viewer, 1);
    setLocation({}, 0);
}

SourceTab::~SourceTab() = default;

void SourceTab::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_index.reset();
    setLocation({}, 0);
}

void SourceTab::setLocation(const QString& file, qint64 line)
{
    m_file = file;
    m_line = line;
    m_pending = true;
    if (isVisible())
        load();
}

void SourceTab::showLocation(const QString& file, qint64 line)
{
    m_file = file;
    m_line = line;
    load();
}

void SourceTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_pending)
        load();
}

void SourceTab::setRemaps(const QList<SourceRemap>& remaps, bool persist)
{
    m_remaps = remaps;
    if (persist)
        saveSourceRemaps(m_remaps);
    if (!m_file.isEmpty())
        load();
}

void SourceTab::addRemap(const SourceRemap& remap)
{
    QList<SourceRemap> r = m_remaps;
    r.erase(std::remove_if(
                r.begin(), r.end(), [&](const SourceRemap& x) { return x.from == remap.from; }),
        r.end());
    r.prepend(remap);
    setRemaps(r);
}

QString SourceTab::statusText() const
{
    return m_status->text();
}

void SourceTab::load()
{
    m_pending = false;
    m_resolved.clear();
    if (m_file.isEmpty()) {
        m_origin = Origin::None;
        m_status->setText(m_trace ? tr("Click a file:line in the Why tab, or select a compile, to "
                                       "see its source here.")
                                  : QString());
        m_remapRow->hide();
        m_viewer->clear();
        return;
    }
    const QString where = m_file + QLatin1Char(':') + QString::number(m_line);
    QStringList folders;
    if (m_trace)
        for (const TraceFile& f : m_trace->files)
            if (const QString d = QFileInfo(qs(f.path)).absolutePath(); !folders.contains(d))
                folders << d;
    m_resolved = resolveSourcePath(m_file, m_remaps, folders);
    if (!m_resolved.isEmpty()) {
        QFile f(m_resolved);
        if (f.size() <= kMaxSourceBytes && f.open(QIODevice::ReadOnly)) {
            QString text = QString::fromUtf8(f.readAll());
            if (text.endsWith(QLatin1Char('\n')))
                text.chop(1);
            m_viewer->setContent(text, PayloadLanguage::Python);
            m_viewer->highlightLine(m_line);
            m_origin = Origin::LocalFile;
            // Found as named, or a relative name found beside the trace: not a remapping.
            const bool asNamed = m_resolved == m_file
                || (QDir::isRelativePath(m_file) && m_resolved.endsWith(QLatin1Char('/') + m_file));
            m_status->setText(asNamed ? tr("%1, line %2").arg(m_resolved).arg(m_line)
                                      : tr("%1, line %2 (the trace's %3, remapped)")
                                            .arg(m_resolved)
                                            .arg(m_line)
                                            .arg(m_file));
            m_remapRow->setVisible(!asNamed);
            return;
        }
        m_resolved.clear();
    }

    // Not on this machine: the lines the trace carries, with their real line numbers.
    if (!m_index && m_trace)
        m_index = std::make_unique<TraceSourceIndex>(*m_trace);
    const auto& lines = m_index ? m_index->linesFor(m_file) : std::map<int64_t, QString> {};
    if (m_from->text().isEmpty() || !m_file.startsWith(m_from->text()))
        m_from->setText(QFileInfo(m_file).path());
    m_remapRow->show();
    if (lines.empty()) {
        m_origin = Origin::Nothing;
        m_status->setText(tr("%1: file not found on this machine, and the trace carries no source "
                             "lines for it. Remap the path below if you have the file.")
                              .arg(where));
        m_viewer->clear();
        return;
    }
    QStringList text;
    std::vector<int64_t> numbers;
    int64_t prev = 0;
    for (const auto& [n, s] : lines) {
        if (prev && n > prev + 1) {
            text << QStringLiteral("⋮");
            numbers.push_back(0);
        }
        text << s;
        numbers.push_back(n);
        prev = n;
    }
    m_viewer->setContent(text.join(QLatin1Char('\n')), PayloadLanguage::Python, std::move(numbers));
    const bool hasLine = m_viewer->highlightLine(m_line);
    m_origin = Origin::TraceText;
    m_status->setText(tr("%1: file not found on this machine; showing the source lines the trace "
                         "carries (%2%3). Remap the path below to see the whole file.")
                          .arg(where, plural(lines.size(), tr("line"), tr("lines")),
                              hasLine ? QString() : tr(", not line %1").arg(m_line)));
}

void SourceTab::editRemaps()
{
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Path Remappings"));
    auto* info = new QLabel(tr("One remapping per line: a path prefix as the trace names it, "
                               "“ -> ”, and the same folder on this machine. The longest "
                               "matching prefix wins."));
    info->setWordWrap(true);
    info->setTextFormat(Qt::PlainText);
    auto* edit = new QPlainTextEdit;
    QStringList lines;
    for (const SourceRemap& r : m_remaps)
        lines << r.from + QStringLiteral(" -> ") + r.to;
    edit->setPlainText(lines.join(QLatin1Char('\n')));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    auto* l = new QVBoxLayout(&dlg);
    l->addWidget(info);
    l->addWidget(edit);
    l->addWidget(buttons);
    dlg.resize(640, 300);
    if (dlg.exec() != QDialog::Accepted)
        return;
    QList<SourceRemap> out;
    for (const QString& line : edit->toPlainText().split(QLatin1Char('\n'))) {
        const qsizetype arrow = line.indexOf(QStringLiteral("->"));
        if (arrow < 0)
            continue;
        const SourceRemap r { line.left(arrow).trimmed(), line.mid(arrow + 2).trimmed() };
        if (!r.from.isEmpty() && !r.to.isEmpty())
            out << r;
    }
    setRemaps(out);
}

} // namespace dynascope::ui
