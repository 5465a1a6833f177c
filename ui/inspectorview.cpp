#include "ui/inspectorview.h"

#include "ui/models/inspectortext.h"

#include <QFontDatabase>

namespace dynascope::ui {

InspectorView::InspectorView(QWidget* parent)
    : QPlainTextEdit(parent)
{
    setObjectName(QStringLiteral("inspector"));
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFrameShape(QFrame::NoFrame);
    showHint();
}

void InspectorView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showHint();
}

void InspectorView::showHint()
{
    setPlaceholderText(m_trace ? tr("Select a compile in the tree or on the timeline to see why it "
                                    "compiled, how long it took and what went wrong.")
                               : QString());
    clear();
}

void InspectorView::showCompile(uint32_t compile)
{
    if (!m_trace || compile >= m_trace->compiles.size()) {
        showHint();
        return;
    }
    setPlainText(inspectorText(*m_trace, compile));
}

} // namespace dynascope::ui
