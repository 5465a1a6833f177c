// CompileSearch: which compiles a search text matches (Ctrl+F). Case-insensitive substring over
// the compile id ("[0/1]", "0/1"), the compiled function and its file, the dynamo_start stack,
// recompile reasons, graph break reasons, failures, restart reasons and guard text (kind, expr,
// source). Pure function over the Trace; results in compile order, which is file (time) order.
#pragma once

#include "core/model/trace.h"

#include <QString>

#include <vector>

namespace dynascope::ui {

struct SearchOptions {
    bool guards = true; // guard trees are parsed on first use: the costly part on big traces
};

std::vector<uint32_t> searchCompiles(
    const Trace& trace, const QString& text, const SearchOptions& options = {});

} // namespace dynascope::ui
