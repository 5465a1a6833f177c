#include "ui/examplepaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace dynascope::ui {

QString exampleTracePath()
{
    return exampleTracePath(QCoreApplication::applicationDirPath());
}

QString exampleTracePath(const QString& programDir)
{
    const QDir bin(programDir);
    QStringList candidates {
        bin.filePath(QStringLiteral("../share/dynascope/examples/example.log")), // installed
        bin.filePath(QStringLiteral("../../resources/examples/example.log")), // <repo>/build*/bin
        bin.filePath(QStringLiteral("../../../resources/examples/example.log")), // nested builds
    };
    // A program copied out of its prefix still finds an installed example on the data path.
    const QString data = QStandardPaths::locate(
        QStandardPaths::GenericDataLocation, QStringLiteral("dynascope/examples/example.log"));
    if (!data.isEmpty())
        candidates << data;
    for (const QString& c : candidates) {
        const QFileInfo fi(c);
        if (fi.isFile())
            return fi.canonicalFilePath();
    }
    return {};
}

} // namespace dynascope::ui
