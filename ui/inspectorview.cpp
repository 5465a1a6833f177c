#include "ui/inspectorview.h"

#include "ui/compileselection.h"
#include "ui/inspector/artifactstab.h"
#include "ui/inspector/codeviewer.h"
#include "ui/inspector/guardstab.h"
#include "ui/inspector/kernelstab.h"
#include "ui/inspector/rawview.h"
#include "ui/inspector/sourcetab.h"
#include "ui/inspector/summarytab.h"
#include "ui/inspector/whyview.h"
#include "ui/models/format.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace dynascope::ui {

InspectorView::InspectorView(CompileSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_tabs(new QTabWidget(this))
    , m_summary(new SummaryTab)
    , m_why(new WhyView(selection))
    , m_guards(new GuardsTab)
    , m_source(new SourceTab)
    , m_artifacts(new ArtifactsTab)
    , m_kernels(new KernelsTab)
    , m_raw(new RawView)
{
    setObjectName(QStringLiteral("inspector"));
    m_tabs->setObjectName(QStringLiteral("inspectorTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_summary, tr("Summary"));
    m_tabs->addTab(m_why, tr("Why"));
    m_tabs->addTab(m_guards, tr("Guards"));
    m_tabs->addTab(m_source, tr("Source"));
    m_tabs->addTab(m_artifacts, tr("Artifacts"));
    m_tabs->addTab(m_kernels, tr("Kernels"));
    m_tabs->addTab(m_raw, tr("Raw"));
    m_tabs->setCurrentIndex(WhyIndex); // the heart of it
    m_tabs->setAccessibleName(tr("Inspector"));
    m_tabs->setAccessibleDescription(tr("The selected compile: summary, why it compiled, guards, "
                                        "source, artifacts, kernels and raw records"));
    m_summary->setAccessibleName(tr("Summary of this compile"));
    m_why->setAccessibleName(tr("Why this compile recompiled"));
    m_why->setAccessibleDescription(tr("Why the selected compile happened: the failed guard, the "
                                       "graph break or the failure, and what to do"));
    m_guards->setAccessibleName(tr("Guards"));
    m_source->setAccessibleName(tr("Source"));
    m_artifacts->setAccessibleName(tr("Artifacts"));
    m_kernels->setAccessibleName(tr("Kernels"));
    m_raw->setAccessibleName(tr("Raw records"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_selection, &CompileSelection::currentChanged, this, &InspectorView::showCompile);
    connect(m_why, &WhyView::sourceRequested, this, &InspectorView::openSource);
    connect(m_summary, &SummaryTab::sourceRequested, this, &InspectorView::openSource);
    connect(m_guards, &GuardsTab::sourceRequested, this, &InspectorView::openSource);
    connect(m_why, &WhyView::guardRequested, this, [this](uint32_t compile, int node) {
        m_guards->showGuard(compile, node);
        showTab(GuardsIndex);
    });
    connect(m_why, &WhyView::recordRequested, this, [this](uint32_t record) {
        m_artifacts->selectRecord(record);
        m_raw->showRecord(record);
        showTab(RawIndex);
    });
    connect(m_guards, &GuardsTab::recordSelected, m_raw, &RawView::showRecord);
    connect(m_artifacts, &ArtifactsTab::recordSelected, m_raw, &RawView::showRecord);
    // A kernel opens the output code that defines it, at its definition.
    connect(m_kernels, &KernelsTab::codeRequested, this, [this](uint32_t record, uint32_t line) {
        if (!m_artifacts->selectRecord(record))
            return;
        showTab(ArtifactsIndex);
        m_artifacts->viewer()->highlightLine(line);
    });
}

void InspectorView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_compile = kNone;
    m_summary->setTrace(m_trace);
    m_why->setTrace(m_trace);
    m_guards->setTrace(m_trace);
    m_source->setTrace(m_trace);
    m_artifacts->setTrace(m_trace);
    m_kernels->setTrace(m_trace);
    m_raw->setTrace(m_trace);
    // Whatever the selection holds now is what the tabs show (MainWindow clears it first).
    showCompile(m_selection->current());
}

void InspectorView::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(tab);
}

bool InspectorView::showTabNamed(const QString& name)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->tabText(i).remove(QLatin1Char('&')).compare(name, Qt::CaseInsensitive) == 0) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void InspectorView::openSource(const QString& file, qint64 line)
{
    m_source->showLocation(file, line);
    showTab(SourceIndex);
}

void InspectorView::showCompile(uint32_t compile)
{
    if (!m_trace || compile >= m_trace->compiles.size())
        compile = kNone;
    m_compile = compile;
    m_summary->showCompile(compile);
    m_why->showCompile(compile);
    m_guards->showCompile(compile);
    m_artifacts->showCompile(compile);
    m_kernels->showCompile(compile);
    if (compile == kNone) {
        m_source->setLocation({}, 0);
        m_raw->showRecord(kNone);
        return;
    }
    const Compile& c = m_trace->compiles[compile];
    // The Source tab opens where the story is: the failing line, the break, else the function.
    if (c.failure && !c.failure->file.empty())
        m_source->setLocation(qs(c.failure->file), c.failure->line);
    else if (!c.graphBreaks.empty() && !c.graphBreaks.front().file.empty())
        m_source->setLocation(qs(c.graphBreaks.front().file), c.graphBreaks.front().line);
    else
        m_source->setLocation(compileFile(c), compileLine(c));
    if (m_artifacts->currentRecord() != kNone)
        m_raw->showRecord(m_artifacts->currentRecord());
    else
        m_raw->showRecord(c.startRecord != kNone ? c.startRecord : c.metricsRecord);
}

} // namespace dynascope::ui
