// The timeline's pure geometry: time <-> pixel, zoom at a fixed anchor, pan limits, tick steps,
// visible-range binary search (including a long span that began off-screen), folding of spans
// under 3 px, and hit-testing.
#include "ui/models/format.h"
#include "ui/timeline/timelinegeometry.h"

#include <QTest>

#include <cmath>

using namespace dynascope::ui::timeline;
using dynascope::ui::axisLabels;

Q_DECLARE_METATYPE(std::vector<double>)

class TestTimelineGeometry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mapping_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("t");
        QTest::addColumn<double>("x");
        QTest::newRow("left edge") << 1000.0 << 2000.0 << 500.0 << 1000.0 << 0.0;
        QTest::newRow("right edge") << 1000.0 << 2000.0 << 500.0 << 2000.0 << 500.0;
        QTest::newRow("middle") << 1000.0 << 2000.0 << 500.0 << 1500.0 << 250.0;
        QTest::newRow("before the view") << 1000.0 << 2000.0 << 500.0 << 800.0 << -100.0;
        QTest::newRow("epoch-sized times")
            << 1.7e15 << 1.7e15 + 1e6 << 1000.0 << 1.7e15 + 2.5e5 << 250.0;
    }
    void mapping()
    {
        QFETCH(double, start);
        QFETCH(double, end);
        QFETCH(double, width);
        QFETCH(double, t);
        QFETCH(double, x);
        const TimeRange v { start, end };
        QCOMPARE(timeToX(v, width, t), x);
        QCOMPARE(xToTime(v, width, x), t);
    }

    void zoomKeepsAnchor_data()
    {
        QTest::addColumn<double>("anchor");
        QTest::addColumn<double>("factor");
        QTest::newRow("zoom in at a quarter") << 250.0 << 0.5;
        QTest::newRow("zoom in at the centre") << 500.0 << 0.8;
        QTest::newRow("zoom out a little") << 600.0 << 1.25;
    }
    void zoomKeepsAnchor()
    {
        QFETCH(double, anchor);
        QFETCH(double, factor);
        const TimeRange limits { -10000, 10000 };
        const TimeRange v { 0, 1000 };
        const TimeRange z = zoomAt(v, anchor, factor, limits);
        QCOMPARE(z.span(), 1000 * factor);
        // The anchor sits at the same pixel before and after.
        QCOMPARE(timeToX(z, 800, anchor), timeToX(v, 800, anchor));
    }

    void zoomLimits()
    {
        const TimeRange limits { 0, 1000 };
        // Zooming out past everything shows everything, not more.
        QCOMPARE(zoomAt({ 100, 200 }, 150, 100, limits), limits);
        // Zooming in stops at the minimum span.
        QCOMPARE(zoomAt({ 100, 200 }, 150, 1e-9, limits, 5).span(), 5.0);
        // Zooming out near an edge stays inside.
        const TimeRange z = zoomAt({ 0, 100 }, 10, 2, limits);
        QCOMPARE(z.start, 0.0);
        QCOMPARE(z.span(), 200.0);
    }

    void pan_data()
    {
        QTest::addColumn<double>("delta");
        QTest::addColumn<double>("start");
        QTest::newRow("right") << 100.0 << 300.0;
        QTest::newRow("left") << -100.0 << 100.0;
        QTest::newRow("stops at the left limit") << -1000.0 << 0.0;
        QTest::newRow("stops at the right limit") << 5000.0 << 900.0;
    }
    void pan()
    {
        QFETCH(double, delta);
        QFETCH(double, start);
        const TimeRange r = panBy({ 200, 300 }, delta, { 0, 1000 });
        QCOMPARE(r.start, start);
        QCOMPARE(r.span(), 100.0);
    }

    void ticks_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("span");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("step");
        QTest::newRow("1 s over 1000 px") << 1000.0 << 1e6 << 1000.0 << 200000.0;
        QTest::newRow("5.67 s over 700 px") << 1000.0 << 5.67e6 << 700.0 << 1e6;
        QTest::newRow("50 µs over 1000 px") << 1000.0 << 50.0 << 1000.0 << 10.0;
        QTest::newRow("2 h over 1200 px") << 1000.0 << 7.2e9 << 1200.0 << 1e9;
        // Epoch-scale times (2025 in microseconds): a double steps by 0.25 µs there, so a few
        // microseconds over a wide widget must neither loop (issue 17) nor repeat a tick.
        const double epoch = 1752877803260874.0;
        QTest::newRow("epoch, 5 µs over 6750 px") << epoch << 5.0 << 6750.0 << 1.0;
        QTest::newRow("epoch, 5 µs over 20000 px") << epoch << 5.0 << 20000.0 << 1.0;
        QTest::newRow("epoch, 1 ms over 1000 px") << epoch << 1000.0 << 1000.0 << 200.0;
        QTest::newRow("epoch, 1 min over 1400 px") << epoch << 60e6 << 1400.0 << 5e6;
        QTest::newRow("epoch + 0.5, 7 µs over 7000 px") << epoch + 0.5 << 7.0 << 7000.0 << 1.0;
    }
    void ticks()
    {
        QFETCH(double, start);
        QFETCH(double, span);
        QFETCH(double, width);
        QFETCH(double, step);
        const double s = tickStep(span, width, 115);
        QCOMPARE(s, step);
        QVERIFY(s >= 1); // trace times are whole microseconds
        QVERIFY(span / s * 115 <= width || s == 1); // labels at least 115 px apart
        const auto pos = tickPositions({ start, start + span }, s);
        QVERIFY(!pos.empty());
        QVERIFY(pos.front() >= start);
        QVERIFY(pos.back() <= start + span);
        QVERIFY(pos.size() <= static_cast<size_t>(span / s) + 1);
        for (size_t i = 1; i < pos.size(); ++i)
            QVERIFY2(pos[i] > pos[i - 1], "strictly increasing");
    }

    // Never more than the limit, and nothing at all for a view that would need more.
    void ticksBounded()
    {
        QVERIFY(tickPositions({ 0, 1e9 }, 1).empty());
        QVERIFY(tickPositions({ 1.7e15, 1.7e15 + 5 }, 0).empty());
        QVERIFY(tickPositions({ 1.7e15, 1.7e15 }, 1).empty());
        QCOMPARE(tickPositions({ 0, 10000 }, 1).size(), size_t(10001));
    }

    // One format per axis: no "15:30:02.000" beside "15:30:03"; a date where the day changes.
    void axisLabelFormats()
    {
        const int tz = -7 * 60;
        // 15:30:02 local (UTC-7) on 2025-07-18, in epoch microseconds.
        const double t0 = 1752877802000000.0;
        QCOMPARE(axisLabels({ t0, t0 + 1e6, t0 + 2e6 }, 1e6, tz),
            (QStringList { QStringLiteral("15:30:02"), QStringLiteral("15:30:03"),
                QStringLiteral("15:30:04") }));
        QCOMPARE(axisLabels({ t0, t0 + 5e5, t0 + 1e6 }, 5e5, tz),
            (QStringList { QStringLiteral("15:30:02.000"), QStringLiteral("15:30:02.500"),
                QStringLiteral("15:30:03.000") }));
        QCOMPARE(axisLabels({ t0, t0 + 200, t0 + 400 }, 200, tz),
            (QStringList { QStringLiteral("15:30:02.000"), QStringLiteral("+200 µs"),
                QStringLiteral("+400 µs") }));
        // Across midnight: 23:59:58 .. 00:00:02 local.
        const double m = t0 + (8 * 3600.0 + 29 * 60 + 56) * 1e6;
        const QStringList night = axisLabels({ m, m + 2e6, m + 4e6 }, 2e6, tz);
        QCOMPARE(night,
            (QStringList { QStringLiteral("2025-07-18 23:59:58"),
                QStringLiteral("2025-07-19 00:00:00"), QStringLiteral("00:00:02") }));
    }

    void visible_data()
    {
        QTest::addColumn<std::vector<double>>("starts");
        QTest::addColumn<std::vector<double>>("ends");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        const std::vector<double> s { 0, 10, 20, 30 }, e { 5, 15, 25, 35 };
        QTest::newRow("all") << s << e << -1.0 << 100.0 << 0 << 4;
        QTest::newRow("middle two") << s << e << 12.0 << 22.0 << 1 << 3;
        QTest::newRow("gap between spans") << s << e << 16.0 << 18.0 << 2 << 2;
        QTest::newRow("after everything") << s << e << 40.0 << 50.0 << 4 << 4;
        // A long span that began before the view is still found.
        QTest::newRow("long span from off-screen")
            << std::vector<double> { 0, 10, 20 } << std::vector<double> { 100, 12, 22 } << 50.0
            << 60.0 << 0 << 3;
        QTest::newRow("empty") << std::vector<double> {} << std::vector<double> {} << 0.0 << 1.0
                               << 0 << 0;
    }
    void visible()
    {
        QFETCH(std::vector<double>, starts);
        QFETCH(std::vector<double>, ends);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(int, first);
        QFETCH(int, last);
        const auto [f, l] = visibleSpans(starts, runningMax(ends), a, b);
        QCOMPARE(int(f), first);
        QCOMPARE(int(l), last);
    }

    void fold()
    {
        // Three 1-px spans touching, one wide span, then an isolated thin span.
        const std::vector<PixelSpan> in { { 10, 11, 0 }, { 12, 13, 1 }, { 14, 14.5, 2 },
            { 20, 60, 3 }, { 80, 80.2, 4 } };
        const auto out = foldSpans(in, 3.0);
        QCOMPARE(out.size(), size_t(3));
        QCOMPARE(out[0].count, 3u);
        QVERIFY(out[0].folded());
        QCOMPARE(out[0].x0, 10.0);
        QCOMPARE(out[0].x1, 14.5);
        QCOMPARE(out[1].item, 3u);
        QVERIFY(!out[1].folded());
        QCOMPARE(out[2].count, 1u);
        QCOMPARE(out[2].x1, 81.0); // drawn at least 1 px wide
        // Wide spans are never folded.
        QCOMPARE(foldSpans({ { 0, 10, 0 }, { 10, 20, 1 } }).size(), size_t(2));
    }

    void hit_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("index");
        QTest::newRow("inside first") << 5.0 << 0;
        QTest::newRow("inside second") << 25.0 << 1;
        QTest::newRow("in the gap, far") << 15.0 << -1;
        QTest::newRow("near the edge, within slop") << 11.5 << 0;
        QTest::newRow("thin span within slop") << 41.0 << 2;
        QTest::newRow("left of everything") << -10.0 << -1;
        QTest::newRow("right of everything") << 100.0 << -1;
    }
    void hit()
    {
        QFETCH(double, x);
        QFETCH(int, index);
        const std::vector<FoldedSpan> spans { { 0, 10, 0, 1 }, { 20, 30, 1, 1 },
            { 40, 40.5, 2, 1 } };
        QCOMPARE(hitTest(spans, x, 2.0), index);
    }
};

QTEST_APPLESS_MAIN(TestTimelineGeometry)
#include "tst_timelinegeometry.moc"
