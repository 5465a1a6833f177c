// Run against run (core/analysis/trace_diff.h) on real pairs PyTorch 2.13 wrote (the committed
// recording, read directly: the time changes asserted here are those of these files): each pair
// gives exactly the changes named, and nothing else.
//   - the print scenario with and without its print: the break, its resume frame, one guard;
//   - dynamic=False against dynamic=True: recompiles gone, the size guard gone dynamic;
//   - the same script run twice (three scenarios and their +dynamo variants): nothing;
//   - a cold against a warm cache: misses became hits, compile time 9.4x lower;
//   - the tlparse corpus's multi_rank_logs ranks 1 and 3: the frame matched across ranks;
//   - a trace against itself: nothing.
// And the JSON document, --fail-on's verdicts, and the CLI's exit status 3.
#include "core/analysis/trace_diff.h"
#include "core/load/loader.h"
#include "core/report/diff_render.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <set>

using namespace dynascope;

namespace {
const std::string kRec = DYNASCOPE_SCENARIOS_RECORDED;

std::shared_ptr<const Trace> loadPath(const std::string& path)
{
    auto r = load({ path });
    return r.trace;
}

TraceDiff diffOf(const std::string& a, const std::string& b)
{
    auto ta = loadPath(kRec + "/" + a), tb = loadPath(kRec + "/" + b);
    if (!ta || !tb)
        qFatal("cannot load %s or %s", a.c_str(), b.c_str());
    return diffTraces({ *ta, findFindings(*ta) }, { *tb, findFindings(*tb) });
}

// "kind" for every change, run changes first: what a pair must give exactly.
std::multiset<std::string> kinds(const TraceDiff& d)
{
    std::multiset<std::string> k;
    for (const auto& c : d.runChanges)
        k.insert("run:" + c.kind);
    for (const auto& f : d.frames)
        for (const auto& c : f.changes)
            k.insert(c.kind);
    return k;
}

// The kinds but the measured times (compile_time, phase_time): those move with the load of the
// machine that recorded, so a test asserts them only where the difference is large.
std::multiset<std::string> structural(const TraceDiff& d)
{
    std::multiset<std::string> k = kinds(d);
    k.erase("compile_time");
    k.erase("phase_time");
    return k;
}

std::string describe(const TraceDiff& d)
{
    return diffMarkdown(d, { { "A" }, { "B" } });
}

const DiffChange* change(const TraceDiff& d, const std::string& kind)
{
    for (const auto& f : d.frames)
        for (const auto& c : f.changes)
            if (c.kind == kind)
                return &c;
    return nullptr;
}
} // namespace

class TestDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void withAndWithoutThePrint()
    {
        const TraceDiff d = diffOf("graph_break_print/without_print", "graph_break_print");
        const std::multiset<std::string> expected { "run:finding_new", "graph_break_added",
            "guard_count", "frame_only_b" };
        QVERIFY2(kinds(d) == expected, describe(d).c_str());
        const DiffChange* added = change(d, "graph_break_added");
        QCOMPARE(added->b, std::string("graph_break_print.py:17"));
        QVERIFY(added->text.find("gb0059") != std::string::npos);
        QVERIFY(added->worse);
        QCOMPARE(d.a.graphBreaks, uint64_t(0));
        QCOMPARE(d.b.graphBreaks, uint64_t(1));
        QCOMPARE(d.frames.size(), size_t(2)); // step matched; its resume frame only in B
        QCOMPARE(d.frames[0].status, FrameDiff::Status::Changed);
        QCOMPARE(d.frames[0].matchedBy, std::string("code object"));
        QCOMPARE(d.frames[1].status, FrameDiff::Status::OnlyB);
        // The other way round: the break is gone, and so is the resume frame.
        const TraceDiff back = diffOf("graph_break_print", "graph_break_print/without_print");
        const std::multiset<std::string> reverse { "run:finding_gone", "graph_break_removed",
            "guard_count", "frame_only_a" };
        QVERIFY2(kinds(back) == reverse, describe(back).c_str());
    }

    void dynamicFalseAgainstTrue()
    {
        const TraceDiff d = diffOf("dynamic_false", "dynamic_true");
        const std::multiset<std::string> expected { "run:finding_gone", "recompiles",
            "recompile_reason_removed", "guard_shape", "guard_count" };
        QVERIFY2(structural(d) == expected, describe(d).c_str());
        QCOMPARE(d.frames.size(), size_t(1));
        QCOMPARE(d.frames[0].matchedBy, std::string("function")); // two script names
        const DiffChange* shape = change(d, "guard_shape");
        QCOMPARE(shape->a, std::string("L['x'] size=[32, 128]"));
        QCOMPARE(shape->b, std::string("L['x'] size=[None, None]"));
        const DiffChange* gone = change(d, "recompile_reason_removed");
        QVERIFY2(
            gone->text.find("32 → 64 → 128 → 256 → 512") != std::string::npos, gone->text.c_str());
        QCOMPARE(change(d, "recompiles")->a, std::string("4"));
        QCOMPARE(change(d, "recompiles")->b, std::string("0"));
        FailOn fail;
        fail.recompiles = true;
        QVERIFY(regressions(d, fail).empty()); // better, not worse
        const TraceDiff back = diffOf("dynamic_true", "dynamic_false");
        QCOMPARE(regressions(back, fail).size(), size_t(1));
    }

    void sameScriptTwice_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        for (const char* s : { "dynamic_automatic", "graph_break_item", "guard_dtype" })
            QTest::newRow(s) << QString::fromUtf8(s) << QString::fromUtf8(s) + u"/dynamo_debug"_qs;
        QTest::newRow("dynamic_false")
            << u"dynamic_false"_qs << u"dynamic_false/recompiles_verbose"_qs;
        QTest::newRow("example against itself") << u"example"_qs << u"example"_qs;
    }
    void sameScriptTwice()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        const TraceDiff d = diffOf(a.toStdString(), b.toStdString());
        QVERIFY2(kinds(d).empty(), describe(d).c_str());
        QCOMPARE(d.changedFrames(), size_t(0));
        QVERIFY(!d.frames.empty());
        FailOn all { true, true, true, 0.2 };
        if (a == b) // only a trace against itself is within 20% for sure
            QVERIFY(regressions(d, all).empty());
    }

    void coldAgainstWarmCache()
    {
        const TraceDiff d = diffOf("warm_cache/run1", "warm_cache");
        const std::multiset<std::string> expected { "cache_misses_to_hits" };
        QVERIFY2(structural(d) == expected, describe(d).c_str());
        // Inductor's codegen is skipped on a hit: the compile takes a fraction of the cold one's.
        const DiffChange* t = change(d, "compile_time");
        QVERIFY2(t && !t->worse, describe(d).c_str());
        QVERIFY2(d.b.compileUs < 0.5 * d.a.compileUs, t->text.c_str());
        QCOMPARE(d.a.cacheMisses, uint64_t(2));
        QCOMPARE(d.b.cacheHits, uint64_t(2));
        std::string error;
        const auto fail = parseFailOn("compile-time=20%", error);
        QVERIFY(fail);
        QVERIFY(regressions(d, *fail).empty());
        const TraceDiff back = diffOf("warm_cache", "warm_cache/run1");
        QVERIFY(change(back, "cache_hits_to_misses"));
        QCOMPARE(regressions(back, *fail).size(), size_t(1));
    }

    void ranksOfOneJob()
    {
        const std::string dir
            = std::string(DYNASCOPE_SHARED_TRACES) + "/tlparse/tests/inputs/multi_rank_logs/";
        if (!QFileInfo::exists(QString::fromStdString(dir)))
            QSKIP("../shared/traces is absent: the tlparse corpus is not on this machine");
        auto a = loadPath(dir + "dedicated_log_torch_trace_rank_1.log");
        auto b = loadPath(dir + "dedicated_log_torch_trace_rank_3.log");
        QVERIFY(a && b);
        const TraceDiff d = diffTraces({ *a, findFindings(*a) }, { *b, findFindings(*b) });
        QCOMPARE(d.frames.size(), size_t(1)); // `kernel`, matched across the two ranks
        QCOMPARE(d.frames[0].rank, std::optional<int64_t>(3));
        const std::multiset<std::string> expected { "recompiles", "compile_time", "phase_time",
            "phase_time" };
        QVERIFY2(kinds(d) == expected, describe(d).c_str());
        QCOMPARE(change(d, "recompiles")->a, std::string("14"));
        QCOMPARE(change(d, "recompiles")->b, std::string("6"));
    }

    void jsonDocument()
    {
        const TraceDiff d = diffOf("graph_break_print/without_print", "graph_break_print");
        QJsonParseError err;
        const QJsonObject o = QJsonDocument::fromJson(
            QByteArray::fromStdString(diffJson(d, { { "a" }, { "b" } })), &err)
                                  .object();
        QVERIFY(err.error == QJsonParseError::NoError);
        QCOMPARE(o[u"format"_qs].toString(), u"dynascope-diff"_qs);
        QCOMPARE(o[u"version"_qs].toInt(), kDiffJsonVersion);
        QCOMPARE(o[u"changed_frames"_qs].toInt(), 2);
        const QJsonArray frames = o[u"frames"_qs].toArray();
        QCOMPARE(frames[0].toObject()[u"status"_qs].toString(), u"changed"_qs);
        QCOMPARE(frames[1].toObject()[u"status"_qs].toString(), u"only_b"_qs);
        const QJsonObject first = frames[0].toObject();
        QCOMPARE(first[u"a"_qs].toObject()[u"compiles"_qs].toInt(), 1);
        QCOMPARE(first[u"b"_qs].toObject()[u"graph_breaks"_qs].toInt(), 1);
        const QJsonObject c = first[u"changes"_qs].toArray()[0].toObject();
        QCOMPARE(c[u"kind"_qs].toString(), u"graph_break_added"_qs);
        QCOMPARE(c[u"b"_qs].toString(), u"graph_break_print.py:17"_qs);
    }

    void failOnParsing()
    {
        std::string error;
        auto f = parseFailOn("graph-breaks,recompiles,failures,compile-time=35%", error);
        QVERIFY(f && f->graphBreaks && f->recompiles && f->failures);
        QCOMPARE(*f->compileTimeRatio, 0.35);
        QVERIFY(!parseFailOn("graph-breaks,slowness", error));
        QVERIFY2(error.find("slowness") != std::string::npos, error.c_str());
        QVERIFY(!parseFailOn("compile-time=fast", error));
    }

    // The CLI: exit 0 when B is not worse, 3 when it is, and why on stderr.
    void cliExitStatus()
    {
        auto run = [](const QStringList& args, QByteArray* err) {
            QProcess p;
            p.start(QStringLiteral(DYNASCOPE_CLI), args);
            p.waitForFinished(60000);
            if (err)
                *err = p.readAllStandardError();
            return p.exitCode();
        };
        const QString rec = QString::fromStdString(kRec);
        QByteArray err;
        QCOMPARE(
            run({ u"diff"_qs, u"--fail-on"_qs, u"graph-breaks"_qs, rec + u"/graph_break_print"_qs,
                    rec + u"/graph_break_print/without_print"_qs },
                nullptr),
            0);
        QCOMPARE(
            run({ u"diff"_qs, u"--fail-on"_qs, u"graph-breaks,recompiles"_qs,
                    rec + u"/graph_break_print/without_print"_qs, rec + u"/graph_break_print"_qs },
                &err),
            3);
        QVERIFY2(err.contains("B is worse: graph breaks: 0 → 1 (a new break)"), err.constData());
        QCOMPARE(run({ u"diff"_qs, rec + u"/example"_qs }, nullptr), 1); // one path: usage
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
