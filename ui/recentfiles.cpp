#include "ui/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace dynascope::ui {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(bool persistent, QObject* parent)
    : QObject(parent)
    , m_persistent(persistent)
{
    if (m_persistent)
        m_paths = QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    m_paths.removeAll(abs);
    m_paths.prepend(abs);
    while (m_paths.size() > kMax)
        m_paths.removeLast();
    save();
}

void RecentFiles::remove(const QString& path)
{
    if (m_paths.removeAll(path))
        save();
}

void RecentFiles::clear()
{
    m_paths.clear();
    save();
}

void RecentFiles::save()
{
    if (m_persistent)
        QSettings().setValue(kKey, m_paths);
    Q_EMIT changed();
}

QString RecentFiles::startFolder(const QStringList& openPaths) const
{
    const QStringList paths = openPaths.isEmpty() ? m_paths : openPaths;
    if (paths.isEmpty())
        return {};
    const QFileInfo fi(paths.front());
    return fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
}

} // namespace dynascope::ui
