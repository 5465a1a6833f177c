// RecentFiles: the traces (files or folders) opened lately, newest first, kept in QSettings.
#pragma once

#include <QObject>
#include <QStringList>

namespace dynascope::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    // Not persistent: starts empty and never touches QSettings (screenshot mode, tests).
    explicit RecentFiles(bool persistent, QObject* parent = nullptr);

    QStringList paths() const { return m_paths; }
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

    static constexpr int kMax = 10;

    // Where the Open dialogs start: the folder of the first of `openPaths` (the open trace; a
    // folder trace itself), else of the most recent path; "" when there is neither.
    QString startFolder(const QStringList& openPaths) const;

Q_SIGNALS:
    void changed();

private:
    void save();
    QStringList m_paths;
    bool m_persistent;
};

} // namespace dynascope::ui
