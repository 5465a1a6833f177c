// Shared bits of the GUI tests: where the traces are, and loading one synchronously.
#pragma once

#include "core/load/loader.h"

#include <QFileInfo>
#include <QString>

namespace dynascope::uitest {

inline QString exampleTrace()
{
    return QStringLiteral(DYNASCOPE_EXAMPLE_TRACE);
}

inline QString realRank1Trace()
{
    return QStringLiteral(DYNASCOPE_SHARED_TRACES)
        + QStringLiteral(
            "/tlparse/tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log");
}

// A scenario of the committed recording (tests/scenarios): its trace file or folder.
inline QString scenarioTrace(const QString& name)
{
    return QStringLiteral(DYNASCOPE_SOURCE_DIR "/tests/scenarios/recorded/torch-2.13.0/") + name;
}

inline std::shared_ptr<const Trace> loadTrace(const QString& path)
{
    return load({ path.toStdString() }).trace;
}

} // namespace dynascope::uitest

#define SKIP_UNLESS_EXISTS(path)                                                                   \
    do {                                                                                           \
        if (!QFileInfo::exists(path))                                                              \
            QSKIP(qPrintable(QStringLiteral("trace not found: %1 (the real traces live in "        \
                                            "../shared/traces next to the repository)")            \
                                 .arg(path)));                                                     \
    } while (false)
