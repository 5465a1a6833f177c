// TimelineView with real events: click a compile span to select it, hover for its tooltip,
// Ctrl+wheel zooms at the cursor, drag pans, keys 0 and F fit, and a selection made elsewhere
// scrolls the timeline to the compile.
#include "ui/compileselection.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"

#include "ui/models/statusstyle.h"
#include "ui/timeline/rangesummary.h"

#include "core/io/input_buffer.h"
#include "core/load/live_trace.h"

#include <QScreen>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <fstream>
#include <map>

using namespace dynascope;
using namespace dynascope::ui;

class TestTimelineView : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> m_trace;

    uint32_t compileById(const char* id) const
    {
        for (const Compile& c : m_trace->compiles) {
            if (c.id.display() == id)
                return c.index;
        }
        return kNone;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        m_trace = uitest::loadTrace(uitest::exampleTrace());
        QVERIFY(m_trace);
    }

    // Live following (TimelineView::updateTrace): a newer state of the trace keeps a view the
    // user scrolled to, keeps showing all of it when it showed all, and keeps the newest part in
    // sight (same width, the new end) when it showed the end.
    void liveUpdatesKeepOrFollowTheView()
    {
        std::string error;
        auto file = InputBuffer::open(uitest::exampleTrace().toStdString(), 1 << 30, error);
        QVERIFY(file);
        const std::string_view text = file->view();
        const size_t half = text.find('\n', text.size() / 2) + 1;
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/dedicated_log_torch_trace.log";
        auto write = [&](std::string_view bytes) {
            std::ofstream out(path, std::ios::binary | std::ios::app);
            out.write(bytes.data(), std::streamsize(bytes.size()));
        };
        write(text.substr(0, half));
        LiveTrace live({ path });
        live.poll();
        const auto before = live.snapshot().trace;
        write(text.substr(half));
        live.poll();
        const auto after = live.snapshot().trace;
        QVERIFY(before && after && after->compiles.size() > before->compiles.size());

        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto covers = [&](const timeline::TimeRange& r) {
            const auto all = view.layout().toTrace(view.layout().bounds());
            return r.start <= all.start && r.end >= all.end;
        };
        // All of it shown: all of the newer state shown.
        view.setTrace(before);
        view.updateTrace(after);
        QVERIFY(covers(view.viewRange()));
        // Scrolled to the start: stays there.
        view.setTrace(before);
        const auto b = view.layout().toTrace(view.layout().bounds());
        const timeline::TimeRange start { b.start, b.start + b.span() / 10 };
        view.setViewRange(start);
        const auto kept = view.viewRange();
        view.updateTrace(after);
        QCOMPARE(view.viewRange().start, kept.start);
        QCOMPARE(view.viewRange().end, kept.end);
        QVERIFY(view.canGoBack()); // the history stays
        // At the end: the same width, ending at the new end.
        view.setTrace(before);
        view.setViewRange({ b.end - b.span() / 10, b.end });
        const double width = view.viewRange().span();
        view.updateTrace(after);
        const auto a = view.layout().toTrace(view.layout().bounds());
        QVERIFY(a.end > b.end);
        QCOMPARE(view.viewRange().end, view.layout().toTrace(view.limits()).end); // + margin
        QVERIFY(std::abs(view.viewRange().span() - width) < width * 0.05);
    }

    void clickSelectsAndTooltip()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.layout().hasTime());

        const uint32_t c00 = compileById("[0/0]");
        const QRect r = view.compileRect(c00);
        QVERIFY2(r.isValid(), "the first compile is on screen after fit-all");
        QTest::mouseClick(&view, Qt::LeftButton, {}, r.center());
        QCOMPARE(selection.current(), c00);
        const QString tip = view.toolTipAt(r.center());
        QVERIFY2(tip.startsWith(QStringLiteral("[0/0]  ✓ ok")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("forward")));

        // A recompile's tooltip carries the first line of its reason.
        selection.setCurrent(compileById("[3/2]"));
        const QRect r32 = view.compileRect(compileById("[3/2]"));
        QVERIFY(r32.isValid());
        QVERIFY(view.toolTipAt(r32.center())
                    .contains(QStringLiteral("↻ 3/1: tensor 'x' size mismatch")));
    }

    // A hover repaints only the span that lost the hover and the one that got it: what is on
    // screen after moving from one span to another must equal a full repaint of the same state
    // (the offscreen platform grabs the window's backing store, where partial repaints land).
    void hoverRepaintLeavesNoTrace()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRect a = view.compileRect(compileById("[0/0]"));
        const QRect b = view.compileRect(compileById("[1/0]"));
        QVERIFY(a.isValid() && b.isValid());
        auto onScreen = [&] {
            QCoreApplication::processEvents();
            return view.screen()->grabWindow(view.winId()).toImage();
        };
        const QImage before = onScreen();
        QTest::mouseMove(&view, a.center());
        const QImage hoverA = onScreen();
        QVERIFY2(hoverA != before, "hovering a span changes how it looks");
        QTest::mouseMove(&view, b.center());
        const QImage partial = onScreen();
        QVERIFY2(partial != hoverA, "moving the hover to another span repaints");
        view.repaint(); // everything, in the same hover state
        QCOMPARE(onScreen(), partial);
        // The hover gone: the window looks as it did before any hover.
        QTest::mouseMove(&view, QPoint(2, view.height() - 2));
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(&view, &leave);
        QCOMPARE(onScreen(), before);
    }

    // Issue 17: after a scroll or zoom the hover stayed on the old (row, index) of the geometry
    // cache, so another span lit up until the mouse moved. The hovered span is kept.
    void hoverSurvivesPanAndZoom()
    {
        const QString path = uitest::realRank1Trace();
        SKIP_UNLESS_EXISTS(path);
        const auto trace = uitest::loadTrace(path);
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 500);
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto byId = [&](const char* id) {
            for (const Compile& c : trace->compiles)
                if (c.id.display() == id)
                    return c.index;
            return kNone;
        };
        // Zoom so that [0/1] .. [0/9] are wide and [0/0] (1.3 s) is to the left.
        const Compile& c1 = trace->compiles[byId("[0/1]")];
        const Compile& c9 = trace->compiles[byId("[0/9]")];
        view.setViewRange({ c1.startUs - 1000, c9.endUs + 1000 });
        const uint32_t c5 = byId("[0/5]");
        const QRect r5 = view.compileRect(c5);
        QVERIFY(r5.isValid());
        QTest::mouseMove(&view, r5.center());
        QVERIFY(view.hoveredSpan());
        QCOMPARE(view.hoveredSpan()->first, c5);
        auto lit = [&](uint32_t c) {
            // The hovered span is drawn lighter than the others of its status.
            const QRect r = view.compileRect(c);
            const QImage img = view.grab().toImage();
            return r.isValid() ? img.pixelColor(r.left() + 1, r.top() + 1) : QColor();
        };
        const QColor hovered = lit(c5);
        const QColor plain = lit(byId("[0/7]"));
        QVERIFY(hovered != plain);
        // Keys pan the view under the still mouse: [0/5] stays the hovered span, drawn so.
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_D);
        QCOMPARE(view.hoveredSpan()->first, c5);
        QCOMPARE(lit(c5), hovered);
        for (const char* other : { "[0/3]", "[0/4]", "[0/6]", "[0/7]", "[0/8]" })
            QCOMPARE(lit(byId(other)), plain);
        QTest::keyClick(&view, Qt::Key_W);
        QCOMPARE(view.hoveredSpan()->first, c5);
    }

    // The failure marker of a one-compile trace sits at the end of the data: its glyph is drawn
    // whole, inside the marker row (it was cut in half at the right edge).
    void edgeMarkersAreWhole()
    {
        const QString path = QStringLiteral(DYNASCOPE_SHARED_TRACES)
            + QStringLiteral("/tlparse/tests/inputs/comp_failure.log");
        SKIP_UNLESS_EXISTS(path);
        const auto trace = uitest::loadTrace(path);
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(560, 400); // a narrow timeline: 2% padding is less than half a glyph
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRect glyph = view.markerGlyphRect(0, MarkerKind::Failure);
        QVERIFY(glyph.isValid());
        const QScrollBar* bar = view.findChild<QScrollBar*>();
        const int right = view.width() - bar->sizeHint().width();
        QVERIFY2(glyph.right() < right,
            qPrintable(QStringLiteral("%1 >= %2").arg(glyph.right()).arg(right)));
        QVERIFY(view.compileAt(glyph.center()) == 0u);
    }

    // The Shift+drag box fits its bold first line, and sits inside the lanes, not over the
    // labels.
    void rangeBoxFitsItsText()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1400, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const timeline::TimeRange all = view.viewRange();
        view.setSelectedRange(timeline::TimeRange { all.start + all.span() * 0.5, all.end });
        const QRect box = view.rangeBoxRect();
        QVERIFY(box.isValid());
        const QStringList lines
            = timeline::rangeSummaryLines(view.rangeSummary(), view.tzOffsetMinutes());
        QFont bold = view.font();
        bold.setPointSizeF(view.font().pointSizeF() * 0.9);
        bold.setBold(true);
        QVERIFY2(box.width() - 12 >= QFontMetrics(bold).horizontalAdvance(lines.front()),
            qPrintable(lines.front()));
        QVERIFY(box.left() >= 250);
    }

    // Phases are coloured by the report's phase groups: Scheduler.codegen is Inductor codegen,
    // compile_fx.<locals>.fw_compiler_base is Inductor, a cache span is Cache; the legend lists
    // the groups the trace has.
    void phasesByGroup()
    {
        const QString path = QStringLiteral(DYNASCOPE_SHARED_TRACES)
            + QStringLiteral("/tlparse/tests/inputs/autotune_with_compile_id.log");
        SKIP_UNLESS_EXISTS(path);
        const auto trace = uitest::loadTrace(path);
        timeline::LayoutOptions all;
        all.maxPhaseRows = 64;
        timeline::TimelineLayout layout;
        layout.build(*trace, all);
        std::map<std::string, PhaseGroup> seen;
        for (const timeline::Row& row : layout.rows()) {
            for (const timeline::Span& s : row.spans) {
                if (s.phase >= 0)
                    seen[std::string(
                        trace->compiles[s.compile].phases[static_cast<size_t>(s.phase)].name())]
                        = s.group;
            }
        }
        QVERIFY(seen.count("Scheduler.codegen"));
        QCOMPARE(seen["Scheduler.codegen"], PhaseGroup::InductorCodegen);
        QCOMPARE(seen["compile_fx.<locals>.fw_compiler_base"], PhaseGroup::Inductor);
        QCOMPARE(seen["dynamo"], PhaseGroup::DynamoOther);
        QVERIFY(phaseGroupStyle(PhaseGroup::InductorCodegen).color
            != phaseGroupStyle(PhaseGroup::DynamoOther).color);
        const auto& groups = layout.phaseGroups();
        QVERIFY(
            std::find(groups.begin(), groups.end(), PhaseGroup::InductorCodegen) != groups.end());
        QVERIFY(std::find(groups.begin(), groups.end(), PhaseGroup::Autotuning) != groups.end());
    }

    void zoomPanFit()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1200, 700);
        view.setTrace(m_trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto all = view.viewRange();

        // Ctrl+wheel zooms in around the cursor.
        const QPointF at(250 + 300, 200);
        QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton,
            Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        const auto zoomed = view.viewRange();
        QVERIFY(zoomed.span() < all.span() * 0.7);
        QVERIFY(zoomed.start > all.start);

        // Drag to the right shows earlier times.
        QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(700, 200));
        QTest::mouseMove(&view, QPoint(720, 200));
        QTest::mouseMove(&view, QPoint(800, 200));
        QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(800, 200));
        QVERIFY(view.viewRange().start < zoomed.start);
        QCOMPARE(view.viewRange().span(), zoomed.span());

        view.setFocus();
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.viewRange(), all);
        QTest::keyClick(&view, Qt::Key_W);
        QVERIFY(view.viewRange().span() < all.span());
        QTest::keyClick(&view, Qt::Key_S);
        QTest::keyClick(&view, Qt::Key_S);
        QCOMPARE(view.viewRange(), all); // zooming out stops at everything

        // F fits the selected compile.
        const uint32_t c40 = compileById("[4/0]");
        selection.setCurrent(c40);
        QTest::keyClick(&view, Qt::Key_F);
        const Compile& c = m_trace->compiles[c40];
        QVERIFY(view.viewRange().start <= c.startUs && view.viewRange().end >= c.endUs);
        QVERIFY(view.viewRange().span() < c.durationUs() * 1.5);
        QVERIFY(view.compileRect(c40).isValid()); // and scrolled its lane into view
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
