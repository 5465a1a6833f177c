// CompileSelection: the one selected compile, shared by the compile tree, the timeline and the
// inspector. Views set it and follow it; it emits only on change, so two views that mirror each
// other do not loop.
#pragma once

#include "core/model/trace.h"

#include <QObject>

namespace dynascope::ui {

class CompileSelection : public QObject {
    Q_OBJECT
public:
    explicit CompileSelection(QObject* parent = nullptr);

    uint32_t current() const { return m_current; }
    bool hasSelection() const { return m_current != kNone; }

public Q_SLOTS:
    void setCurrent(uint32_t compile);
    void clear() { setCurrent(kNone); }

Q_SIGNALS:
    void currentChanged(uint32_t compile);

private:
    uint32_t m_current = kNone;
};

} // namespace dynascope::ui
