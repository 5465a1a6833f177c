// The timeline for screen readers (issue 33). TimelineView paints everything itself, so to a
// screen reader it would be an empty rectangle; its QAccessibleInterface (a QAccessible factory,
// installTimelineAccessibility()) exposes one child per lane, named by its label and compile
// count, and under each lane one child per compile span: named "[3/1] scale ↻ recompile ok" (id,
// function, status), described by its duration and reason. The selected compile is the selected
// child, and the focused one while the timeline has focus; announceCompile() sends the Focus and
// Selection events that make a screen reader speak it when the keyboard moves the selection.
#pragma once

#include "core/model/trace.h"

#include <QString>

namespace dynascope::ui {

class TimelineView;

// TimelineView's constructor calls it: the factory, installed once, and the view's interface.
void installTimelineAccessibility(TimelineView* view);
void announceCompile(TimelineView* view, uint32_t compile);

QString spanAccessibleName(const Compile& c); // "[3/1] scale ↻ recompile ok"
QString spanAccessibleDescription(const Compile& c); // "took 1.2 s; x.size(0) 4→5"

} // namespace dynascope::ui
