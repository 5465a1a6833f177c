// TORCH_LOGS text in the window: a capture opened as a file (the example scenario's committed
// text), and a terminal paste through File > Paste Log (Ctrl+Shift+V) from the clipboard. The Why
// tab of the recompile shows the failed guard from the earlier compile's guard dump; the
// Artifacts and Raw tabs show the statements as the text has them; what the text does not carry
// is shown as absent. With DYNASCOPE_SHOT_DIR set, the screens are kept there to look at.
#include "ui/compilebrowser.h"
#include "ui/compileselection.h"
#include "ui/inspector/codeviewer.h"
#include "ui/inspector/sourcetab.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/mainwindow.h"

#include "uitesthelpers.h"
#include "windowdriver.h"

#include <QClipboard>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>

using namespace dynascope;
using namespace dynascope::ui;
using namespace dynascope::uitest;

namespace {
const QString kCapture = QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED "/example/torch_logs.txt.zst");
const QString kPaste = QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED "/example/terminal_paste.txt");

QString tabText(InspectorView* inspector, const QString& tab)
{
    QTabWidget* tabs = inspector->tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i).remove(QLatin1Char('&')) != tab)
            continue;
        tabs->setCurrentIndex(i);
        QApplication::processEvents();
        QStringList parts;
        for (QLabel* l : tabs->widget(i)->findChildren<QLabel*>())
            parts << l->text();
        for (QPlainTextEdit* e : tabs->widget(i)->findChildren<QPlainTextEdit*>())
            parts << e->toPlainText();
        for (QTextEdit* e : tabs->widget(i)->findChildren<QTextEdit*>())
            parts << e->toPlainText();
        return parts.join(u'\n');
    }
    return {};
}
} // namespace

class TestTorchLogsGui : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests")); }

    // The example's capture: [3/1] recompiled because TENSOR_MATCH on L['x'] of [3/0] failed.
    void captureShowsTheFailedGuard()
    {
        MainWindow w(MainWindow::Options { false });
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, { kCapture }));
        QCOMPARE(int(w.trace()->files[0].format), int(TraceFormat::TorchLogs));
        // The text names no PyTorch release: the status bar says none, its tooltip why.
        auto* status = w.findChild<QLabel*>(QStringLiteral("summary"));
        QVERIFY(status);
        QVERIFY2(!status->text().contains(QStringLiteral("PyTorch")), qPrintable(status->text()));
        QVERIFY2(status->toolTip().contains(QStringLiteral("does not name the PyTorch release")),
            qPrintable(status->toolTip()));
        QVERIFY(clickCompileRow(w, QStringLiteral("[3/1]")));
        const QString why = w.inspector()->whyView()->toPlainText();
        QVERIFY2(why.contains(QStringLiteral("Why it recompiled")), qPrintable(why));
        QVERIFY2(
            why.contains(QStringLiteral("failed guard: TENSOR_MATCH on L['x']")), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("size mismatch at index 0. expected 32, actual 64")),
            qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("in the guards of [3/0]")), qPrintable(why));
        keepShot(w, QStringLiteral("issue13-capture-why-recompile"));

        // The statements, named by their first words; the first one's message shows.
        tabText(w.inspector(), QStringLiteral("Artifacts"));
        auto* list = w.inspector()->tabs()->currentWidget()->findChild<QTreeView*>();
        QVERIFY(list);
        QCOMPARE(list->model()->index(0, 0).data().toString(),
            QStringLiteral("Recompiling function scale in example.py:36"));
        list->setCurrentIndex(list->model()->index(0, 0));
        const QString artifacts = tabText(w.inspector(), QStringLiteral("Artifacts"));
        keepShot(w, QStringLiteral("issue13-capture-artifacts"));
        QVERIFY2(artifacts.contains(QStringLiteral("- 3/0: tensor 'x' size mismatch")),
            qPrintable(artifacts.left(400)));
        const QString summary = tabText(w.inspector(), QStringLiteral("Summary"));
        keepShot(w, QStringLiteral("issue13-capture-summary"));
        QVERIFY2(!summary.contains(QStringLiteral("0 µs")), qPrintable(summary));

        // [4/0]: the text has one statement of it, so no duration, not 0.
        QVERIFY(clickCompileRow(w, QStringLiteral("[4/0]")));
        const QString why4 = w.inspector()->whyView()->toPlainText();
        keepShot(w, QStringLiteral("issue13-capture-why-missing"));
        QVERIFY2(!why4.contains(QStringLiteral("0 µs")), qPrintable(why4));
    }

    // Copy the terminal paste, press Ctrl+Shift+V: the same answers; F5 reads the text again.
    void pasteFromTheClipboard()
    {
        QFile f(kPaste);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QGuiApplication::clipboard()->setText(QString::fromUtf8(f.readAll()));
        MainWindow w(MainWindow::Options { false });
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QTest::keyClick(&w, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(loaded.wait(60000));
        QVERIFY(w.trace());
        QCOMPARE(int(w.trace()->files[0].format), int(TraceFormat::TorchLogs));
        QCOMPARE(w.trace()->files[0].path, std::string("pasted text"));
        QVERIFY2(
            w.windowTitle().startsWith(QStringLiteral("pasted text")), qPrintable(w.windowTitle()));
        QVERIFY(clickCompileRow(w, QStringLiteral("[3/1]")));
        const QString why = w.inspector()->whyView()->toPlainText();
        QVERIFY2(
            why.contains(QStringLiteral("failed guard: TENSOR_MATCH on L['x']")), qPrintable(why));
        keepShot(w, QStringLiteral("issue13-paste-why-recompile"));
        // The break of [1/0] whose first lines the paste lost: what is left.
        QVERIFY(clickCompileRow(w, QStringLiteral("[1/0]")));
        keepShot(w, QStringLiteral("issue13-paste-why-cut-break"));
        const QString raw = tabText(w.inspector(), QStringLiteral("Raw"));
        keepShot(w, QStringLiteral("issue13-paste-raw"));
        QVERIFY2(raw.contains(QStringLiteral("a TORCH_LOGS statement")), qPrintable(raw.left(300)));

        const size_t compiles = w.trace()->compiles.size();
        QSignalSpy again(&w, &MainWindow::loadFinished);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(again.wait(60000));
        QCOMPARE(w.trace()->compiles.size(), compiles);
        QCOMPARE(w.trace()->files[0].path, std::string("pasted text"));
        QCOMPARE(w.selection()->current(),
            0u
                + uint32_t(std::find_if(w.trace()->compiles.begin(), w.trace()->compiles.end(),
                               [](const Compile& c) { return c.id.display() == "[1/0]"; })
                    - w.trace()->compiles.begin()));
    }

    // The recorded traces name the program "example.py" (the runner starts programs by their
    // bare name): the Source tab finds it beside the trace, as the bundled example ships it.
    void sourceBesideTheTrace()
    {
        SourceTab tab;
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.setTrace(loadTrace(QStringLiteral(DYNASCOPE_BUNDLED_EXAMPLE)));
        tab.showLocation(QStringLiteral("example.py"), 37);
        QCOMPARE(int(tab.origin()), int(SourceTab::Origin::LocalFile));
        QVERIFY2(tab.resolvedPath().endsWith(QStringLiteral("resources/examples/example.py")),
            qPrintable(tab.resolvedPath()));
        QVERIFY2(
            !tab.statusText().contains(QStringLiteral("remapped")), qPrintable(tab.statusText()));
        tab.resize(900, 500);
        keepShot(tab, QStringLiteral("issue13-source-beside-trace"));
        QCOMPARE(tab.viewer()->editor()->document()->findBlockByNumber(36).text(),
            QStringLiteral("    return (x * 0.5 + 1).sum(dim=-1)"));
        // The same name from a trace elsewhere is not there: the trace's own lines instead.
        tab.setTrace(loadTrace(kCapture));
        tab.showLocation(QStringLiteral("example.py"), 37);
        QVERIFY(tab.origin() != SourceTab::Origin::LocalFile);
    }

    // An empty clipboard says so and leaves the window as it was.
    void emptyClipboard()
    {
        QGuiApplication::clipboard()->setText(QString());
        MainWindow w(MainWindow::Options { false });
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(!w.trace());
        QVERIFY2(
            w.statusBar()->currentMessage().contains(QStringLiteral("clipboard holds no text")),
            qPrintable(w.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestTorchLogsGui)
#include "tst_torchlogsgui.moc"
