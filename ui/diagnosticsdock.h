// DiagnosticsDock: the problems found while loading, "file:line  message", sortable.
#pragma once

#include "core/model/diagnostic.h"

#include <QDockWidget>

#include <vector>

class QTreeView;

namespace dynascope::ui {

class DiagnosticsModel;

class DiagnosticsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit DiagnosticsDock(QWidget* parent = nullptr);

    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    DiagnosticsModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }

private:
    DiagnosticsModel* m_model;
    QTreeView* m_view;
};

} // namespace dynascope::ui
