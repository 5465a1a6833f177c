// What the window shows of a run it records (runcontroller.h): the Recording page in the centre
// while no trace is open (the command, the run folder, the time it has run, the program's output
// as it grows when the window captured it, a Stop button, and what happens to the trace), and the
// "● live" indicator in the status bar, which stays while the process runs wherever the user is.
// Everything from the program (its output, its command line) is shown as plain text.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace dynascope::ui {

class LiveFollower;
class RunController;

class RecordingPage : public QWidget {
    Q_OBJECT
public:
    RecordingPage(RunController* run, QWidget* parent = nullptr);

    // The output shown so far (tests).
    QString outputText() const;

private:
    void onStarted();
    void refresh();
    void onFinished();
    void readOutput();

    RunController* m_run;
    QLabel* m_title;
    QLabel* m_command;
    QLabel* m_folder;
    QLabel* m_state;
    QLabel* m_trace;
    QLabel* m_outputNote;
    QPlainTextEdit* m_output;
    QPushButton* m_stop;
    qint64 m_outputOffset = 0;
};

class RunIndicator : public QWidget {
    Q_OBJECT
public:
    RunIndicator(RunController* run, QWidget* parent = nullptr);
    QString text() const; // the label's text (tests)

private:
    void refresh();

    RunController* m_run;
    QLabel* m_dot;
    QLabel* m_label;
    QToolButton* m_stop;
};

// The "● live" indicator of File > Follow Folder…: the folder, what was read, Stop Following.
class FollowIndicator : public QWidget {
    Q_OBJECT
public:
    FollowIndicator(LiveFollower* follower, QWidget* parent = nullptr);
    QString text() const; // empty when hidden (tests)
    void refresh();

Q_SIGNALS:
    void stopRequested();

private:
    LiveFollower* m_follower;
    QLabel* m_label;
    QToolButton* m_stop;
};

// "0:07", "12:03", "1:02:03".
QString elapsedText(qint64 ms);

} // namespace dynascope::ui
