// Folding idle gaps out of the time axis (ui/timeline/timefolding.h), as tables: which gaps fold
// (much longer than the bursts around them, never under the minimum), the map from trace time to
// display time and back (monotonic, inverse, true to scale outside folds), and how wide folds
// are drawn.
#include "ui/timeline/timefolding.h"

#include <QTest>

using namespace dynascope::ui::timeline;
using Busy = std::vector<std::pair<double, double>>;

class TestTimeFolding : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void gaps_data()
    {
        QTest::addColumn<Busy>("busy");
        QTest::addColumn<std::vector<double>>("gapStarts"); // the folded gaps' starts
        QTest::addColumn<double>("busyUs");
        const double s = 1e6;
        // Two runs eleven days apart, each a few minutes of compiles.
        QTest::newRow("two runs") << Busy { { 0, 200 * s }, { 950400 * s, 950500 * s } }
                                  << std::vector<double> { 200 * s } << 300 * s;
        // A gap of 15 s between bursts of 1 s: folds (>= 10x and >= 1 s).
        QTest::newRow("step recompile")
            << Busy { { 0, s }, { 16 * s, 17 * s } } << std::vector<double> { s } << 2 * s;
        // 5 s between bursts of 1 s and 5.5 s: not 10x the longer one.
        QTest::newRow("not much longer")
            << Busy { { 0, s }, { 6 * s, 11.5 * s } } << std::vector<double> {} << 6.5 * s;
        // Gaps under a second never fold, however short the bursts: one burst.
        QTest::newRow("under the minimum")
            << Busy { { 0, 10 }, { 0.5 * s, 0.5 * s + 10 }, { 0.9 * s, 0.9 * s + 10 } }
            << std::vector<double> {} << 0.9 * s + 10;
        // Overlapping and unsorted intervals merge; instants count as bursts.
        QTest::newRow("unsorted, nested, instants")
            << Busy { { 100 * s, 100 * s }, { 0, 2 * s }, { 0.5 * s, 1 * s }, { 50 * s, 51 * s } }
            << std::vector<double> { 2 * s, 51 * s } << 3 * s;
        // NaN and reversed intervals are ignored.
        QTest::newRow("bad intervals")
            << Busy { { NAN, 1 }, { 5, 2 }, { 0, 1 } } << std::vector<double> {} << 1.0;
        QTest::newRow("nothing") << Busy {} << std::vector<double> {} << 0.0;
    }

    void gaps()
    {
        QFETCH(Busy, busy);
        QFETCH(std::vector<double>, gapStarts);
        QFETCH(double, busyUs);
        const IdleGaps found = findIdleGaps(busy);
        std::vector<double> starts;
        for (const IdleGap& g : found.gaps)
            starts.push_back(g.start);
        QCOMPARE(starts, gapStarts);
        QCOMPARE(found.busyUs, busyUs);
    }

    void mapping()
    {
        // Folds at [10, 110] and [200, 1200] trace µs, each drawn 5 µs wide.
        const TimeFolding fold({ { 10, 110 }, { 200, 1200 } }, 5);
        QCOMPARE(fold.folds().size(), size_t(2));
        QCOMPARE(fold.toDisplay(0), 0.0);
        QCOMPARE(fold.toDisplay(10), 10.0);
        QCOMPARE(fold.toDisplay(60), 12.5); // halfway through the first fold
        QCOMPARE(fold.toDisplay(110), 15.0);
        QCOMPARE(fold.toDisplay(150), 55.0); // to scale between folds
        QCOMPARE(fold.toDisplay(200), 105.0);
        QCOMPARE(fold.toDisplay(1200), 110.0);
        QCOMPARE(fold.toDisplay(1300), 210.0);
        // Inverse and increasing over a sweep.
        double last = -1;
        for (double t = 0; t <= 1500; t += 0.5) {
            const double d = fold.toDisplay(t);
            QVERIFY(d >= last);
            last = d;
            QVERIFY(std::abs(fold.toTrace(d) - t) < 1e-9);
        }
        QCOMPARE(fold.hiddenBetween(0, 210), 1300.0 - 210.0);
        QCOMPARE(fold.hiddenBetween(20, 100), 0.0);
        QVERIFY(fold.foldAt(12) == &fold.folds()[0]);
        QVERIFY(fold.foldAt(50) == nullptr);
        QVERIFY(fold.foldAt(107) == &fold.folds()[1]);
        // Epoch-scale times stay exact outside folds (whole microseconds).
        const double e = 1.7e15;
        const TimeFolding epoch({ { e + 1e6, e + 1e12 } }, 3e4);
        QCOMPARE(epoch.toDisplay(e + 5e11 + 1e12), e + 1e6 + 3e4 + 5e11);
        QCOMPARE(epoch.toTrace(epoch.toDisplay(e + 2e12)), e + 2e12);
    }

    void badFolds()
    {
        // Empty and overlapping gaps are not folds; a fold is never wider than its gap.
        const TimeFolding fold({ { 5, 5 }, { 10, 20 }, { 15, 30 }, { 40, 41 } }, 4);
        QCOMPARE(fold.folds().size(), size_t(2));
        QCOMPARE(fold.folds()[0].width, 4.0);
        QCOMPARE(fold.folds()[1].width, 1.0);
        QVERIFY(TimeFolding().empty());
        QCOMPARE(TimeFolding().toDisplay(123.0), 123.0);
    }

    void widths()
    {
        QCOMPARE(foldWidthFor(1000, 0), 0.0);
        QCOMPARE(foldWidthFor(1000, 1), 120.0); // 12% of the busy time
        QCOMPARE(foldWidthFor(1000, 100), 1000.0 / 3 / 100); // all of them: a third of it
        QCOMPARE(foldWidthFor(0, 2), 1000.0); // only instants: 1 ms
    }
};

QTEST_APPLESS_MAIN(TestTimeFolding)
#include "tst_timefolding.moc"
