// The window as a user meets it (issue 18): each test sends the mouse and key events a user sent
// when the defect was found, on the example and the tlparse corpus, and checks what the user sees.
// With DYNASCOPE_SHOT_DIR set, the screens are kept there to look at.
#include "ui/compilebrowser.h"
#include "ui/compileselection.h"
#include "ui/diagnosticsdock.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/mainwindow.h"
#include "ui/runs/runsbar.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"
#include "windowdriver.h"

#include <QClipboard>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStatusBar>
#include <QTest>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;
using namespace dynascope::uitest;

class TestUserFlows : public QObject {
    Q_OBJECT

    static QString statusBarText(MainWindow& w)
    {
        QStringList parts;
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
            parts << l->text();
        parts << w.statusBar()->currentMessage();
        return parts.join(QStringLiteral(" | "));
    }

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    // Select [0/0] of comp_failure.log, press F5, click [0/0]: the Why tab shows the failure.
    void reloadThenClickFirstCompile()
    {
        const QString path = tlparseInput(QStringLiteral("comp_failure.log"));
        SKIP_UNLESS_EXISTS(path);
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, { path }));
        QVERIFY(clickCompileRow(w, QStringLiteral("[0/0]")));
        QVERIFY(w.inspector()->whyView()->toPlainText().contains(QStringLiteral("Compile failed")));

        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(loaded.wait(60000));
        QVERIFY(clickCompileRow(w, QStringLiteral("[0/0]")));
        keepShot(w, QStringLiteral("comp_failure-after-F5"));
        QVERIFY2(w.inspector()->whyView()->toPlainText().contains(QStringLiteral("Compile failed")),
            qPrintable(w.inspector()->whyView()->toPlainText().left(200)));
        QVERIFY2(!statusBarText(w).contains(QStringLiteral("loaded in 0 µs")),
            qPrintable(statusBarText(w)));

        // F8 (Go › Next Failure) after a reload finds the failure too.
        QSignalSpy again(&w, &MainWindow::loadFinished);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(again.wait(60000));
        QTest::keyClick(&w, Qt::Key_F8);
        QCOMPARE(w.selection()->current(), 0u);
        QVERIFY(w.inspector()->whyView()->toPlainText().contains(QStringLiteral("Compile failed")));
    }

    // F1 lists the shortcuts, grouped by menu.
    void shortcutsDialogListsActions()
    {
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        int visibleRows = -1;
        QTimer::singleShot(200, &w, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto* view = dialog->findChild<QTreeView*>();
            visibleRows = 0;
            for (QModelIndex i = view->model()->index(0, 0); i.isValid(); i = view->indexBelow(i))
                visibleRows += view->visualRect(i).isValid() ? 1 : 0;
            keepShot(*dialog, QStringLiteral("shortcuts"));
            dialog->reject();
        });
        QTest::keyClick(&w, Qt::Key_F1);
        QVERIFY2(visibleRows > 30, qPrintable(QString::number(visibleRows)));
    }

    // The compile filter: a new trace does not open filtered by the old trace's word; "recompile"
    // finds recompiles only; a filter that matches nothing says so.
    void filterAcrossTraces()
    {
        const QString rank1 = realRank1Trace();
        SKIP_UNLESS_EXISTS(rank1);
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, { exampleTrace() }));
        QLineEdit* filter = w.compileBrowser()->filterEdit();
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("export"));
        QVERIFY(openAndWait(w, { rank1 }));
        const QAbstractItemModel& m = *w.compileBrowser()->treeView()->model();
        QVERIFY2(findRow(m, QStringLiteral("[0/3]")).isValid(), "the new trace opens unfiltered");

        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("recompile"));
        QVERIFY(findRow(m, QStringLiteral("[0/3]")).isValid());
        QVERIFY2(!findRow(m, QStringLiteral("[0/0]")).isValid(), "[0/0] is not a recompile");

        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("no such compile"));
        auto* note = w.compileBrowser()->findChild<QLabel*>(QStringLiteral("filterStatus"));
        QVERIFY(note && note->isVisible());
        keepShot(w, QStringLiteral("filter-no-match"));
    }

    // multi_rank_runtime's first run has 19 payloads whose MD5 does not match: the window says so,
    // as the CLI does, once the background check is done.
    void payloadMismatchesShown()
    {
        const QString dir = tlparseInput(QStringLiteral("multi_rank_runtime"));
        SKIP_UNLESS_EXISTS(dir);
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        // Its Aug 4 run (ranks 0-4), not the newest: 19 mismatches, and the notices of the other
        // run and of the copied rank-1 file.
        LoadOptions run1;
        QVERIFY(parseRunChoice("1", run1));
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        w.openPaths({ dir }, run1);
        QVERIFY(loaded.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(w.summaryText().contains(QStringLiteral("21 diagnostics")), 30000);
        QVERIFY(w.diagnosticsDock()->isVisible());
        keepShot(w, QStringLiteral("payload-mismatches"));
    }

    // Follow a link in the Why tab, then Alt+Left: back to the compile the link was in.
    void backAfterWhyLink()
    {
        SKIP_UNLESS_EXISTS(exampleTrace());
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, { exampleTrace() }));
        QVERIFY(clickCompileRow(w, QStringLiteral("[3/3]")));
        const uint32_t from = w.selection()->current();
        WhyView* why = w.inspector()->whyView();
        // The first link to another compile, clicked where it is drawn.
        QTextCursor cursor;
        for (QTextBlock b = why->document()->begin(); b.isValid() && cursor.isNull();
             b = b.next()) {
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextFragment f = it.fragment();
                if (f.charFormat().anchorHref().startsWith(QStringLiteral("compile:"))
                    && f.charFormat().anchorHref() != QStringLiteral("compile:%1").arg(from)) {
                    cursor = QTextCursor(why->document());
                    cursor.setPosition(f.position() + 1);
                    break;
                }
            }
        }
        QVERIFY(!cursor.isNull());
        why->setTextCursor(cursor);
        why->ensureCursorVisible();
        const QPoint at = why->cursorRect(cursor).center();
        QTest::mouseClick(why->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(w.selection()->current() != from);
        QTest::keyClick(&w, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(w.selection()->current(), from);
    }

    // Z zooms to the Shift+dragged range; the tint and its box do not stay over the lanes.
    void zoomToRangeDropsTheTint()
    {
        SKIP_UNLESS_EXISTS(exampleTrace());
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, { exampleTrace() }));
        TimelineView* tl = w.timeline();
        const int y = 120;
        QTest::mousePress(tl, Qt::LeftButton, Qt::ShiftModifier, QPoint(400, y));
        QTest::mouseMove(tl, QPoint(600, y));
        QTest::mouseRelease(tl, Qt::LeftButton, Qt::ShiftModifier, QPoint(600, y));
        QVERIFY(tl->selectedRange());
        tl->setFocus();
        QTest::keyClick(tl, Qt::Key_Z);
        keepShot(w, QStringLiteral("after-Z"));
        QVERIFY(!tl->selectedRange());
    }

    // Ctrl+Shift+B copies the bug report and says so in the status bar; no dialog to dismiss.
    void copyBugReportSaysSoInTheStatusBar()
    {
        SKIP_UNLESS_EXISTS(exampleTrace());
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, { exampleTrace() }));
        QVERIFY(clickCompileRow(w, QStringLiteral("[3/2]")));
        QApplication::clipboard()->clear();
        bool dialog = false;
        QTimer watch; // a modal dialog (the old behaviour) is recorded and closed
        connect(&watch, &QTimer::timeout, &w, [&] {
            if (QWidget* m = QApplication::activeModalWidget()) {
                dialog = true;
                m->close();
            }
        });
        watch.start(50);
        QTest::keyClick(&w, Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
        QTest::qWait(150);
        QVERIFY(!dialog);
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("[3/2]")));
        QVERIFY2(w.statusBar()->currentMessage().startsWith(
                     QStringLiteral("Copied the bug report of [3/2]")),
            qPrintable(w.statusBar()->currentMessage()));
    }

    // Rank 1's [0/14] of multi_rank_logs, as opened from the folder: each inspector tab, to look
    // at.
    void rank1Tabs()
    {
        const QString dir = tlparseInput(QStringLiteral("multi_rank_logs"));
        SKIP_UNLESS_EXISTS(dir);
        MainWindow w(MainWindow::Options { false });
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { dir }));
        // The folder holds three runs (2024-12-06: ranks 0 and 2, 2025-07-18: rank 1,
        // 2025-07-21: rank 3): the newest opens and the bar says so; Choose Run > All Runs
        // shows every file.
        QVERIFY(w.runsBar()->isVisible());
        QVERIFY2(w.runsBar()->text().contains(QStringLiteral("holds 3 runs")),
            qPrintable(w.runsBar()->text()));
        QCOMPARE(w.trace()->files.size(), size_t(1));
        QCOMPARE(w.trace()->files[0].rank, std::optional<int64_t>(3));
        QAction* all = nullptr;
        for (QAction* a :
            w.runsBar()->findChild<QToolButton*>(QStringLiteral("chooseRun"))->menu()->actions())
            if (a->text() == QStringLiteral("All Runs"))
                all = a;
        QVERIFY(all);
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        all->trigger();
        QVERIFY(loaded.wait(60000));
        QCOMPARE(w.trace()->files.size(), size_t(4));
        QVERIFY(w.selectCompile(QStringLiteral("[0/14]")));
        keepShot(w, QStringLiteral("rank1-0-14-why"));
        w.inspector()->showTab(InspectorView::SummaryIndex);
        keepShot(w, QStringLiteral("rank1-0-14-summary"));
        w.inspector()->showTab(InspectorView::ArtifactsIndex);
        keepShot(w, QStringLiteral("rank1-0-14-artifacts"));
    }

    // The window under a dark palette and a 14 pt font, to look at.
    void darkPaletteAndLargeFont()
    {
        const QString rank1 = realRank1Trace();
        SKIP_UNLESS_EXISTS(rank1);
        PaletteGuard pg(darkPalette());
        QFont big = QApplication::font();
        big.setPointSizeF(14);
        FontGuard fg(big);
        MainWindow w(MainWindow::Options { false });
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { rank1 }));
        QVERIFY(w.selectCompile(QStringLiteral("[0/3]")));
        keepShot(w, QStringLiteral("dark-14pt"));
    }
};

QTEST_MAIN(TestUserFlows)
#include "tst_userflows.moc"
