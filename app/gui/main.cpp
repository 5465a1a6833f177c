// dynascope: the desktop application. Command-line parsing and wiring only; the window and the
// headless screenshot mode live in dynascope_ui.
#include "ui/compare/comparecontroller.h"
#include "ui/examplepaths.h"
#include "ui/highcontrast.h"
#include "ui/inspector/guardstab.h"
#include "ui/inspector/whatifpanel.h"
#include "ui/inspectorview.h"
#include "ui/mainwindow.h"
#include "ui/record/recordingui.h"
#include "ui/screenshotrunner.h"
#include "ui/timeline/rangesummary.h"
#include "ui/timeline/timelineview.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QScreen>
#include <QTimer>

#include "core/run/run_folder.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

// Why high contrast came on, for those who ask (and the portal_contrast test).
Q_LOGGING_CATEGORY(lcContrast, "dynascope.contrast", QtWarningMsg)

using namespace dynascope::ui;

namespace {
void printError(const QString& message)
{
    std::fprintf(stderr, "dynascope: %s\n", qPrintable(message));
}

bool parseSize(const QString& text, QSize* size)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return false;
    *size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    return size->width() >= 200 && size->height() >= 150;
}
} // namespace

int main(int argc, char* argv[])
{
    // Screenshot mode, --help and --version must work on a machine without a display (a
    // terminal over ssh, a package check): fall back to the offscreen platform when nothing else
    // was asked for. Without it QApplication aborts before the options are even read.
    bool headless = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--")
            break;
        if (a.starts_with("--screenshot") || a == "-h" || a == "--help" || a == "--help-all"
            || a == "-v" || a == "--version")
            headless = true;
    }
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")
        && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Dynascope"));
    QApplication::setOrganizationName(QStringLiteral("Dynascope"));
    QApplication::setApplicationVersion(QStringLiteral(DYNASCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("dynascope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explorer for PyTorch compiler traces (TORCH_TRACE logs)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
        QStringLiteral("Trace files (.log, .log.zst, .log.gz) or TORCH_TRACE folders to open."),
        QStringLiteral("[PATH...]"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
        QStringLiteral("Render the window after loading into a PNG and exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"),
        QStringLiteral("Window size, default 1600x1000."), QStringLiteral("WxH"),
        QStringLiteral("1600x1000"));
    const QCommandLineOption scaleOpt(QStringLiteral("scale"),
        QStringLiteral("With --screenshot: device pixels per window pixel, 1 to 4 (default 1); "
                       "--scale 2 writes an image twice the --size, as a 2x screen shows it."),
        QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption selectOpt(QStringLiteral("select"),
        QStringLiteral("Select a compile, e.g. \"[0/1]\" or 0/1 (exit code 2 if absent)."),
        QStringLiteral("COMPILE_ID"));
    const QCommandLineOption tabOpt(QStringLiteral("tab"),
        QStringLiteral("Show this tab of the inspector: Summary, Why, Guards, Source, Artifacts, "
                       "Kernels or Raw (exit code 2 if absent)."),
        QStringLiteral("NAME"));
    const QCommandLineOption whatIfOpt(QStringLiteral("what-if"),
        QStringLiteral("With --select: fill the Guards tab's What if input with TEXT (\"x: "
                       "f32[48, 128]\", \"x.size(0) in 1..512\") and show that tab, unless "
                       "--tab names another (exit code 2 without a selected compile)."),
        QStringLiteral("TEXT"));
    const QCommandLineOption rangeOpt(QStringLiteral("range"),
        QStringLiteral("Show this time range on the timeline: START:END in seconds from the "
                       "trace start (\"1.5:3\", \"250ms:400ms\") or wall-clock times of the "
                       "traced process (\"10:41:02.100:10:41:02.900\"); START..END also works. "
                       "Exit code 1 if it cannot be read, 2 if it lies outside the trace."),
        QStringLiteral("START:END"));
    const QCommandLineOption exampleOpt(QStringLiteral("example"),
        QStringLiteral("Open the example trace shipped with Dynascope."));
    const QCommandLineOption recordOpt(QStringLiteral("record"),
        QStringLiteral("Run the command given after -- (dynascope --record -- python train.py) "
                       "with TORCH_TRACE set to a new folder and show its trace live while it "
                       "runs. Its output stays in this terminal."));
    const QCommandLineOption recordDirOpt(QStringLiteral("record-dir"),
        QStringLiteral("With --record: the trace folder, new or empty (default "
                       "./dynascope-runs/DATE-TIME)."),
        QStringLiteral("DIR"));
    const QCommandLineOption compareOpt(QStringLiteral("compare"),
        QStringLiteral("Compare the trace opened with another run of the program (B): B's "
                       "timeline under A's and the Changes panel (as File > Compare With…)."),
        QStringLiteral("B"));
    const QCommandLineOption runOpt(QStringLiteral("run"),
        QStringLiteral("Which run of a folder that holds several to open: a number (1 = the "
                       "oldest), newest (the default) or all (as File > Runs)."),
        QStringLiteral("N|newest|all"));
    const QCommandLineOption alignOpt(QStringLiteral("align-ranks"),
        QStringLiteral("Count each rank's time from its own start (as View > Align Ranks on Their "
                       "Start); --range is then relative to that start."));
    const QCommandLineOption noFoldOpt(QStringLiteral("no-fold"),
        QStringLiteral("Show idle gaps to scale (View > Fold Idle Gaps off)."));
    const QCommandLineOption followOpt(QStringLiteral("follow"),
        QStringLiteral("Follow a TORCH_TRACE folder a running job writes into, live (as File > "
                       "Follow Folder…): compiles appear as they are logged, rank files as they "
                       "appear."),
        QStringLiteral("DIR"));
    const QCommandLineOption shotAfterOpt(QStringLiteral("screenshot-after"),
        QStringLiteral("With --record or --follow: render the window into the --screenshot PNG "
                       "after SECONDS, while it follows the trace live, then exit (with "
                       "--record, once the program has ended)."),
        QStringLiteral("SECONDS"));
    parser.addOptions(
        { shotOpt, sizeOpt, scaleOpt, selectOpt, tabOpt, whatIfOpt, rangeOpt, exampleOpt, recordOpt,
            recordDirOpt, compareOpt, runOpt, alignOpt, noFoldOpt, followOpt, shotAfterOpt });
    const QCommandLineOption highContrastOpt(QStringLiteral("high-contrast"),
        QStringLiteral("High-contrast colours: black on white (white on black on a dark desktop "
                       "or with DYNASCOPE_HIGH_CONTRAST=dark), strong status colours, outlined "
                       "compiles. Used without it when the desktop asks (GTK_THEME, GNOME's or "
                       "KDE's setting); DYNASCOPE_HIGH_CONTRAST=0 turns that off."));
    parser.addOption(highContrastOpt);
    parser.process(app);
    // Before any window exists, so every widget starts with the palette.
    if (const ContrastRequest contrast = highContrastRequest(parser.isSet(highContrastOpt));
        contrast.on) {
        // Says what asked for it (QT_LOGGING_RULES=dynascope.contrast.info=true).
        qCInfo(lcContrast, "high contrast (%s): %s", contrast.dark ? "dark" : "light",
            qPrintable(contrast.why));
        applyHighContrast(contrast.dark);
    }
    const bool live = parser.isSet(recordOpt) || parser.isSet(followOpt);
    if (parser.isSet(recordOpt) && parser.isSet(followOpt)) {
        printError(QStringLiteral("--record and --follow do not go together"));
        return 1;
    }
    if (live && parser.isSet(exampleOpt)) {
        printError(QStringLiteral("--record and --follow do not go with --example"));
        return 1;
    }
    if (live && parser.isSet(shotOpt) != parser.isSet(shotAfterOpt)) {
        printError(QStringLiteral("with --record or --follow, --screenshot needs "
                                  "--screenshot-after SECONDS (and the other way round)"));
        return 1;
    }
    if (parser.isSet(shotAfterOpt) && !live) {
        printError(QStringLiteral("--screenshot-after goes with --record or --follow"));
        return 1;
    }
    bool secondsOk = true;
    const double shotAfter
        = parser.isSet(shotAfterOpt) ? parser.value(shotAfterOpt).toDouble(&secondsOk) : 0;
    if (!secondsOk || shotAfter < 0 || shotAfter > 86400) {
        printError(QStringLiteral("--screenshot-after wants seconds (0 to 86400), got \"%1\"")
                       .arg(parser.value(shotAfterOpt)));
        return 1;
    }
    if (parser.isSet(recordOpt) && parser.positionalArguments().isEmpty()) {
        printError(
            QStringLiteral("--record needs a command: dynascope --record -- python train.py"));
        return 1;
    }
    if (parser.isSet(recordDirOpt) && !parser.isSet(recordOpt)) {
        printError(QStringLiteral("--record-dir goes with --record"));
        return 1;
    }

    dynascope::LoadOptions loadChoice;
    if (parser.isSet(runOpt)
        && !dynascope::parseRunChoice(parser.value(runOpt).toStdString(), loadChoice)) {
        printError(QStringLiteral("--run wants a run number, newest or all, got \"%1\"")
                       .arg(parser.value(runOpt)));
        return 1;
    }

    QSize size;
    if (!parseSize(parser.value(sizeOpt), &size)) {
        printError(QStringLiteral(
            "--size wants WIDTHxHEIGHT, e.g. 1600x1000 (at least 200x150), got \"%1\"")
                       .arg(parser.value(sizeOpt)));
        return 1;
    }
    bool scaleOk = false;
    double scale = parser.value(scaleOpt).toDouble(&scaleOk);
    // Without --scale, the screen's ratio: QT_SCALE_FACTOR=2 (or a 2x screen) writes an image
    // twice the --size, as --scale 2 does.
    if (!parser.isSet(scaleOpt))
        scale = std::clamp(QGuiApplication::primaryScreen()
                ? QGuiApplication::primaryScreen()->devicePixelRatio()
                : 1.0,
            1.0, 4.0);
    if (!scaleOk || scale < 1 || scale > 4) {
        printError(QStringLiteral("--scale wants a number from 1 to 4, got \"%1\"")
                       .arg(parser.value(scaleOpt)));
        return 1;
    }
    if (parser.isSet(scaleOpt) && !parser.isSet(shotOpt)) {
        printError(QStringLiteral("--scale goes with --screenshot"));
        return 1;
    }
    QStringList paths = parser.isSet(recordOpt) ? QStringList() : parser.positionalArguments();
    if (parser.isSet(exampleOpt)) {
        const QString example = exampleTracePath();
        if (example.isEmpty()) {
            printError(QStringLiteral("the example trace was not found next to the program"));
            return 2;
        }
        paths.prepend(example);
    }
    const QString select = parser.value(selectOpt);
    const QString range = parser.value(rangeOpt);
    if (parser.isSet(rangeOpt)) {
        // Syntax first, before anything loads; whether it lies inside the trace is known later.
        QString why;
        if (!dynascope::ui::timeline::parseTimeRange(range, 0, 0, &why)) {
            printError(why);
            return 1;
        }
    }

    // View settings of the timeline, through the View menu's own actions so the menu agrees.
    auto applyViewOptions = [&](MainWindow& window) {
        if (auto* a = window.findChild<QAction*>(QStringLiteral("alignRanks")))
            a->setChecked(parser.isSet(alignOpt));
        if (auto* a = window.findChild<QAction*>(QStringLiteral("foldIdleGaps")))
            a->setChecked(!parser.isSet(noFoldOpt));
    };

    if (parser.isSet(shotOpt) && !live) {
        MainWindow window(MainWindow::Options { false });
        applyViewOptions(window);
        ScreenshotRequest request;
        request.paths = paths;
        request.load = loadChoice;
        request.output = parser.value(shotOpt);
        request.size = size;
        request.scale = scale;
        request.select = select;
        request.tab = parser.value(tabOpt);
        request.whatIf = parser.value(whatIfOpt);
        request.range = range;
        request.compare = parser.value(compareOpt);
        QString error;
        const int rc = runScreenshot(window, request, &error);
        if (rc != 0)
            printError(error);
        return rc;
    }

    const bool liveShot = parser.isSet(shotAfterOpt);
    MainWindow window(MainWindow::Options { !liveShot });
    applyViewOptions(window);
    if (parser.isSet(sizeOpt) || liveShot)
        window.resize(size);
    window.show();
    // A window manager activates a new window; where none runs (a bare X server, Xvfb), ask for
    // it, so the keyboard reaches the window from the start.
    window.activateWindow();
    if (!select.isEmpty()) {
        QObject::connect(
            &window, &MainWindow::loadFinished, &window,
            [&window, select](bool) {
                if (!window.selectCompile(select)) {
                    printError(QStringLiteral("no compile %1 in the trace").arg(select));
                    QApplication::exit(2);
                }
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(tabOpt)) {
        const QString tab = parser.value(tabOpt);
        QObject::connect(
            &window, &MainWindow::loadFinished, &window,
            [&window, tab](bool) {
                if (!window.inspector()->showTabNamed(tab)) {
                    printError(QStringLiteral("no inspector tab %1").arg(tab));
                    QApplication::exit(2);
                }
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(whatIfOpt)) {
        const QString text = parser.value(whatIfOpt);
        const bool otherTab = parser.isSet(tabOpt);
        QObject::connect(
            &window, &MainWindow::loadFinished, &window,
            [&window, text, otherTab](bool) {
                if (window.inspector()->compile() == dynascope::kNone) {
                    printError(QStringLiteral("--what-if needs a selected compile (--select ID)"));
                    QApplication::exit(2);
                    return;
                }
                if (!otherTab)
                    window.inspector()->showTabNamed(QStringLiteral("Guards"));
                window.inspector()->guardsTab()->whatIf()->setInput(text);
            },
            Qt::SingleShotConnection);
    }
    if (!range.isEmpty()) {
        QObject::connect(
            &window, &MainWindow::loadFinished, &window,
            [&window, range](bool) {
                TimelineView* tl = window.timeline();
                const auto r = dynascope::ui::timeline::parseTimeRange(
                    range, tl->layout().dataRange().start, tl->tzOffsetMinutes(), nullptr);
                if (r && tl->layout().hasTime())
                    tl->setViewRange(*r);
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(compareOpt)) {
        const QString b = parser.value(compareOpt);
        QObject::connect(
            &window, &MainWindow::loadFinished, &window,
            [&window, b](bool ok) {
                if (ok)
                    window.compare()->compareWith(b);
            },
            Qt::SingleShotConnection);
    }
    if (!paths.isEmpty())
        window.openPaths(paths, loadChoice);
    if (parser.isSet(recordOpt)) {
        RunRequest request;
        request.argv = parser.positionalArguments();
        request.folder = parser.isSet(recordDirOpt)
            ? parser.value(recordDirOpt)
            : QString::fromStdString(dynascope::run::defaultRunFolder());
        QString error;
        if (!window.recording()->start(request, &error)) {
            printError(error);
            return error.endsWith(QStringLiteral("command not found")) ? 127 : 1;
        }
        std::fprintf(stderr, "dynascope: recording into %s (TORCH_TRACE)\n",
            qPrintable(window.recording()->controller()->folder()));
    }
    if (parser.isSet(followOpt))
        window.recording()->follow(parser.value(followOpt));
    if (liveShot) {
        const QString out = parser.value(shotOpt);
        QTimer::singleShot(static_cast<int>(shotAfter * 1000), &window, [&window, out] {
            if (!renderWidget(window).save(out, "PNG")) {
                printError(QStringLiteral("cannot write %1").arg(out));
                QApplication::exit(3);
                return;
            }
            std::fprintf(stderr, "dynascope: saved %s\n", qPrintable(out));
            RunController* run = window.recording()->controller();
            if (!run->isRunning()) {
                QApplication::exit(0);
                return;
            }
            QObject::connect(run, &RunController::finished, &window,
                [] { QTimer::singleShot(0, [] { QApplication::exit(0); }); });
        });
    }
    return app.exec();
}
