// Driving the real MainWindow as a user does, for the GUI tests: open and wait for the off-thread
// load, click a compile's row in the tree, press a key on the window (menu shortcuts included),
// find rows, and keep screenshots under DYNASCOPE_SHOT_DIR when it is set. Also the dark palette
// and the larger font the "other desktops" tests set.
#pragma once

#include "ui/compilebrowser.h"
#include "ui/mainwindow.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QDir>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

namespace dynascope::uitest {

inline QString tlparseInput(const QString& name)
{
    return QStringLiteral(DYNASCOPE_SHARED_TRACES) + QStringLiteral("/tlparse/tests/inputs/")
        + name;
}

// Opens `paths` and waits for MainWindow::loadFinished; returns its `ok` (false on a timeout).
inline bool openAndWait(ui::MainWindow& w, const QStringList& paths, QStringList* errors = nullptr)
{
    QSignalSpy spy(&w, &ui::MainWindow::loadFinished);
    w.openPaths(paths);
    if (!spy.wait(60000))
        return false;
    if (errors)
        *errors = spy.at(0).at(1).toStringList();
    return spy.at(0).at(0).toBool();
}

inline QModelIndex findRow(
    const QAbstractItemModel& m, const QString& text, const QModelIndex& parent = {})
{
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        if (i.data().toString() == text)
            return i;
        const QModelIndex found = findRow(m, text, i);
        if (found.isValid())
            return found;
    }
    return {};
}

inline int countRows(const QAbstractItemModel& m, const QModelIndex& parent = {})
{
    int n = 0;
    for (int r = 0; r < m.rowCount(parent); ++r)
        n += 1 + countRows(m, m.index(r, 0, parent));
    return n;
}

// Clicks the tree row whose first column reads `id`, as a user would; false when absent.
inline bool clickCompileRow(ui::MainWindow& w, const QString& id)
{
    QTreeView* view = w.compileBrowser()->treeView();
    const QModelIndex index = findRow(*view->model(), id);
    if (!index.isValid())
        return false;
    view->scrollTo(index);
    const QRect rect = view->visualRect(index);
    if (rect.isEmpty())
        return false;
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    return true;
}

// Saves a grab of `widget` as DYNASCOPE_SHOT_DIR/name.png when that variable is set.
inline void keepShot(QWidget& widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("DYNASCOPE_SHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QApplication::processEvents();
    widget.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// A dark palette as a dark desktop theme sets it (Fusion with qt6ct "darker"-like colours).
// The link colour is left at Qt's default dark blue, as many dark themes leave it.
inline QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x30));
    dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2a, 0x2d));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x38));
    dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Mid, QColor(0x5a, 0x5a, 0x5e));
    dark.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    dark.setColor(QPalette::Light, QColor(0x50, 0x50, 0x54));
    dark.setColor(QPalette::Midlight, QColor(0x44, 0x44, 0x48));
    dark.setColor(QPalette::Shadow, Qt::black);
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3e));
    dark.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    dark.setColor(QPalette::Link, QColor(0x00, 0x00, 0xff));
    dark.setColor(QPalette::LinkVisited, QColor(0xff, 0x00, 0xff));
    return dark;
}

// Sets the application palette (or font) for the lifetime of the guard, then restores it.
class PaletteGuard {
public:
    explicit PaletteGuard(const QPalette& p)
        : m_old(QApplication::palette())
    {
        QApplication::setPalette(p);
    }
    ~PaletteGuard() { QApplication::setPalette(m_old); }

private:
    QPalette m_old;
};
class FontGuard {
public:
    explicit FontGuard(const QFont& f)
        : m_old(QApplication::font())
    {
        QApplication::setFont(f);
    }
    ~FontGuard() { QApplication::setFont(m_old); }

private:
    QFont m_old;
};

// Relative luminance (WCAG) and contrast ratio of two colours.
inline double luminance(const QColor& c)
{
    auto ch
        = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
}
inline double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace dynascope::uitest
