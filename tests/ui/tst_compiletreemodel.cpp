// CompileTreeModel and its filter proxy under QAbstractItemModelTester, on the bundled example and
// (when ../shared/traces is there) on a real 15-compile rank log; plus the duration formatting the
// tree shows.
#include "ui/models/compilefilterproxy.h"
#include "ui/models/compiletreemodel.h"
#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/models/statusstyle.h"

#include "uitesthelpers.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QPalette>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

class TestCompileTreeModel : public QObject {
    Q_OBJECT

    // The row of the compile whose id displays as `id`, searched depth-first.
    static QModelIndex findId(
        const QAbstractItemModel& m, const QString& id, const QModelIndex& parent = {})
    {
        for (int r = 0; r < m.rowCount(parent); ++r) {
            const QModelIndex i = m.index(r, 0, parent);
            if (i.data().toString() == id
                && i.data(NodeKindRole).toInt() == int(CompileTreeModel::NodeKind::Compile))
                return i;
            const QModelIndex found = findId(m, id, i);
            if (found.isValid())
                return found;
        }
        return {};
    }
    static QString cell(const QModelIndex& row, int column)
    {
        return row.sibling(row.row(), column).data().toString();
    }

private Q_SLOTS:
    void example()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        auto trace = uitest::loadTrace(uitest::exampleTrace());
        QVERIFY(trace);
        CompileTreeModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(trace);

        QCOMPARE(model.rowCount(), 1); // one rank (file)
        const QModelIndex rank = model.index(0, 0);
        QCOMPARE(model.rowCount(rank), 5); // frames 0..4
        QCOMPARE(cell(rank, CompileTreeModel::FunctionColumn), QStringLiteral("9 compiles"));
        const QModelIndex scaleFrame = model.index(3, 0, rank);
        QCOMPARE(cell(scaleFrame, CompileTreeModel::FunctionColumn), QStringLiteral("scale"));
        QCOMPARE(model.rowCount(scaleFrame), 5); // [3/0] .. [3/4]
        QCOMPARE(cell(scaleFrame, CompileTreeModel::ReasonColumn), QStringLiteral("4 recompiles"));
        QCOMPARE(cell(scaleFrame, CompileTreeModel::StatusColumn), QStringLiteral("✓5  ↻4"));

        const QModelIndex c31 = findId(model, QStringLiteral("[3/1]"));
        QVERIFY(c31.isValid());
        // A recompile says so in its status, and its reason in a few words beside it; the whole
        // reason is the tooltip.
        QCOMPARE(cell(c31, CompileTreeModel::StatusColumn), QStringLiteral("↻ recompile"));
        QCOMPARE(cell(c31, CompileTreeModel::ReasonColumn), QStringLiteral("x.size(0) 32→64"));
        QVERIFY(c31.sibling(c31.row(), CompileTreeModel::ReasonColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("3/0: tensor 'x' size mismatch")));
        QCOMPARE(cell(findId(model, QStringLiteral("[3/2]")), CompileTreeModel::ReasonColumn),
            QStringLiteral("x.size(0) 64→128  (+1)"));
        QCOMPARE(cell(c31, CompileTreeModel::LocationColumn), QStringLiteral("train.py:25"));
        QCOMPARE(model.compileAt(c31), trace->compiles[model.compileAt(c31)].index);
        QCOMPARE(model.indexForCompile(model.compileAt(c31)), c31);

        // The graph break restarted [1/0]: its two attempts are children.
        const QModelIndex c10 = findId(model, QStringLiteral("[1/0]"));
        QCOMPARE(cell(c10, CompileTreeModel::StatusColumn), QStringLiteral("⚡ graph break"));
        QCOMPARE(model.rowCount(c10), 2);
        QCOMPARE(model.index(1, 0, c10).data().toString(), QStringLiteral("[1/0_1]"));
        // Attempt rows say what they are in the status, and keep the function in its column.
        QCOMPARE(cell(model.index(0, 0, c10), CompileTreeModel::StatusColumn),
            QStringLiteral("attempt 0 · restarted"));
        QCOMPARE(cell(model.index(1, 0, c10), CompileTreeModel::StatusColumn),
            QStringLiteral("attempt 1 · final"));
        QCOMPARE(
            cell(model.index(1, 0, c10), CompileTreeModel::FunctionColumn), QStringLiteral("step"));
        QCOMPARE(cell(c10, CompileTreeModel::GraphBreaksColumn), QStringLiteral("1"));

        const QModelIndex c40 = findId(model, QStringLiteral("[4/0]"));
        QCOMPARE(cell(c40, CompileTreeModel::StatusColumn), QStringLiteral("✕ error"));
        QCOMPARE(
            cell(c40, CompileTreeModel::ReasonColumn), QStringLiteral("BackendCompilerFailed"));
        // The vermillion hue, dark enough to read as text on the light rows (4.5:1).
        const QColor error = c40.sibling(c40.row(), CompileTreeModel::StatusColumn)
                                 .data(Qt::ForegroundRole)
                                 .value<QColor>();
        QCOMPARE(error.hue(), QColor(0xD5, 0x5E, 0x00).hue());
        QVERIFY(contrastRatio(error, QGuiApplication::palette().color(QPalette::Base)) >= 4.5);

        // Reloading resets cleanly (the tester watches the reset).
        model.setTrace(trace);
        model.setTrace(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void recursiveFilter()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        CompileTreeModel model;
        model.setTrace(uitest::loadTrace(uitest::exampleTrace()));
        CompileFilterProxy proxy;
        proxy.setCompileModel(&model);
        QAbstractItemModelTester tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        proxy.setFilterText(QStringLiteral("export_step"));
        QCOMPARE(proxy.rowCount(), 1);
        const QModelIndex rank = proxy.index(0, 0);
        QCOMPARE(proxy.rowCount(rank), 1); // only frame 4 is left
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, rank)), 1); // with [4/0]
        // The rank row counts what the filter leaves.
        QCOMPARE(cell(rank, CompileTreeModel::FunctionColumn), QStringLiteral("1 of 9 compiles"));

        proxy.setFilterText(QStringLiteral("size mismatch"));
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, proxy.index(0, 0))), 4); // [3/1]..[3/4]
        // "recompile" finds the recompiles, not every compile of a frame that has some.
        proxy.setFilterText(QStringLiteral("recompile"));
        QCOMPARE(model.matchCount(), size_t(4));
        const QModelIndex frame3 = proxy.index(0, 0, proxy.index(0, 0));
        QCOMPARE(proxy.rowCount(frame3), 4);
        QCOMPARE(proxy.index(0, 0, frame3).data().toString(), QStringLiteral("[3/1]"));
        // Words anywhere: a status and a function.
        proxy.setFilterText(QStringLiteral("graph break step"));
        QCOMPARE(model.matchCount(), size_t(1));
        proxy.setFilterText(QStringLiteral("no such thing"));
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(model.matchCount(), size_t(0));
        proxy.setFilterText(QString());
        QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 5);
        QCOMPARE(cell(proxy.index(0, 0), CompileTreeModel::FunctionColumn),
            QStringLiteral("9 compiles"));
    }

    void realRank1()
    {
        const QString path = uitest::realRank1Trace();
        SKIP_UNLESS_EXISTS(path);
        auto trace = uitest::loadTrace(path);
        QVERIFY(trace);
        CompileTreeModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(trace);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex rank = model.index(0, 0);
        QCOMPARE(rank.data().toString(), QStringLiteral("rank 1"));
        QCOMPARE(model.rowCount(rank), 1); // one frame: kernel
        const QModelIndex frame = model.index(0, 0, rank);
        QCOMPARE(model.rowCount(frame), 15);
        QCOMPARE(cell(frame, CompileTreeModel::FunctionColumn), QStringLiteral("kernel"));
        QCOMPARE(cell(frame, CompileTreeModel::ReasonColumn), QStringLiteral("14 recompiles"));

        const QModelIndex c03 = model.index(3, 0, frame);
        QCOMPARE(c03.data().toString(), QStringLiteral("[0/3]"));
        QCOMPARE(cell(c03, CompileTreeModel::ReasonColumn), QStringLiteral("x.size(0) 4→5  (+2)"));
        QCOMPARE(cell(c03, CompileTreeModel::StatusColumn), QStringLiteral("↻ recompile"));
        QCOMPARE(
            cell(model.index(0, 0, frame), CompileTreeModel::StatusColumn), QStringLiteral("✓ ok"));
        QCOMPARE(
            cell(c03, CompileTreeModel::LocationColumn), QStringLiteral("gen_many_frames.py:6"));
        QVERIFY(cell(c03, CompileTreeModel::DurationColumn).endsWith(QStringLiteral(" ms")));
    }

    // A value guard's reason names the earlier compile's value only: "factor value ≠2" (it read
    // "factor value 2→", an arrow to nothing, before).
    void valueGuardReasons_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("reason");
        QTest::newRow("constant") << QStringLiteral("guard_constant")
                                  << QStringLiteral("factor value ≠2");
        QTest::newRow("requires_grad")
            << QStringLiteral("guard_requires_grad") << QStringLiteral("x requires_grad ≠0");
        QTest::newRow("dtype") << QStringLiteral("guard_dtype")
                               << QStringLiteral("x dtype Float→Double");
    }
    void valueGuardReasons()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, reason);
        const QString path = uitest::scenarioTrace(scenario);
        SKIP_UNLESS_EXISTS(path);
        auto trace = uitest::loadTrace(path);
        QVERIFY(trace);
        CompileTreeModel model;
        model.setTrace(trace);
        const QModelIndex frame = model.index(0, 0, model.index(0, 0));
        QCOMPARE(model.rowCount(frame), 2);
        QCOMPARE(cell(model.index(1, 0, frame), CompileTreeModel::ReasonColumn), reason);
    }

    void formatDuration_data()
    {
        QTest::addColumn<double>("us");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0 µs");
        QTest::newRow("sub-microsecond") << 0.5 << QStringLiteral("0.5 µs");
        QTest::newRow("microseconds") << 812.0 << QStringLiteral("812 µs");
        QTest::newRow("milliseconds, 1 decimal") << 12345.0 << QStringLiteral("12.3 ms");
        QTest::newRow("milliseconds, 2 decimals") << 1500.0 << QStringLiteral("1.50 ms");
        QTest::newRow("seconds") << 2.41e6 << QStringLiteral("2.41 s");
        QTest::newRow("minutes") << 192e6 << QStringLiteral("3 min 12 s");
        QTest::newRow("hours") << 3723e6 << QStringLiteral("1 h 02 min");
        QTest::newRow("negative is not a duration") << -1.0 << QStringLiteral("–");
    }
    void formatDuration()
    {
        QFETCH(double, us);
        QFETCH(QString, text);
        QCOMPARE(ui::formatDuration(us), text);
    }
};

QTEST_MAIN(TestCompileTreeModel)
#include "tst_compiletreemodel.moc"
