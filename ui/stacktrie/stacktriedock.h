// StackTrieDock: the "Stack trie" dock, as tlparse has it: the call stacks leading into every
// compile merged by common prefix, each compile a leaf under the frame it compiled. Selecting a
// leaf selects the compile everywhere; the dock follows the shared selection back.
#pragma once

#include "core/model/trace.h"

#include <QDockWidget>

#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace dynascope::ui {

class CompileSelection;
class StackTrieModel;

class StackTrieDock : public QDockWidget {
    Q_OBJECT
public:
    explicit StackTrieDock(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    StackTrieModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }

private:
    void followSelection(uint32_t compile);

    CompileSelection* m_selection;
    StackTrieModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
};

} // namespace dynascope::ui
