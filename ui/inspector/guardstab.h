// GuardsTab: a compile's guard tree (kind, expression, where), searchable with a recursive
// filter, and its shape guards and specialisations with the user line behind each. For a
// recompile it opens on the guards of the earlier compile whose guard failed, with that guard
// highlighted and expanded to: that is the guard the reader came for. A chooser switches between
// the compile's own guards and each earlier compile a reason names. Below, the guard lab's What
// if section (whatifpanel.h).
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace dynascope::ui {

class GuardTreeModel;
class ShapeEventModel;
class WhatIfPanel;

class GuardsTab : public QWidget {
    Q_OBJECT
public:
    explicit GuardsTab(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);
    // Shows `compile`'s guard tree with `node` highlighted, expanded to and scrolled to.
    void showGuard(uint32_t compile, int node);

    GuardTreeModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    QComboBox* treeChooser() const { return m_chooser; }
    QLabel* caption() const { return m_caption; }
    ShapeEventModel* shapeModel() const { return m_shapes; }
    QTreeView* shapeView() const { return m_shapeView; }
    WhatIfPanel* whatIf() const { return m_whatIf; }

Q_SIGNALS:
    void sourceRequested(const QString& file, qint64 line);
    void recordSelected(uint32_t record);

private:
    void showTree(uint32_t compile, int node);
    void revealHighlighted();

    std::shared_ptr<const Trace> m_trace;
    uint32_t m_compile = kNone;
    GuardTreeModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    QComboBox* m_chooser;
    QLabel* m_caption;
    ShapeEventModel* m_shapes;
    QTreeView* m_shapeView;
    QLabel* m_shapeCaption;
    WhatIfPanel* m_whatIf;
};

} // namespace dynascope::ui
