// RunsBar: the notice above the views when the opened inputs hold several runs of a program, or
// copies of a file (core/load/runs.h), and the way to pick another run. The bar says which run
// is shown and what else is there; its "Choose Run" button and File > Runs offer every run and
// "All Runs". Choosing one asks the window to load the same paths again with that choice.
#pragma once

#include "core/load/loader.h"

#include <QFrame>

class QLabel;
class QMenu;
class QToolButton;

namespace dynascope::ui {

class RunsBar : public QFrame {
    Q_OBJECT
public:
    // `menu` (File > Runs) is filled alongside the button's.
    RunsBar(QMenu* menu, QWidget* parent = nullptr);

    // Shows the bar when `trace` holds more than one run or left out a duplicate; `choice` is the
    // choice it was loaded with (checked in the menus).
    void setTrace(const Trace* trace, const LoadOptions& choice);
    QString text() const; // the notice as shown (tests)

Q_SIGNALS:
    void runChosen(const dynascope::LoadOptions& choice);

private:
    void fill(QMenu* menu, const Trace& trace, const LoadOptions& choice);

    QMenu* m_fileMenu;
    QMenu* m_buttonMenu;
    QLabel* m_label;
    QToolButton* m_choose;
    QToolButton* m_close;
};

} // namespace dynascope::ui
