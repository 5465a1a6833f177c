// ProbeDock: the Probe view. Opens a folder written by `dynascope-cli probe` (its
// probe-runs.json), loads every configuration's trace in the background, and shows the ladder's
// verdict, the evidence table (ProbeTableModel) and whether compiling paid for itself. A row opens
// that run's trace in the window; the run the verdict names opens first.
#pragma once

#include "core/report/probe_report.h"

#include <QDockWidget>

class QLabel;
class QTableView;

namespace dynascope::ui {

class BackgroundJob;
class ProbeTableModel;

class ProbeDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ProbeDock(QWidget* parent = nullptr);

    // Loads the probe folder; emits loaded (or failed) on the GUI thread.
    void open(const QString& folder);
    bool isLoading() const;
    QString folder() const { return m_folder; }
    const ProbeReport& report() const;
    ProbeTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QString verdictText() const;
    // Marks the row whose run folder is among the paths the window shows.
    void setOpenPaths(const QStringList& paths);
    // The run folder of a row.
    QString runFolder(int row) const;

Q_SIGNALS:
    void loaded();
    void failed(const QString& error);
    void openRunRequested(const QString& folder);

private:
    void showReport(const ProbeReport& report);

    BackgroundJob* m_job;
    ProbeTableModel* m_model;
    QTableView* m_table;
    QLabel* m_title;
    QLabel* m_verdict;
    QLabel* m_payoff;
    QString m_folder;
};

} // namespace dynascope::ui
