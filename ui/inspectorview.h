// InspectorView: the selected compile in words (id, status, where, when, why it recompiled, graph
// breaks, failure, metrics). Plain text only: every string in it comes from the trace.
#pragma once

#include "core/model/trace.h"

#include <QPlainTextEdit>

#include <memory>

namespace dynascope::ui {

class InspectorView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit InspectorView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);

private:
    void showHint();
    std::shared_ptr<const Trace> m_trace;
};

} // namespace dynascope::ui
