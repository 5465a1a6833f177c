// record and probe of real PyTorch programs (the live stage: scripts/run-pytorch-suite.sh sets
// DYNASCOPE_TORCH_PYTHON to its venv's interpreter and DYNASCOPE_TORCH_VERSION to its release).
// Without DYNASCOPE_TORCH_PYTHON every test skips with a message; the committed recordings of the
// same programs are checked on every machine by tst_probereport and tst_scenarios.
//
//   - record of a scenario of the suite gives the committed log's structure (compiles, ids,
//     statuses, functions and lines, graph breaks, recompiles, failures; not times);
//   - following the example program's trace while it runs shows every compile once;
//   - probe of the failing-backend program names AOTAutograd;
//   - probe --check of a program whose own backend perturbs a result says "wrong result";
//   - the MLP's steady-state time per call is below its first call's.
// Each torch process costs 5-25 s on the CI's 2 cores; these nine take about two minutes.
#include "core/load/live_trace.h"
#include "core/load/loader.h"
#include "core/report/probe_report.h"
#include "core/run/probe_session.h"
#include "core/run/run_folder.h"
#include "core/util/text_format.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <sstream>

using namespace dynascope;

namespace {

const QString kCli = QStringLiteral(DYNASCOPE_CLI);
const QString kSource = QStringLiteral(DYNASCOPE_SOURCE_DIR);

QString python()
{
    return qEnvironmentVariable("DYNASCOPE_TORCH_PYTHON");
}

// Runs dynascope-cli with one thread per torch program, a fresh Inductor cache and no GPU.
int cli(const QStringList& args, const QString& cache, QString* err = nullptr)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    env.insert(QStringLiteral("PYTHONHASHSEED"), QStringLiteral("0"));
    env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QString());
    env.insert(QStringLiteral("TORCHINDUCTOR_CACHE_DIR"), cache);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(kCli, args);
    if (!p.waitForFinished(600000))
        return -1;
    if (err)
        *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 128 + p.exitCode();
}

// What a trace says, without times, sizes or paths: per compile its id, status, function,
// file name and line, graph breaks (file name, line, first line of the reason), recompile reasons
// (mismatch and source) and failure type; then the counts.
std::string structure(const std::vector<std::string>& files)
{
    auto loaded = load(files);
    if (!loaded.trace)
        return "unreadable";
    const Trace& t = *loaded.trace;
    std::ostringstream s;
    for (const Compile& c : t.compiles) {
        s << c.id.display() << " " << toString(c.status) << " " << c.coName << " "
          << text::baseName(c.coFilename) << ":" << c.coFirstLineno << "\n";
        for (const GraphBreak& g : c.graphBreaks)
            s << "  break " << text::baseName(g.file) << ":" << g.line << " "
              << text::firstLine(g.reason) << "\n";
        for (const RecompileReason& r : c.recompileReasons)
            s << "  recompile " << r.mismatch << " " << r.source << "\n";
        if (c.failure)
            s << "  failure " << c.failure->type << "\n";
    }
    s << "compiles " << t.compileCount() << " recompiles " << t.recompileCount() << " breaks "
      << t.graphBreakCount() << " failures " << t.failureCount() << "\n";
    return s.str();
}

ProbeReport probe(const QStringList& options, const QString& program, QTemporaryDir& tmp)
{
    const QString out = tmp.filePath(QStringLiteral("probe"));
    QString err;
    const int rc = cli(QStringList { QStringLiteral("probe") } + options
            + QStringList { QStringLiteral("-o"), out, QStringLiteral("--"), python(),
                kSource + QStringLiteral("/tests/probe/programs/") + program },
        tmp.filePath(QStringLiteral("cache")), &err);
    if (rc != 0)
        qFatal("probe exited with %d:\n%s", rc, qPrintable(err));
    std::string error;
    auto session = loadProbeSession(out.toStdString(), &error);
    if (!session)
        qFatal("%s", error.c_str());
    return buildProbeReport(*session);
}

} // namespace

class TestProbeLive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        if (python().isEmpty())
            QSKIP("DYNASCOPE_TORCH_PYTHON is not set: no PyTorch to record with (the live stage, "
                  "scripts/run-pytorch-suite.sh, runs these)");
    }

    void recordOfAScenarioGivesTheCommittedStructure()
    {
        const QString version
            = qEnvironmentVariable("DYNASCOPE_TORCH_VERSION", QStringLiteral("2.13.0"));
        const QString committed = kSource + QStringLiteral("/tests/scenarios/recorded/torch-")
            + version + QStringLiteral("/graph_break_item");
        if (!QDir(committed).exists())
            QSKIP(qPrintable(QStringLiteral("no committed recording for torch ") + version));
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        qputenv("DYNASCOPE_FACTS", tmp.filePath(QStringLiteral("facts.json")).toLocal8Bit());
        QString err;
        const int rc = cli(
            { QStringLiteral("record"), QStringLiteral("-o"), dir, QStringLiteral("--"), python(),
                kSource + QStringLiteral("/tests/scenarios/programs/graph_break_item.py") },
            tmp.filePath(QStringLiteral("cache")), &err);
        qunsetenv("DYNASCOPE_FACTS");
        QVERIFY2(rc == 0, qPrintable(err));
        QVERIFY2(
            err.contains(QStringLiteral("trace: ") + QDir(dir).absolutePath()), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("⚡ graph break at ")), qPrintable(err));
        const auto fresh = run::runTraceFiles(dir.toStdString());
        QCOMPARE(fresh.size(), size_t(1));
        const auto old = run::runTraceFiles(committed.toStdString());
        QVERIFY(!old.empty());
        const std::string a = structure(fresh), b = structure(old);
        QVERIFY2(a == b, (a + "\n--- committed ---\n" + b).c_str());
    }

    // Following a real run while PyTorch writes its trace (core/load/live_trace.h, what the
    // app's live view loads): every state shows each compile once and keeps what the one before
    // showed, and the last state is what opening the finished folder shows.
    void followingARealRunShowsEveryCompileOnce()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(dir));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TORCH_TRACE"), dir);
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        env.insert(QStringLiteral("TORCHINDUCTOR_CACHE_DIR"), tmp.filePath(QStringLiteral("c")));
        env.insert(QStringLiteral("DYNASCOPE_FACTS"), tmp.filePath(QStringLiteral("facts.json")));
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(python(), { kSource + QStringLiteral("/tests/scenarios/programs/example.py") });
        QVERIFY(p.waitForStarted());
        LiveTrace live({ dir.toStdString() });
        std::set<std::string> seen;
        int states = 0;
        auto check = [&] {
            if (!live.poll().changed)
                return;
            const LoadResult r = live.snapshot();
            if (!r.trace)
                return;
            ++states;
            std::set<std::string> keys;
            for (const Compile& c : r.trace->compiles)
                QVERIFY2(keys.insert(c.id.display()).second, c.id.display().c_str());
            for (const std::string& k : seen)
                QVERIFY2(keys.contains(k), k.c_str());
            seen = keys;
        };
        while (!p.waitForFinished(50))
            check();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        check();
        QVERIFY2(states >= 2, "the trace was seen only once while the program wrote it");
        const auto files = run::runTraceFiles(dir.toStdString());
        QCOMPARE(files.size(), size_t(1));
        const LoadResult last = live.snapshot();
        QVERIFY(last.trace);
        QCOMPARE(last.trace->compiles.size(), load(files).trace->compiles.size());
        QCOMPARE(
            live.totalBytesRead(), uint64_t(QFileInfo(QString::fromStdString(files[0])).size()));
        qInfo("%d states while the program ran, %zu compiles", states, last.trace->compiles.size());
    }

    void probeNamesTheFailingLayer()
    {
        QTemporaryDir tmp;
        const ProbeReport r
            = probe({ QStringLiteral("--backends"), QStringLiteral("eager,aot_eager") },
                QStringLiteral("custom_op_backward.py"), tmp);
        QCOMPARE(r.rows.size(), size_t(3));
        QCOMPARE(r.rows[0].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[1].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[2].outcome, ProbeOutcome::Failed);
        QCOMPARE(r.verdict.layer, std::string("aot_autograd"));
        QVERIFY2(r.verdict.text.starts_with("fails with aot_eager but not eager: look at "
                                            "AOTAutograd; first failing compile [0/0] in `step`"),
            r.verdict.text.c_str());
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("probe/probe-report.md"))));
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("probe/probe-report.json"))));
    }

    void probeCheckTellsAWrongResultFromAFailure()
    {
        QTemporaryDir tmp;
        const ProbeReport r = probe({ QStringLiteral("--check"), QStringLiteral("--backends"),
                                        QStringLiteral("eager,program") },
            QStringLiteral("perturbed_backend.py"), tmp);
        QCOMPARE(r.rows.size(), size_t(3));
        QCOMPARE(r.rows[1].outcome, ProbeOutcome::Ok);
        QVERIFY(r.rows[1].checked);
        QCOMPARE(r.rows[2].outcome, ProbeOutcome::WrongResult);
        QCOMPARE(r.rows[2].failures, uint64_t(0)); // nothing failed: only the numbers are wrong
        QCOMPARE(r.verdict.layer, std::string("program"));
        QVERIFY2(r.verdict.text.starts_with("gives a wrong result with its own backend "
                                            "`perturbing_backend` but not eager"),
            r.verdict.text.c_str());
    }

    void steadyStateIsBelowTheFirstCallForTheMlp()
    {
        QTemporaryDir tmp;
        const ProbeReport r = probe({ QStringLiteral("--backends"), QStringLiteral("inductor"),
                                        QStringLiteral("--steps"), QStringLiteral("5") },
            QStringLiteral("mlp_steady.py"), tmp);
        QCOMPARE(r.rows.size(), size_t(2));
        const EvidenceRow& inductor = r.rows[1];
        QCOMPARE(inductor.outcome, ProbeOutcome::Ok);
        QVERIFY(inductor.firstCallUs && inductor.steadyUs);
        QVERIFY2(*inductor.steadyUs < *inductor.firstCallUs,
            (std::to_string(*inductor.steadyUs) + " >= " + std::to_string(*inductor.firstCallUs))
                .c_str());
        QCOMPARE(inductor.calls, uint64_t(30));
        QCOMPARE(inductor.callables.at(0).callable.steadyUs.size(), size_t(5));
        QCOMPARE(inductor.compiles, uint64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestProbeLive)
#include "tst_probe_live.moc"
