// StartPage: what the window shows before a trace is open: open a file, open a folder, open the
// example, record a run, recent traces, and the lines that make a trace.
#pragma once

#include <QWidget>

class QVBoxLayout;
class QCommandLinkButton;
class QLabel;

namespace dynascope::ui {

class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    void setRecentFiles(const QStringList& paths);
    void setExampleAvailable(bool available);

Q_SIGNALS:
    void openFileRequested();
    void openFolderRequested();
    void openExampleRequested();
    void pasteRequested();
    void openRecentRequested(const QString& path);
    void recordRequested();

private:
    QCommandLinkButton* m_example;
    QLabel* m_recentTitle;
    QVBoxLayout* m_recentLayout;
};

} // namespace dynascope::ui
