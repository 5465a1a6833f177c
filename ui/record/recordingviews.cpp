#include "ui/record/recordingviews.h"

#include "ui/record/livefollower.h"

#include "ui/plaintooltip.h"
#include "ui/record/runcontroller.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace dynascope::ui {

namespace {

// Okabe-Ito vermillion: the "live" colour, readable on light and dark bases.
const QString kLiveStyle = QStringLiteral("color: #D55E00; font-weight: bold;");

// The row both status-bar indicators show: "● live", what it is doing, and a button.
QLabel* liveRow(QWidget* w, QLabel*& label, QToolButton*& button, const QString& buttonText)
{
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    auto* dot = new QLabel(QCoreApplication::translate("RunIndicator", "● live"), w);
    dot->setTextFormat(Qt::PlainText);
    dot->setStyleSheet(kLiveStyle);
    label = new QLabel(w);
    label->setTextFormat(Qt::PlainText);
    button = new QToolButton(w);
    button->setText(buttonText);
    h->addWidget(dot);
    h->addWidget(label);
    h->addWidget(button);
    return dot;
}

QLabel* plainLabel(QWidget* parent, bool wrap = true)
{
    auto* l = new QLabel(parent);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(wrap);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QString commandText(const RunController* run)
{
    std::vector<std::string> argv;
    for (const QString& a : run->request().argv)
        argv.push_back(a.toStdString());
    return QString::fromStdString(run::joinCommandLine(argv));
}

// Only this many bytes of newly appended output are read per poll (the tail is what matters).
constexpr qint64 kMaxOutputRead = 256 * 1024;

} // namespace

QString elapsedText(qint64 ms)
{
    const qint64 s = ms / 1000;
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(s / 3600)
            .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

RecordingPage::RecordingPage(RunController* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
{
    setObjectName(QStringLiteral("recordingPage"));
    auto* column = new QWidget(this);
    column->setMaximumWidth(900);
    auto* v = new QVBoxLayout(column);
    v->setSpacing(8);
    m_title = plainLabel(column, false);
    QFont tf = m_title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.8);
    tf.setBold(true);
    m_title->setFont(tf);
    v->addWidget(m_title);
    m_command = plainLabel(column);
    m_command->setObjectName(QStringLiteral("recordingCommand"));
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    v->addWidget(m_command);
    m_folder = plainLabel(column);
    v->addWidget(m_folder);
    m_state = plainLabel(column);
    m_state->setObjectName(QStringLiteral("recordingState"));
    v->addWidget(m_state);
    m_trace = plainLabel(column);
    m_trace->setObjectName(QStringLiteral("recordingTrace"));
    m_trace->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(m_trace);
    auto* buttons = new QHBoxLayout;
    m_stop = new QPushButton(tr("Stop the Program"), column);
    m_stop->setObjectName(QStringLiteral("recordingStop"));
    m_stop->setToolTip(tr("Sends SIGINT, as Ctrl+C does (Python stops with KeyboardInterrupt); "
                          "press again to kill it"));
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    v->addLayout(buttons);
    v->addSpacing(8);
    m_outputNote = plainLabel(column);
    v->addWidget(m_outputNote);
    m_output = new QPlainTextEdit(column);
    m_output->setObjectName(QStringLiteral("recordingOutput"));
    m_output->setReadOnly(true);
    m_output->setMaximumBlockCount(2000);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
    v->addWidget(m_output, 10);
    v->addStretch(1); // takes the room when the output is not shown here

    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addWidget(column, 4);
    outer->addStretch(1);

    connect(m_stop, &QPushButton::clicked, m_run, &RunController::stop);
    connect(m_run, &RunController::started, this, &RecordingPage::onStarted);
    connect(m_run, &RunController::tick, this, &RecordingPage::refresh);
    connect(m_run, &RunController::finished, this, &RecordingPage::onFinished);
}

QString RecordingPage::outputText() const
{
    return m_output->toPlainText();
}

void RecordingPage::onStarted()
{
    m_output->clear();
    m_outputOffset = 0;
    m_title->setStyleSheet(kLiveStyle);
    m_title->setText(tr("● Recording"));
    m_command->setText(commandText(m_run));
    QString where = tr("Trace folder (TORCH_TRACE): %1").arg(m_run->folder());
    if (!m_run->request().workingDirectory.isEmpty())
        where
            += QLatin1Char('\n') + tr("Working folder: %1").arg(m_run->request().workingDirectory);
    m_folder->setText(where);
    m_trace->setText(m_run->follower()->whileRunning());
    const bool captured = !m_run->outputFile().isEmpty();
    m_outputNote->setText(captured
            ? tr("Output (stdout and stderr, also in %1):").arg(m_run->outputFile())
            : tr("The program's output goes to the terminal Dynascope was started from."));
    m_output->setVisible(captured);
    m_stop->setEnabled(true);
    m_stop->setText(tr("Stop the Program"));
    refresh();
}

void RecordingPage::refresh()
{
    if (m_run->isRunning()) {
        QString s
            = tr("Running for %1 · PID %2").arg(elapsedText(m_run->elapsedMs())).arg(m_run->pid());
        if (m_run->stopRequested()) {
            s += tr(" · stop requested (SIGINT sent)");
            m_stop->setText(tr("Kill the Program"));
        }
        m_state->setText(s);
    }
    readOutput();
}

void RecordingPage::onFinished()
{
    readOutput();
    m_title->setStyleSheet(QString());
    m_stop->setEnabled(false);
    const auto& status = m_run->status();
    const QString how = status ? QString::fromStdString(status->describe()) : tr("ended");
    m_title->setText(tr("Recorded"));
    m_state->setText(tr("The program %1 after %2.").arg(how, elapsedText(m_run->elapsedMs())));
    if (run::runTraceFiles(m_run->folder().toStdString()).empty())
        m_trace->setText(tr("It wrote no trace into %1. PyTorch writes one when TORCH_TRACE is "
                            "set and something is compiled (import torch, then a torch.compile "
                            "call runs); a program that sets TORCH_TRACE itself writes there "
                            "instead.")
                             .arg(m_run->folder()));
    else
        m_trace->setText(tr("Opening the trace…"));
}

void RecordingPage::readOutput()
{
    const QString path = m_run->outputFile();
    if (path.isEmpty())
        return;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return;
    const qint64 size = f.size();
    if (size < m_outputOffset)
        m_outputOffset = 0; // truncated or replaced
    if (size == m_outputOffset)
        return;
    qint64 from = m_outputOffset;
    if (size - from > kMaxOutputRead) {
        from = size - kMaxOutputRead;
        m_output->appendPlainText(
            tr("[… %1 bytes of output not shown …]").arg(from - m_outputOffset));
    }
    f.seek(from);
    const QByteArray chunk = f.read(size - from);
    m_outputOffset = from + chunk.size();
    QString text = QString::fromUtf8(chunk);
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    // insertPlainText keeps a line the program is still writing on one line.
    QTextCursor c = m_output->textCursor();
    c.movePosition(QTextCursor::End);
    if (m_output->document()->isEmpty() || m_output->toPlainText().endsWith(QLatin1Char('\n')))
        c.insertText(text);
    else
        c.insertText(QLatin1Char('\n') + text);
    m_output->setTextCursor(c);
    m_output->ensureCursorVisible();
}

RunIndicator::RunIndicator(RunController* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
{
    setObjectName(QStringLiteral("runIndicator"));
    m_dot = liveRow(this, m_label, m_stop, tr("Stop"));
    m_dot->setObjectName(QStringLiteral("liveDot"));
    m_stop->setToolTip(tr("Send SIGINT to the program (as Ctrl+C); again to kill it"));
    connect(m_stop, &QToolButton::clicked, m_run, &RunController::stop);
    connect(m_run, &RunController::started, this, &RunIndicator::refresh);
    connect(m_run, &RunController::tick, this, &RunIndicator::refresh);
    connect(m_run, &RunController::finished, this, &RunIndicator::refresh);
    hide();
}

QString RunIndicator::text() const
{
    return (m_dot->isVisible() ? m_dot->text() + QLatin1Char(' ') : QString()) + m_label->text();
}

void RunIndicator::refresh()
{
    const bool running = m_run->isRunning();
    m_dot->setVisible(running);
    m_stop->setVisible(running);
    // "python train.py": the program's and the first argument's file names.
    QStringList head;
    for (const QString& a : m_run->request().argv.mid(0, 2))
        head << QFileInfo(a).fileName();
    QString program = head.join(QLatin1Char(' '));
    if (program.size() > 60)
        program = program.left(57) + QStringLiteral("…");
    if (running) {
        m_label->setText(
            tr("recording %1 · %2 · %3")
                .arg(program, elapsedText(m_run->elapsedMs()), m_run->follower()->progress()));
    } else if (m_run->status()) {
        m_label->setText(tr("recorded %1: %2 after %3")
                             .arg(program, QString::fromStdString(m_run->status()->describe()),
                                 elapsedText(m_run->elapsedMs())));
    }
    m_label->setToolTip(plainToolTip(commandText(m_run) + QLatin1Char('\n') + m_run->folder()));
    setVisible(running || m_run->status().has_value());
}

FollowIndicator::FollowIndicator(LiveFollower* follower, QWidget* parent)
    : QWidget(parent)
    , m_follower(follower)
{
    setObjectName(QStringLiteral("followIndicator"));
    liveRow(this, m_label, m_stop, tr("Stop Following"));
    connect(m_stop, &QToolButton::clicked, this, &FollowIndicator::stopRequested);
    connect(m_follower, &TraceFollower::traceUpdated, this, &FollowIndicator::refresh);
    hide();
}

QString FollowIndicator::text() const
{
    return isVisible() ? tr("● live ") + m_label->text() : QString();
}

void FollowIndicator::refresh()
{
    const bool on = m_follower->isFollowing();
    m_label->setText(tr("following %1 · %2")
                         .arg(QFileInfo(m_follower->folder()).fileName(), m_follower->progress()));
    m_label->setToolTip(plainToolTip(m_follower->folder()));
    setVisible(on);
}

} // namespace dynascope::ui
