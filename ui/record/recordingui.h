// RecordingUi: the main window's recording, wired in one place: File > Record a Run… (the dialog),
// File > Stop the Run, the Recording page in the centre while no trace is open, the "● live"
// indicator in the status bar, and opening the trace the follower hands over.
#pragma once

#include "ui/record/runcontroller.h"

#include <QObject>
#include <QString>

#include <functional>

class QMainWindow;
class QStackedWidget;
class QStatusBar;

namespace dynascope::ui {

class FollowIndicator;
class LiveFollower;
class MainActions;
class RecentFiles;
class RecordingPage;
class RunIndicator;
class TraceSession;

class RecordingUi : public QObject {
    Q_OBJECT
public:
    // The Recording page goes into `stack`, the indicators into the window's status bar; what a
    // recording or a followed folder writes opens in the session.
    RecordingUi(TraceSession* session, QMainWindow* window, MainActions* actions,
        QStackedWidget* stack, RecentFiles* recent);

    // Starts recording; false with *error (the window also says why in the status bar).
    bool start(const RunRequest& request, QString* error);
    void showDialog();
    // File > Follow Folder…: follows `folder` (a TORCH_TRACE folder a running job writes into,
    // which may not hold a trace yet) until Stop Following or another trace is opened.
    void follow(const QString& folder);
    void stopFollowing();
    void showFollowDialog();
    // Asked when the window closes: true when it may close (nothing runs, or the user chose to
    // stop the program, which then gets SIGINT and, after 3 s, SIGKILL).
    bool confirmClose();

    RunController* controller() const { return m_run; }
    RecordingPage* page() const { return m_page; }
    RunIndicator* indicator() const { return m_indicator; }
    LiveFollower* follower() const { return m_follow; }
    FollowIndicator* followIndicator() const { return m_followIndicator; }

private:
    void onStarted();
    void onFinished();

    TraceSession* m_session;
    QMainWindow* m_window;
    RecentFiles* m_recent;
    MainActions* m_actions;
    QStackedWidget* m_stack;
    QStatusBar* m_bar;
    RunController* m_run;
    RecordingPage* m_page;
    RunIndicator* m_indicator;
    LiveFollower* m_follow;
    FollowIndicator* m_followIndicator;
    QString m_lastCommand, m_lastWorkdir;
};

} // namespace dynascope::ui
