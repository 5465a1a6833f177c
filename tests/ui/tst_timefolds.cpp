// The timeline on real folders whose compiles lie far apart: tlparse's multi_rank_runtime with
// all its runs (two runs eleven days apart) folds the idle days into one marked break, so both
// runs' compiles are wide enough to see; Alt+click on the break and View > Fold Idle Gaps unfold
// it without moving the view's trace range; ranks aligned on their own start put each file's
// first record at one origin. Skipped, with a message, without ../shared/traces.
#include "core/load/loader.h"
#include "ui/compileselection.h"
#include "ui/timeline/timelineview.h"

#include <QDir>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

namespace {
QString tlparseInput(const QString& name)
{
    return QStringLiteral(DYNASCOPE_SHARED_TRACES "/tlparse/tests/inputs/") + name;
}
} // namespace

class TestTimeFolds : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> m_all; // multi_rank_runtime, every run

    // Whole pixels of the compile's span on screen (0 when not visible).
    static int widthOf(TimelineView& view, uint32_t compile)
    {
        return view.compileRect(compile).width();
    }

    // The view on every run of multi_rank_runtime, shown at 1280x700.
    bool showAll(TimelineView& view)
    {
        view.resize(1280, 700);
        view.setTrace(m_all);
        view.show();
        return QTest::qWaitForWindowExposed(&view);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString dir = tlparseInput(QStringLiteral("multi_rank_runtime"));
        if (!QDir(dir).exists())
            QSKIP("../shared/traces is absent: the tlparse corpus is needed for these tests");
        LoadOptions options;
        options.run = RunChoice::All;
        m_all = load({ dir.toStdString() }, options).trace;
        QVERIFY(m_all);
        QCOMPARE(m_all->runs.size(), size_t(2));
    }

    void runsDaysApartFoldIntoOneBreak()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        QVERIFY(showAll(view));
        const auto& layout = view.layout();
        // One fold: between the end of run 1 and the start of run 2.
        QCOMPARE(layout.folding().folds().size(), size_t(1));
        const auto& gap = layout.folding().folds().front().gap;
        const TraceRun& r1 = m_all->runs[0];
        const TraceRun& r2 = m_all->runs[1];
        QVERIFY(gap.start >= r1.startUs && gap.start <= r1.endUs);
        QVERIFY(gap.end >= r2.startUs && gap.end <= r2.endUs);
        QVERIFY(gap.span() > 10 * 86400e6); // eleven days
        // The fitted view spans both runs in trace time, but draws a small part of that.
        const auto shown = view.viewRange();
        QVERIFY(shown.start <= r1.startUs + 1 && shown.end >= gap.end);
        QVERIFY(layout.bounds().span() < (r1.endUs - r1.startUs + r2.endUs - r2.startUs) * 2);
        // A compile of each run is wide enough to see and click (they were hairlines).
        uint32_t first1 = kNone, first2 = kNone;
        double longest1 = 0, longest2 = 0;
        for (const Compile& c : m_all->compiles) {
            if (c.timeSource == TimeSource::None)
                continue;
            const bool run1 = m_all->files[c.file].run == r1.number;
            double& longest = run1 ? longest1 : longest2;
            if (c.durationUs() > longest) {
                longest = c.durationUs();
                (run1 ? first1 : first2) = c.index;
            }
        }
        QVERIFY(first1 != kNone && first2 != kNone);
        QVERIFY2(widthOf(view, first1) >= 3, qPrintable(QString::number(widthOf(view, first1))));
        QVERIFY2(widthOf(view, first2) >= 3, qPrintable(QString::number(widthOf(view, first2))));
        // The break says what it hides, and where.
        const QRect lane = view.compileRect(first2);
        QString tip;
        for (int x = view.width() - 30; x > 0 && tip.isEmpty(); --x) {
            const QString t = view.toolTipAt(QPoint(x, lane.center().y()));
            if (t.contains(QStringLiteral("without compiles")))
                tip = t;
        }
        QVERIFY2(tip.contains(QStringLiteral("11 d")) || tip.contains(QStringLiteral("10 d")),
            qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("Alt+click")));
    }

    void unfoldKeepsTheTraceRange()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        QVERIFY(showAll(view));
        const auto shown = view.viewRange();
        // Alt+click on the break: that gap to scale.
        int breakX = -1;
        for (int x = 300; x < view.width() - 20 && breakX < 0; ++x)
            if (view.toolTipAt(QPoint(x, 8)).contains(QStringLiteral("without compiles")))
                breakX = x;
        QVERIFY(breakX > 0);
        QTest::mouseClick(&view, Qt::LeftButton, Qt::AltModifier, QPoint(breakX + 2, 8));
        QVERIFY(view.layout().folding().empty());
        QCOMPARE(view.layout().idleGapCount(), size_t(1));
        QVERIFY(std::abs(view.viewRange().start - shown.start) < 1);
        QVERIFY(std::abs(view.viewRange().end - shown.end) < 1);
        // Folding again (View > Fold Idle Gaps on) folds it; off shows all time to scale.
        view.setFoldGaps(true);
        QCOMPARE(view.layout().folding().folds().size(), size_t(1));
        view.setFoldGaps(false);
        QVERIFY(view.layout().folding().empty());
        QCOMPARE(view.layout().idleGapCount(), size_t(0));
    }

    // Each file's first record at one origin; compiles keep their durations.
    void alignRanksOnTheirStart()
    {
        const QString dir = tlparseInput(QStringLiteral("multi_rank_runtime"));
        LoadOptions options;
        options.run = RunChoice::Number;
        options.runNumber = 1; // ranks 0-4
        const auto trace = load({ dir.toStdString() }, options).trace;
        QVERIFY(trace);
        QCOMPARE(trace->files.size(), size_t(5));
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1280, 700);
        view.setTrace(trace);
        view.setAlignRanks(true);
        const auto& layout = view.layout();
        QVERIFY(layout.aligned());
        std::vector<double> starts;
        for (uint32_t fi = 0; fi < trace->files.size(); ++fi) {
            double first = 0;
            const TraceFile& f = trace->files[fi];
            for (uint32_t r = f.firstRecord; r < f.firstRecord + f.recordCount && first <= 0; ++r)
                first = trace->glogEpochUs(r);
            QVERIFY(first > 0);
            starts.push_back(first);
            QCOMPARE(layout.displayTime(first, fi), layout.alignOrigin());
        }
        // The files did not all start at once: aligning moved some of them.
        QVERIFY(*std::max_element(starts.begin(), starts.end())
            > *std::min_element(starts.begin(), starts.end()));
        for (const Compile& c : trace->compiles) {
            if (c.timeSource == TimeSource::None || c.startUs <= 0)
                continue;
            QCOMPARE(layout.compileEnd(c) - layout.compileStart(c), c.durationUs());
        }
        // The range overlay counts compiles by their aligned times.
        view.setSelectedRange(view.viewRange());
        uint64_t timed = 0;
        for (const Compile& c : trace->compiles)
            timed += c.timeSource != TimeSource::None && c.startUs > 0 && c.endUs >= c.startUs;
        QCOMPARE(view.rangeSummary().compiles, timed);
        view.setAlignRanks(false);
        QVERIFY(!view.layout().aligned());
    }
};

QTEST_MAIN(TestTimeFolds)
#include "tst_timefolds.moc"
