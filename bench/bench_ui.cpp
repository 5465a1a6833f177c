// Timeline figures for dynascope-bench (see bench_ui.h). The loaded trace's compiles are copied
// along time (same frames, later steps of the same script) until the timeline holds the span count
// asked for; the TimelineView from ui/timeline then paints into a 1920x1080 QImage:
//   frame: a paint right after the view range (or the vertical scroll) changed, so the visible
//          geometry is recomputed: fit-all, then 1/8 .. 1/4096 of the time range at three
//          positions, at the top of the lanes and half-way down;
//   hover: a mouse move over the lanes (hit test, hover state, tooltip) and the repaint the widget
//          asks for, done by the event loop into the window's backing store as on screen, at the
//          fit-all view and at a zoomed-in view.
#include "bench/bench_ui.h"

#include "ui/compileselection.h"
#include "ui/timeline/timelineview.h"

#include "ui/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace dynascope::bench {

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double pos = p * static_cast<double>(v.size() - 1);
    const size_t i = static_cast<size_t>(pos);
    const double frac = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

uint64_t spanCount(const Trace& t)
{
    uint64_t n = 0;
    for (const auto& c : t.compiles)
        n += 1 + c.phases.size();
    return n;
}

// The compiles of `src` again and again, each copy shifted past the previous one in time. Only
// what the timeline reads is kept (no records: it never reads them).
std::shared_ptr<Trace> replicate(const Trace& src, uint64_t minSpans)
{
    auto t = std::make_shared<Trace>();
    t->files = src.files;
    t->frames = src.frames;
    for (auto& f : t->frames)
        f.compiles.clear();
    t->kindNames = src.kindNames;
    const uint64_t per = std::max<uint64_t>(1, spanCount(src));
    const uint64_t copies = std::max<uint64_t>(1, (minSpans + per - 1) / per);
    double lo = 1e300, hi = -1e300;
    for (const auto& c : src.compiles)
        if (c.timeSource != TimeSource::None) {
            lo = std::min(lo, c.startUs);
            hi = std::max(hi, c.endUs);
        }
    const double shift = hi > lo ? (hi - lo) * 1.01 : 1e6;
    const uint32_t n = static_cast<uint32_t>(src.compiles.size());
    t->compiles.reserve(static_cast<size_t>(copies) * n);
    for (uint64_t k = 0; k < copies; ++k) {
        const double dt = shift * static_cast<double>(k);
        const uint32_t off = static_cast<uint32_t>(k) * n;
        auto moved = [off](uint32_t& i) {
            if (i != kNone)
                i += off;
        };
        for (const auto& c : src.compiles) {
            Compile cc = c;
            cc.metricsJson.clear();
            cc.records.clear();
            cc.shapeEvents.clear();
            cc.stack.clear();
            cc.index += off;
            if (cc.timeSource != TimeSource::None) {
                cc.startUs += dt;
                cc.endUs += dt;
            }
            for (auto& p : cc.phases) {
                p.startUs += dt;
                p.endUs += dt;
            }
            for (auto& i : cc.instants)
                i.tsUs += dt;
            for (auto& e : cc.cacheEvents)
                e.tsUs += dt;
            for (auto& g : cc.graphBreaks)
                moved(g.resumeCompile);
            for (auto& r : cc.recompileReasons)
                moved(r.earlierCompile);
            if (cc.frame != kNone)
                t->frames[cc.frame].compiles.push_back(cc.index);
            t->compiles.push_back(std::move(cc));
        }
    }
    return t;
}

QImage paint(QWidget& w)
{
    QImage img(w.size(), QImage::Format_ARGB32_Premultiplied);
    w.render(&img);
    return img;
}

} // namespace

namespace {
// The window opening `paths` (see RenderFigures::windowLoadMs), median of `runs` opens after one
// warm-up; the stall is the longest of all the runs'.
void measureWindowLoad(const std::vector<std::string>& paths, int runs, RenderFigures& out)
{
    ui::MainWindow::Options options;
    options.persistSettings = false;
    ui::MainWindow window(options);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();
    QStringList open;
    for (const auto& p : paths)
        open << QString::fromStdString(p);
    std::vector<double> loads;
    double stall = 0;
    for (int run = 0; run <= runs; ++run) {
        bool done = false;
        QEventLoop loop;
        auto conn = QObject::connect(&window, &ui::MainWindow::loadFinished, &loop, [&] {
            done = true;
            loop.quit();
        });
        QElapsedTimer clock;
        qint64 last = 0;
        double gap = 0;
        QTimer tick;
        tick.setInterval(2);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed();
            gap = std::max(gap, static_cast<double>(now - last) / 1e6);
            last = now;
        });
        clock.start();
        tick.start();
        window.openPaths(open);
        if (!done)
            loop.exec();
        const qint64 end = clock.nsecsElapsed();
        gap = std::max(gap, static_cast<double>(end - last) / 1e6);
        tick.stop();
        QObject::disconnect(conn);
        if (run == 0)
            continue; // warm-up
        loads.push_back(static_cast<double>(end) / 1e6);
        stall = std::max(stall, gap);
    }
    out.windowLoadMs = percentile(loads, 0.5);
    out.guiStallMs = stall;
    std::fprintf(stderr,
        "dynascope-bench: window: opening the trace took %.0f ms (median of %d) to the trace "
        "shown; the GUI thread's longest stall meanwhile %.0f ms\n",
        *out.windowLoadMs, runs, stall);
}
} // namespace

RenderFigures measureTimeline(const std::shared_ptr<const Trace>& trace,
    const std::vector<std::string>& paths, uint64_t minSpans, int argc, char** argv)
{
    RenderFigures out;
    if (!trace)
        return out;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    auto big = replicate(*trace, minSpans);
    out.spans = spanCount(*big);
    out.compiles = big->compiles.size();

    ui::CompileSelection selection;
    ui::TimelineView view(&selection);
    view.resize(1920, 1080);
    view.show();
    QApplication::processEvents();
    auto t0 = Clock::now();
    view.setTrace(big);
    std::fprintf(stderr, "dynascope-bench: timeline layout of %llu spans: %.0f ms\n",
        static_cast<unsigned long long>(out.spans), ms(Clock::now() - t0));
    QApplication::processEvents();
    paint(view); // warm-up: fonts, glyph caches

    const auto bounds = view.layout().bounds();
    QScrollBar* vbar = view.findChild<QScrollBar*>();
    struct Pose {
        ui::timeline::TimeRange range;
        int scroll;
    };
    std::vector<Pose> poses;
    const int mid = vbar ? vbar->maximum() / 2 : 0;
    for (int scroll : { 0, mid }) {
        poses.push_back({ bounds, scroll });
        for (double frac : { 1.0 / 8, 1.0 / 64, 1.0 / 512, 1.0 / 4096 })
            for (double centre : { 0.25, 0.5, 0.75 }) {
                const double span = bounds.span() * frac;
                const double c = bounds.start + bounds.span() * centre;
                poses.push_back({ { c - span / 2, c + span / 2 }, scroll });
            }
    }
    std::vector<double> frames;
    for (int round = 0; round < 4; ++round) {
        for (const Pose& p : poses) {
            if (vbar)
                vbar->setValue(p.scroll);
            auto f0 = Clock::now();
            view.setViewRange(p.range);
            QImage img = paint(view);
            const double t = ms(Clock::now() - f0);
            if (round > 0) // round 0 is the warm-up
                frames.push_back(t);
        }
    }
    out.frames = static_cast<int>(frames.size());
    out.renderMsMedian = percentile(frames, 0.5);
    out.renderMsP95 = percentile(frames, 0.95);

    // Hover: moves across the lanes. The widget asks for the repaint it needs (update() of some
    // region) and the event loop does it into the window's backing store, as on screen; that is
    // the figure. A whole-widget render after each move is printed for comparison.
    std::vector<double> hovers, hoverRenders, repaintHovers;
    // Paint events the hover moves caused, so the figure is known to include a repaint.
    struct PaintCounter : QObject {
        int paints = 0;
        bool eventFilter(QObject*, QEvent* e) override
        {
            paints += e->type() == QEvent::Paint;
            return false;
        }
    } counter;
    view.installEventFilter(&counter);
    int hoverPaints = 0;
    for (const Pose& p : { poses.front(), poses[7] }) {
        if (vbar)
            vbar->setValue(0);
        view.setViewRange(p.range);
        QApplication::processEvents();
        for (int i = 0; i < 60; ++i) {
            const QPointF pos(260 + (i * 97) % 1600, 60 + (i * 37) % 900);
            const int paintsBefore = counter.paints;
            auto h0 = Clock::now();
            QMouseEvent move(QEvent::MouseMove, pos, view.mapToGlobal(pos), Qt::NoButton,
                Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(&view, &move);
            QApplication::processEvents();
            const double t = ms(Clock::now() - h0);
            const bool repainted = counter.paints > paintsBefore;
            hoverPaints += counter.paints - paintsBefore;
            auto r0 = Clock::now();
            QImage img = paint(view);
            const double tr = ms(Clock::now() - r0);
            if (i >= 5) {
                if (repainted)
                    repaintHovers.push_back(t);
                hovers.push_back(t);
                hoverRenders.push_back(tr);
            }
        }
    }
    view.removeEventFilter(&counter);
    // hover_ms_median: the moves that changed the hover and so repainted (most moves stay on the
    // same span or on empty space and cost only the hit test).
    out.hovers = static_cast<int>(hovers.size());
    out.hoverMsMedian = percentile(repaintHovers.empty() ? hovers : repaintHovers, 0.5);
    std::fprintf(stderr,
        "dynascope-bench: hover: %zu of %zu timed moves repainted (%d paint events in all); "
        "median %.2f ms for those, %.2f ms for all moves; whole-widget render %.2f ms (medians)\n",
        repaintHovers.size(), hovers.size(), hoverPaints, percentile(repaintHovers, 0.5),
        percentile(hovers, 0.5), percentile(hoverRenders, 0.5));
    view.hide();
    measureWindowLoad(paths, 3, out);
    return out;
}

} // namespace dynascope::bench
