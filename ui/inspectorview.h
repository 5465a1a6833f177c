// InspectorView: the selected compile in tabs: Summary (facts, phase times, metrics), Why (the
// reason in sentences, every fact a link), Guards (guard tree, the failed guard highlighted;
// shape guards), Source (the user's file at the line, or the lines the trace carries), Artifacts
// (graphs, code, JSON), Kernels (what Inductor generated; a row opens its code) and Raw (one record
// as in the file, with its MD5 check). The tabs talk through here: a link in one opens another.
// Everything is plain text: it comes from the trace.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QTabWidget;

namespace dynascope::ui {

class ArtifactsTab;
class CompileSelection;
class GuardsTab;
class KernelsTab;
class RawView;
class SourceTab;
class SummaryTab;
class WhyView;

class InspectorView : public QWidget {
    Q_OBJECT
public:
    enum Tab {
        SummaryIndex,
        WhyIndex,
        GuardsIndex,
        SourceIndex,
        ArtifactsIndex,
        KernelsIndex,
        RawIndex
    };

    // Follows `selection`; links that name a compile select it there.
    explicit InspectorView(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);
    uint32_t compile() const { return m_compile; }

    QTabWidget* tabs() const { return m_tabs; }
    void showTab(Tab tab);
    // Shows the tab titled `name` ("Kernels"; case-insensitive); false when none is.
    bool showTabNamed(const QString& name);
    SummaryTab* summaryTab() const { return m_summary; }
    WhyView* whyView() const { return m_why; }
    GuardsTab* guardsTab() const { return m_guards; }
    SourceTab* sourceTab() const { return m_source; }
    ArtifactsTab* artifactsTab() const { return m_artifacts; }
    KernelsTab* kernelsTab() const { return m_kernels; }
    RawView* rawView() const { return m_raw; }

private:
    void openSource(const QString& file, qint64 line);

    CompileSelection* m_selection;
    std::shared_ptr<const Trace> m_trace;
    uint32_t m_compile = kNone;
    QTabWidget* m_tabs;
    SummaryTab* m_summary;
    WhyView* m_why;
    GuardsTab* m_guards;
    SourceTab* m_source;
    ArtifactsTab* m_artifacts;
    KernelsTab* m_kernels;
    RawView* m_raw;
};

} // namespace dynascope::ui
