#include "ui/record/recorddialog.h"

#include "core/run/child_process.h"
#include "core/run/run_folder.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace dynascope::ui {

namespace {
QWidget* withBrowse(QLineEdit* edit, QWidget* parent, const QString& title)
{
    auto* w = new QWidget(parent);
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse…"), w);
    h->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, w, [edit, parent, title] {
        const QString dir = QFileDialog::getExistingDirectory(parent, title, edit->text());
        if (!dir.isEmpty())
            edit->setText(dir);
    });
    return w;
}
} // namespace

RecordDialog::RecordDialog(const QString& command, const QString& workingDirectory, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Record a Run"));
    setObjectName(QStringLiteral("recordDialog"));
    auto* v = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Dynascope runs the command with TORCH_TRACE set to the trace "
                                "folder and opens the trace when the program ends. The command "
                                "is split into words as a shell splits them ('quotes', "
                                "\"quotes\", \\ escapes), but no shell runs it: no variables, "
                                "pipes or redirections."),
        this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto* form = new QFormLayout;
    m_command = new QLineEdit(command, this);
    m_command->setObjectName(QStringLiteral("recordCommand"));
    m_command->setPlaceholderText(QStringLiteral("python train.py --epochs 1"));
    m_command->setMinimumWidth(520);
    m_workdir
        = new QLineEdit(workingDirectory.isEmpty() ? QDir::currentPath() : workingDirectory, this);
    m_workdir->setObjectName(QStringLiteral("recordWorkingDirectory"));
    m_folder = new QLineEdit(this);
    m_folder->setObjectName(QStringLiteral("recordFolder"));
    form->addRow(tr("&Command:"), m_command);
    form->addRow(tr("&Run in:"), withBrowse(m_workdir, this, tr("Run in Folder")));
    form->addRow(tr("&Trace folder:"), withBrowse(m_folder, this, tr("Trace Folder")));
    v->addLayout(form);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("recordError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #D55E00;"));
    m_error->hide();
    v->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_record = buttons->addButton(tr("&Record"), QDialogButtonBox::AcceptRole);
    m_record->setDefault(true);
    v->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (validate())
            accept();
    });
    connect(m_workdir, &QLineEdit::textChanged, this, &RecordDialog::updateDefaultFolder);
    connect(m_folder, &QLineEdit::textEdited, this, [this] { m_folderEdited = true; });
    updateDefaultFolder();
}

QString RecordDialog::commandLine() const
{
    return m_command->text();
}

QString RecordDialog::workingDirectory() const
{
    return m_workdir->text();
}

void RecordDialog::updateDefaultFolder()
{
    if (m_folderEdited)
        return;
    m_folder->setText(
        QString::fromStdString(run::defaultRunFolder(m_workdir->text().toStdString())));
}

bool RecordDialog::validate()
{
    auto fail = [this](const QString& why) {
        m_error->setText(why);
        m_error->show();
        return false;
    };
    std::string error;
    const auto words = run::splitCommandLine(m_command->text().toStdString(), &error);
    if (!words)
        return fail(
            tr("The command cannot be split into words: %1.").arg(QString::fromStdString(error)));
    if (words->empty())
        return fail(tr("Type the command to run, e.g. python train.py."));
    const QFileInfo wd(m_workdir->text());
    if (!wd.isDir())
        return fail(tr("The folder to run in, %1, does not exist.").arg(m_workdir->text()));
    QString folder = m_folder->text().trimmed();
    if (folder.isEmpty())
        return fail(tr("Choose the folder the trace goes to."));
    if (QFileInfo(folder).isRelative())
        folder = QDir(wd.absoluteFilePath()).filePath(folder);
    const QFileInfo fi(folder);
    if (fi.exists() && (!fi.isDir() || !QDir(folder).isEmpty()))
        return fail(
            tr("%1 is not an empty folder: a run goes into a new or empty folder.").arg(folder));
    m_request = {};
    for (const auto& w : *words)
        m_request.argv << QString::fromStdString(w);
    m_request.workingDirectory = wd.absoluteFilePath();
    m_request.folder = folder;
    m_request.captureOutput = true;
    m_error->hide();
    return true;
}

} // namespace dynascope::ui
