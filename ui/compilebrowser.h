// CompileBrowser: the "Compiles" pane, a filter line over a tree of rank -> frame -> compile ->
// attempt. Owns the CompileTreeModel and its filter proxy and mirrors the shared CompileSelection
// both ways. While a filter is set, a line under it says how many compiles it leaves ("3 of 24
// compiles shown", or that none match) with a button to clear it; a trace of other files opens
// unfiltered, a reload of the same files keeps the filter.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QToolButton;
class QTreeView;
class QModelIndex;

namespace dynascope::ui {

class CompileFilterProxy;
class CompileSelection;
class CompileTreeModel;

class CompileBrowser : public QWidget {
    Q_OBJECT
public:
    CompileBrowser(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);

    QTreeView* treeView() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    CompileTreeModel* model() const { return m_model; }
    CompileFilterProxy* proxy() const { return m_proxy; }
    // "3 of 24 compiles shown"; empty while no filter is set.
    QString filterStatusText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyFilter(const QString& text);
    void updateFilterStatus();
    void onCurrentRowChanged(const QModelIndex& current);
    void followSelection(uint32_t compile);
    void expandDefault();
    void sizeColumns();

    CompileSelection* m_selection;
    CompileTreeModel* m_model;
    CompileFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QWidget* m_filterBar;
    QLabel* m_filterStatus;
    QToolButton* m_clearFilter;
    QTreeView* m_view;
    std::vector<std::string> m_files; // the open trace's file paths
};

} // namespace dynascope::ui
