// The inspector's text for one compile, as plain text (never rich text: it carries trace
// strings). A pure function so tests and the CLI-like screenshot checks can read it directly.
#pragma once

#include "core/model/trace.h"

#include <QString>

namespace dynascope::ui {

QString inspectorText(const Trace& trace, uint32_t compile);
// The guard a recompile reason was linked to, "TENSOR_MATCH: check_tensor(...)"; empty if none.
QString matchedGuardText(const Trace& trace, const RecompileReason& reason);

} // namespace dynascope::ui
