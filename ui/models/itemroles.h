// Custom item-data roles of Dynascope's models, in one place so views and proxies agree.
#pragma once

#include <Qt>

namespace dynascope::ui {

enum ItemRole {
    CompileIndexRole = Qt::UserRole + 1, // int: Trace::compiles index, -1 for other rows
    NodeKindRole, // int: CompileTreeModel::NodeKind
    SortRole, // QVariant that sorts the column numerically where it makes sense
    StatusRole, // int: dynascope::CompileStatus
    FileIndexRole, // int: Trace::files index
    FrameIndexRole, // int: Trace::frames index, -1 when none
    DiagnosticSeverityRole, // int: dynascope::Severity
    GuardNodeRole, // int: GuardTree::nodes index
    RecordRole, // int: Trace::records index, -1 when none
    HighlightRole, // bool: the row is the one to look at (failed guard, selected line)
};

} // namespace dynascope::ui
