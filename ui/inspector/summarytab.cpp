#include "ui/inspector/summarytab.h"

#include "ui/models/format.h"
#include "ui/models/metricsmodel.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <map>

namespace dynascope::ui {

SummaryTab::SummaryTab(QWidget* parent)
    : QWidget(parent)
    , m_facts(new QWidget)
    , m_form(new QFormLayout(m_facts))
    , m_metrics(new MetricsModel(this))
    , m_metricsProxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("summaryTab"));
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* scroll = new QScrollArea;
    scroll->setAccessibleName(tr("Compile summary"));
    scroll->setWidget(m_facts);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // The facts wrap to the pane's width (paths at their '/') instead of running off its right
    // edge and pushing the labels out.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_metricsProxy->setSourceModel(m_metrics);
    m_metricsProxy->setRecursiveFilteringEnabled(true);
    m_metricsProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_metricsProxy->setFilterKeyColumn(-1);
    m_metricsView = new QTreeView;
    m_metricsView->setObjectName(QStringLiteral("metricsView"));
    m_metricsView->setAccessibleName(tr("Metrics"));
    m_metricsView->setModel(m_metricsProxy);
    m_metricsView->setUniformRowHeights(true);
    m_metricsView->setAlternatingRowColors(true);
    m_metricsView->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_metricsView->header()->resizeSection(0, 260);
    m_metricsFilter = new QLineEdit;
    m_metricsFilter->setPlaceholderText(tr("Filter metrics"));
    m_metricsFilter->setClearButtonEnabled(true);
    m_metricsFilter->setAccessibleName(tr("Filter metrics"));
    connect(m_metricsFilter, &QLineEdit::textChanged, this, [this](const QString& s) {
        m_metricsProxy->setFilterFixedString(s);
        if (!s.isEmpty())
            m_metricsView->expandAll();
    });
    auto* right = new QWidget;
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(m_metricsFilter);
    rl->addWidget(m_metricsView, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 560, 740 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void SummaryTab::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showCompile(kNone);
}

std::vector<std::pair<PhaseGroup, double>> SummaryTab::phaseTotals(const Compile& c)
{
    // The report's time by phase: exclusive, so the parts add up to the compile's duration.
    const PhaseTimes times = phaseTimes(c);
    std::vector<std::pair<PhaseGroup, double>> out;
    for (size_t g = 0; g < times.size(); ++g) {
        if (times[g] >= 1) // a microsecond or more
            out.emplace_back(static_cast<PhaseGroup>(g), times[g]);
    }
    std::stable_sort(
        out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
}

void SummaryTab::addRow(const QString& label, const QString& value, bool mono, const QString& tip)
{
    if (value.isEmpty())
        return;
    auto* v = new QLabel(value);
    if (!tip.isEmpty())
        v->setToolTip(plainToolTip(tip));
    v->setTextFormat(Qt::PlainText);
    v->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    v->setWordWrap(!mono);
    if (mono)
        v->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* l = new QLabel(label);
    l->setTextFormat(Qt::PlainText);
    l->setForegroundRole(QPalette::PlaceholderText);
    m_form->addRow(l, v);
}

QString SummaryTab::factsText() const
{
    QString out;
    for (int r = 0; r < m_form->rowCount(); ++r) {
        auto* l = qobject_cast<QLabel*>(m_form->itemAt(r, QFormLayout::LabelRole)
                ? m_form->itemAt(r, QFormLayout::LabelRole)->widget()
                : nullptr);
        QLayoutItem* fi = m_form->itemAt(r, QFormLayout::FieldRole);
        QLabel* v = fi ? qobject_cast<QLabel*>(fi->widget()) : nullptr;
        if (!v && fi && fi->widget())
            v = fi->widget()->findChild<QLabel*>();
        out += (l ? l->text() : QString()) + QStringLiteral(": ") + (v ? v->text() : QString())
            + QLatin1Char('\n');
    }
    return out;
}

void SummaryTab::showCompile(uint32_t ci)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    if (!m_trace || ci >= m_trace->compiles.size()) {
        m_metrics->setMetricsJson({});
        return;
    }
    const Trace& t = *m_trace;
    const Compile& c = t.compiles[ci];
    const int tz = c.file < t.files.size() ? t.files[c.file].tzOffsetMinutes : 0;

    addRow(tr("Compile"), qs(c.id.display()) + (c.isRecompile() ? tr("  ↻ recompile") : QString()),
        true);
    addRow(tr("Status"), statusStyle(c.status).label());
    if (const QString why = shortReason(c); !why.isEmpty())
        addRow(tr("Reason"), why);
    addRow(tr("Function"), compileFunction(c), true);
    const QString file = compileFile(c);
    if (!file.isEmpty()) {
        // The path, and a button that opens it in the Source tab.
        auto* w = new QWidget;
        auto* h = new QVBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->setSpacing(0);
        auto* v = new QLabel(filePlace(file, compileLine(c)));
        v->setToolTip(plainToolTip(filePlace(file, compileLine(c))));
        v->setTextFormat(Qt::PlainText);
        v->setTextInteractionFlags(Qt::TextSelectableByMouse);
        v->setWordWrap(true);
        v->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        auto* open = new QToolButton;
        open->setText(tr("Show source"));
        open->setAutoRaise(true);
        const qint64 line = compileLine(c);
        connect(open, &QToolButton::clicked, this,
            [this, file, line] { Q_EMIT sourceRequested(file, line); });
        h->addWidget(v);
        h->addWidget(open, 0, Qt::AlignLeft);
        auto* l = new QLabel(tr("File"));
        l->setForegroundRole(QPalette::PlaceholderText);
        m_form->addRow(l, w);
    }
    if (c.file < t.files.size()) {
        const TraceFile& f = t.files[c.file];
        if (f.rank)
            addRow(tr("Rank"), QString::number(*f.rank));
        // The file's name and the line of the compile's dynamo_start; the path in the tooltip.
        const QString line
            = QString::number(c.startRecord < t.records.size() ? t.records[c.startRecord].line : 0);
        addRow(tr("Trace"), baseName(f.path) + tr(", line ") + line, false,
            qs(f.path) + QLatin1Char(':') + line);
    }
    // TORCH_LOGS text: times are the prefixes' local wall time, zone and year unknown; a
    // compile's time spans its log statements; no metrics, no phases.
    const bool text = c.file < t.files.size() && t.files[c.file].format == TraceFormat::TorchLogs;
    if (c.timeSource != TimeSource::None && text) {
        QString started = formatDateTime(c.startUs, 0);
        if (const qsizetype utc = started.lastIndexOf(QStringLiteral(" UTC")); utc > 0)
            started.truncate(utc);
        addRow(tr("Started"), started + tr(" (local time; the text names no zone)"));
        addRow(tr("Duration"),
            formatDuration(c.durationUs()) + tr(" (its first to last log statement)"));
    } else if (c.timeSource != TimeSource::None) {
        // "2025-07-18 15:30:06.098 UTC-07:00" wraps before the zone when the pane is narrow.
        addRow(tr("Started"), formatDateTime(c.startUs, tz));
        addRow(tr("Duration"), formatDuration(c.durationUs()));
    } else if (text) {
        addRow(tr("Duration"), tr("not in the text (its statements share one time)"));
    }
    if (c.attempts.size() > 1)
        addRow(tr("Attempts"), QString::number(c.attempts.size()));

    // Time by phase (the report's groups), longest first, with its share of the compile.
    const auto phases = phaseTotals(c);
    if (text) {
        addRow(tr("Time by phase"), tr("not in TORCH_LOGS text"));
    } else if (!phases.empty()) {
        QStringList lines;
        const double total = std::max(c.durationUs(), 1.0);
        for (const auto& [group, us] : phases)
            lines << QStringLiteral("%1  %2  (%3%)")
                         .arg(QString::fromUtf8(phaseGroupLabel(group)), formatDuration(us))
                         .arg(std::lround(us / total * 100));
        addRow(tr("Time by phase"), lines.join(QLatin1Char('\n')));
    }

    if (c.guardCount)
        addRow(tr("Guards"), QString::number(*c.guardCount));
    else if (c.guards && c.guards.get())
        addRow(tr("Guards"), QString::number(c.guards->guardCount()));
    QStringList graph;
    if (c.graphOpCount)
        graph << plural(static_cast<uint64_t>(*c.graphOpCount), tr("op"), tr("ops"));
    if (c.graphNodeCount)
        graph << plural(static_cast<uint64_t>(*c.graphNodeCount), tr("node"), tr("nodes"));
    addRow(tr("Graph"), graph.join(QStringLiteral(", ")));
    if (c.cacheSize)
        addRow(tr("Cache size"),
            plural(static_cast<uint64_t>(*c.cacheSize), tr("entry"), tr("entries"))
                + tr(" in the frame's cache"));
    if (!c.cacheEvents.empty()) {
        // Per cache: hits ▲ / misses ▼ / bypasses.
        std::map<std::string, std::array<int, 3>> per;
        for (const CacheEvent& e : c.cacheEvents)
            ++per[e.cache][static_cast<size_t>(e.kind)];
        QStringList lines;
        for (const auto& [name, n] : per) {
            QStringList parts;
            if (n[0])
                parts << tr("%1 hit ▲").arg(n[0]);
            if (n[1])
                parts << tr("%1 miss ▼").arg(n[1]);
            if (n[2])
                parts << tr("%1 bypass").arg(n[2]);
            lines << qs(name) + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
        }
        addRow(tr("Caches"), lines.join(QLatin1Char('\n')));
    }
    if (!c.graphBreaks.empty())
        addRow(tr("Graph breaks"), QString::number(c.graphBreaks.size()));
    if (!c.recompileReasons.empty())
        addRow(tr("Recompile reasons"), QString::number(c.recompileReasons.size()));
    if (!c.shapeEvents.empty())
        addRow(tr("Shape events"), QString::number(c.shapeEvents.size()));
    if (c.failure)
        addRow(tr("Failure"), qs(c.failure->type));

    const std::string mj = c.metricsJson.text();
    m_metrics->setTzOffsetMinutes(tz);
    m_metrics->setMetricsJson(QByteArray(mj.data(), static_cast<qsizetype>(mj.size())),
        text ? tr("TORCH_LOGS text carries no compilation_metrics; record the run with "
                  "TORCH_TRACE=<dir> for them")
             : QString());
    m_metricsProxy->setFilterFixedString(m_metricsFilter->text());
}

} // namespace dynascope::ui
