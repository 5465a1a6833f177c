#include "ui/screenshotrunner.h"

#include "ui/mainwindow.h"

#include <QApplication>
#include <QEventLoop>
#include <QPainter>
#include <QTimer>

namespace dynascope::ui {

QImage renderWidget(QWidget& widget)
{
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(widget.palette().color(QPalette::Window));
    widget.render(&image);
    return image;
}

int runScreenshot(MainWindow& window, const ScreenshotRequest& request, QString* error)
{
    auto fail = [&](int code, const QString& message) {
        if (error)
            *error = message;
        return code;
    };
    window.resize(request.size);
    window.show();
    QApplication::processEvents();

    if (!request.paths.isEmpty()) {
        bool ok = false;
        bool done = false;
        QStringList errors;
        QEventLoop loop;
        auto conn = QObject::connect(
            &window, &MainWindow::loadFinished, &loop, [&](bool success, const QStringList& errs) {
                ok = success;
                errors = errs;
                done = true;
                loop.quit();
            });
        QTimer::singleShot(request.timeoutMs, &loop, &QEventLoop::quit);
        window.openPaths(request.paths);
        if (!done)
            loop.exec();
        QObject::disconnect(conn);
        if (!done)
            return fail(4,
                QStringLiteral("timed out loading %1")
                    .arg(request.paths.join(QStringLiteral(", "))));
        if (!ok)
            return fail(2,
                QStringLiteral("could not load: %1")
                    .arg(errors.isEmpty() ? request.paths.join(QStringLiteral(", "))
                                          : errors.join(QStringLiteral("; "))));
    }
    if (!request.select.isEmpty() && !window.selectCompile(request.select))
        return fail(2, QStringLiteral("no compile %1 in the trace").arg(request.select));

    // Let layouts, the view's scroll-to and deferred repaints settle.
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
    if (request.output.isEmpty())
        return 0;
    if (window.size() != request.size)
        window.resize(request.size);
    QApplication::processEvents();
    QImage image = renderWidget(window);
    if (image.size() != request.size)
        image = image.copy(QRect(QPoint(0, 0), request.size));
    if (!image.save(request.output, "PNG"))
        return fail(3, QStringLiteral("could not write the image %1").arg(request.output));
    return 0;
}

} // namespace dynascope::ui
