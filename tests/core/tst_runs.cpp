// Runs (core/load/runs.h): a folder's files grouped into runs by time and the ranks they claim,
// identical files left out, the newest run loaded by default and --run N / all honoured. On the
// tlparse corpus's real folders (skipped without ../shared/traces) and on folders written here
// with the trace writer (two runs of two ranks, a copy, an explicitly named file).
#include "core/load/loader.h"
#include "core/load/runs.h"
#include "core/writer/summary_json.h"
#include "core/writer/trace_writer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace dynascope;

namespace {

// One rank's file of one run: two compiles of `forward`, starting at `startUs`.
void writeRankFile(const QString& path, int64_t rank, int64_t pid, int64_t startUs)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    TraceWriter w(out, pid, startUs);
    const std::vector<WriteFrame> stack { { 10, "forward", "/job/model.py", "" } };
    for (int64_t n = 0; n < 2; ++n) {
        CompileId id;
        id.frame = 0;
        id.frameCompile = n;
        auto ctx = WriteContext::forCompile(id, rank);
        w.dynamoStart(ctx, stack);
        w.chromiumEvent(ctx, "dynamo", "B", "");
        w.advanceUs(200'000);
        w.chromiumEvent(ctx, "dynamo", "E", "");
        w.advanceUs(30'000'000); // a step of training between compiles
    }
}

QString dir(const QTemporaryDir& d, const QString& name)
{
    return d.path() + u'/' + name;
}

std::vector<int64_t> ranksOf(const Trace& t)
{
    std::vector<int64_t> out;
    for (const auto& f : t.files)
        out.push_back(f.rank.value_or(-1));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestRuns : public QObject {
    Q_OBJECT
    QString m_inputs = QString::fromUtf8(DYNASCOPE_SHARED_TRACES) + u"/tlparse/tests/inputs"_qs;

    void needCorpus()
    {
        if (!QFileInfo::exists(m_inputs))
            QSKIP(qPrintable(u"real traces not available: "_qs + m_inputs
                + u" does not exist (it comes with the workplace's shared/ folder)"_qs));
    }

    // A folder of two runs a day apart, ranks 0 and 1 each, and a copy of run 2's rank 1.
    void writeTwoRuns(const QTemporaryDir& d)
    {
        const int64_t day1 = 1'754'300'000'000'000; // 2025-08-04
        const int64_t day2 = day1 + 86'400'000'000;
        writeRankFile(dir(d, u"dedicated_log_torch_trace_rank_0_aaaa.log"_qs), 0, 100, day1);
        writeRankFile(dir(d, u"dedicated_log_torch_trace_rank_1_bbbb.log"_qs), 1, 101, day1 + 900);
        writeRankFile(dir(d, u"dedicated_log_torch_trace_rank_0_cccc.log"_qs), 0, 200, day2);
        writeRankFile(dir(d, u"dedicated_log_torch_trace_rank_1_dddd.log"_qs), 1, 201, day2 + 700);
        QVERIFY(QFile::copy(dir(d, u"dedicated_log_torch_trace_rank_1_dddd.log"_qs),
            dir(d, u"dedicated_log_torch_trace_rank_1_zcopy.log"_qs)));
    }

private Q_SLOTS:
    // rank_2 before rank_10: a folder of 256 ranks lists 0, 1, 2, ... not 0, 1, 10, 100.
    void filesInNaturalOrder()
    {
        QTemporaryDir d;
        for (int r : { 10, 2, 0, 100, 1 })
            writeRankFile(dir(d, u"dedicated_log_torch_trace_rank_%1.log"_qs.arg(r)), r, 100 + r,
                1'754'300'000'000'000);
        std::vector<Diagnostic> errors;
        const auto files = expandInputs({ d.path().toStdString() }, {}, errors);
        QVERIFY(errors.empty());
        std::vector<std::string> names;
        for (const auto& f : files)
            names.push_back(f.substr(f.find_last_of('/') + 1));
        QCOMPARE(names,
            (std::vector<std::string> { "dedicated_log_torch_trace_rank_0.log",
                "dedicated_log_torch_trace_rank_1.log", "dedicated_log_torch_trace_rank_2.log",
                "dedicated_log_torch_trace_rank_10.log",
                "dedicated_log_torch_trace_rank_100.log" }));
        auto r = load({ d.path().toStdString() });
        QCOMPARE(r.trace->runs.size(), size_t(1));
        QCOMPARE(r.trace->files[3].rank, std::optional<int64_t>(10));
    }

    void newestRunByDefault()
    {
        QTemporaryDir d;
        writeTwoRuns(d);
        auto r = load({ d.path().toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        const Trace& t = *r.trace;
        QCOMPARE(t.runs.size(), size_t(2));
        QVERIFY(!t.runs[0].loaded);
        QVERIFY(t.runs[1].loaded);
        QCOMPARE(t.runs[0].ranks(), (std::vector<int64_t> { 0, 1 }));
        QCOMPARE(t.runs[1].ranks(), (std::vector<int64_t> { 0, 1 }));
        QCOMPARE(t.files.size(), size_t(2));
        for (const auto& f : t.files) {
            QCOMPARE(f.run, 2u);
            QVERIFY2(f.path.find("cccc") != std::string::npos
                    || f.path.find("dddd") != std::string::npos,
                f.path.c_str());
        }
        QCOMPARE(t.compileCount(), uint64_t(4));
        // The copy is listed in run 2, marked, and never loaded.
        size_t copies = 0;
        for (const auto& f : t.runs[1].files)
            if (!f.duplicateOf.empty()) {
                ++copies;
                QVERIFY(f.path.ends_with("zcopy.log"));
                QVERIFY(f.duplicateOf.ends_with("rank_1_dddd.log"));
            }
        QCOMPARE(copies, size_t(1));
        // One notice names the run not loaded, one the copy.
        size_t other = 0, dup = 0;
        for (const auto& dg : t.diagnostics) {
            if (dg.code == DiagnosticCode::OtherRuns) {
                ++other;
                QVERIFY2(dg.message.find("not loaded: run 1 (2025-08-04") != std::string::npos,
                    dg.message.c_str());
                QCOMPARE(dg.severity, Severity::Info);
            }
            dup += dg.code == DiagnosticCode::DuplicateFile;
        }
        QCOMPARE(other, size_t(1));
        QCOMPARE(dup, size_t(1));
    }

    void runByNumberAndAll()
    {
        QTemporaryDir d;
        writeTwoRuns(d);
        LoadOptions o;
        QVERIFY(parseRunChoice("1", o));
        auto one = load({ d.path().toStdString() }, o);
        QVERIFY(one.trace && one.errors.empty());
        QCOMPARE(one.trace->files.size(), size_t(2));
        for (const auto& f : one.trace->files)
            QCOMPARE(f.run, 1u);
        QVERIFY(parseRunChoice("all", o));
        auto all = load({ d.path().toStdString() }, o);
        QCOMPARE(all.trace->files.size(), size_t(4)); // the copy still left out
        QCOMPARE(all.trace->compileCount(), uint64_t(8));
        QVERIFY(parseRunChoice("3", o));
        auto none = load({ d.path().toStdString() }, o);
        QCOMPARE(none.errors.size(), size_t(1));
        QVERIFY(none.errors[0].message.find("there is no run 3: the inputs hold 2 runs")
            != std::string::npos);
        QVERIFY(!parseRunChoice("0", o));
        QVERIFY(!parseRunChoice("-1", o));
        QVERIFY(!parseRunChoice("latest", o));
    }

    void namedFilesAlwaysLoad()
    {
        QTemporaryDir d;
        writeTwoRuns(d);
        auto r = load({ dir(d, u"dedicated_log_torch_trace_rank_0_aaaa.log"_qs).toStdString(),
            dir(d, u"dedicated_log_torch_trace_rank_0_cccc.log"_qs).toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        QCOMPARE(r.trace->files.size(), size_t(2));
        QCOMPARE(r.trace->runs.size(), size_t(2)); // still told apart: two runs of rank 0
        QCOMPARE(r.trace->files[0].run, 1u);
        QCOMPARE(r.trace->files[1].run, 2u);
    }

    void summaryJsonDocumentsRuns()
    {
        QTemporaryDir d;
        writeTwoRuns(d);
        auto r = load({ d.path().toStdString() });
        QVERIFY(r.trace);
        SummaryOptions so;
        so.verifyPayloads = false;
        const auto doc
            = QJsonDocument::fromJson(QByteArray::fromStdString(summaryJson(*r.trace, so)));
        const QJsonArray runs = doc[u"runs"_qs].toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0][u"number"_qs].toInt(), 1);
        QCOMPARE(runs[0][u"loaded"_qs].toBool(), false);
        QCOMPARE(runs[1][u"loaded"_qs].toBool(), true);
        QCOMPARE(runs[1][u"files"_qs].toArray().size(), 3);
        QCOMPARE(
            runs[1][u"files"_qs][2][u"duplicate_of"_qs].toString().endsWith(u"rank_1_dddd.log"_qs),
            true);
        for (const auto f : doc[u"files"_qs].toArray()) {
            QCOMPARE(f[u"run"_qs].toInt(), 2);
            QVERIFY(f[u"duplicate_of"_qs].isNull());
        }
    }

    // tlparse's multi_rank_runtime: ranks 0-4 of a run on Aug 4, and a run on Aug 15 whose rank 1
    // file is there twice (rank_5 and rank_6, the same bytes, both claiming rank 1).
    void multiRankRuntime()
    {
        needCorpus();
        auto r = load({ (m_inputs + u"/multi_rank_runtime"_qs).toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        const Trace& t = *r.trace;
        QCOMPARE(t.runs.size(), size_t(2));
        QCOMPARE(t.runs[0].ranks(), (std::vector<int64_t> { 0, 1, 2, 3, 4 }));
        QCOMPARE(t.runs[1].ranks(), (std::vector<int64_t> { 1 }));
        QVERIFY(!t.runs[0].loaded && t.runs[1].loaded);
        QCOMPARE(t.files.size(), size_t(1));
        QVERIFY(t.files[0].path.ends_with("rank_5.log"));
        QCOMPARE(t.runs[1].files.size(), size_t(2));
        QVERIFY(t.runs[1].files[1].duplicateOf.ends_with("rank_5.log"));
        LoadOptions all;
        all.run = RunChoice::All;
        auto a = load({ (m_inputs + u"/multi_rank_runtime"_qs).toStdString() }, all);
        QCOMPARE(ranksOf(*a.trace), (std::vector<int64_t> { 0, 1, 1, 2, 3, 4 }));
    }

    // multi_rank_schedule: rank_2 is a copy of rank_0; rank_1's file (which claims rank 0) is a
    // second run five hours later.
    void multiRankSchedule()
    {
        needCorpus();
        auto r = load({ (m_inputs + u"/multi_rank_schedule"_qs).toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        const Trace& t = *r.trace;
        QCOMPARE(t.runs.size(), size_t(2));
        QCOMPARE(t.files.size(), size_t(1));
        QVERIFY(t.files[0].path.find("rank_1_n8zycf07") != std::string::npos);
        size_t dups = 0;
        for (const auto& run : t.runs)
            for (const auto& f : run.files)
                dups += !f.duplicateOf.empty();
        QCOMPARE(dups, size_t(1));
    }

    // collectives_parity holds one file: one run, loaded, no notice.
    void oneFileOneRun()
    {
        needCorpus();
        auto r = load({ (m_inputs + u"/collectives_parity"_qs).toStdString() });
        QVERIFY(r.trace);
        QCOMPARE(r.trace->runs.size(), size_t(1));
        QVERIFY(r.trace->runs[0].loaded);
        for (const auto& dg : r.trace->diagnostics)
            QVERIFY(
                dg.code != DiagnosticCode::OtherRuns && dg.code != DiagnosticCode::DuplicateFile);
    }
};

QTEST_GUILESS_MAIN(TestRuns)
#include "tst_runs.moc"
