// StackTrieModel: the call stacks that led into each compile (Compile::stack, from dynamo_start)
// merged by common prefix, as tlparse's stack trie: each node a frame "function (file:line)",
// each compile a leaf "[3/2] ↻" under the frame it compiled. With several ranks, each rank is a
// top-level node. Frames are merged on (file, line, function).
#pragma once

#include "core/model/trace.h"
#include "ui/models/flattreemodel.h"

#include <QString>

#include <memory>
#include <vector>

namespace dynascope::ui {

class StackTrieModel : public FlatTreeModel {
    Q_OBJECT
public:
    explicit StackTrieModel(QObject* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    QModelIndex indexForCompile(uint32_t compile) const;
    uint32_t compileAt(const QModelIndex& index) const; // kNone for frame rows

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    struct Node {
        QString label;
        QString tooltip;
        uint32_t compile = kNone;
        int compilesBelow = 0;
    };
    std::shared_ptr<const Trace> m_trace;
    std::vector<Node> m_nodes;
    std::vector<int> m_leafOfCompile;
};

} // namespace dynascope::ui
