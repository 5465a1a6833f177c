// Headless screenshot mode (`dynascope --screenshot OUT.png TRACE`): load into a real MainWindow,
// wait for the load, optionally select a compile, render the window into a PNG of the requested
// size. main() and tst_screenshot call the same function, so the test covers what users run.
#pragma once

#include "core/load/loader.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

class QWidget;

namespace dynascope::ui {

class MainWindow;

struct ScreenshotRequest {
    QStringList paths;
    QString output; // PNG path; empty: do not write an image
    QSize size { 1600, 1000 };
    QString select; // compile id to select, empty for none
    QString compare = {}; // a trace to compare the loaded one with (B), empty for none
    QString range = {}; // timeline range to show (timeline::parseTimeRange), empty for all
    QString tab = {}; // the inspector tab to show ("Kernels"), empty for the default
    // The What if input of the Guards tab (`x.size(0) in 1..512`), empty for the recorded call;
    // it needs a selected compile, and shows the Guards tab unless `tab` names another.
    QString whatIf = {};
    qreal scale = 1; // device pixels per window pixel: the PNG is size * scale (--scale 2)
    int timeoutMs = 10 * 60 * 1000;
    LoadOptions load = {}; // which run of a folder (--run)
};

// Returns 0 on success; otherwise an exit code (1: the range cannot be read, 2: a path failed to
// load, the compile to select or the tab is absent, --what-if has no compile or the range lies
// outside the trace, 3: the image could not be written, 4: timeout) with a message in *error.
int runScreenshot(MainWindow& window, const ScreenshotRequest& request, QString* error);

// The widget as shown, rendered into an image of its size times `scale` in device pixels (device
// pixel ratio `scale`: lines and text drawn at that resolution, not magnified).
QImage renderWidget(QWidget& widget, qreal scale = 1);

} // namespace dynascope::ui
