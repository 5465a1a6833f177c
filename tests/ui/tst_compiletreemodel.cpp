// CompileTreeModel and its filter proxy under QAbstractItemModelTester, on the bundled example and
// (when ../shared/traces is there) on a real 15-compile rank log; plus the duration formatting the
// tree shows.
#include "ui/models/compiletreemodel.h"
#include "ui/models/format.h"
#include "ui/models/itemroles.h"

#include "uitesthelpers.h"

#include <QAbstractItemModelTester>
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
        QCOMPARE(cell(scaleFrame, CompileTreeModel::RecompileReasonsColumn),
            QStringLiteral("4 recompiles"));

        const QModelIndex c31 = findId(model, QStringLiteral("[3/1]"));
        QVERIFY(c31.isValid());
        QVERIFY2(cell(c31, CompileTreeModel::RecompileReasonsColumn)
                     .startsWith(QStringLiteral("3/0: tensor 'x' size mismatch")),
            qPrintable(cell(c31, CompileTreeModel::RecompileReasonsColumn)));
        QCOMPARE(cell(c31, CompileTreeModel::LocationColumn), QStringLiteral("train.py:25"));
        QCOMPARE(model.compileAt(c31), trace->compiles[model.compileAt(c31)].index);
        QCOMPARE(model.indexForCompile(model.compileAt(c31)), c31);

        // The graph break restarted [1/0]: its two attempts are children.
        const QModelIndex c10 = findId(model, QStringLiteral("[1/0]"));
        QCOMPARE(cell(c10, CompileTreeModel::StatusColumn), QStringLiteral("⚡ graph break"));
        QCOMPARE(model.rowCount(c10), 2);
        QCOMPARE(model.index(1, 0, c10).data().toString(), QStringLiteral("[1/0_1]"));
        QCOMPARE(cell(c10, CompileTreeModel::GraphBreaksColumn), QStringLiteral("1"));

        const QModelIndex c40 = findId(model, QStringLiteral("[4/0]"));
        QCOMPARE(cell(c40, CompileTreeModel::StatusColumn), QStringLiteral("✕ error"));
        QCOMPARE(c40.sibling(c40.row(), CompileTreeModel::StatusColumn)
                     .data(Qt::ForegroundRole)
                     .value<QColor>(),
            QColor(0xD5, 0x5E, 0x00));

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
        QSortFilterProxyModel proxy;
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterKeyColumn(-1);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        proxy.setFilterFixedString(QStringLiteral("export_step"));
        QCOMPARE(proxy.rowCount(), 1);
        const QModelIndex rank = proxy.index(0, 0);
        QCOMPARE(proxy.rowCount(rank), 1); // only frame 4 is left
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, rank)), 1); // with [4/0]

        proxy.setFilterFixedString(QStringLiteral("size mismatch"));
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, proxy.index(0, 0))), 4); // [3/1]..[3/4]
        proxy.setFilterFixedString(QString());
        QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 5);
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
        QCOMPARE(
            cell(frame, CompileTreeModel::RecompileReasonsColumn), QStringLiteral("14 recompiles"));

        const QModelIndex c03 = model.index(3, 0, frame);
        QCOMPARE(c03.data().toString(), QStringLiteral("[0/3]"));
        const QString reason = cell(c03, CompileTreeModel::RecompileReasonsColumn);
        QVERIFY2(reason.startsWith(QStringLiteral("0/2: tensor 'x' size mismatch at index 0")),
            qPrintable(reason));
        QCOMPARE(cell(c03, CompileTreeModel::StatusColumn), QStringLiteral("✓ ok"));
        QCOMPARE(
            cell(c03, CompileTreeModel::LocationColumn), QStringLiteral("gen_many_frames.py:6"));
        QVERIFY(cell(c03, CompileTreeModel::DurationColumn).endsWith(QStringLiteral(" ms")));
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
