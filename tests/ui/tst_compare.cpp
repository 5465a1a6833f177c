// Compare With (ui/compare): ChangesModel under QAbstractItemModelTester on a real pair (the
// print scenario without and with its print), the comparison in the real window (B's timeline
// shown, the Changes dock filled), a click on a change that selects the frame's compile in both
// runs, a failed comparison, and a new trace ending the comparison.
#include "ui/compare/changesmodel.h"
#include "ui/compare/comparecontroller.h"
#include "ui/compileselection.h"
#include "ui/mainwindow.h"
#include "ui/timeline/timelineview.h"

#include "core/load/loader.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;

namespace {
const QString kRec = QStringLiteral(DYNASCOPE_SOURCE_DIR "/tests/scenarios/recorded/torch-2.13.0");
}

class TestCompare : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    void modelOnARealPair()
    {
        auto a = load({ QString(kRec + u"/graph_break_print/without_print"_qs).toStdString() });
        auto b = load({ QString(kRec + u"/graph_break_print"_qs).toStdString() });
        QVERIFY(a.trace && b.trace);
        ChangesModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiff(
            diffTraces({ *a.trace, findFindings(*a.trace) }, { *b.trace, findFindings(*b.trace) }));
        QCOMPARE(model.rowCount(), 4); // a finding, the break, a guard, the resume frame
        QCOMPARE(model.index(0, ChangesModel::FrameColumn).data().toString(), u"(the runs)"_qs);
        QCOMPARE(
            model.index(1, ChangesModel::KindColumn).data().toString(), u"✗ graph_break_added"_qs);
        QCOMPARE(
            model.index(1, ChangesModel::BColumn).data().toString(), u"graph_break_print.py:17"_qs);
        QCOMPARE(model.index(3, ChangesModel::StatusColumn).data().toString(), u"only_b"_qs);
        model.setDiff({});
        QCOMPARE(model.rowCount(), 0);
    }

    void compareInTheWindow()
    {
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        w.openPaths({ kRec + u"/dynamic_false"_qs });
        QVERIFY(loaded.wait(60000));
        CompareController* cmp = w.compare();
        QVERIFY(!cmp->active());
        QVERIFY(!cmp->dock()->isVisible());

        // A path that is not a trace: said, nothing shown.
        QSignalSpy done(cmp, &CompareController::compareFinished);
        cmp->compareWith(kRec + u"/MANIFEST.json"_qs);
        QVERIFY(done.wait(60000));
        QVERIFY(!done.takeFirst().at(0).toBool());
        QVERIFY(!cmp->active());

        cmp->compareWith(kRec + u"/dynamic_true"_qs);
        QVERIFY(done.wait(60000));
        QVERIFY(done.takeFirst().at(0).toBool());
        QVERIFY(cmp->active());
        QVERIFY(cmp->dock()->isVisible());
        QVERIFY(cmp->timelineB()->isVisible());
        QVERIFY(cmp->model()->rowCount() >= 5);

        // A click on the frame's first change selects `scale`'s first compile in A and in B.
        int row = 0;
        while (!cmp->model()->row(row).frame)
            ++row;
        QTreeView* view = cmp->view();
        const QRect rect = view->visualRect(view->model()->index(row, ChangesModel::TextColumn));
        QVERIFY(!rect.isEmpty());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        const uint32_t a = w.selection()->current();
        const uint32_t b = cmp->selectionB()->current();
        QVERIFY(a != kNone && b != kNone);
        QCOMPARE(QString::fromStdString(w.trace()->compiles[a].coName), u"scale"_qs);
        QCOMPARE(QString::fromStdString(cmp->traceB()->compiles[b].id.display()), u"[0/0]"_qs);

        // Another trace ends the comparison.
        w.openPaths({ kRec + u"/guard_dtype"_qs });
        QVERIFY(loaded.wait(60000));
        QVERIFY(!cmp->active());
        QVERIFY(!cmp->dock()->isVisible());
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
