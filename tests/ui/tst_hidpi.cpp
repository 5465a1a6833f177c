// HiDPI (issue 33) on the bundled example: the timeline rendered at device pixel ratio 2 is twice
// the size in device pixels with its hairlines (the label column's edge, the rows' separators) one
// device pixel wide, not two; `--screenshot --scale 2` (runScreenshot with scale 2) writes a PNG
// twice the size, and so does `QT_SCALE_FACTOR=2 dynascope --screenshot` (the binary). With
// DYNASCOPE_SHOT_DIR set, the images are kept to look at.
#include "ui/compileselection.h"
#include "ui/export/imageexport.h"
#include "ui/mainwindow.h"
#include "ui/screenshotrunner.h"
#include "ui/timeline/timelineareas.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"

#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

namespace {

// The widths (device pixels) of the runs of `colour` along row y of the image, between x0 and x1.
QList<int> runsOf(const QImage& image, int y, int x0, int x1, QRgb colour)
{
    QList<int> runs;
    int run = 0;
    for (int x = x0; x < x1; ++x) {
        if (image.pixel(x, y) == colour) {
            ++run;
        } else if (run > 0) {
            runs << run;
            run = 0;
        }
    }
    if (run > 0)
        runs << run;
    return runs;
}

} // namespace

class TestHiDpi : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void timelineAtRatioTwo()
    {
        auto trace = uitest::loadTrace(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE));
        QVERIFY(trace);
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(900, 420);
        view.setTrace(trace);
        const QSize size(900, 420);
        const QImage one = timelineImage(view, size, 1, QString());
        const QImage two = timelineImage(view, size, 2, QString());
        QCOMPARE(one.size(), size);
        QCOMPARE(two.size(), size * 2);
        QCOMPARE(two.devicePixelRatio(), 2.0);
        if (const QString dir = qEnvironmentVariable("DYNASCOPE_SHOT_DIR"); !dir.isEmpty()) {
            one.save(dir + QStringLiteral("/hidpi-timeline-1x.png"));
            two.save(dir + QStringLiteral("/hidpi-timeline-2x.png"));
        }

        // The label column's right edge, a vertical hairline at x = labelWidth - 1, in the Mid
        // colour: across a row of the lanes it is one pixel wide at 1x and at 2x.
        const int lw = timeline::TimelineAreas::labelWidthFor(view.font());
        const QRgb mid = view.palette().color(QPalette::Mid).rgb();
        const int y = size.height() / 2;
        const QList<int> at1 = runsOf(one, y, lw - 4, lw + 3, mid);
        const QList<int> at2 = runsOf(two, 2 * y, 2 * lw - 8, 2 * lw + 6, mid);
        QVERIFY2(at1 == QList<int> { 1 }, qPrintable(QString::number(at1.size())));
        QVERIFY2(at2 == QList<int> { 1 },
            qPrintable(QStringLiteral("%1 runs, first %2")
                           .arg(at2.size())
                           .arg(at2.isEmpty() ? 0 : at2.front())));
    }

    void screenshotScale()
    {
        QTemporaryDir dir;
        MainWindow w(MainWindow::Options { false });
        ScreenshotRequest req;
        req.paths = { QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) };
        req.output = dir.filePath(QStringLiteral("shot.png"));
        req.size = QSize(1000, 640);
        req.select = QStringLiteral("[3/1]");
        req.scale = 2;
        QString error;
        QCOMPARE(runScreenshot(w, req, &error), 0);
        const QImage image(req.output);
        QCOMPARE(image.size(), QSize(2000, 1280));
    }

    // `QT_SCALE_FACTOR=2 dynascope --screenshot` writes the image --scale 2 writes: the screen's
    // ratio is the default scale; --scale given wins.
    void screenshotTakesQtScaleFactor()
    {
        QTemporaryDir dir;
        auto shoot = [&](const QByteArray& factor, const QStringList& extra, const QString& name) {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_SCALE_FACTOR"), QString::fromLatin1(factor));
            return uitest::shootApp(dir,
                extra
                    + QStringList { QStringLiteral("--size"), QStringLiteral("1000x640"),
                        QStringLiteral("--select"), QStringLiteral("[3/1]"),
                        QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE) },
                name, env);
        };
        const QImage one = shoot("1", {}, QStringLiteral("qt-scale-factor-1.png"));
        const QImage two = shoot("2", {}, QStringLiteral("qt-scale-factor-2.png"));
        const QImage forced = shoot("2", { QStringLiteral("--scale"), QStringLiteral("1") },
            QStringLiteral("qt-scale-factor-2-scale-1.png"));
        QCOMPARE(one.size(), QSize(1000, 640));
        QCOMPARE(two.size(), QSize(2000, 1280));
        QCOMPARE(forced.size(), QSize(1000, 640));
        // The same picture at twice the resolution, not a magnified one: text drawn at 2x has
        // more distinct shades than the 1x image scaled up.
        const QImage magnified = one.scaled(one.size() * 2);
        QVERIFY(two != magnified);
    }
};

QTEST_MAIN(TestHiDpi)
#include "tst_hidpi.moc"
