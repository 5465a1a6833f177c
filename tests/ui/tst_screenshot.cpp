// Screenshot mode: the function main() uses, and the binary itself through QProcess. The PNG must
// have the requested size and show more than a blank window.
#include "ui/examplepaths.h"
#include "ui/mainwindow.h"
#include "ui/screenshotrunner.h"

#include "uitesthelpers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace dynascope;
using namespace dynascope::ui;

class TestScreenshot : public QObject {
    Q_OBJECT

    static int distinctColours(const QImage& image)
    {
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        }
        return static_cast<int>(colours.size());
    }

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    void rendersRequestedSize()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        QTemporaryDir dir;
        MainWindow w(MainWindow::Options { false });
        ScreenshotRequest req;
        req.paths = { uitest::exampleTrace() };
        req.output = dir.filePath(QStringLiteral("shot.png"));
        req.size = QSize(1200, 800);
        req.select = QStringLiteral("[3/1]");
        QString error;
        QCOMPARE(runScreenshot(w, req, &error), 0);
        QVERIFY(error.isEmpty());
        const QImage image(req.output);
        QCOMPARE(image.size(), QSize(1200, 800));
        const int colours = distinctColours(image);
        QVERIFY2(colours > 20, qPrintable(QString::number(colours)));
    }

    void failsOnMissingCompileOrPath()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        QTemporaryDir dir;
        {
            MainWindow w(MainWindow::Options { false });
            ScreenshotRequest req { { uitest::exampleTrace() },
                dir.filePath(QStringLiteral("a.png")), QSize(800, 600), QStringLiteral("[7/7]") };
            QString error;
            QCOMPARE(runScreenshot(w, req, &error), 2);
            QVERIFY(error.contains(QStringLiteral("[7/7]")));
        }
        {
            MainWindow w(MainWindow::Options { false });
            ScreenshotRequest req { { QStringLiteral("/nonexistent/x.log") },
                dir.filePath(QStringLiteral("b.png")), QSize(800, 600), {} };
            QString error;
            QCOMPARE(runScreenshot(w, req, &error), 2);
            QVERIFY2(error.contains(QStringLiteral("/nonexistent/x.log")), qPrintable(error));
        }
        {
            MainWindow w(MainWindow::Options { false });
            ScreenshotRequest req { { uitest::exampleTrace() },
                QStringLiteral("/nonexistent/dir/c.png"), QSize(800, 600), {} };
            QString error;
            QCOMPARE(runScreenshot(w, req, &error), 3);
        }
    }

    // --example finds the example in an installed prefix and in a build tree alike.
    void examplePaths()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath(QStringLiteral("prefix"));
        QVERIFY(QDir().mkpath(prefix + QStringLiteral("/bin")));
        QVERIFY(QDir().mkpath(prefix + QStringLiteral("/share/dynascope/examples")));
        QVERIFY(QFile::copy(uitest::exampleTrace(),
            prefix + QStringLiteral("/share/dynascope/examples/example.log")));
        QCOMPARE(exampleTracePath(prefix + QStringLiteral("/bin")),
            QFileInfo(prefix + QStringLiteral("/share/dynascope/examples/example.log"))
                .canonicalFilePath());
        const QString repo = dir.filePath(QStringLiteral("repo"));
        QVERIFY(QDir().mkpath(repo + QStringLiteral("/build-release/bin")));
        QVERIFY(QDir().mkpath(repo + QStringLiteral("/resources/examples")));
        QVERIFY(QFile::copy(
            uitest::exampleTrace(), repo + QStringLiteral("/resources/examples/example.log")));
        QCOMPARE(exampleTracePath(repo + QStringLiteral("/build-release/bin")),
            QFileInfo(repo + QStringLiteral("/resources/examples/example.log"))
                .canonicalFilePath());
        // This very build finds the repository's example.
        QCOMPARE(exampleTracePath(QFileInfo(QStringLiteral(DYNASCOPE_GUI_BINARY)).absolutePath()),
            QFileInfo(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE)).canonicalFilePath());
    }

    void binary_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QSize>("size");
        QTest::newRow("example, selected") << QStringList { QStringLiteral("--size"),
            QStringLiteral("1000x700"), QStringLiteral("--select"), QStringLiteral("3/2"),
            QStringLiteral(DYNASCOPE_EXAMPLE_TRACE) }
                                           << 0 << QSize(1000, 700);
        // Issue 17: a view 5 µs wide at epoch-scale times on a 7000 px window looped in the
        // axis ticks until std::bad_alloc.
        QTest::newRow("5 µs at 7000 px") << QStringList { QStringLiteral("--size"),
            QStringLiteral("7000x900"), QStringLiteral("--range"),
            QStringLiteral("1.000000:1.000005"), QStringLiteral(DYNASCOPE_EXAMPLE_TRACE) }
                                         << 0 << QSize(7000, 900);
        QTest::newRow("--example, default size")
            << QStringList { QStringLiteral("--example") } << 0 << QSize(1600, 1000);
        QTest::newRow("absent compile") << QStringList { QStringLiteral("--select"),
            QStringLiteral("[5/5]"), QStringLiteral(DYNASCOPE_EXAMPLE_TRACE) }
                                        << 2 << QSize();
        QTest::newRow("missing file")
            << QStringList { QStringLiteral("/nonexistent/trace.log") } << 2 << QSize();
        QTest::newRow("bad size") << QStringList { QStringLiteral("--size"),
            QStringLiteral("huge") }
                                  << 1 << QSize();
    }
    void binary()
    {
        SKIP_UNLESS_EXISTS(uitest::exampleTrace());
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QSize, size);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.start(QStringLiteral(DYNASCOPE_GUI_BINARY),
            QStringList { QStringLiteral("--screenshot"), out } + args);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == exitCode, err.constData());
        if (exitCode != 0) {
            QVERIFY2(err.contains("dynascope: "), err.constData()); // a clear message on stderr
            return;
        }
        const QImage image(out);
        QCOMPARE(image.size(), size);
        QVERIFY(distinctColours(image) > 20);
    }
};

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
