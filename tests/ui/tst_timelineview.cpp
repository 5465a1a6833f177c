// TimelineView with real events: click a compile span to select it, hover for its tooltip,
// Ctrl+wheel zooms at the cursor, drag pans, keys 0 and F fit, and a selection made elsewhere
// scrolls the timeline to the compile.
#include "ui/compileselection.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"

#include <QScreen>
#include <QTest>
#include <QWheelEvent>

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
