// dynascope-cli record, black box, on a stand-in program (tests/tools/standin.cpp) that writes a
// synthetic trace into $TORCH_TRACE as PyTorch would: the trace lands in the run folder and reads
// like the fixture it is; stdin, stdout, exit status and signals pass through; Ctrl+C on a real
// pseudo-terminal reaches the program once; a non-empty -o folder is refused; no trace is said.
// Also the command-line splitting the app's Record a Run dialog uses.
#include "core/load/loader.h"
#include "core/run/child_process.h"
#include "core/run/run_folder.h"
#include "core/synth/scenarios.h"
#include "core/writer/summary_json.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <pty.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

// A line typed into the Record a Run dialog, and a joined command (moc reads neither).
const char* const kTypedLine
    = "python  train.py --name 'a b' \"c \\\"d\\\" $HOME\" e\\ f `x` ; | > *";
const char* const kJoined = "python 'a b' 'it'\\''s' x=1";

const QString kCli = QStringLiteral(DYNASCOPE_CLI);
const QString kStandIn = QStringLiteral(DYNASCOPE_STANDIN);

struct Run {
    QProcess::ExitStatus status = QProcess::NormalExit;
    int code = -1;
    QString out, err;
};

Run record(const QStringList& args, const QString& cwd = {}, const QByteArray& input = {})
{
    QProcess p;
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.start(kCli, QStringList { QStringLiteral("record") } + args);
    if (!p.waitForStarted())
        qFatal("dynascope-cli did not start");
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000))
        qFatal("dynascope-cli record did not finish");
    return { p.exitStatus(), p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

// The summary JSON without the file's path (the fixture and the run folder differ only there).
std::string summaryWithoutPaths(const std::string& path)
{
    auto loaded = dynascope::load({ path });
    if (!loaded.trace)
        return "unreadable: " + path;
    std::string json = dynascope::summaryJson(*loaded.trace);
    std::ostringstream out;
    std::istringstream in(json);
    for (std::string line; std::getline(in, line);)
        if (line.find("\"path\":") == std::string::npos)
            out << line << "\n";
    return out.str();
}

} // namespace

class TestRecord : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordsTheTraceIntoTheFolder()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        const Run r = record({ QStringLiteral("-o"), dir, QStringLiteral("--"), kStandIn,
            QStringLiteral("--print-env"), QStringLiteral("TORCH_TRACE") });
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.code, 0);
        // TORCH_TRACE pointed at the folder (absolute), the program's stdout passed through.
        QCOMPARE(r.out.trimmed(), QStringLiteral("TORCH_TRACE=") + QDir(dir).absolutePath());
        const auto files = dynascope::run::runTraceFiles(dir.toStdString());
        QCOMPARE(files.size(), size_t(1));
        // The trace reads exactly as the fixture the stand-in wrote.
        std::ostringstream fixture;
        dynascope::writeGraphBreakFixture(fixture);
        const QString expectedPath = tmp.filePath(QStringLiteral("expected.log"));
        QFile f(expectedPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(fixture.str()));
        f.close();
        QCOMPARE(
            summaryWithoutPaths(files.front()), summaryWithoutPaths(expectedPath.toStdString()));
        // stderr: where the trace is, its summary, how to open it.
        QVERIFY2(r.err.contains(QStringLiteral("exited with status 0")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("trace: ") + QDir(dir).absolutePath()),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QRegularExpression(QStringLiteral(
                     "2 compiles in 2 frames, 0 recompiles, 1 graph break, 0 failures"))),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("⚡ graph break at ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("open it: dynascope ")), qPrintable(r.err));
        // How it ran, recorded beside the trace.
        std::string why;
        auto rec = dynascope::run::readRunRecord(dir.toStdString(), &why);
        QVERIFY2(rec, why.c_str());
        QVERIFY(rec->exit && !rec->exit->signaled && rec->exit->code == 0);
        QCOMPARE(rec->command.size(), size_t(3));
        QCOMPARE(QString::fromStdString(rec->command.front()), kStandIn);
    }

    void exitStatusPassesThrough()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        const Run r = record({ QStringLiteral("-o"), dir, QStringLiteral("--"), kStandIn,
            QStringLiteral("--exit"), QStringLiteral("7") });
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.code, 7);
        QVERIFY2(r.err.contains(QStringLiteral("exited with status 7")), qPrintable(r.err));
        QVERIFY(!dynascope::run::runTraceFiles(dir.toStdString()).empty());
        auto rec = dynascope::run::readRunRecord(dir.toStdString(), nullptr);
        QVERIFY(rec && rec->exit && rec->exit->code == 7);
    }

    void childKilledBySigintEndsRecordBySigint()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        const Run r = record({ QStringLiteral("-o"), dir, QStringLiteral("--"), kStandIn,
            QStringLiteral("--raise"), QStringLiteral("INT") });
        // Re-raised: a shell sees what the program did ($? = 130, and a loop stops).
        QCOMPARE(r.status, QProcess::CrashExit);
        QCOMPARE(r.code, SIGINT);
        QVERIFY2(
            r.err.contains(QStringLiteral("was killed by SIGINT (Ctrl+C)")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("trace: ")), qPrintable(r.err)); // reported first
        auto rec = dynascope::run::readRunRecord(dir.toStdString(), nullptr);
        QVERIFY(rec && rec->exit && rec->exit->signaled && rec->exit->signal == SIGINT);
        QCOMPARE(rec->exit->shellStatus(), 130);
    }

    void childKilledByOtherSignalExits128PlusN()
    {
        QTemporaryDir tmp;
        const Run r = record({ QStringLiteral("-o"), tmp.filePath(QStringLiteral("run")),
            QStringLiteral("--"), kStandIn, QStringLiteral("--raise"), QStringLiteral("SEGV") });
        QCOMPARE(r.status, QProcess::NormalExit); // record itself does not crash
        QCOMPARE(r.code, 128 + SIGSEGV);
        QVERIFY2(r.err.contains(QStringLiteral("was killed by SIGSEGV")), qPrintable(r.err));
    }

    void sigintSentToRecordIsForwarded()
    {
        QTemporaryDir tmp;
        QProcess p;
        p.start(kCli,
            { QStringLiteral("record"), QStringLiteral("-o"), tmp.filePath(QStringLiteral("run")),
                QStringLiteral("--"), kStandIn, QStringLiteral("--catch-sigint") });
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (
            !out.contains("ready") && p.state() == QProcess::Running && clock.elapsed() < 20000) {
            p.waitForReadyRead(100);
            out += p.readAllStandardOutput();
        }
        QVERIFY2(out.contains("ready"), out.constData());
        QVERIFY(::kill(static_cast<pid_t>(p.processId()), SIGINT) == 0);
        QVERIFY(p.waitForFinished(20000));
        // The program caught exactly one SIGINT (exit 10 + count) and record did not die of it.
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 11);
    }

    void ctrlCOnTheTerminalReachesTheProgramOnce()
    {
        // record and the program share a real pseudo-terminal's foreground process group, as in
        // a shell; ^C makes the terminal send SIGINT to both. The program must get it once (not
        // again from record) and record must wait for it and pass its status on.
        int master = -1, slave = -1;
        char name[256] = {};
        QVERIFY(::openpty(&master, &slave, name, nullptr, nullptr) == 0);
        ::close(slave);
        QTemporaryDir tmp;
        const QByteArray cli = kCli.toLocal8Bit(), standIn = kStandIn.toLocal8Bit(),
                         dir = tmp.filePath(QStringLiteral("run")).toLocal8Bit();
        std::vector<const char*> argv { cli.constData(), "record", "-o", dir.constData(), "--",
            standIn.constData(), "--catch-sigint", nullptr };
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        // A session leader that opens a terminal gets it as its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0);
        posix_spawn_file_actions_adddup2(&actions, 0, 1);
        posix_spawn_file_actions_adddup2(&actions, 0, 2);
        posix_spawn_file_actions_addclose(&actions, master);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
        pid_t pid = 0;
        QCOMPARE(
            ::posix_spawn(&pid, argv[0], &actions, &attr, const_cast<char**>(argv.data()), environ),
            0);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        QByteArray seen;
        QElapsedTimer clock;
        clock.start();
        ::fcntl(master, F_SETFL, O_NONBLOCK);
        while (!seen.contains("ready") && clock.elapsed() < 20000) {
            char buf[512];
            const ssize_t n = ::read(master, buf, sizeof buf);
            if (n > 0)
                seen.append(buf, static_cast<int>(n));
            else
                QTest::qWait(20);
        }
        QVERIFY2(seen.contains("ready"), seen.constData());
        QCOMPARE(::write(master, "\x03", 1), ssize_t(1)); // Ctrl+C
        int status = 0;
        while (clock.elapsed() < 40000 && ::waitpid(pid, &status, WNOHANG) == 0) {
            char buf[512];
            while (::read(master, buf, sizeof buf) > 0) { } // keep the terminal drained
            QTest::qWait(20);
        }
        ::close(master);
        QVERIFY2(WIFEXITED(status), "record was killed by the terminal's SIGINT");
        QCOMPARE(WEXITSTATUS(status), 11); // the program saw one SIGINT, not two
    }

    void stdinPassesThrough()
    {
        QTemporaryDir tmp;
        const Run r = record({ QStringLiteral("-o"), tmp.filePath(QStringLiteral("run")),
                                 QStringLiteral("--"), kStandIn, QStringLiteral("--echo-stdin") },
            {}, "first line\nsecond line\n");
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QStringLiteral("first line\nsecond line\n"));
    }

    void refusesANonEmptyFolder()
    {
        QTemporaryDir tmp;
        QFile marker(tmp.filePath(QStringLiteral("notes.txt")));
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.close();
        const Run r = record({ QStringLiteral("-o"), tmp.path(), QStringLiteral("--"), kStandIn });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("is not empty")), qPrintable(r.err));
        // The program did not run: no trace, no run record.
        QVERIFY(dynascope::run::runTraceFiles(tmp.path().toStdString()).empty());
        QVERIFY(!QFile::exists(tmp.filePath(QString::fromLatin1(dynascope::run::kRunRecordFile))));
        // An existing empty folder is fine.
        QTemporaryDir empty;
        QCOMPARE(record({ QStringLiteral("-o"), empty.path(), kStandIn }).code, 0);
        QCOMPARE(dynascope::run::runTraceFiles(empty.path().toStdString()).size(), size_t(1));
    }

    void saysWhenTheProgramWroteNoTrace()
    {
        QTemporaryDir tmp;
        const Run r = record({ QStringLiteral("-o"), tmp.filePath(QStringLiteral("run")),
            QStringLiteral("--"), kStandIn, QStringLiteral("--trace"), QStringLiteral("none") });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(QStringLiteral("no trace in ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("the program wrote none")), qPrintable(r.err));
    }

    void defaultFolderIsNewEachTime()
    {
        QTemporaryDir cwd;
        QCOMPARE(record({ kStandIn }, cwd.path()).code, 0);
        QCOMPARE(record({ QStringLiteral("--"), kStandIn }, cwd.path()).code, 0);
        const QStringList runs = QDir(cwd.filePath(QStringLiteral("dynascope-runs")))
                                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 2); // same second: the second one gets "-2"
        for (const QString& run : runs) {
            QVERIFY2(run.contains(QRegularExpression(
                         QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d(-\\d+)?$"))),
                qPrintable(run));
            QCOMPARE(dynascope::run::runTraceFiles(
                         cwd.filePath(QStringLiteral("dynascope-runs/") + run).toStdString())
                         .size(),
                size_t(1));
        }
    }

    void commandNotFoundIs127()
    {
        QTemporaryDir tmp;
        const Run r = record({ QStringLiteral("-o"), tmp.filePath(QStringLiteral("run")),
            QStringLiteral("--"), QStringLiteral("dynascope-no-such-program") });
        QCOMPARE(r.code, 127);
        QVERIFY2(r.err.contains(QStringLiteral("dynascope-no-such-program: command not found")),
            qPrintable(r.err));
    }

    void usageErrors()
    {
        QCOMPARE(record({}).code, 1);
        QCOMPARE(record({ QStringLiteral("-o") }).code, 1);
        QCOMPARE(record({ QStringLiteral("--bogus"), kStandIn }).code, 1);
        // The program's own --help is the program's: record runs it.
        QTemporaryDir tmp;
        const Run r = record({ QStringLiteral("-o"), tmp.filePath(QStringLiteral("run")), kStandIn,
            QStringLiteral("--help") });
        QCOMPARE(r.code, 64); // the stand-in's answer to an unknown argument
    }

    void splitsCommandLinesLikeAShellWithoutRunningOne()
    {
        using dynascope::run::splitCommandLine;
        std::string error;
        auto words = splitCommandLine(kTypedLine, &error);
        QVERIFY(words);
        const std::vector<std::string> expected { "python", "train.py", "--name", "a b",
            "c \"d\" $HOME", "e f", "`x`", ";", "|", ">", "*" };
        QCOMPARE(*words, expected);
        QVERIFY(!splitCommandLine("python 'open", &error));
        QVERIFY(!error.empty());
        QVERIFY(!splitCommandLine("python \"open", &error));
        QVERIFY(!splitCommandLine("python \\", &error));
        QCOMPARE(dynascope::run::joinCommandLine({ "python", "a b", "it's", "x=1" }),
            std::string(kJoined));
        // Joining and splitting again gives the same words.
        const std::vector<std::string> odd { "a'b", "c\"d", "", "$x", "\\" };
        QCOMPARE(*splitCommandLine(dynascope::run::joinCommandLine(odd), &error), odd);
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
