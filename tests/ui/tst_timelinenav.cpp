// Timeline navigation on the example trace: zoom history back/forward, Shift+drag range selection
// and its summary, search (Ctrl+F) with Enter stepping through hits, Go > next compile of the same
// frame, the view following a selection made elsewhere, compact phase rows, --range parsing and
// the keyboard reference built from the window's actions.
#include "ui/compileselection.h"
#include "ui/mainactions.h"
#include "ui/mainwindow.h"
#include "ui/search/compilesearch.h"
#include "ui/search/searchbar.h"
#include "ui/timeline/navigationhistory.h"
#include "ui/timeline/rangesummary.h"
#include "ui/timeline/timelinenavigation.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"

#include <QAction>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;
using timeline::TimeRange;

class TestTimelineNav : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> m_trace;

    uint32_t byId(const char* id) const
    {
        for (const Compile& c : m_trace->compiles) {
            if (c.id.display() == id)
                return c.index;
        }
        return kNone;
    }

    static bool openAndWait(MainWindow& w, const QStringList& paths)
    {
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openPaths(paths);
        return spy.wait(60000) && spy.at(0).at(0).toBool();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests"));
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        m_trace = uitest::loadTrace(uitest::exampleTrace());
        QVERIFY(m_trace);
    }

    void zoomHistoryPure()
    {
        using timeline::Place;
        timeline::NavigationHistory h;
        QVERIFY(!h.canBack());
        h.push({ { 0, 100 }, kNone });
        h.push({ { 10, 20 }, 3 });
        QCOMPARE(h.back({ { 12, 14 }, 3 }), (Place { { 10, 20 }, 3 }));
        QCOMPARE(h.back({ { 10, 20 }, 3 }), (Place { { 0, 100 }, kNone }));
        QVERIFY(!h.canBack());
        QCOMPARE(h.forward({ { 0, 100 }, kNone }), (Place { { 10, 20 }, 3 }));
        QCOMPARE(h.forward({ { 10, 20 }, 3 }), (Place { { 12, 14 }, 3 }));
        QVERIFY(!h.canForward());
        h.back({ { 12, 14 }, 3 });
        h.push({ { 1, 2 }, 5 }); // a new place drops the forward entries
        QVERIFY(!h.canForward());
        // The same range with another selection is another place.
        h.push({ { 1, 2 }, 6 });
        QCOMPARE(h.backCount(), size_t(3));
    }

    void zoomHistoryBackForwardRestoresRanges()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.canGoBack());
        const TimeRange all = view.viewRange();

        selection.setCurrent(byId("[3/2]"));
        view.fitSelection();
        const TimeRange fitted = view.viewRange();
        QVERIFY(fitted.span() < all.span() / 3);
        // Keys zoom in further: one gesture, one history entry.
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_W);
        QTest::keyClick(&view, Qt::Key_W);
        const TimeRange zoomed = view.viewRange();
        QVERIFY(zoomed.span() < fitted.span());

        QVERIFY(view.canGoBack());
        QTest::keyClick(&view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(view.viewRange(), fitted);
        QTest::keyClick(&view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(view.viewRange(), all);
        QCOMPARE(selection.current(), byId("[3/2]"));
        // Selecting [3/2] was a place too: one more step back is the view before it.
        QTest::keyClick(&view, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(view.viewRange(), all);
        QCOMPARE(selection.current(), kNone);
        QVERIFY(!view.canGoBack());
        QTest::keyClick(&view, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(selection.current(), byId("[3/2]"));
        QTest::keyClick(&view, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(view.viewRange(), fitted);
        // The mouse's forward button goes forward too.
        QTest::mousePress(&view, Qt::ForwardButton, {}, QPoint(600, 300));
        QCOMPARE(view.viewRange(), zoomed);
        QVERIFY(!view.canGoForward());
        QTest::mousePress(&view, Qt::BackButton, {}, QPoint(600, 300));
        QCOMPARE(view.viewRange(), fitted);
    }

    void shiftDragSelectsRange()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const TimeRange before = view.viewRange();

        // Drag across the whole lane area: every compile of the example.
        const int y = 200;
        QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(251, y));
        QTest::mouseMove(&view, QPoint(700, y));
        QTest::mouseMove(&view, QPoint(1180, y));
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(1180, y));
        QVERIFY(view.selectedRange().has_value());
        QCOMPARE(view.viewRange(), before); // selecting a range does not pan
        const auto all = view.rangeSummary();
        QCOMPARE(all.compiles, uint64_t { 9 });
        QCOMPARE(all.recompiles, uint64_t { 4 });
        QCOMPARE(all.graphBreaks, uint64_t { 1 });
        QCOMPARE(all.failures, uint64_t { 1 });
        const QStringList lines = timeline::rangeSummaryLines(all, view.tzOffsetMinutes());
        QVERIFY2(lines.join(QLatin1Char('\n')).contains(QStringLiteral("9 compiles")),
            qPrintable(lines.join(QLatin1Char('\n'))));

        // A range around [3/1] .. [3/2] only: the count matches the compiles it overlaps.
        const Compile& a = m_trace->compiles[byId("[3/1]")];
        const Compile& b = m_trace->compiles[byId("[3/2]")];
        const double w = 1200 - 250 - view.findChild<QWidget*>()->width();
        auto xOf = [&](double t) {
            return 250 + static_cast<int>((t - before.start) / before.span() * w);
        };
        const int xa = xOf(a.startUs) + 2, xb = xOf(b.endUs) - 2;
        QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(xa, y));
        QTest::mouseMove(&view, QPoint(xb, y));
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(xb, y));
        QVERIFY(view.selectedRange().has_value());
        const auto part = view.rangeSummary();
        uint64_t expected = 0;
        for (const Compile& c : m_trace->compiles)
            expected
                += c.endUs >= view.selectedRange()->start && c.startUs <= view.selectedRange()->end
                ? 1
                : 0;
        QCOMPARE(part.compiles, expected);
        if (const QString keep = qEnvironmentVariable("DYNASCOPE_SHOT_DIR"); !keep.isEmpty())
            view.grab().save(keep + QStringLiteral("/range-overlay.png"));
        QVERIFY(part.compiles >= 2 && part.compiles < 9);
        QVERIFY(
            part.compileUs <= view.selectedRange()->span() * static_cast<double>(part.compiles));

        // Esc drops it; Z zooms to it (one history entry) and drops it too: its tint and box
        // would cover the whole view.
        const TimeRange r = *view.selectedRange();
        QTest::keyClick(&view, Qt::Key_Escape);
        QVERIFY(!view.selectedRange().has_value());
        view.setSelectedRange(r);
        QTest::keyClick(&view, Qt::Key_Z);
        QVERIFY(std::abs(view.viewRange().start - r.start) < 1
            && std::abs(view.viewRange().end - r.end) < 1);
        QVERIFY(!view.selectedRange().has_value());
        view.goBack();
        QCOMPARE(view.viewRange(), before);
    }

    void searchFindsRecompilesAndEnterSteps()
    {
        const auto hits = searchCompiles(*m_trace, QStringLiteral("size mismatch"));
        QCOMPARE(hits.size(), size_t { 4 });
        for (uint32_t h : hits)
            QVERIFY(m_trace->compiles[h].isRecompile());
        QCOMPARE(searchCompiles(*m_trace, QStringLiteral("[3/2]")).size(), size_t { 1 });
        QCOMPARE(searchCompiles(*m_trace, QStringLiteral("TRAIN.PY")).size(), size_t { 9 });
        QCOMPARE(
            searchCompiles(*m_trace, QStringLiteral("BackendCompilerFailed")).size(), size_t { 1 });
        QVERIFY(searchCompiles(*m_trace, QStringLiteral("no such text anywhere")).empty());

        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        SearchBar bar(&selection, &view);
        bar.setTrace(m_trace);
        bar.show();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        bar.lineEdit()->setFocus();
        QTest::keyClicks(bar.lineEdit(), QStringLiteral("size mismatch"));
        QTest::keyClick(bar.lineEdit(), Qt::Key_Return);
        QCOMPARE(bar.hits().size(), size_t { 4 });
        QCOMPARE(bar.countText(), QStringLiteral("1/4"));
        QCOMPARE(selection.current(), byId("[3/1]"));
        const char* order[] = { "[3/2]", "[3/3]", "[3/4]", "[3/1]" };
        for (int i = 0; i < 4; ++i) {
            QTest::keyClick(bar.lineEdit(), Qt::Key_Return);
            QCOMPARE(selection.current(), byId(order[i]));
            QVERIFY2(
                view.compileRect(selection.current()).width() >= 3, "the timeline shows the hit");
        }
        QCOMPARE(bar.countText(), QStringLiteral("1/4"));
        QTest::keyClick(bar.lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(selection.current(), byId("[3/4]"));
        QCOMPARE(bar.countText(), QStringLiteral("4/4"));
        if (const QString keep = qEnvironmentVariable("DYNASCOPE_SHOT_DIR"); !keep.isEmpty())
            view.grab().save(keep + QStringLiteral("/search-hits.png"));
    }

    void followSelectionPansAndZooms()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // [4/0] is 21 ms long: a few pixels wide at fit-all on the example's ~8 s.
        const uint32_t failed = byId("[4/0]");
        const TimeRange all = view.viewRange();
        selection.setCurrent(failed);
        QVERIFY(view.viewRange().span() < all.span());
        QVERIFY2(view.compileRect(failed).width() >= 4,
            qPrintable(QString::number(view.compileRect(failed).width())));
        QVERIFY(view.canGoBack());

        // A visible, wide compile keeps the user's zoom.
        view.fitAll();
        const TimeRange kept = view.viewRange();
        selection.setCurrent(byId("[0/0]"));
        QCOMPARE(view.viewRange(), kept);

        // Off-screen: pans there, keeping the span.
        selection.setCurrent(byId("[3/4]"));
        view.fitSelection();
        const double span = view.viewRange().span();
        selection.setCurrent(byId("[0/0]"));
        const Compile& c = m_trace->compiles[byId("[0/0]")];
        QVERIFY(view.viewRange().start <= c.endUs && view.viewRange().end >= c.startUs);
        QVERIFY(view.viewRange().span() >= span * 0.99);
    }

    void nextCompileOfSameFrame()
    {
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(openAndWait(w, { uitest::exampleTrace() }));
        auto* nav = w.findChild<TimelineNavigation*>();
        QVERIFY(nav);
        auto* actions = w.findChild<MainActions*>();
        QVERIFY(actions);
        QVERIFY(w.selectCompile(QStringLiteral("[3/1]")));
        actions->nextSameFrame->trigger();
        QCOMPARE(w.selection()->current(), byId("[3/2]"));
        actions->nextSameFrame->trigger();
        actions->nextSameFrame->trigger();
        QCOMPARE(w.selection()->current(), byId("[3/4]"));
        QVERIFY(!nav->stepSameFrame(1)); // the last one: stays
        QCOMPARE(w.selection()->current(), byId("[3/4]"));
        actions->prevSameFrame->trigger();
        QCOMPARE(w.selection()->current(), byId("[3/3]"));
        QVERIFY(w.selectCompile(QStringLiteral("[0/0]")));
        QVERIFY(!nav->stepSameFrame(1)); // a frame with one compile
        QCOMPARE(w.selection()->current(), byId("[0/0]"));

        // Ctrl+F focuses the search field of the toolbar.
        actions->find->trigger();
        QVERIFY(nav->searchBar()->lineEdit()->hasFocus() || !w.isActiveWindow());
    }

    void compactModeHidesPhaseRows()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        const size_t full = view.layout().rows().size();
        auto o = view.layoutOptions();
        o.compact = true;
        view.setLayoutOptions(o);
        size_t lanes = 0;
        for (const auto& r : view.layout().rows()) {
            QVERIFY(r.kind != timeline::Row::Kind::Phases);
            lanes += r.kind == timeline::Row::Kind::Lane ? 1 : 0;
        }
        QVERIFY(view.layout().rows().size() < full);
        // Flipping one lane shows its phases again, the others stay compact.
        int lane = -1;
        for (size_t i = 0; i < view.layout().rows().size(); ++i) {
            if (view.layout().rows()[i].kind == timeline::Row::Kind::Lane
                && view.layout().rows()[i].phaseDepths > 0) {
                lane = static_cast<int>(i);
                break;
            }
        }
        QVERIFY(lane >= 0);
        view.toggleLane(lane);
        QVERIFY(view.layout().rows()[static_cast<size_t>(lane)].expanded);
        QVERIFY(view.layout().rows().size() > 1 + lanes);
        // Bounds do not depend on which rows are shown.
        o.compact = false;
        o.toggled.clear();
        const TimeRange b = view.layout().bounds();
        view.setLayoutOptions(o);
        QCOMPARE(view.layout().bounds(), b);
        QCOMPARE(view.layout().rows().size(), full);
    }

    void parseRange_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("start"); // seconds after the trace start
        QTest::addColumn<double>("end");
        QTest::newRow("seconds") << QStringLiteral("1.5:3") << true << 1.5 << 3.0;
        QTest::newRow("dots") << QStringLiteral("0..0.25") << true << 0.0 << 0.25;
        QTest::newRow("units") << QStringLiteral("250ms:400ms") << true << 0.25 << 0.4;
        QTest::newRow("wall clock")
            << QStringLiteral("10:00:01.500:10:00:02") << true << 1.5 << 2.0;
        QTest::newRow("wall clock dots")
            << QStringLiteral("10:00:01.5..10:00:03") << true << 1.5 << 3.0;
        QTest::newRow("reversed") << QStringLiteral("3:1") << false << 0.0 << 0.0;
        QTest::newRow("empty") << QString() << false << 0.0 << 0.0;
        QTest::newRow("words") << QStringLiteral("start:end") << false << 0.0 << 0.0;
        QTest::newRow("one end") << QStringLiteral("1.5") << false << 0.0 << 0.0;
        QTest::newRow("bad clock") << QStringLiteral("25:00:00:26:00:00") << false << 0.0 << 0.0;
    }

    void parseRange()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, start);
        QFETCH(double, end);
        // The trace starts at 10:00:00 local time, UTC+2 (tz offset 120 minutes).
        const double day = 86400e6 * 19000;
        const double traceStart = day + 8 * 3600e6; // 08:00 UTC = 10:00 local
        QString error;
        const auto r = timeline::parseTimeRange(text, traceStart, 120, &error);
        QCOMPARE(r.has_value(), ok);
        if (!ok) {
            QVERIFY(!error.isEmpty());
            return;
        }
        QVERIFY(std::abs(r->start - (traceStart + start * 1e6)) < 1);
        QVERIFY(std::abs(r->end - (traceStart + end * 1e6)) < 1);
    }

    void shortcutReferenceListsActions()
    {
        MainWindow w(MainWindow::Options { false });
        const auto entries = MainActions::shortcutEntries(&w);
        auto keysOf = [&](const QString& action) {
            for (const ShortcutEntry& e : entries) {
                if (e.action == action)
                    return e.keys;
            }
            return QStringLiteral("<absent>");
        };
        QCOMPARE(keysOf(QStringLiteral("Back")).split(QStringLiteral(", ")).front(),
            QKeySequence(Qt::ALT | Qt::Key_Left).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(QStringLiteral("Export Image…")),
            QKeySequence(Qt::CTRL | Qt::Key_E).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(QStringLiteral("Search…")),
            QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(QStringLiteral("Keyboard Shortcuts")), QStringLiteral("F1"));
        QCOMPARE(keysOf(QStringLiteral("Next Compile of the Same Frame")), QStringLiteral("F9"));
        QVERIFY(keysOf(QStringLiteral("Select a time range")).contains(QStringLiteral("Shift")));
        // Every action with a shortcut anywhere in the menus is listed.
        int withKeys = 0;
        for (const ShortcutEntry& e : entries)
            withKeys += e.keys.isEmpty() ? 0 : 1;
        QVERIFY(withKeys >= 25);
    }
};

QTEST_MAIN(TestTimelineNav)
#include "tst_timelinenav.moc"
