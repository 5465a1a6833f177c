// Accessibility on the bundled example (issue 33): every control, dock, tab, table and text view
// the window shows has an accessible name a screen reader can speak.
#include "ui/compilebrowser.h"
#include "ui/compileselection.h"
#include "ui/findingsdock.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/mainactions.h"
#include "ui/mainwindow.h"
#include "ui/timeline/timelineview.h"

#include "windowdriver.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTextEdit>

using namespace dynascope;
using namespace dynascope::ui;

namespace {

// What a user reaches: visible, and either focusable or a container a reader announces.
bool interactive(const QWidget* w)
{
    // A header's sections are the table's column headers: the table's interface names them.
    if (!w->isVisible() || qobject_cast<const QHeaderView*>(w))
        return false;
    // QMainWindow keeps a spare tab bar for dock groups, empty: it has no tab to reach. A tab
    // bar's name is its current tab's text (the dock's title).
    if (auto* tabs = qobject_cast<const QTabBar*>(w); tabs && tabs->count() == 0)
        return false;
    // A line edit's clear button (setClearButtonEnabled) is Qt's, never focused: the keyboard
    // clears the text itself.
    if (qobject_cast<const QAbstractButton*>(w) && qobject_cast<const QLineEdit*>(w->parent()))
        return false;
    if (qobject_cast<const QDockWidget*>(w) || qobject_cast<const QTabWidget*>(w)
        || qobject_cast<const QTabBar*>(w) || qobject_cast<const QAbstractItemView*>(w)
        || qobject_cast<const QTextEdit*>(w) || qobject_cast<const QPlainTextEdit*>(w)
        || qobject_cast<const QLineEdit*>(w) || qobject_cast<const QComboBox*>(w)
        || qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QAbstractSpinBox*>(w))
        return true;
    return w->focusPolicy() != Qt::NoFocus && !qobject_cast<const QAbstractSlider*>(w);
}

QString describe(const QWidget* w)
{
    QString path;
    for (const QObject* o = w; o; o = o->parent())
        path = QStringLiteral("%1(%2)/").arg(
                   QString::fromLatin1(o->metaObject()->className()), o->objectName())
            + path;
    return path;
}

// The interactive widgets under `root` whose accessible interface has no name.
QStringList unnamed(QWidget* root)
{
    QStringList out;
    const QList<QWidget*> all = root->findChildren<QWidget*>();
    for (QWidget* w : all) {
        if (!interactive(w))
            continue;
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
        if (!iface || iface->text(QAccessible::Name).trimmed().isEmpty())
            out << describe(w);
    }
    return out;
}

} // namespace

class TestAccessibility : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    void everyInteractiveWidgetIsNamed()
    {
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QStringList onStart = unnamed(&w);
        QVERIFY(uitest::openAndWait(w, { QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) }));
        QVERIFY(w.selectCompile(QStringLiteral("[3/1]")));
        QCoreApplication::processEvents();
        const auto name = [](QWidget* x) {
            return QAccessible::queryAccessibleInterface(x)->text(QAccessible::Name);
        };
        QCOMPARE(name(w.compileBrowser()->treeView()), QStringLiteral("Compiles"));
        // The dock's title counts them: "Findings (1 ✕, 1 ⚠, 4 notes)".
        QVERIFY(name(w.findingsDock()).startsWith(QStringLiteral("Findings (")));
        QCOMPARE(name(w.inspector()->whyView()), QStringLiteral("Why this compile recompiled"));
        QCOMPARE(name(w.timeline()), QStringLiteral("Timeline"));
        QVERIFY(!QAccessible::queryAccessibleInterface(w.inspector()->whyView())
                     ->text(QAccessible::Description)
                     .isEmpty());
        QStringList missing = onStart + unnamed(&w);
        // Every inspector tab in turn (only the current one is visible).
        QTabWidget* tabs = w.inspector()->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            missing += unnamed(tabs);
            QVERIFY2(!QAccessible::queryAccessibleInterface(tabs->widget(i))
                          ->text(QAccessible::Name)
                          .isEmpty(),
                qPrintable(tabs->tabText(i)));
        }
        missing.removeDuplicates();
        for (const QString& m : missing)
            qWarning("no accessible name: %s", qPrintable(m));
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
    }

    // The timeline's interface: a child per lane, a child per compile span with its id, function,
    // status, duration and reason; Ctrl+arrows move the selection, focus and the events with it.
    void timelineInterface()
    {
        QAccessible::setActive(true);
        static QList<std::pair<QAccessible::Event, QString>> events;
        events.clear();
        QAccessible::installUpdateHandler([](QAccessibleEvent* e) {
            QAccessibleInterface* iface = e->accessibleInterface();
            events.push_back({ e->type(), iface ? iface->text(QAccessible::Name) : QString() });
        });
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(uitest::openAndWait(w, { QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) }));
        TimelineView* timeline = w.timeline();
        QAccessibleInterface* root = QAccessible::queryAccessibleInterface(timeline);
        QVERIFY(root);
        QCOMPARE(root->text(QAccessible::Name), QStringLiteral("Timeline"));
        // The example has five frames: forward, step, its resume frame, scale, export_step.
        QCOMPARE(root->childCount(), 5);
        QAccessibleInterface* scaleLane = nullptr;
        for (int i = 0; i < root->childCount(); ++i) {
            QAccessibleInterface* lane = root->child(i);
            QCOMPARE(lane->parent(), root);
            QCOMPARE(root->indexOfChild(lane), i);
            if (lane->text(QAccessible::Name).startsWith(QStringLiteral("scale")))
                scaleLane = lane;
        }
        QVERIFY(scaleLane);
        QVERIFY2(scaleLane->text(QAccessible::Name).endsWith(QStringLiteral("2 compiles")),
            qPrintable(scaleLane->text(QAccessible::Name)));
        QCOMPARE(scaleLane->childCount(), 2);
        QAccessibleInterface* recompile = scaleLane->child(1);
        QCOMPARE(recompile->role(), QAccessible::ListItem);
        QCOMPARE(recompile->parent(), scaleLane);
        QCOMPARE(recompile->text(QAccessible::Name), QStringLiteral("[3/1] scale ↻ recompile ok"));
        const QString description = recompile->text(QAccessible::Description);
        QVERIFY2(description.startsWith(QStringLiteral("took 66")), qPrintable(description));
        QVERIFY2(description.contains(QStringLiteral("32"))
                && description.contains(QStringLiteral("64")),
            qPrintable(description));
        QVERIFY(!recompile->rect().isEmpty());
        QVERIFY(recompile->state().selectable);
        QVERIFY(!recompile->state().selected);

        // By keyboard: the first compile of the first lane, then along and across lanes.
        QApplication::setActiveWindow(&w);
        timeline->setFocus();
        QVERIFY(QTest::qWaitFor([&] { return timeline->hasFocus(); }));
        events.clear();
        QTest::keyClick(timeline, Qt::Key_Right, Qt::ControlModifier);
        QCOMPARE(root->focusChild()->text(QAccessible::Name), QStringLiteral("[0/0] forward ✓ ok"));
        QTest::keyClick(timeline, Qt::Key_Down, Qt::ControlModifier); // step's lane
        QVERIFY(
            root->focusChild()->text(QAccessible::Name).startsWith(QStringLiteral("[1/0] step")));
        // Down to scale's lane (past the resume frame), then along it to the recompile.
        QTest::keyClick(timeline, Qt::Key_Down, Qt::ControlModifier);
        QTest::keyClick(timeline, Qt::Key_Down, Qt::ControlModifier);
        QTest::keyClick(timeline, Qt::Key_Right, Qt::ControlModifier);
        QAccessibleInterface* focused = root->focusChild();
        QCOMPARE(focused->text(QAccessible::Name), QStringLiteral("[3/1] scale ↻ recompile ok"));
        QVERIFY(focused->state().focused && focused->state().selected);
        QCOMPARE(focused, recompile); // the same item: ids stay while the layout does
        QCOMPARE(scaleLane->focusChild(), recompile);
        QCOMPARE(w.selection()->current(), 4u);
        // Each step was announced: a Focus and a Selection event on the span. Qt delivers events
        // only while a platform bridge is active (AT-SPI with a screen reader; the offscreen
        // platform has none), so they are checked where one is.
        if (QAccessible::isActive()) {
            const QString name = QStringLiteral("[3/1] scale ↻ recompile ok");
            QVERIFY(events.contains(std::make_pair(QAccessible::Focus, name)));
            QVERIFY(events.contains(std::make_pair(QAccessible::Selection, name)));
        }
        // At the end of the lane, Ctrl+Right stays.
        QTest::keyClick(timeline, Qt::Key_Right, Qt::ControlModifier);
        QCOMPARE(w.selection()->current(), 4u);
        QAccessible::installUpdateHandler(nullptr);
    }

    // The ladder by keyboard alone on the bundled example: each step reads what the focused
    // widget's accessible interface reports, as a screen reader would.
    void keyboardLadder()
    {
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        // 1. Open it (the File menu's dialog is the platform's; the test opens by the API).
        QVERIFY(uitest::openAndWait(w, { QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) }));
        const auto press = [&w](int key, Qt::KeyboardModifiers mods = {}) {
            QWidget* target = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
            QTest::keyClick(target, static_cast<Qt::Key>(key), mods);
            QCoreApplication::processEvents();
        };
        const auto focused = [] {
            QAccessibleInterface* iface
                = QAccessible::queryAccessibleInterface(QApplication::focusWidget());
            return iface && iface->focusChild() ? iface->focusChild() : iface;
        };
        const auto focusedText = [&focused] {
            QAccessibleTextInterface* text = focused()->textInterface();
            return text ? text->text(0, text->characterCount()) : QString();
        };

        // 2. The recompile of scale: to the timeline (Ctrl+1), the next recompile (F6).
        press(Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), w.timeline());
        press(Qt::Key_F6);
        QCOMPARE(focused()->text(QAccessible::Name), QStringLiteral("[3/1] scale ↻ recompile ok"));

        // 3. The failed guard, in the Why tab (Ctrl+4), read as text.
        press(Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(focused()->text(QAccessible::Name), QStringLiteral("Why this compile recompiled"));
        QVERIFY2(focusedText().contains(
                     QStringLiteral("failed guard: TENSOR_MATCH on L['x'] in the guards of [3/0]")),
            qPrintable(focusedText()));

        // 4. The graph break (F7), then its resume frame: Tab to the link, Enter.
        press(Qt::Key_F7);
        QVERIFY2(focusedText().contains(QStringLiteral("[1/0] broke the graph at example.py:31")),
            qPrintable(focusedText()));
        QString link;
        for (int i = 0; i < 40 && link != QStringLiteral("[2/0]"); ++i) {
            press(Qt::Key_Tab);
            QAccessibleTextInterface* text = focused()->textInterface();
            int start = 0, end = 0;
            text->selection(0, &start, &end);
            link = text->text(start, end);
        }
        QCOMPARE(link, QStringLiteral("[2/0]"));
        press(Qt::Key_Return);
        QVERIFY2(focusedText().contains(QStringLiteral(
                     "[2/0] resumes after the graph break in [1/0] at example.py:31")),
            qPrintable(focusedText()));

        // 5. The top finding (Ctrl+3, Home, Enter): its compile is selected, its Why shown.
        press(Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), w.findingsDock()->view());
        press(Qt::Key_Home);
        const QModelIndex top = w.findingsDock()->view()->model()->index(0, 0);
        QCOMPARE(focused()->text(QAccessible::Name), top.data().toString());
        QVERIFY2(top.data().toString().contains(QStringLiteral("error")),
            qPrintable(top.data().toString()));
        press(Qt::Key_Return);
        QCOMPARE(w.inspector()->tabs()->currentIndex(), int(InspectorView::WhyIndex));
        const uint32_t failing = w.selection()->current();
        QVERIFY(failing != kNone);
        QCOMPARE(w.trace()->compiles[failing].id.display(), std::string("[4/0]"));

        // 6. The bug report (Ctrl+Shift+B) is on the clipboard.
        QApplication::clipboard()->clear();
        press(Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
        const QString report = QApplication::clipboard()->text();
        QVERIFY2(report.contains(QStringLiteral("[4/0]")), qPrintable(report.left(400)));
        QVERIFY2(
            report.contains(QStringLiteral("BackendCompilerFailed")), qPrintable(report.left(400)));

        // Every key the ladder used is listed in the F1 dialog.
        QStringList listed;
        for (const ShortcutEntry& e : MainActions::shortcutEntries(&w))
            listed << e.action + QStringLiteral(" = ") + e.keys;
        for (const QString& entry : { QStringLiteral("Timeline = Ctrl+1"),
                 QStringLiteral("Findings = Ctrl+3"), QStringLiteral("Why Tab = Ctrl+4"),
                 QStringLiteral("Next Recompile = F6"), QStringLiteral("Next Graph Break = F7"),
                 QStringLiteral("Copy as Bug Report = Ctrl+Shift+B"),
                 QStringLiteral("Select the next / previous compile of the lane = Ctrl+Right / "
                                "Ctrl+Left") })
            QVERIFY2(listed.contains(entry), qPrintable(entry));
    }
};

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
