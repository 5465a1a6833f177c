// Images for bug reports: the timeline as PNG (1x, 2x) and SVG through the same paint code, with
// the footer line; the whole window; a dark palette; and `--screenshot --range` (the function main
// uses, and the binary for bad ranges).
#include "ui/compileselection.h"
#include "ui/export/exportcontroller.h"
#include "ui/export/imageexport.h"
#include "ui/mainwindow.h"
#include "ui/reportview.h"
#include "ui/screenshotrunner.h"
#include "ui/timeline/timelineview.h"

#include "uitesthelpers.h"

#include <QApplication>
#include <QBuffer>
#include <QFile>
#include <QImageReader>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace dynascope;
using namespace dynascope::ui;

class TestImageExport : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> m_trace;

    static int distinctColours(const QImage& image)
    {
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y));
        }
        return static_cast<int>(colours.size());
    }

    static double meanLuminance(const QImage& image)
    {
        double sum = 0;
        int n = 0;
        for (int y = 0; y < image.height(); y += 4) {
            for (int x = 0; x < image.width(); x += 4) {
                sum += qGray(image.pixel(x, y));
                ++n;
            }
        }
        return sum / n;
    }

    uint32_t byId(const char* id) const
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
        QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests"));
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        m_trace = uitest::loadTrace(uitest::exampleTrace());
        QVERIFY(m_trace);
    }

    void pngOfRequestedSizeAndNotBlank()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(1000, 500);
        view.setTrace(m_trace);
        selection.setCurrent(byId("[3/2]"));
        const QString footer = imageFooterText(
            m_trace.get(), {}, selection.current(), view.viewRange(), view.tzOffsetMinutes());
        QVERIFY2(footer.startsWith(QStringLiteral("example.log · [3/2] · ")), qPrintable(footer));
        QVERIFY(footer.endsWith(QStringLiteral("Dynascope ") + QStringLiteral(DYNASCOPE_VERSION)));

        const QSize size(1100, 640);
        const QImage one = timelineImage(view, size, 1.0, footer);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.png"));
        QVERIFY(one.save(path, "PNG"));
        QImageReader reader(path);
        QCOMPARE(reader.format(), QByteArray("png"));
        const QImage back = reader.read();
        QCOMPARE(back.size(), size);
        const int colours = distinctColours(back);
        QVERIFY2(colours > 30, qPrintable(QString::number(colours)));

        const QImage two = timelineImage(view, size, 2.0, footer);
        QCOMPARE(two.size(), size * 2);
        QCOMPARE(two.devicePixelRatio(), 2.0);
        // HiDPI: the 2x image has the same picture, not a blurred upscale: more distinct colours
        // from antialiased text at twice the resolution, and the same layout (the axis line sits
        // at the same logical y).
        QVERIFY(distinctColours(two) >= colours);
        // The widget itself was not resized by the export.
        QCOMPARE(view.size(), QSize(1000, 500));
    }

    void svgParsesWithRectsAndFooter()
    {
        CompileSelection selection;
        TimelineView view(&selection);
        view.resize(900, 500);
        view.setTrace(m_trace);
        selection.setCurrent(byId("[3/2]"));
        const QString footer = imageFooterText(
            m_trace.get(), {}, selection.current(), view.viewRange(), view.tzOffsetMinutes());
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(writeTimelineSvg(view, QSize(900, 520), footer, &buffer));
        const QByteArray svg = buffer.data();
        QXmlStreamReader xml(svg);
        int rects = 0, paths = 0;
        QString text;
        bool root = false;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                root = root || xml.name() == QLatin1String("svg");
                rects += xml.name() == QLatin1String("rect") ? 1 : 0;
                paths += xml.name() == QLatin1String("path") ? 1 : 0;
            } else if (xml.isCharacters()) {
                text += xml.text();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(root);
        QVERIFY2(
            rects > 20, qPrintable(QStringLiteral("%1 rects, %2 paths").arg(rects).arg(paths)));
        QVERIFY2(text.contains(QStringLiteral("Dynascope ") + QStringLiteral(DYNASCOPE_VERSION)),
            qPrintable(text.right(300)));
        QVERIFY(text.contains(QStringLiteral("[3/2]")));
        QVERIFY(text.contains(QStringLiteral("example.log")));
    }

    void windowExportAndBugReport()
    {
        MainWindow w(MainWindow::Options { false });
        w.resize(1300, 850);
        w.show();
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openPaths({ uitest::exampleTrace() });
        QVERIFY(spy.wait(60000));
        QVERIFY(w.selectCompile(QStringLiteral("[3/2]")));
        auto* exports = w.findChild<ExportController*>();
        QVERIFY(exports);
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath(QStringLiteral("w.png"));
        QVERIFY2(exports->exportTo(png, ExportController::Target::Window,
                     ExportController::Format::Png2x, &error),
            qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1300, 850 + kFooterHeight) * 2);
        QVERIFY(distinctColours(image) > 30);
        const QString svg = dir.filePath(QStringLiteral("t.svg"));
        QVERIFY(exports->exportTo(
            svg, ExportController::Target::Timeline, ExportController::Format::Svg, &error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("[3/2]"));
        QVERIFY(!exports->exportTo(dir.filePath(QStringLiteral("no/such/dir/x.png")),
            ExportController::Target::Timeline, ExportController::Format::Png1x, &error));
        QVERIFY(!error.isEmpty());

        const QString md = exports->bugReportText();
        QVERIFY2(md.contains(QStringLiteral("3/2")), qPrintable(md.left(400)));
        QVERIFY(md.contains(QStringLiteral("size mismatch")));

        // The report dock shows the compile report as plain text.
        ReportView* report = exports->reportView();
        report->buildNow();
        QVERIFY(report->isBuilt());
        QVERIFY(report->textView()->toPlainText().contains(QStringLiteral("size mismatch")));
    }

    void darkPaletteIsDark()
    {
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
        CompileSelection selection;
        TimelineView view(&selection);
        view.setPalette(dark);
        view.resize(1000, 500);
        view.setTrace(m_trace);
        const QImage image = timelineImage(view, QSize(1000, 520), 1.0, QStringLiteral("footer"));
        QVERIFY2(meanLuminance(image) < 110, qPrintable(QString::number(meanLuminance(image))));
    }

    // The window under a dark application palette (what a dark desktop theme sets): the timeline
    // and the docks follow it. With DYNASCOPE_SHOT_DIR set, the images are kept there to look at:
    // the example and the real 15-compile rank-1 trace, light and dark, 1x and 2x.
    void themesAndHiDpiScreenshots_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("select");
        QTest::newRow("example") << uitest::exampleTrace() << QStringLiteral("[3/2]");
        QTest::newRow("rank1") << uitest::realRank1Trace() << QStringLiteral("[0/7]");
    }

    void themesAndHiDpiScreenshots()
    {
        QFETCH(QString, trace);
        QFETCH(QString, select);
        SKIP_UNLESS_EXISTS(trace);
        const QString keep = qEnvironmentVariable("DYNASCOPE_SHOT_DIR");
        const QPalette light = QApplication::palette();
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x30));
        dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x28));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x38));
        dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Mid, QColor(0x5a, 0x5a, 0x5e));
        dark.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
        dark.setColor(QPalette::Light, QColor(0x50, 0x50, 0x54));
        dark.setColor(QPalette::Midlight, QColor(0x44, 0x44, 0x48));
        dark.setColor(QPalette::Shadow, Qt::black);
        dark.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
        dark.setColor(QPalette::HighlightedText, Qt::white);
        dark.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3e));
        dark.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
        dark.setColor(QPalette::Link, QColor(0x6c, 0xb6, 0xff));
        dark.setColor(QPalette::LinkVisited, QColor(0xb0, 0x9c, 0xff));
        for (const bool isDark : { false, true }) {
            QApplication::setPalette(isDark ? dark : light);
            MainWindow w(MainWindow::Options { false });
            w.resize(1600, 1000);
            w.show();
            QSignalSpy spy(&w, &MainWindow::loadFinished);
            w.openPaths({ trace });
            QVERIFY(spy.wait(60000));
            QVERIFY(w.selectCompile(select));
            QApplication::processEvents();
            const QImage window = widgetImage(w, 1.0, QStringLiteral("footer"));
            TimelineView* tl = w.timeline();
            const QImage timeline2x
                = timelineImage(*tl, QSize(tl->width(), tl->height() + kFooterHeight), 2.0,
                    imageFooterText(w.trace().get(), w.openPathList(), w.selection()->current(),
                        tl->viewRange(), tl->tzOffsetMinutes()));
            QCOMPARE(timeline2x.size(), QSize(tl->width(), tl->height() + kFooterHeight) * 2);
            const double lum = meanLuminance(timeline2x);
            QVERIFY2(isDark ? lum < 110 : lum > 150, qPrintable(QString::number(lum)));
            if (!keep.isEmpty()) {
                const QString stem = keep + QLatin1Char('/')
                    + QString::fromLatin1(QTest::currentDataTag())
                    + (isDark ? QStringLiteral("-dark") : QStringLiteral("-light"));
                QVERIFY(window.save(stem + QStringLiteral("-window.png")));
                QVERIFY(timeline2x.save(stem + QStringLiteral("-timeline@2x.png")));
                // A 1:1 piece of the 2x image, to judge sharpness at real pixels.
                QVERIFY(timeline2x.copy(0, 0, 1400, 800)
                            .save(stem + QStringLiteral("-timeline@2x-crop.png")));
            }
        }
        QApplication::setPalette(light);
    }

    void screenshotWithRange()
    {
        QTemporaryDir dir;
        MainWindow w(MainWindow::Options { false });
        ScreenshotRequest req;
        req.paths = { uitest::exampleTrace() };
        req.output = dir.filePath(QStringLiteral("range.png"));
        req.size = QSize(1280, 800);
        req.select = QStringLiteral("[3/1]");
        req.range = QStringLiteral("2:3.5");
        QString error;
        QCOMPARE(runScreenshot(w, req, &error), 0);
        const QImage image(req.output);
        QCOMPARE(image.size(), QSize(1280, 800));
        const auto& layout = w.timeline()->layout();
        const auto view = w.timeline()->viewRange();
        QVERIFY(std::abs(view.start - (layout.dataRange().start + 2e6)) < 1);
        QVERIFY(std::abs(view.end - (layout.dataRange().start + 3.5e6)) < 1);
    }

    void screenshotBadRange_data()
    {
        QTest::addColumn<QString>("range");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("syntax") << QStringLiteral("soon:later") << 1 << QStringLiteral("--range");
        QTest::newRow("reversed") << QStringLiteral("3:1") << 1
                                  << QStringLiteral("after the start");
        QTest::newRow("outside") << QStringLiteral("3600:3700") << 2
                                 << QStringLiteral("outside the trace");
    }

    void screenshotBadRange()
    {
        QFETCH(QString, range);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QProcess p;
        p.start(QStringLiteral(DYNASCOPE_GUI_BINARY),
            { QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")),
                QStringLiteral("--range"), range, uitest::exampleTrace() });
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), exitCode);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(message), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }
};

QTEST_MAIN(TestImageExport)
#include "tst_imageexport.moc"
