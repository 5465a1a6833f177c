#include "ui/compileselection.h"

namespace dynascope::ui {

CompileSelection::CompileSelection(QObject* parent)
    : QObject(parent)
{
}

void CompileSelection::setCurrent(uint32_t compile)
{
    if (compile == m_current)
        return;
    m_current = compile;
    Q_EMIT currentChanged(compile);
}

} // namespace dynascope::ui
