// CompileBrowser: the "Compiles" pane, a filter line over a tree of rank -> frame -> compile ->
// attempt. Owns the CompileTreeModel and its recursive-filtering proxy and mirrors the shared
// CompileSelection both ways.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;
class QModelIndex;

namespace dynascope::ui {

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
    QSortFilterProxyModel* proxy() const { return m_proxy; }

private:
    void applyFilter(const QString& text);
    void onCurrentRowChanged(const QModelIndex& current);
    void followSelection(uint32_t compile);
    void expandDefault();

    CompileSelection* m_selection;
    CompileTreeModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTreeView* m_view;
};

} // namespace dynascope::ui
