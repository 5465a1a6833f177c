#include "ui/examplepaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace dynascope::ui {

QString exampleTracePath()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    const QString candidates[] = {
        QStringLiteral("../../resources/examples/example.log"), // build tree: <repo>/build*/bin
        QStringLiteral("../share/dynascope/examples/example.log"), // installed
        QStringLiteral("../../../resources/examples/example.log"), // nested build folders
    };
    for (const QString& c : candidates) {
        const QFileInfo fi(bin.filePath(c));
        if (fi.isFile())
            return fi.canonicalFilePath();
    }
    return {};
}

} // namespace dynascope::ui
