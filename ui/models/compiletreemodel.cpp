#include "ui/models/compiletreemodel.h"

#include "core/load/finish/graph_break_text.h"
#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QFont>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QPalette>

#include <array>

namespace dynascope::ui {

namespace {
constexpr std::array kStatusOrder = { CompileStatus::Ok, CompileStatus::GraphBreak,
    CompileStatus::Empty, CompileStatus::Error, CompileStatus::Missing };

template <typename T> void addTo(T& t, const Compile& c)
{
    ++t.byStatus[static_cast<size_t>(c.status)];
    t.durationUs += c.durationUs();
    t.timed = t.timed || c.timeSource != TimeSource::None;
    t.graphBreaks += c.graphBreakCount();
    t.recompiles += c.isRecompile() ? 1 : 0;
    ++t.compiles;
}

// "✓12  ⚡2  ✕1  ↻11": counts per status, in a fixed order, zeros left out, then recompiles.
template <typename T> QString statusSummary(const T& t)
{
    QStringList parts;
    for (auto s : kStatusOrder) {
        if (int n = t.byStatus[static_cast<size_t>(s)])
            parts << statusStyle(s).glyph + QString::number(n);
    }
    if (t.recompiles)
        parts << markerStyle(MarkerKind::Recompile).glyph + QString::number(t.recompiles);
    return parts.join(QStringLiteral("  "));
}

QString reasonsTooltip(const Compile& c)
{
    QStringList lines;
    for (const auto& r : c.recompileReasons)
        lines << qs(r.text);
    if (lines.isEmpty() && !c.recompileReasonMetric.empty())
        lines << qs(c.recompileReasonMetric);
    if (c.failure)
        lines << qs(c.failure->type) + QStringLiteral(": ") + firstLine(c.failure->reason);
    for (const auto& g : c.graphBreaks)
        lines << QStringLiteral("⚡ ") + firstLine(g.reason);
    return lines.join(QLatin1Char('\n'));
}

QString frameLabel(const Frame& f)
{
    if (!f.frameId)
        return QStringLiteral("frame ?");
    if (f.compiledAutograd)
        return QStringLiteral("frame !%1/%2").arg(*f.compiledAutograd).arg(*f.frameId);
    return QStringLiteral("frame %1").arg(*f.frameId);
}
} // namespace

CompileTreeModel::CompileTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

CompileTreeModel::~CompileTreeModel() = default;

void CompileTreeModel::setTrace(std::shared_ptr<const Trace> trace)
{
    beginResetModel();
    m_trace = std::move(trace);
    build();
    endResetModel();
}

int CompileTreeModel::addNode(NodeKind kind, uint32_t ref, int parent, int attempt)
{
    const int id = static_cast<int>(m_nodes.size());
    Node n { kind, ref, parent, 0, attempt, {} };
    if (parent < 0) {
        n.row = static_cast<int>(m_topLevel.size());
        m_topLevel.push_back(id);
    } else {
        n.row = static_cast<int>(m_nodes[static_cast<size_t>(parent)].children.size());
        m_nodes[static_cast<size_t>(parent)].children.push_back(id);
    }
    m_nodes.push_back(std::move(n));
    m_totals.emplace_back();
    return id;
}

void CompileTreeModel::build()
{
    m_nodes.clear();
    m_totals.clear();
    m_topLevel.clear();
    m_compileNode.clear();
    m_haystack.clear();
    m_matches.clear();
    m_matchCount = 0;
    m_filter.clear();
    if (!m_trace)
        return;
    const Trace& t = *m_trace;
    m_compileNode.assign(t.compiles.size(), -1);

    auto addCompile = [&](uint32_t ci, int parent) {
        if (ci >= t.compiles.size())
            return;
        const Compile& c = t.compiles[ci];
        const int node = addNode(NodeKind::Compile, ci, parent);
        m_compileNode[ci] = node;
        if (c.attempts.size() > 1) {
            for (size_t a = 0; a < c.attempts.size(); ++a)
                addNode(NodeKind::Attempt, ci, node, static_cast<int>(a));
        }
    };

    std::vector<std::vector<uint32_t>> framesOfFile(t.files.size());
    for (const Frame& f : t.frames) {
        if (f.file < t.files.size())
            framesOfFile[f.file].push_back(f.index);
    }
    for (uint32_t fi = 0; fi < t.files.size(); ++fi) {
        const int rank = addNode(NodeKind::Rank, fi, -1);
        for (uint32_t fr : framesOfFile[fi]) {
            if (fr >= t.frames.size())
                continue;
            const int frameNode = addNode(NodeKind::Frame, fr, rank);
            for (uint32_t ci : t.frames[fr].compiles)
                addCompile(ci, frameNode);
        }
        // Compiles that belong to no frame (no frame id in the log) sit under the rank itself.
        for (const Compile& c : t.compiles) {
            if (c.file == fi && c.frame == kNone)
                addCompile(c.index, rank);
        }
    }

    // What the filter searches, per compile: everything its row and its parents' rows say,
    // plus the words for what happened to it.
    m_haystack.assign(t.compiles.size(), QString());
    for (const Compile& c : t.compiles) {
        QStringList words { qs(c.id.display()), compileStyle(c).word, statusStyle(c.status).word,
            compileFunction(c), compileFile(c),
            fileLine(compileFile(c).toStdString(), compileLine(c)), shortReason(c),
            reasonsTooltip(c) };
        if (c.isRecompile())
            words << QStringLiteral("recompile");
        if (c.failure)
            words << QStringLiteral("failure failed");
        if (!c.graphBreaks.empty())
            words << QStringLiteral("graph break");
        if (c.file < t.files.size())
            words << rankLabel(t.files[c.file]) << qs(t.files[c.file].path);
        if (c.frame < t.frames.size())
            words << frameLabel(t.frames[c.frame]);
        m_haystack[c.index] = words.join(QLatin1Char('\n')).toLower();
    }
    m_matches.assign(t.compiles.size(), true);
    m_matchCount = t.compiles.size();
    m_filter.clear();
    computeTotals();
}

void CompileTreeModel::computeTotals()
{
    m_totals.assign(m_nodes.size(), Totals {});
    if (!m_trace)
        return;
    for (size_t ci = 0; ci < m_compileNode.size(); ++ci) {
        const int node = m_compileNode[ci];
        if (node < 0)
            continue;
        const Compile& c = m_trace->compiles[ci];
        for (int p = m_nodes[static_cast<size_t>(node)].parent; p >= 0;
             p = m_nodes[static_cast<size_t>(p)].parent) {
            Totals& t = m_totals[static_cast<size_t>(p)];
            ++t.allCompiles;
            if (m_matches[ci])
                addTo(t, c);
        }
    }
}

void CompileTreeModel::setFilter(const QString& text)
{
    const QString f = text.simplified();
    if (f == m_filter)
        return;
    m_filter = f;
    const QStringList words = f.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_matchCount = 0;
    for (size_t ci = 0; ci < m_haystack.size(); ++ci) {
        bool match = true;
        for (const QString& w : words)
            match = match && m_haystack[ci].contains(w);
        m_matches[ci] = match;
        m_matchCount += match ? 1 : 0;
    }
    computeTotals();
    // Rank and frame rows count the matching compiles now.
    for (size_t n = 0; n < m_nodes.size(); ++n) {
        const Node& node = m_nodes[n];
        if (node.kind != NodeKind::Rank && node.kind != NodeKind::Frame)
            continue;
        Q_EMIT dataChanged(createIndex(node.row, 0, static_cast<quintptr>(n)),
            createIndex(node.row, ColumnCount - 1, static_cast<quintptr>(n)));
    }
}

bool CompileTreeModel::rowMatches(const QModelIndex& index) const
{
    const Node* n = nodeOf(index);
    if (!n || (n->kind != NodeKind::Compile && n->kind != NodeKind::Attempt))
        return false;
    return n->ref < m_matches.size() && m_matches[n->ref];
}

QString CompileTreeModel::countText(const Totals& t) const
{
    if (!isFiltered())
        return plural(t.allCompiles, tr("compile"), tr("compiles"));
    return tr("%1 of %2").arg(t.compiles).arg(plural(t.allCompiles, tr("compile"), tr("compiles")));
}

const CompileTreeModel::Node* CompileTreeModel::nodeOf(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const auto id = static_cast<size_t>(index.internalId());
    return id < m_nodes.size() ? &m_nodes[id] : nullptr;
}

QModelIndex CompileTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const std::vector<int>* children = &m_topLevel;
    if (parent.isValid()) {
        const Node* p = nodeOf(parent);
        if (!p || parent.column() != 0)
            return {};
        children = &p->children;
    }
    if (row >= static_cast<int>(children->size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>((*children)[static_cast<size_t>(row)]));
}

QModelIndex CompileTreeModel::parent(const QModelIndex& child) const
{
    const Node* n = nodeOf(child);
    if (!n || n->parent < 0)
        return {};
    const Node& p = m_nodes[static_cast<size_t>(n->parent)];
    return createIndex(p.row, 0, static_cast<quintptr>(n->parent));
}

int CompileTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_topLevel.size());
    if (parent.column() != 0)
        return 0;
    const Node* n = nodeOf(parent);
    return n ? static_cast<int>(n->children.size()) : 0;
}

int CompileTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QModelIndex CompileTreeModel::indexForCompile(uint32_t compile, int column) const
{
    if (compile >= m_compileNode.size() || m_compileNode[compile] < 0)
        return {};
    const int id = m_compileNode[compile];
    return createIndex(m_nodes[static_cast<size_t>(id)].row, column, static_cast<quintptr>(id));
}

uint32_t CompileTreeModel::compileAt(const QModelIndex& index) const
{
    const Node* n = nodeOf(index);
    if (!n || (n->kind != NodeKind::Compile && n->kind != NodeKind::Attempt))
        return kNone;
    return n->ref;
}

QVariant CompileTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IdColumn:
            return tr("Compile");
        case StatusColumn:
            return tr("Status");
        case ReasonColumn:
            return tr("Reason");
        case FunctionColumn:
            return tr("Function");
        case LocationColumn:
            return tr("File:line");
        case DurationColumn:
            return tr("Duration");
        case GraphBreaksColumn:
            return tr("Breaks");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case IdColumn:
            return tr("Rank, frame (code object), compile id in PyTorch's form, attempt");
        case DurationColumn:
            return tr("Compile time (frames and ranks: total of their compiles)");
        case GraphBreaksColumn:
            return tr("Graph breaks");
        case ReasonColumn:
            return tr("Why it is worth a look: the guard that failed (a recompile), the failure, "
                      "or the graph break");
        }
    }
    if (role == Qt::TextAlignmentRole
        && (section == DurationColumn || section == GraphBreaksColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant CompileTreeModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant CompileTreeModel::dataFor(const QModelIndex& index, int role) const
{
    const Node* n = nodeOf(index);
    if (!n || !m_trace)
        return {};
    switch (role) {
    case NodeKindRole:
        return static_cast<int>(n->kind);
    case CompileIndexRole:
        return (n->kind == NodeKind::Compile || n->kind == NodeKind::Attempt)
            ? static_cast<int>(n->ref)
            : -1;
    case FileIndexRole:
        switch (n->kind) {
        case NodeKind::Rank:
            return static_cast<int>(n->ref);
        case NodeKind::Frame:
            return static_cast<int>(m_trace->frames[n->ref].file);
        default:
            return static_cast<int>(m_trace->compiles[n->ref].file);
        }
    case FrameIndexRole:
        if (n->kind == NodeKind::Frame)
            return static_cast<int>(n->ref);
        if (n->kind == NodeKind::Rank)
            return -1;
        return m_trace->compiles[n->ref].frame == kNone
            ? -1
            : static_cast<int>(m_trace->compiles[n->ref].frame);
    default:
        break;
    }
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == DurationColumn || index.column() == GraphBreaksColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    switch (n->kind) {
    case NodeKind::Rank:
        return rankData(*n, index.column(), role);
    case NodeKind::Frame:
        return frameData(*n, index.column(), role);
    case NodeKind::Compile:
        if (role == SortRole && index.column() == IdColumn)
            return n->row;
        return compileData(m_trace->compiles[n->ref], index.column(), role);
    case NodeKind::Attempt:
        return attemptData(*n, index.column(), role);
    }
    return {};
}

QVariant CompileTreeModel::compileData(const Compile& c, int column, int role) const
{
    const bool display = role == Qt::DisplayRole;
    const bool sort = role == SortRole;
    switch (column) {
    case IdColumn:
        if (display || sort)
            return qs(c.id.display());
        if (role == Qt::ToolTipRole)
            return tr("%1, compile #%2 of %3")
                .arg(qs(c.id.display()))
                .arg(c.index + 1)
                .arg(
                    c.file < m_trace->files.size() ? rankLabel(m_trace->files[c.file]) : QString());
        break;
    case StatusColumn: {
        const auto st = compileStyle(c);
        if (display)
            return st.label();
        if (sort)
            return static_cast<int>(c.status) * 2 + (c.isRecompile() ? 1 : 0);
        if (role == StatusRole)
            return static_cast<int>(c.status);
        if (role == Qt::ForegroundRole)
            return itemTextColor(st.color);
        if (role == Qt::ToolTipRole) {
            if (c.failure)
                return QString(
                    qs(c.failure->type) + QStringLiteral(": ") + firstLine(c.failure->reason));
            if (!c.graphBreaks.empty())
                return firstLine(c.graphBreaks.front().reason);
            if (c.isRecompile())
                return tr("A recompile: a guard of an earlier compile of this frame failed. "
                          "Compiled %1.")
                    .arg(statusStyle(c.status).word);
            return st.word;
        }
        break;
    }
    case ReasonColumn:
        if (display || sort)
            return shortReason(c);
        if (role == Qt::ToolTipRole) {
            const QString t = reasonsTooltip(c);
            return t.isEmpty() ? QVariant() : QVariant(t);
        }
        break;
    case FunctionColumn:
        if (display || sort)
            return compileFunction(c);
        break;
    case LocationColumn:
        if (display || sort)
            return fileLine(compileFile(c).toStdString(), compileLine(c));
        if (role == Qt::ToolTipRole) {
            const QString f = compileFile(c);
            return f.isEmpty() ? QVariant() : QVariant(filePlace(f, compileLine(c)));
        }
        break;
    case DurationColumn:
        if (display)
            return c.timeSource == TimeSource::None ? QStringLiteral("–")
                                                    : formatDuration(c.durationUs());
        if (sort)
            return c.durationUs();
        break;
    case GraphBreaksColumn:
        if (display)
            return c.graphBreakCount() ? QVariant(QString::number(c.graphBreakCount()))
                                       : QVariant();
        if (sort)
            return static_cast<qulonglong>(c.graphBreakCount());
        if (role == Qt::ToolTipRole && !c.graphBreaks.empty()) {
            QStringList lines;
            for (const auto& g : c.graphBreaks)
                lines << firstLine(g.reason);
            return lines.join(QLatin1Char('\n'));
        }
        break;
    }
    return {};
}

QVariant CompileTreeModel::frameData(const Node& n, int column, int role) const
{
    const Frame& f = m_trace->frames[n.ref];
    const Totals& t = m_totals[static_cast<size_t>(&n - m_nodes.data())];
    const bool text = role == Qt::DisplayRole || role == SortRole;
    switch (column) {
    case IdColumn:
        if (role == SortRole)
            return n.row;
        if (role == Qt::DisplayRole)
            return frameLabel(f);
        if (role == Qt::ToolTipRole)
            return QString(frameLabel(f) + QStringLiteral(": ") + countText(t));
        break;
    case StatusColumn:
        if (text)
            return statusSummary(t);
        if (role == Qt::ToolTipRole)
            return countText(t);
        break;
    case ReasonColumn:
        if (text && t.recompiles)
            return plural(t.recompiles, tr("recompile"), tr("recompiles"));
        break;
    case FunctionColumn:
        if (text)
            return qs(f.coName);
        break;
    case LocationColumn:
        if (text)
            return fileLine(f.coFilename, f.coFirstLineno);
        if (role == Qt::ToolTipRole && !f.coFilename.empty())
            return filePlace(qs(f.coFilename), f.coFirstLineno);
        break;
    case DurationColumn:
        if (role == Qt::DisplayRole)
            return t.timed ? formatDuration(t.durationUs) : QStringLiteral("–");
        if (role == SortRole)
            return t.durationUs;
        if (role == Qt::ToolTipRole)
            return tr("Total compile time of this frame");
        break;
    case GraphBreaksColumn:
        if (role == Qt::DisplayRole)
            return t.graphBreaks ? QVariant(QString::number(t.graphBreaks)) : QVariant();
        if (role == SortRole)
            return static_cast<qulonglong>(t.graphBreaks);
        break;
    }
    return {};
}

QVariant CompileTreeModel::rankData(const Node& n, int column, int role) const
{
    const TraceFile& file = m_trace->files[n.ref];
    const Totals& t = m_totals[static_cast<size_t>(&n - m_nodes.data())];
    const bool text = role == Qt::DisplayRole || role == SortRole;
    switch (column) {
    case IdColumn:
        if (role == SortRole)
            return n.row;
        if (role == Qt::DisplayRole)
            return rankLabel(file);
        if (role == Qt::ToolTipRole)
            return qs(file.path);
        break;
    case StatusColumn:
        if (text)
            return statusSummary(t);
        break;
    case ReasonColumn:
        if (text && t.recompiles)
            return plural(t.recompiles, tr("recompile"), tr("recompiles"));
        break;
    case FunctionColumn:
        if (text)
            return countText(t);
        break;
    case LocationColumn:
        if (text)
            return baseName(file.path);
        if (role == Qt::ToolTipRole)
            return qs(file.path);
        break;
    case DurationColumn:
        if (role == Qt::DisplayRole)
            return t.timed ? formatDuration(t.durationUs) : QStringLiteral("–");
        if (role == SortRole)
            return t.durationUs;
        break;
    case GraphBreaksColumn:
        if (role == Qt::DisplayRole)
            return t.graphBreaks ? QVariant(QString::number(t.graphBreaks)) : QVariant();
        if (role == SortRole)
            return static_cast<qulonglong>(t.graphBreaks);
        break;
    }
    if (role == Qt::FontRole && column == IdColumn) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QVariant CompileTreeModel::attemptData(const Node& n, int column, int role) const
{
    const Compile& c = m_trace->compiles[n.ref];
    const Attempt& a = c.attempts[static_cast<size_t>(n.attempt)];
    const bool last = static_cast<size_t>(n.attempt) + 1 == c.attempts.size();
    switch (column) {
    case IdColumn:
        if (role == Qt::DisplayRole) {
            CompileId id = c.id;
            id.attempt = a.attempt;
            return qs(id.display());
        }
        if (role == SortRole)
            return n.row;
        if (role == Qt::ToolTipRole)
            return tr("Attempt %1 of the analysis: %2")
                .arg(a.attempt)
                .arg(plural(a.recordCount, tr("record"), tr("records")));
        break;
    case StatusColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return last ? tr("attempt %1 · final").arg(a.attempt)
                        : tr("attempt %1 · restarted").arg(a.attempt);
        if (role == Qt::ForegroundRole)
            return QGuiApplication::palette().color(QPalette::PlaceholderText);
        break;
    case ReasonColumn:
        // Dynamo restarts the analysis once per restart reason, in order. A restart that is no
        // graph break reads as such, with its class and, in the tooltip, what it means.
        if (!last && static_cast<size_t>(n.attempt) < c.restartReasons.size()) {
            const std::string& reason = c.restartReasons[static_cast<size_t>(n.attempt)];
            const RestartKind k = restartKindOf(reason);
            if (role == Qt::DisplayRole || role == SortRole)
                return k.kind.empty() ? firstLine(reason)
                                      : tr("restarted, no graph break: %1").arg(qs(k.kind));
            if (role == Qt::ToolTipRole)
                return k.meaning.empty() ? qs(reason) : qs(k.kind + ": " + k.meaning + ".");
        }
        break;
    case FunctionColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return compileFunction(c);
        break;
    }
    return {};
}

} // namespace dynascope::ui
