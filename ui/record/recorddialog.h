// File > Record a Run…: the command line (split into words like a shell splits them, without
// running a shell: core/run/child_process.h splitCommandLine), the folder to run it in, and the
// new or empty folder its trace goes to (default WORKING/dynascope-runs/DATE-TIME).
#pragma once

#include "ui/record/runcontroller.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace dynascope::ui {

class RecordDialog : public QDialog {
    Q_OBJECT
public:
    RecordDialog(
        const QString& command, const QString& workingDirectory, QWidget* parent = nullptr);

    // The run to start (valid after accept()): captureOutput is on, the window shows the output.
    RunRequest request() const { return m_request; }
    QString commandLine() const;
    QString workingDirectory() const;

    QLineEdit* commandEdit() const { return m_command; } // tests
    QLineEdit* folderEdit() const { return m_folder; }
    QLabel* errorLabel() const { return m_error; }
    // Checks the fields; fills request() and returns true when they make a run.
    bool validate();

private:
    void updateDefaultFolder();

    QLineEdit* m_command;
    QLineEdit* m_workdir;
    QLineEdit* m_folder;
    QLabel* m_error;
    QPushButton* m_record;
    bool m_folderEdited = false;
    RunRequest m_request;
};

} // namespace dynascope::ui
