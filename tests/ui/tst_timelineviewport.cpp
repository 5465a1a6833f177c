// TimelineViewport without a widget: zoom around a point keeps that point's time under it, pan and
// zoom clamp at the limits (the bounds plus 12 px of room each side), fit all / fit a span /
// reveal a compile, back and forward after zooms (a gesture is one entry; a pause starts another),
// time <-> pixel round trips, folded idle gaps (a day folded to 1 ms), live updates and
// relayouts, degenerate content (zero length, one compile, no content, no width) and epoch-scale
// times over days. The numbers are worked out in the comments; a 1024 px width with bounds of
// 1,000,000 µs gives limits of exactly [-12000, 1012000] (margin = span * 12 / (1024 - 24)).
#include "ui/timeline/timelineconstants.h"
#include "ui/timeline/timelineviewport.h"

#include <QTest>

#include <cmath>

using namespace dynascope;
using namespace dynascope::ui::timeline;
using Step = TimelineViewport::Step;

namespace dynascope::ui::timeline {
char* toString(const TimeRange& r)
{
    return QTest::toString(
        QStringLiteral("[%1, %2]").arg(r.start, 0, 'f', 3).arg(r.end, 0, 'f', 3));
}
} // namespace dynascope::ui::timeline

namespace {

// Bounds [0, 1e6] on 1024 px: limits [-12000, 1012000], 1000 µs per pixel when fitted.
struct Fixture {
    TimelineViewport vp;
    int64_t now = 0; // the fake clock, ms
    Fixture()
    {
        vp.setClock([this] { return now; });
        vp.setWidth(1024);
        vp.setContent({ 0, 1e6 }, {});
        vp.fitAll();
        vp.clearHistory();
    }
};

const TimeRange kLimits { -12000, 1012000 };

} // namespace

class TestTimelineViewport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void limitsLeaveRoomForGlyphs()
    {
        Fixture f;
        QCOMPARE(f.vp.limits(), kLimits);
        QCOMPARE(f.vp.view(), kLimits);
        // 12 px of 1024 at 1000 µs per pixel.
        QCOMPARE(f.vp.xOf(0), 12.0);
        QCOMPARE(f.vp.xOf(1e6), 1012.0);
        // No room for a margin on a 24 px strip: the bounds themselves.
        f.vp.setWidth(24);
        QCOMPARE(f.vp.limits(), (TimeRange { 0, 1e6 }));
    }

    void zoomKeepsTheTimeUnderTheCursor()
    {
        Fixture f;
        // x = 256 is a quarter of the way: -12000 + 256 * 1000 = 244000.
        QCOMPARE(f.vp.timeAt(256), 244000.0);
        QVERIFY(f.vp.zoomAroundX(256, 0.5));
        // Half the span (512000), the anchor still a quarter of the way.
        QCOMPARE(f.vp.view(), (TimeRange { 116000, 628000 }));
        QCOMPARE(f.vp.timeAt(256), 244000.0);
        QCOMPARE(f.vp.xOf(244000), 256.0);
        // Zooming out by the same factor comes back exactly.
        QVERIFY(f.vp.zoomAroundX(256, 2.0));
        QCOMPARE(f.vp.view(), kLimits);
        // Further out stops at the limits: nothing moves.
        QVERIFY(!f.vp.zoomAroundX(256, 4.0));
        QCOMPARE(f.vp.view(), kLimits);
        // Far in: the span stops at kMinSpanUs (5 µs), the anchor still under x = 256.
        QVERIFY(f.vp.zoomAroundX(256, 1e-9));
        QCOMPARE(f.vp.view(), (TimeRange { 243998.75, 244003.75 }));
        QCOMPARE(f.vp.view().span(), ui::kMinSpanUs);
        QCOMPARE(f.vp.timeAt(256), 244000.0);
        // Zooming out near an edge: the view is pushed back inside the limits (the anchor moves).
        f.vp.moveTo({ 900000, 1000000 }, Step::NewPlace);
        QVERIFY(f.vp.zoomAround(950000, 4.0)); // [750000, 1150000] would pass the end
        QCOMPARE(f.vp.view(), (TimeRange { 612000, 1012000 }));
    }

    void panClampsAtTheEnds()
    {
        Fixture f;
        f.vp.moveTo({ 116000, 628000 }, Step::NewPlace);
        QVERIFY(f.vp.pan(-1.0)); // a whole span left: stops at the start
        QCOMPARE(f.vp.view(), (TimeRange { -12000, 500000 }));
        QVERIFY(!f.vp.pan(-0.1)); // already there
        QCOMPARE(f.vp.view(), (TimeRange { -12000, 500000 }));
        QVERIFY(f.vp.pan(10.0));
        QCOMPARE(f.vp.view(), (TimeRange { 500000, 1012000 }));
        QVERIFY(!f.vp.pan(0.1));
        // A drag of 100 px to the right shows earlier times: 100 / 1024 of 512000 = 50000.
        QVERIFY(f.vp.panPixels(100));
        QCOMPARE(f.vp.view(), (TimeRange { 450000, 962000 }));
        QCOMPARE(f.vp.view().span(), 512000.0); // panning never changes the span
        // Panning the fitted view does nothing.
        f.vp.fitAll();
        QVERIFY(!f.vp.pan(0.5));
        QVERIFY(!f.vp.panPixels(-300));
    }

    void fitAllFitSpanReveal()
    {
        Fixture f;
        QVERIFY(f.vp.moveTo({ 1000, 2000 }, Step::NewPlace));
        QVERIFY(f.vp.fitAll());
        QCOMPARE(f.vp.view(), kLimits);
        QVERIFY(!f.vp.fitAll());
        // A tenth of the length on each side.
        QVERIFY(f.vp.fitSpan(400000, 500000, 100000));
        QCOMPARE(f.vp.view(), (TimeRange { 390000, 510000 }));
        // At least kMinSpanUs on each side of a 1 µs span.
        QVERIFY(f.vp.fitSpan(1000, 1001, 1));
        QCOMPARE(f.vp.view(), (TimeRange { 995, 1006 }));
        // Near the end: shifted back inside the limits, same width.
        QVERIFY(f.vp.fitSpan(1010000, 1012000, 2000));
        QCOMPARE(f.vp.view(), (TimeRange { 1009600, 1012000 }));

        // Reveal: a 10 µs compile in a 100000 µs view is 0.1 px wide: centred, zoomed to 100 µs
        // (8 x 10 = 80 is less than 20 x kMinSpanUs).
        f.vp.moveTo({ 0, 100000 }, Step::NewPlace);
        QVERIFY(f.vp.reveal(50000, 50010, 10, false));
        QCOMPARE(f.vp.view(), (TimeRange { 49955, 50055 }));
        // The same compile selected by a click (keepZoom): it is visible, nothing moves.
        f.vp.moveTo({ 0, 100000 }, Step::NewPlace);
        QVERIFY(!f.vp.reveal(50000, 50010, 10, true));
        QCOMPARE(f.vp.view(), (TimeRange { 0, 100000 }));
        // Off the view and wide enough: centred at the same zoom.
        QVERIFY(f.vp.reveal(500000, 520000, 20000, false));
        QCOMPARE(f.vp.view(), (TimeRange { 460000, 560000 }));
        // Longer than the view: zoomed out to 1.2 x its length (240000).
        QVERIFY(f.vp.reveal(100000, 300000, 200000, false));
        QCOMPARE(f.vp.view(), (TimeRange { 80000, 320000 }));
        // Visible and 853 px wide: left as it is.
        QVERIFY(!f.vp.reveal(100000, 300000, 200000, false));
    }

    void historyAfterZooms()
    {
        Fixture f;
        QVERIFY(!f.vp.canBack());
        const TimeRange a { 100000, 300000 };
        QVERIFY(f.vp.moveTo(a, Step::NewPlace)); // remembers the fitted view
        QCOMPARE(f.vp.backCount(), size_t(1));
        // Three wheel steps 100 ms apart: one gesture, one entry (the place before it).
        for (int i = 0; i < 3; ++i) {
            f.now += 100;
            QVERIFY(f.vp.zoomAroundX(512, 0.8));
        }
        QCOMPARE(f.vp.backCount(), size_t(2));
        const TimeRange z3 = f.vp.view();
        // 200000 x 0.8^3 = 102400 around the centre (200000).
        QCOMPARE(z3, (TimeRange { 148800, 251200 }));
        // A pause longer than kGesturePauseMs: the next step is a new entry.
        f.now += ui::kGesturePauseMs + 1;
        QVERIFY(f.vp.zoomAroundX(512, 0.5));
        const TimeRange z4 = f.vp.view();
        QCOMPARE(z4, (TimeRange { 174400, 225600 }));
        QCOMPARE(f.vp.backCount(), size_t(3));

        QVERIFY(f.vp.back());
        QCOMPARE(f.vp.view(), z3);
        QVERIFY(f.vp.back());
        QCOMPARE(f.vp.view(), a);
        QVERIFY(f.vp.back());
        QCOMPARE(f.vp.view(), kLimits);
        QVERIFY(!f.vp.canBack());
        QVERIFY(!f.vp.back());
        QVERIFY(f.vp.forward());
        QCOMPARE(f.vp.view(), a);
        QVERIFY(f.vp.forward());
        QCOMPARE(f.vp.view(), z3);
        QVERIFY(f.vp.forward());
        QCOMPARE(f.vp.view(), z4);
        QVERIFY(!f.vp.canForward());

        // Back, then a new place: the forward entries are gone.
        QVERIFY(f.vp.back());
        QVERIFY(f.vp.canForward());
        QVERIFY(f.vp.fitAll());
        QVERIFY(!f.vp.canForward());
        QCOMPARE(f.vp.here(), (Place { kLimits, kNone }));
    }

    void historyKeepsTheSelection()
    {
        Fixture f;
        // A selection is a place: the view stays, the compile changes.
        f.vp.leavePlace();
        f.vp.setCompile(7);
        // Revealing it without recording (the selection pushed its own place).
        f.vp.setRecording(false);
        QVERIFY(f.vp.reveal(500000, 500010, 10, false));
        f.vp.setRecording(true);
        QCOMPARE(f.vp.backCount(), size_t(1));
        const TimeRange shown = f.vp.view();
        QVERIFY(f.vp.back());
        QCOMPARE(f.vp.here(), (Place { kLimits, kNone }));
        QVERIFY(f.vp.forward());
        QCOMPARE(f.vp.here(), (Place { shown, 7u }));
        // Unrecorded moves leave no trace.
        f.vp.setRecording(false);
        QVERIFY(f.vp.zoomAroundX(10, 0.5));
        f.vp.setRecording(true);
        QVERIFY(!f.vp.canForward());
        QCOMPARE(f.vp.backCount(), size_t(1));
    }

    void mappingRoundTrips()
    {
        Fixture f;
        f.vp.moveTo({ 116000, 628000 }, Step::NewPlace); // 500 µs per pixel
        QCOMPARE(f.vp.xOf(116000), 0.0);
        QCOMPARE(f.vp.xOf(628000), 1024.0);
        QCOMPARE(f.vp.xOf(372000), 512.0);
        QCOMPARE(f.vp.xOf(100000), -32.0); // off to the left
        QCOMPARE(f.vp.timeAt(1), 116500.0);
        for (double x : { 0.0, 1.0, 333.5, 700.25, 1024.0, -50.0, 2000.0 })
            QCOMPARE(f.vp.xOf(f.vp.timeAt(x)), x);
        for (double t : { 116000.0, 116001.0, 300000.5, 627999.0 })
            QCOMPARE(f.vp.timeAt(f.vp.xOf(t)), t);
        // Without folds trace time is display time.
        QCOMPARE(f.vp.traceView(), f.vp.view());
        QCOMPARE(f.vp.xOfTrace(372000), 512.0);
    }

    void foldedGaps()
    {
        // One idle day after 1 s of compiles, folded to 1000 display µs, then 0.6 s more.
        const double day = 86400e6;
        const IdleGap gap { 1e6, 1e6 + day };
        const TimeFolding folding({ gap }, 1000);
        QCOMPARE(folding.folds().size(), size_t(1));
        TimelineViewport vp;
        vp.setWidth(1600);
        vp.setContent({ 0, 1.6e6 }, folding);
        vp.place({ 0, 1.6e6 }); // 1000 display µs per pixel
        // Before the gap display time is trace time; after it, a day less 1000 µs earlier.
        QCOMPARE(vp.toDisplay(500000), 500000.0);
        QCOMPARE(vp.toDisplay(gap.end + 100), 1001100.0);
        QCOMPARE(vp.toTrace(1001100), gap.end + 100);
        // Inside the gap: proportionally inside the fold.
        QCOMPARE(vp.toDisplay(gap.start + day / 2), 1000500.0);
        QCOMPARE(vp.toTrace(1000500), gap.start + day / 2);
        for (double t : { 0.0, 999999.0, gap.end, gap.end + 599000 })
            QCOMPARE(vp.toTrace(vp.toDisplay(t)) - t, 0.0);
        // Inside the fold a display µs stands for 86.4 s: a round trip there keeps 0.01 µs.
        const double inside = gap.start + 1e6;
        QVERIFY(std::abs(vp.toTrace(vp.toDisplay(inside)) - inside) < 0.01);
        // Pixels: the fold is one pixel wide (x 1000 to 1001) though it hides a day.
        QCOMPARE(vp.xOfTrace(gap.start), 1000.0);
        QCOMPARE(vp.xOfTrace(gap.end), 1001.0);
        QCOMPARE(vp.xOfTrace(gap.end + 100), 1001.1);
        // The view in trace time spans the day; the axis ticks stretches on either side.
        QCOMPARE(vp.traceView(), (TimeRange { 0, gap.end + 599000 }));
        const auto stretches = vp.stretches();
        QCOMPARE(stretches.size(), size_t(2));
        QCOMPARE(stretches[0], (TimeRange { 0, 1e6 }));
        QCOMPARE(stretches[1], (TimeRange { 1001000, 1.6e6 }));
        QCOMPARE(vp.folding().hiddenBetween(0, 1.6e6), day - 1000);
        // A trace range across the gap round-trips exactly.
        const TimeRange across { 200000, gap.end + 300000 };
        QVERIFY(vp.moveToTrace(across, Step::NewPlace));
        QCOMPARE(vp.view(), (TimeRange { 200000, 1301000 }));
        QCOMPARE(vp.traceView(), across);
        // A view inside one stretch has one stretch.
        vp.moveTo({ 1100000, 1200000 }, Step::NewPlace);
        QCOMPARE(vp.stretches().size(), size_t(1));
    }

    void relayoutKeepsTheTraceRange()
    {
        const double day = 86400e6;
        const IdleGap gap { 1e6, 1e6 + day };
        // Unfolded: the day to scale.
        TimelineViewport vp;
        vp.setWidth(1024);
        vp.setContent({ 0, 1.6e6 + day }, {});
        const TimeRange shown { gap.end + 100000, gap.end + 300000 };
        vp.moveTo(shown, Step::NewPlace);
        // Folded: display time moves, trace time stays; no history entry.
        vp.relayout({ 0, 1.601e6 }, TimeFolding({ gap }, 1000), false);
        QCOMPARE(vp.traceView(), shown);
        QCOMPARE(vp.view(), (TimeRange { 1101000, 1301000 }));
        QCOMPARE(vp.backCount(), size_t(1));
        // Trace time itself changed (ranks aligned): everything, and no history.
        vp.relayout({ 0, 500000 }, {}, true);
        QCOMPARE(vp.view(), vp.limits());
        QVERIFY(!vp.canBack());
    }

    void liveUpdatesFollow()
    {
        // Showing everything: everything of the newer content.
        Fixture f;
        f.vp.setRecording(false);
        QVERIFY(f.vp.follow(TimeRange { 0, 2e6 }, {}));
        // margin = 2e6 * 12 / 1000 = 24000
        QCOMPARE(f.vp.view(), (TimeRange { -24000, 2024000 }));
        QVERIFY(!f.vp.canBack()); // a live update is not a place
        // Showing the end: the same width at the new end.
        Fixture g;
        g.vp.moveTo({ 900000, 1012000 }, Step::NewPlace);
        QVERIFY(g.vp.follow(TimeRange { 0, 2e6 }, {}));
        QCOMPARE(g.vp.view(), (TimeRange { 1912000, 2024000 }));
        // Elsewhere: stays.
        Fixture h;
        h.vp.moveTo({ 100000, 200000 }, Step::NewPlace);
        QVERIFY(!h.vp.follow(TimeRange { 0, 2e6 }, {}));
        QCOMPARE(h.vp.view(), (TimeRange { 100000, 200000 }));
    }

    void degenerateContent()
    {
        // A zero-length trace: nothing to zoom or pan, and no NaN anywhere.
        TimelineViewport vp;
        vp.setWidth(1024);
        vp.setContent({ 5e6, 5e6 }, {});
        QCOMPARE(vp.limits(), (TimeRange { 5e6, 5e6 }));
        QVERIFY(vp.fitAll());
        QCOMPARE(vp.view(), (TimeRange { 5e6, 5e6 }));
        QCOMPARE(vp.xOf(5e6), 0.0);
        QCOMPARE(vp.timeAt(500), 5e6);
        QVERIFY(!vp.zoomAroundX(500, 0.5));
        QVERIFY(!vp.zoomAroundX(500, 2));
        QVERIFY(!vp.pan(0.3));
        QVERIFY(!vp.panPixels(40));
        QVERIFY(std::isfinite(vp.view().start) && std::isfinite(vp.view().end));

        // One 10 µs compile, as the layout pads it (50 µs each side): bounds [950, 1060],
        // margin 110 * 12 / 1000 = 1.32.
        vp.setContent({ 950, 1060 }, {});
        QVERIFY(vp.fitAll());
        QCOMPARE(vp.view().start, 948.68);
        QCOMPARE(vp.view().end, 1061.32);
        QVERIFY(!vp.reveal(1000, 1010, 10, false)); // 91 px wide: left alone
        QVERIFY(vp.zoomAroundX(512, 0.01));
        QCOMPARE(vp.view().span(), ui::kMinSpanUs);
        QCOMPARE(vp.timeAt(512), 1005.0);
        QVERIFY(vp.fitSpan(1000, 1010, 10));
        QCOMPARE(vp.view(), (TimeRange { 995, 1015 }));

        // No width: one pixel, so a drag cannot divide by zero.
        vp.setWidth(0);
        QCOMPARE(vp.width(), 1.0);
        QVERIFY(vp.panPixels(1)); // a pixel is the whole view (20 µs)
        QCOMPARE(vp.view(), (TimeRange { 975, 995 }));

        // No content (no trace, or no timing): nothing is clamped, nothing folded.
        TimelineViewport none;
        QCOMPARE(none.view(), TimeRange {});
        QVERIFY(none.moveTo({ -5, 1e20 }, Step::NewPlace));
        QCOMPARE(none.view(), (TimeRange { -5, 1e20 }));
        QVERIFY(none.fitAll());
        QCOMPARE(none.view(), TimeRange {});
        QCOMPARE(none.toTrace(123.0), 123.0);
    }

    void epochTimesOverDays()
    {
        // Three days of a trace at epoch microseconds (1.7e15: a double resolves 0.25 µs there).
        const double e = 1.7e15, day = 86400e6;
        TimelineViewport vp;
        int64_t now = 0;
        vp.setClock([&now] { return now; });
        vp.setWidth(1920);
        vp.setContent({ e, e + 3 * day }, {});
        vp.fitAll();
        const double t = e + 1.5 * day + 123456; // a whole microsecond
        const double x = vp.xOf(t);
        // Wheel steps (0.8 each) at the pixel of t, one second apart (each its own entry), down
        // to the 5 µs minimum. A double holds times there in steps of 0.25 µs, so a view's start
        // rounds by up to half of that: each step keeps the time under the cursor to within one
        // such step, and after the hundred-odd steps it has wandered a few of them at most.
        int steps = 0;
        double worstStep = 0;
        std::vector<TimeRange> before; // the view each step left
        while (vp.view().span() > ui::kMinSpanUs && steps < 400) {
            now += 1000;
            before.push_back(vp.view());
            const double under = vp.timeAt(x);
            vp.zoomAroundX(x, 0.8);
            worstStep = std::max(worstStep, std::abs(vp.timeAt(x) - under));
            ++steps;
        }
        QCOMPARE(vp.view().span(), ui::kMinSpanUs);
        QVERIFY2(steps > 100 && steps < 200, qPrintable(QString::number(steps)));
        QVERIFY2(worstStep <= 0.25, qPrintable(QString::number(worstStep, 'f', 3)));
        QVERIFY(vp.view().start <= t && t <= vp.view().end);
        QVERIFY2(std::abs(vp.timeAt(x) - t) <= 2.0,
            qPrintable(QString::number(vp.timeAt(x) - t, 'f', 3)));
        // The history keeps the last 100 places; back through them, each exactly as it was.
        QCOMPARE(vp.backCount(), size_t(100));
        for (int i = steps - 1; i >= steps - 100; --i) {
            QVERIFY(vp.back());
            QCOMPARE(vp.view(), before[static_cast<size_t>(i)]);
        }
        QVERIFY(!vp.canBack());

        // A 1 ms view: each microsecond is 1.92 px, exactly.
        vp.moveTo({ t - 500, t + 500 }, Step::NewPlace);
        QCOMPARE(vp.view(), (TimeRange { t - 500, t + 500 }));
        QCOMPARE(vp.xOf(t), 960.0);
        QCOMPARE(vp.xOf(t + 1) - vp.xOf(t), 1.92);
        // Epoch-sized values compare fuzzily (to 1e-12 of 1.7e15): compare the differences.
        QCOMPARE(vp.timeAt(960) - t, 0.0);
        QCOMPARE(vp.timeAt(vp.xOf(t + 7)) - t, 7.0);
        // Panning by a pixel moves 1000 / 1920 µs: the span stays 1000 µs to the microsecond.
        QVERIFY(vp.panPixels(1));
        QCOMPARE(vp.view().span(), 1000.0);
        // Days folded: ten days of idle time between two bursts at epoch scale round-trip.
        const IdleGap gap { e + 1e6, e + 1e6 + 10 * day };
        vp.setContent({ e, e + 2.001e6 }, TimeFolding({ gap }, 1000));
        const double after = gap.end + 250000;
        QCOMPARE(vp.toDisplay(after) - e, 1e6 + 1000 + 250000);
        QCOMPARE(vp.toTrace(vp.toDisplay(after)) - after, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestTimelineViewport)
#include "tst_timelineviewport.moc"
