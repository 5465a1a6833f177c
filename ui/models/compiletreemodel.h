// CompileTreeModel: the compiles of a trace as a tree, rank (file) -> frame (code object) ->
// compile -> attempt (only when a compile restarted). Built once per loaded Trace; the Trace is
// immutable, so the tree is a flat node table and an index's internalId is its node number.
//
// The filter lives here too: setFilter() decides which compiles match (their id, status words
// such as "recompile", function, file, rank, reasons), and rank and frame rows then count the
// matching compiles ("3 of 15 compiles"). CompileFilterProxy shows the matching rows and the rows
// above them.
#pragma once

#include "core/model/trace.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace dynascope::ui {

class CompileTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StatusColumn,
        ReasonColumn, // why it is interesting: "x.size(0) 4→5", a failure type, a break reason
        DurationColumn,
        GraphBreaksColumn,
        FunctionColumn,
        LocationColumn,
        ColumnCount
    };
    enum class NodeKind { Rank, Frame, Compile, Attempt };

    explicit CompileTreeModel(QObject* parent = nullptr);
    ~CompileTreeModel() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    const std::shared_ptr<const Trace>& trace() const { return m_trace; }

    // The row of a compile (Trace::compiles index); invalid when absent.
    QModelIndex indexForCompile(uint32_t compile, int column = 0) const;
    // Trace::compiles index of a compile or attempt row, kNone for other rows.
    uint32_t compileAt(const QModelIndex& index) const;

    // Case-insensitive words a compile must contain (all of them, anywhere in its text); empty:
    // every compile matches.
    void setFilter(const QString& text);
    const QString& filter() const { return m_filter; }
    bool isFiltered() const { return !m_filter.isEmpty(); }
    // Whether the row is a compile (or attempt) that matches the filter; rank and frame rows
    // never match themselves (they show when something under them does).
    bool rowMatches(const QModelIndex& index) const;
    size_t matchCount() const { return m_matchCount; }
    size_t compileCount() const { return m_compileNode.size(); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    struct Node {
        NodeKind kind;
        uint32_t ref; // file, frame or compile index; attempt: the compile
        int parent; // node index, -1 for top level
        int row; // row under the parent
        int attempt = 0; // Attempt nodes: index into Compile::attempts
        std::vector<int> children;
    };
    void build();
    int addNode(NodeKind kind, uint32_t ref, int parent, int attempt = 0);
    const Node* nodeOf(const QModelIndex& index) const;
    QVariant compileData(const Compile& c, int column, int role) const;
    QVariant frameData(const Node& n, int column, int role) const;
    QVariant rankData(const Node& n, int column, int role) const;
    QVariant attemptData(const Node& n, int column, int role) const;

    struct Totals { // aggregates of rank and frame rows, over the matching compiles
        int byStatus[5] = {};
        double durationUs = 0;
        bool timed = false; // some compile under it has a time ("–" otherwise, not "0 µs")
        uint64_t graphBreaks = 0, recompiles = 0, compiles = 0, allCompiles = 0;
    };
    void computeTotals();
    QString countText(const Totals& t) const; // "15 compiles", "3 of 15 compiles"

    std::shared_ptr<const Trace> m_trace;
    std::vector<Node> m_nodes;
    std::vector<Totals> m_totals; // per node
    std::vector<QString> m_haystack; // per compile: its text, lower case, for the filter
    std::vector<bool> m_matches; // per compile
    size_t m_matchCount = 0;
    QString m_filter;
    std::vector<int> m_topLevel;
    std::vector<int> m_compileNode; // Trace::compiles index -> node
};

} // namespace dynascope::ui
