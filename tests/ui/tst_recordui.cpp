// Recording a run in the window (ui/record) and the Probe view (ui/probe), driven as a user
// would: the Recording page and the "● live" indicator while the stand-in program
// (tests/tools/standin.cpp) runs, its trace shown while it runs, Stop sending SIGINT; the trace
// followed live as the program writes it (a stand-in writing a committed PyTorch log piece by
// piece); File > Follow Folder… with rank files appearing; the output shown as it grows; a run
// that wrote no trace; the Record a Run dialog's checks; and a real probe folder
// (tests/probe/recorded) in the Probe view with its table, verdict and runs.
#include "core/run/run_folder.h"
#include "ui/compileselection.h"
#include "ui/mainactions.h"
#include "ui/mainwindow.h"
#include "ui/models/probetablemodel.h"
#include "ui/probe/probedock.h"
#include "ui/record/livefollower.h"
#include "ui/record/recorddialog.h"
#include "ui/record/recordingui.h"
#include "ui/record/recordingviews.h"
#include "ui/timeline/timelineview.h"

#include "core/io/input_buffer.h"
#include "core/load/loader.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <set>

using namespace dynascope;
using namespace dynascope::ui;

namespace {
const QString kStandIn = QStringLiteral(DYNASCOPE_STANDIN);

QString labelText(QWidget* root, const char* name)
{
    auto* l = root->findChild<QLabel*>(QString::fromLatin1(name));
    return l ? l->text() : QString();
}
} // namespace

class TestRecordUi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordsAndShowsTheTraceLive()
    {
        QTemporaryDir tmp;
        MainWindow w(MainWindow::Options { false });
        w.resize(1200, 800);
        w.show();
        RunRequest r;
        r.argv = { kStandIn, QStringLiteral("--catch-sigint") };
        r.folder = tmp.filePath(QStringLiteral("run"));
        QString error;
        QVERIFY2(w.recording()->start(r, &error), qPrintable(error));
        RunController* run = w.recording()->controller();
        QVERIFY(run->isRunning());
        // From the start: the Recording page (no trace is open) and the live indicator.
        auto* stack = w.findChild<QStackedWidget*>();
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(w.recording()->page()));
        QTRY_VERIFY(w.recording()->indicator()->isVisible());
        QTRY_VERIFY(w.recording()->indicator()->text().startsWith(
            QStringLiteral("● live recording dynascope-standin --catch-sigint")));
        QVERIFY(labelText(&w, "recordingTrace").contains(QStringLiteral("followed live")));
        auto* actions = w.findChild<MainActions*>();
        QVERIFY(actions->stopRun->isEnabled());
        QVERIFY(!actions->recordRun->isEnabled());
        // The stand-in writes its trace and waits: the window shows it while the program runs.
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr, 20000);
        // (The first state shown may hold only the first compile: the stand-in's writes arrive
        // in pieces of its stream buffer, as a real program's do.)
        QTRY_COMPARE_WITH_TIMEOUT(w.trace()->compiles.size(), size_t(2), 10000);
        QVERIFY(run->isRunning());
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("centreSplitter"));
        QTRY_VERIFY(w.recording()->indicator()->text().contains(QStringLiteral("2 compiles")));
        // Stop sends SIGINT: the stand-in counts one and exits 11; the final trace stays open.
        QTest::qWait(300); // the stand-in installs its handler after writing its trace
        actions->stopRun->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!run->isRunning(), 20000);
        QVERIFY(run->status() && !run->status()->signaled);
        QCOMPARE(run->status()->code, 11);
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr, 20000);
        QCOMPARE(w.trace()->compiles.size(), size_t(2));
        QCOMPARE(w.openPathList(), QStringList { QDir(r.folder).absolutePath() });
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("centreSplitter"));
        QVERIFY(w.recording()->indicator()->text().startsWith(
            QStringLiteral("recorded dynascope-standin --catch-sigint: exited with status 11")));
        QVERIFY(!actions->stopRun->isEnabled());
        QVERIFY(actions->recordRun->isEnabled());
        auto rec = run::readRunRecord(r.folder.toStdString(), nullptr);
        QVERIFY(rec && rec->exit && rec->exit->code == 11);
    }

    // A program that writes its trace over 2 seconds (the committed example PyTorch wrote, in 8
    // pieces cut anywhere): the window shows it growing while the program runs, each compile
    // once, and ends with what opening the finished folder shows.
    void followsAGrowingTraceLive()
    {
        const QString log = QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED)
            + u"/example/dedicated_log_torch_trace.log.zst"_qs;
        QTemporaryDir tmp;
        MainWindow w(MainWindow::Options { false });
        w.resize(1200, 800);
        w.show();
        RunRequest r;
        r.argv = { kStandIn, u"--trace-from"_qs, log, u"--pieces"_qs, u"8"_qs, u"--every"_qs,
            u"300"_qs };
        r.folder = tmp.filePath(u"run"_qs);
        QVERIFY(w.recording()->start(r, nullptr));
        RunController* run = w.recording()->controller();
        auto* follower = qobject_cast<LiveFollower*>(run->follower());
        QVERIFY(follower);
        std::vector<size_t> counts; // compiles shown, at each update while the program ran
        connect(follower, &TraceFollower::traceUpdated, this,
            [&](const std::shared_ptr<const Trace>& t, const QStringList&, bool final) {
                if (!t || final)
                    return;
                counts.push_back(t->compiles.size());
                std::set<std::string> ids;
                for (const Compile& c : t->compiles)
                    ids.insert(c.id.display());
                QCOMPARE(ids.size(), t->compiles.size()); // each compile once
            });
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr && run->isRunning(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!run->isRunning(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!follower->isFollowing(), 20000);
        QVERIFY2(counts.size() >= 2, "the trace was shown only once while it grew");
        QVERIFY(std::is_sorted(counts.begin(), counts.end()));
        // The window ends with what opening the finished folder shows. Its last update is the
        // follower's final read, loaded on a worker thread: it may land after the follower
        // stopped (slowly under the sanitizers), so wait for it.
        const LoadResult opened = load({ r.folder.toStdString() });
        QVERIFY(opened.trace);
        QTRY_COMPARE_WITH_TIMEOUT(w.trace()->compiles.size(), opened.trace->compiles.size(), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(w.trace()->records.size(), opened.trace->records.size(), 20000);
        QVERIFY(counts.front() < counts.back() || counts.front() < w.trace()->compiles.size());
        // The view followed the trace as it grew: all of it shows.
        const auto view = w.timeline()->viewRange();
        const auto all = w.timeline()->layout().toTrace(w.timeline()->layout().bounds());
        qInfo("view %f..%f, trace %f..%f", view.start, view.end, all.start, all.end);
        QVERIFY(view.start <= all.start && view.end >= all.end);
        // Every byte was read once.
        QCOMPARE(follower->bytesRead(),
            qint64(QFileInfo(QDir(r.folder).filePath(u"dedicated_log_torch_trace_st4nd1n_.log"_qs))
                       .size()));
    }

    // File > Follow Folder…: a folder another process writes into; rank files that appear join;
    // Stop Following ends it; opening another trace ends it too.
    void followFolderAddsRankFilesAsTheyAppear()
    {
        const QString source = QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED) + u"/two_ranks_gloo"_qs;
        QTemporaryDir tmp;
        MainWindow w(MainWindow::Options { false });
        w.resize(1200, 800);
        w.show();
        auto copy = [&](int rank) {
            std::string error;
            const QString path
                = source + u"/dedicated_log_torch_trace_rank_%1.log.zst"_qs.arg(rank);
            auto in = InputBuffer::open(path.toStdString(), 1 << 30, error);
            QFile out(tmp.filePath(u"dedicated_log_torch_trace_rank_%1.log"_qs.arg(rank)));
            QVERIFY(in && out.open(QIODevice::WriteOnly));
            out.write(in->data(), qint64(in->size()));
        };
        w.recording()->follow(tmp.path());
        FollowIndicator* indicator = w.recording()->followIndicator();
        QTRY_VERIFY(indicator->text().contains(u"no trace yet"_qs));
        auto* actions = w.findChild<MainActions*>();
        QVERIFY(actions->stopFollowing->isEnabled());
        copy(0);
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() && w.trace()->files.size() == 1, 10000);
        QTRY_VERIFY(indicator->text().startsWith(u"● live following"_qs));
        const size_t one = w.trace()->compiles.size();
        copy(1);
        QTRY_VERIFY_WITH_TIMEOUT(w.trace()->files.size() == 2, 10000);
        QCOMPARE(w.trace()->compiles.size(), 2 * one);
        QTRY_VERIFY(indicator->text().contains(u"in 2 files"_qs));
        actions->stopFollowing->trigger();
        QVERIFY(!w.recording()->follower()->isFollowing());
        QVERIFY(!indicator->isVisible());
        QVERIFY(!actions->stopFollowing->isEnabled());
        // What stays open is the folder: Reload reads it from disk.
        QCOMPARE(w.openPathList(), QStringList { QDir(tmp.path()).absolutePath() });
    }

    void showsCapturedOutputAndSaysWhenThereIsNoTrace()
    {
        QTemporaryDir tmp;
        MainWindow w(MainWindow::Options { false });
        w.show();
        RunRequest r;
        r.argv = { kStandIn, QStringLiteral("--print-env"), QStringLiteral("TORCH_TRACE"),
            QStringLiteral("--trace"), QStringLiteral("none"), QStringLiteral("--exit"),
            QStringLiteral("3") };
        r.folder = tmp.filePath(QStringLiteral("run"));
        r.captureOutput = true;
        QVERIFY(w.recording()->start(r, nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(!w.recording()->controller()->isRunning(), 20000);
        QTRY_VERIFY(w.recording()->page()->outputText().contains(
            QStringLiteral("TORCH_TRACE=") + QDir(r.folder).absolutePath()));
        QVERIFY(QFile::exists(QDir(r.folder).filePath(QStringLiteral("output.log"))));
        QVERIFY(labelText(&w, "recordingState")
                    .startsWith(QStringLiteral("The program exited with status 3")));
        QVERIFY(
            labelText(&w, "recordingTrace").startsWith(QStringLiteral("It wrote no trace into ")));
        QTest::qWait(200);
        QVERIFY(!w.trace());
        QCOMPARE(w.findChild<QStackedWidget*>()->currentWidget(),
            static_cast<QWidget*>(w.recording()->page()));
    }

    void refusesWhatCannotRun()
    {
        QTemporaryDir tmp;
        MainWindow w(MainWindow::Options { false });
        QFile f(tmp.filePath(QStringLiteral("x")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        RunRequest r;
        r.argv = { kStandIn };
        r.folder = tmp.path(); // not empty
        QString error;
        QVERIFY(!w.recording()->start(r, &error));
        QVERIFY2(error.contains(QStringLiteral("is not empty")), qPrintable(error));
        r.argv = { QStringLiteral("dynascope-no-such-program") };
        r.folder = tmp.filePath(QStringLiteral("run"));
        QVERIFY(!w.recording()->start(r, &error));
        QVERIFY2(error.contains(QStringLiteral("command not found")), qPrintable(error));
        QVERIFY(!w.recording()->controller()->isRunning());
    }

    void dialogSplitsAndChecks()
    {
        QTemporaryDir tmp;
        RecordDialog d(QStringLiteral("python 'my script.py' --lr 0.1"), tmp.path());
        QVERIFY2(d.folderEdit()->text().startsWith(tmp.path() + QStringLiteral("/dynascope-runs/")),
            qPrintable(d.folderEdit()->text()));
        QVERIFY(d.validate());
        QCOMPARE(d.request().argv,
            (QStringList { QStringLiteral("python"), QStringLiteral("my script.py"),
                QStringLiteral("--lr"), QStringLiteral("0.1") }));
        QCOMPARE(d.request().workingDirectory, tmp.path());
        QVERIFY(d.request().captureOutput);
        d.commandEdit()->setText(QStringLiteral("python 'open"));
        QVERIFY(!d.validate());
        QVERIFY(d.errorLabel()->text().contains(QStringLiteral("quote is not closed")));
        d.commandEdit()->setText(QStringLiteral("python train.py"));
        d.folderEdit()->setText(tmp.path()); // exists, and holds the default's parent soon
        QFile f(tmp.filePath(QStringLiteral("x")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(!d.validate());
        QVERIFY(d.errorLabel()->text().contains(QStringLiteral("not an empty folder")));
    }

    void probeViewOpensARealProbeFolder()
    {
        const QString folder
            = QStringLiteral(DYNASCOPE_PROBE_RECORDED) + QStringLiteral("/custom_op_backward");
        if (!QFileInfo::exists(folder))
            QSKIP("no recorded probe folder (tests/probe/recorded)");
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        ProbeDock* dock = w.probeDock();
        QAbstractItemModelTester tester(
            dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.openPaths({ folder }); // a probe folder opens in the Probe view
        QTRY_VERIFY_WITH_TIMEOUT(dock->model()->rowCount() == 3, 20000);
        QVERIFY(dock->isVisible());
        QVERIFY2(dock->verdictText().startsWith(QStringLiteral(
                     "Verdict: fails with aot_eager but not eager: look at AOTAutograd")),
            qPrintable(dock->verdictText()));
        ProbeTableModel* m = dock->model();
        QCOMPARE(m->index(0, ProbeTableModel::Configuration).data().toString(),
            QStringLiteral("eager, no torch.compile"));
        QCOMPARE(m->index(2, ProbeTableModel::Outcome).data().toString(),
            QStringLiteral("✕ failed at [0/0]"));
        QCOMPARE(m->index(1, ProbeTableModel::Outcome).data().toString(), QStringLiteral("✓ ok"));
        QVERIFY(m->index(2, ProbeTableModel::Outcome)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Cannot access data pointer")));
        // The run the verdict names opens first, and its row is marked.
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr, 20000);
        QCOMPARE(QFileInfo(w.openPathList().value(0)).fileName(), QStringLiteral("aot_eager"));
        QTRY_COMPARE(m->openRow(), 2);
        QCOMPARE(w.trace()->failureCount(), uint64_t(1));
        // ... on its failing compile.
        QTRY_VERIFY(w.selection()->current() != kNone);
        QVERIFY(w.trace()->compiles[w.selection()->current()].failure.has_value());
        // A click on a row opens that run.
        QTableView* table = dock->table();
        const QRect cell = table->visualRect(m->index(1, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTRY_COMPARE(QFileInfo(w.openPathList().value(0)).fileName(), QStringLiteral("eager"));
        QTRY_COMPARE(m->openRow(), 1);
        QCOMPARE(w.trace()->failureCount(), uint64_t(0));
        if (qEnvironmentVariableIsSet("DYNASCOPE_SHOT_DIR"))
            w.grab().save(
                qEnvironmentVariable("DYNASCOPE_SHOT_DIR") + QStringLiteral("/probe-view.png"));
    }
};

QTEST_MAIN(TestRecordUi)
#include "tst_recordui.moc"
