// The guard lab against PyTorch itself: guard_lab_probes (programs/guard_lab_probes.py) called
// its compiled functions with probe inputs (49 since the inference-mode ones) and recorded, for
// each, whether PyTorch compiled again, how many compiles the frame had before, and (recordings
// since the tagging backend) which entry ran. For every probe the lab is asked the same question,
// in the same words, on the cache as it stood then (the frame's first N compiles of the trace),
// and its verdict must be PyTorch's decision: recompiles, or reuses the entry that ran. Runs on
// every recording (the committed 2.13 and 2.14.1 ones, the live stage's), on its TORCH_TRACE and
// again on the TORCH_LOGS text the same run printed (the guards from the text's dumps).
//
// The inference-mode probes are decided by the dispatch key set alone, which c10 computes
// (tensor_model.h). A build without libtorch reads the entries' recorded key sets instead; where
// that cannot decide, the only answer allowed is "not known" naming the missing libtorch.
#include "scenario_suite.h"

#include "core/analysis/guard_lab.h"
#include "core/analysis/tensor_model.h"
#include "core/load/loader.h"
#include "core/model/trace.h"

#include <QtTest>

using namespace dynascope;
using namespace scenarios;

class TestGuardProbes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (optionalSuiteAbsent())
            QSKIP("the recording is not on this machine");
        if (!scenarioNames().contains(u"guard_lab_probes"_qs))
            QSKIP("this recording has no guard_lab_probes scenario (recorded before it existed)");
    }

    void everyProbeAgreesWithPyTorch()
    {
        const Scenario s = loadScenario(u"guard_lab_probes"_qs);
        QVERIFY(s.trace);
        checkProbes(s, *s.trace, "TORCH_TRACE");
    }

    // The same questions on the TORCH_LOGS text the program printed in the same run
    // (TORCH_LOGS=graph_breaks,recompiles,guards,dynamic): the guard trees come from the text's
    // [__guards] dumps. What only the trace has (the recompile limit in dynamo_config) is 8,
    // PyTorch's default, as this program leaves it.
    void everyProbeAgreesOnTheTorchLogsText()
    {
        const Scenario s = loadScenario(u"guard_lab_probes"_qs);
        // Compressed in the committed recording, plain in a fresh one (the live stage).
        QString path = s.dir + u"/torch_logs.txt.zst"_qs;
        if (!QFileInfo::exists(path))
            path = s.dir + u"/torch_logs.txt"_qs;
        const LoadResult text = load({ path.toStdString() });
        QVERIFY2(text.trace, qPrintable(path));
        QVERIFY(text.trace->files.front().format == TraceFormat::TorchLogs);
        checkProbes(s, *text.trace, "TORCH_LOGS text");
    }

private:
    static void checkProbes(const Scenario& s, const Trace& trace, const char* what)
    {
        const QJsonArray probes = s.facts[u"probes"_qs].toArray();
        QVERIFY2(probes.size() >= 40, "the program makes at least 40 probes");
        int agree = 0, recompiles = 0, checkedEntries = 0, withoutLibtorch = 0;
        QStringList table;
        for (const QJsonValue& v : probes) {
            const QJsonObject p = v.toObject();
            const std::string function = str(s.function(p[u"function"_qs].toString())[u"name"_qs]);
            const std::string text = str(p[u"input"_qs]);
            const bool recompiled = p[u"recompiled"_qs].toBool();
            const auto before = size_t(p[u"entries_before"_qs].toInteger());
            std::string error;
            const auto frame = findGuardFrame(trace, function, error);
            QVERIFY2(frame, error.c_str());
            GuardInput input;
            QVERIFY2(parseGuardInput(text, input, error), (text + ": " + error).c_str());
            const GuardLabAnswer a = evaluateGuards(trace, *frame, input, before);
            table << QStringLiteral("%1 | %2 | %3 | %4")
                         .arg(QString::fromStdString(function), QString::fromStdString(text),
                             recompiled ? u"recompiled"_qs : u"reused"_qs,
                             QString::fromStdString(a.verdict));
            // The entry PyTorch ran (its frame_compile_id), where the recording says.
            const QJsonValue ranEntry = p[u"ran_entry"_qs];
            bool sameEntry = true;
            if (!recompiled && ranEntry.isDouble() && a.reused && *a.reused < a.entries.size()) {
                const auto& id = trace.compiles[a.entries[*a.reused].compile].id;
                sameEntry = id.frameCompile == ranEntry.toInteger();
                checkedEntries += 1;
            }
            const bool ok = a.known && a.recompiles == recompiled && sameEntry
                && (recompiled || (a.reused && *a.reused < a.entries.size()));
            if (!ok && !a.known && !*tensorModelLibrary()
                && a.verdict.find("this build has no libtorch") != std::string::npos) {
                ++withoutLibtorch; // says what it lacks: the one answer allowed without c10
                continue;
            }
            agree += ok;
            recompiles += recompiled;
            if (!ok)
                qWarning("disagrees: %s after %zu compiles: PyTorch %s, Dynascope '%s'",
                    (function + " " + text).c_str(), before, recompiled ? "recompiled" : "reused",
                    a.verdict.c_str());
        }
        qInfo("%s", qPrintable(table.join(u'\n')));
        qInfo("%s: %d of %d probes agree with PyTorch (the entry that ran checked for %d); "
              "tensor model: %s",
            what, agree, int(probes.size()), checkedEntries,
            *tensorModelLibrary() ? tensorModelLibrary() : "none (built without libtorch)");
        if (withoutLibtorch > 0)
            qInfo("%d probes need c10's dispatch key set, which this build lacks", withoutLibtorch);
        QVERIFY(withoutLibtorch <= 6); // only the inference-mode and inference-tensor probes
        QCOMPARE(agree + withoutLibtorch, int(probes.size()));
        QVERIFY(recompiles > 10 && recompiles < probes.size() - 10); // both outcomes probed
    }
};

QTEST_GUILESS_MAIN(TestGuardProbes)
#include "tst_guardprobes.moc"
