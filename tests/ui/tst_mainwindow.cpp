// The real MainWindow, offscreen: open a trace, wait for the off-thread load, click a compile in
// the tree and read the inspector; filter; a superseded load; a path that cannot be read.
#include "ui/compilebrowser.h"
#include "ui/compileselection.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/mainwindow.h"
#include "ui/models/compiletreemodel.h"
#include "ui/models/itemroles.h"

#include "uitesthelpers.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;

class TestMainWindow : public QObject {
    Q_OBJECT

    static QModelIndex findInView(
        const QAbstractItemModel& m, const QString& id, const QModelIndex& parent = {})
    {
        for (int r = 0; r < m.rowCount(parent); ++r) {
            const QModelIndex i = m.index(r, 0, parent);
            if (i.data().toString() == id)
                return i;
            const QModelIndex found = findInView(m, id, i);
            if (found.isValid())
                return found;
        }
        return {};
    }

    static bool openAndWait(MainWindow& w, const QStringList& paths, QStringList* errors = nullptr)
    {
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openPaths(paths);
        if (!spy.wait(60000))
            return false;
        if (errors)
            *errors = spy.at(0).at(1).toStringList();
        return spy.at(0).at(0).toBool();
    }

    // Clicks the row of `id` in the compile tree like a user would.
    static void clickCompile(MainWindow& w, const QString& id)
    {
        QTreeView* view = w.compileBrowser()->treeView();
        const QModelIndex index = findInView(*view->model(), id);
        QVERIFY2(index.isValid(), qPrintable(id));
        view->scrollTo(index);
        const QRect rect = view->visualRect(index);
        QVERIFY(!rect.isEmpty());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    }

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    void startPageWhenEmpty()
    {
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.trace());
        QCOMPARE(w.windowTitle(), QStringLiteral("Dynascope"));
        QWidget* start = w.findChild<QWidget*>(QStringLiteral("startPage"));
        QVERIFY(start && start->isVisible());
    }

    void clickShowsFailingGuard()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { uitest::exampleTrace() }));
        QVERIFY(w.trace());
        QVERIFY(w.summaryText().startsWith(
            QStringLiteral("example.log · 9 compiles · 4 recompiles · 1 graph break · 1 failure")));

        clickCompile(w, QStringLiteral("[3/3]"));
        const uint32_t selected = w.selection()->current();
        QVERIFY(selected != kNone);
        QCOMPARE(QString::fromStdString(w.trace()->compiles[selected].id.display()),
            QStringLiteral("[3/3]"));
        // What the user reads in the Why tab.
        const QString text = w.inspector()->whyView()->toPlainText();
        QVERIFY2(text.startsWith(QStringLiteral("[3/3]")), qPrintable(text.left(200)));
        // [3/3] recompiled because [3/2]'s TENSOR_MATCH size guard failed: the Why tab names it.
        QVERIFY2(
            text.contains(QStringLiteral("[3/2] rejected it: tensor 'x' size mismatch at index 0")),
            qPrintable(text.left(600)));
        QVERIFY2(text.contains(QStringLiteral("failed guard: TENSOR_MATCH on L['x'] in the guards "
                                              "of [3/2]\ncheck_tensor(L['x']")),
            qPrintable(text.left(600)));
        QVERIFY2(text.contains(QStringLiteral("size=[128, 128]")), qPrintable(text.left(600)));

        // The failure of [4/0] reads as one.
        clickCompile(w, QStringLiteral("[4/0]"));
        QVERIFY(w.inspector()->whyView()->toPlainText().contains(
            QStringLiteral("✕ Compile failed\nBackendCompilerFailed  in backend")));
    }

    // The status bar names the release that wrote the trace, its tooltip where it was read:
    // the bundled example (torch 2.13) has a torch_version artifact; torch 2.11 writes none and
    // a compile's compilation_metrics carries it.
    void statusBarNamesTheRelease()
    {
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) }));
        auto* status = w.findChild<QLabel*>(QStringLiteral("summary"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral(" · PyTorch 2.13.0+cpu · ")),
            qPrintable(status->text()));
        QVERIFY2(status->toolTip().contains(QStringLiteral("torch_version artifact")),
            qPrintable(status->toolTip()));
        const QString older = QStringLiteral(DYNASCOPE_SHARED_TRACES)
            + u"/torch-2.11-h200/scenario-suite/clean_mlp"_qs;
        SKIP_UNLESS_EXISTS(older);
        QVERIFY(openAndWait(w, { older }));
        QVERIFY2(status->text().contains(QStringLiteral(" · PyTorch 2.11.0+cu130 · ")),
            qPrintable(status->text()));
        QVERIFY2(status->toolTip().contains(QStringLiteral("compilation_metrics")),
            qPrintable(status->toolTip()));
    }

    void realTraceClick()
    {
        const QString path = uitest::realRank1Trace();
        SKIP_UNLESS_EXISTS(path);
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { path }));
        clickCompile(w, QStringLiteral("[0/3]"));
        const QString text = w.inspector()->whyView()->toPlainText();
        QVERIFY2(
            text.contains(QStringLiteral(
                "[0/2] rejected it: tensor 'x' size mismatch at index 0. expected 4, actual 5")),
            qPrintable(text.left(600)));
        QVERIFY2(
            text.contains(QStringLiteral("x.size(0) across the frame's compiles: 2 → 3 → 4 → 5")),
            qPrintable(text.left(600)));
        QVERIFY2(text.contains(QStringLiteral("failed guard: TENSOR_MATCH on L['x']")),
            qPrintable(text.left(600)));
    }

    void filterAndSelectionFollow()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(openAndWait(w, { uitest::exampleTrace() }));
        QVERIFY(w.selectCompile(QStringLiteral("1/0")));
        QTreeView* view = w.compileBrowser()->treeView();
        QCOMPARE(view->currentIndex().data().toString(), QStringLiteral("[1/0]"));
        QVERIFY(!w.selectCompile(QStringLiteral("[9/9]")));

        QLineEdit* filter = w.compileBrowser()->filterEdit();
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("export"));
        QVERIFY(!findInView(*view->model(), QStringLiteral("[3/0]")).isValid());
        QVERIFY(findInView(*view->model(), QStringLiteral("[4/0]")).isValid());
        filter->clear();
        QVERIFY(findInView(*view->model(), QStringLiteral("[3/0]")).isValid());
    }

    void supersededLoadIsDropped()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        MainWindow w(MainWindow::Options { false });
        w.show();
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        const QString first = QFileInfo::exists(uitest::realRank1Trace()) ? uitest::realRank1Trace()
                                                                          : uitest::exampleTrace();
        w.openPaths({ first });
        w.openPaths({ uitest::exampleTrace() }); // supersedes the first
        QVERIFY(spy.wait(60000));
        QTest::qWait(200); // a stale result would arrive in this time
        QCOMPARE(spy.count(), 1);
        QCOMPARE(w.openPathList(), QStringList { uitest::exampleTrace() });
        QCOMPARE(w.trace()->compiles.size(), size_t(9));
    }

    void unreadablePath()
    {
        MainWindow w(MainWindow::Options { false });
        w.show();
        QStringList errors;
        const QString missing = QStringLiteral("/nonexistent/dynascope/trace.log");
        QVERIFY(!openAndWait(w, { missing }, &errors));
        QVERIFY(!errors.isEmpty());
        QVERIFY2(errors.join(QLatin1Char('\n')).contains(missing),
            qPrintable(errors.join(QLatin1Char('\n'))));
    }

    // A failed open keeps the trace that was open (issue 17): opening a missing file, and
    // Reload after the file was deleted, leave the trace, its selection and the title as they
    // were, and the status bar says what failed.
    void failedOpenKeepsTheTrace()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("example.log"));
        QVERIFY(QFile::copy(uitest::exampleTrace(), copy));
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(openAndWait(w, { copy }));
        const auto trace = w.trace();
        QVERIFY(w.selectCompile(QStringLiteral("[3/3]")));
        const uint32_t selected = w.selection()->current();
        const QString title = w.windowTitle();

        QStringList errors;
        const QString missing = dir.filePath(QStringLiteral("missing.log"));
        QVERIFY(!openAndWait(w, { missing }, &errors));
        QCOMPARE(w.trace(), trace);
        QCOMPARE(w.selection()->current(), selected);
        QCOMPARE(w.windowTitle(), title);
        QCOMPARE(w.openPathList(), QStringList { copy });
        QVERIFY2(w.statusBar()->currentMessage().contains(missing),
            qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(
            w.statusBar()->currentMessage().contains(QStringLiteral("still showing example.log")));

        // The Open dialogs start in the open trace's folder.
        QCOMPARE(w.lastFolder(), QFileInfo(copy).absolutePath());

        QVERIFY(QFile::remove(copy));
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.reload();
        QVERIFY(spy.wait(60000));
        QVERIFY(!spy.at(0).at(0).toBool());
        QCOMPARE(w.trace(), trace);
        QCOMPARE(w.trace()->compiles.size(), size_t(9));
        QVERIFY(w.inspector()->whyView()->toPlainText().startsWith(QStringLiteral("[3/3]")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
