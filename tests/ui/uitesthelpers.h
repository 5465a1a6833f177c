// Shared bits of the GUI tests: where the traces are, loading one synchronously, and a screenshot
// of the real app.
#pragma once

#include "core/load/loader.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

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

#ifdef DYNASCOPE_GUI_BINARY
// Runs the real `dynascope ARGS... --screenshot DIR/NAME` (with `env`, the test's own by default)
// and returns the picture; a null image when it fails. The PNG is kept under DYNASCOPE_SHOT_DIR
// when that variable is set.
inline QImage shootApp(const QTemporaryDir& dir, const QStringList& args, const QString& name,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    const QString out = dir.filePath(name);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DYNASCOPE_GUI_BINARY),
        args + QStringList { QStringLiteral("--screenshot"), out });
    if (!p.waitForFinished(120000))
        return QImage();
    if (const QString keep = qEnvironmentVariable("DYNASCOPE_SHOT_DIR"); !keep.isEmpty())
        QFile::copy(out, keep + QStringLiteral("/") + name);
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? QImage(out) : QImage();
}
#endif

} // namespace dynascope::uitest

#define SKIP_UNLESS_EXISTS(path)                                                                   \
    do {                                                                                           \
        if (!QFileInfo::exists(path))                                                              \
            QSKIP(qPrintable(QStringLiteral("trace not found: %1 (the real traces live in "        \
                                            "../shared/traces next to the repository)")            \
                                 .arg(path)));                                                     \
    } while (false)
