// Divergence between ranks as findings (core/analysis/findings_ranks.cpp): folders of 8, 256 and
// 1,024 rank files written with divergence planted (core/synth/rank_folder.h) give exactly the
// planted rank findings (the rule, the rank named, the frame, the other ranks as ranges) and no
// other; folders without divergence give none; a rank that compiled nothing is one finding.
// Then traces PyTorch wrote: the tlparse corpus's multi-rank folders (skipped without
// ../shared/traces) and the recorded two-rank gloo scenario. Rank sets named as ranges, and the
// generator's determinism, first.
#include "core/analysis/findings.h"
#include "core/load/loader.h"
#include "core/synth/rank_folder.h"
#include "core/util/text_format.h"
#include "core/writer/trace_writer.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace dynascope;
using synth::RankFolderOptions;

Q_DECLARE_METATYPE(RankFolderOptions)

namespace {

bool isRankRule(const std::string& rule)
{
    return rule.starts_with("rank-") || rule == "straggler";
}

std::vector<Finding> rankFindings(const std::vector<Finding>& all)
{
    std::vector<Finding> out;
    for (const auto& f : all)
        if (isRankRule(std::string(toString(f.rule))))
            out.push_back(f);
    return out;
}

std::string describe(const std::vector<Finding>& fs)
{
    std::string s;
    for (const auto& f : fs) {
        s += std::string(toString(f.severity)) + " " + std::string(toString(f.rule)) + ": "
            + f.title + "\n";
        for (const auto& [k, v] : f.evidence)
            s += "    " + k + ": " + v + "\n";
    }
    return s;
}

// Whether `text` names `rank` ("rank 7" in "... on rank 7" but not in "on rank 71").
bool names(const std::string& text, const std::string& rank)
{
    for (size_t at = text.find(rank); at != std::string::npos; at = text.find(rank, at + 1)) {
        const size_t end = at + rank.size();
        if (end == text.size() || !std::isdigit(static_cast<unsigned char>(text[end])))
            return true;
    }
    return false;
}

std::string evidence(const Finding& f, const std::string& label)
{
    for (const auto& [k, v] : f.evidence)
        if (k == label)
            return v;
    return {};
}

// The evidence that names the ranks that diverge, per rule.
const char* divergentLabel(const std::string& rule)
{
    if (rule == "rank-recompiles")
        return "ranks that differ";
    if (rule == "rank-graph-breaks")
        return "ranks with the break";
    if (rule == "rank-failures")
        return "ranks that failed";
    if (rule == "rank-only-compiles")
        return "not compiled on";
    if (rule == "rank-cache")
        return "ranks that missed";
    return "straggler";
}

FindingSeverity severityOf(const std::string& rule)
{
    return rule == "rank-failures" ? FindingSeverity::Error
        : rule == "rank-cache"     ? FindingSeverity::Note
                                   : FindingSeverity::Warning;
}

std::shared_ptr<const Trace> loadFolder(const QString& dir, RunChoice run = RunChoice::Newest)
{
    LoadOptions o;
    o.run = run;
    return load({ dir.toStdString() }, o).trace;
}

} // namespace

class TestRankDivergence : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Rank sets as findings name them.
    void rankRangesText()
    {
        QCOMPARE(rankRanges({ 7 }), std::string("rank 7"));
        QCOMPARE(rankRanges({ 1, 0 }), std::string("ranks 0, 1"));
        QCOMPARE(rankRanges({ 0, 1, 2, 3, 4, 5, 6 }), std::string("ranks 0-6"));
        QCOMPARE(rankRanges({ 0, 1, 2, 4, 6, 7, 9, 9 }), std::string("ranks 0-2, 4, 6, 7, 9"));
        std::vector<int64_t> all;
        for (int64_t r = 0; r < 1024; ++r)
            if (r != 512)
                all.push_back(r);
        QCOMPARE(rankRanges(all), std::string("ranks 0-511, 513-1023"));
        std::vector<int64_t> even;
        for (int64_t r = 0; r < 1024; r += 2)
            even.push_back(r);
        QCOMPARE(rankRanges(even), std::string("ranks 0, 2, 4, 6, 8, 10, 12, 14 and 504 more"));
        QCOMPARE(rankRanges({}), std::string("no rank"));
    }

    // The generator: the same options give the same bytes; what it plants is what it says.
    void generator()
    {
        RankFolderOptions o;
        o.extraRecompileRank = 1;
        o.graphBreakRank = 1; // two plants on one rank: both planted
        o.failureRank = 2;
        o.missingFrameRank = 2; // the missing frame wins over the failure
        std::ostringstream a, b;
        synth::writeRankTrace(a, 1, o);
        synth::writeRankTrace(b, 1, o);
        QVERIFY(a.str() == b.str());
        QVERIFY(a.str().find("\"rank\": 1") != std::string::npos);
        std::vector<std::string> planted;
        for (const auto& p : synth::plantedDivergence(o))
            planted.push_back(p.rule + " " + std::to_string(p.rank) + " " + p.function);
        const std::vector<std::string> expected { "rank-recompiles 1 forward",
            "rank-graph-breaks 1 helper", "rank-only-compiles 2 helper" };
        QCOMPARE(planted, expected);
    }

    void planted_data()
    {
        QTest::addColumn<RankFolderOptions>("options");
        RankFolderOptions every;
        every.extraRecompileRank = 3;
        every.graphBreakRank = 5;
        every.failureRank = 2;
        every.cacheMissRank = 1;
        every.stragglerRank = 6;
        QTest::newRow("8 ranks, five plants") << every;
        RankFolderOptions missing;
        missing.missingFrameRank = 7;
        QTest::newRow("8 ranks, a frame missing on rank 7") << missing;
        RankFolderOptions clean;
        QTest::newRow("8 ranks, no divergence") << clean;
        RankFolderOptions mid;
        mid.ranks = 256;
        mid.graphBreakRank = 200;
        mid.stragglerRank = 17;
        mid.missingFrameRank = 0;
        QTest::newRow("256 ranks, break, straggler, missing frame") << mid;
        RankFolderOptions midClean;
        midClean.ranks = 256;
        QTest::newRow("256 ranks, no divergence") << midClean;
        RankFolderOptions large;
        large.ranks = 1024;
        large.extraRecompileRank = 512;
        large.cacheMissRank = 1023;
        QTest::newRow("1024 ranks, recompile on 512, cache miss on 1023") << large;
    }

    // Exactly the planted divergence: one finding per plant, with its rule and severity, the
    // rank named, the frame, its compiles; no other rank finding.
    void planted()
    {
        QFETCH(RankFolderOptions, options);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QElapsedTimer clock;
        clock.start();
        const auto folder = synth::writeRankFolder(dir.path().toStdString(), options);
        const qint64 writeMs = clock.restart();
        const auto trace = loadFolder(dir.path());
        QVERIFY(trace);
        QCOMPARE(trace->files.size(), size_t(options.ranks));
        const qint64 loadMs = clock.restart();
        const auto fs = rankFindings(findFindings(*trace));
        qInfo("%lld ranks, %.1f MB: written in %lld ms, loaded in %lld ms, findings in %lld ms",
            static_cast<long long>(options.ranks), double(folder.bytes) / 1e6,
            static_cast<long long>(writeMs), static_cast<long long>(loadMs),
            static_cast<long long>(clock.elapsed()));
        const std::string all = describe(fs);
        qInfo("%s", all.c_str());
        QCOMPARE(fs.size(), folder.planted.size());
        for (const auto& p : folder.planted) {
            const auto it = std::find_if(fs.begin(), fs.end(),
                [&](const Finding& f) { return std::string(toString(f.rule)) == p.rule; });
            QVERIFY2(it != fs.end(), (p.rule + " missing:\n" + all).c_str());
            const Finding& f = *it;
            const std::string rank = "rank " + std::to_string(p.rank);
            QCOMPARE(evidence(f, divergentLabel(p.rule)), rank);
            QVERIFY2(names(f.title, p.rule == "straggler" ? "R" + rank.substr(1) : rank),
                f.title.c_str());
            QCOMPARE(f.severity, severityOf(p.rule));
            // The rank it singles out, by file (the timeline marks that rank's row).
            QCOMPARE(f.files.size(), size_t(1));
            QCOMPARE(trace->files[f.files.front()].rank, std::optional<int64_t>(p.rank));
            QVERIFY(!f.compiles.empty());
            QVERIFY(!f.why.empty() && !f.hint.empty() && !f.ladderStep.empty());
            QVERIFY2(f.title.size() < 240, f.title.c_str());
            if (p.function.empty()) {
                QCOMPARE(f.frame, kNone);
                // The straggler's compiles are its own.
                for (uint32_t c : f.compiles)
                    QCOMPARE(*trace->files[trace->compiles[c].file].rank, p.rank);
                continue;
            }
            QVERIFY(f.frame < trace->frames.size());
            const Frame& fr = trace->frames[f.frame];
            QCOMPARE(fr.coName, p.function);
            QCOMPARE(std::string(text::baseName(fr.coFilename)), p.file);
            QCOMPARE(fr.coFirstLineno, p.line);
            const std::string code
                = "`" + p.function + "` (" + p.file + ":" + std::to_string(p.line) + ")";
            QVERIFY2(f.title.find(code) != std::string::npos, f.title.c_str());
            QVERIFY2(f.title.find(code + " on rank") == std::string::npos, f.title.c_str());
            QCOMPARE(f.frameLabel, p.function + " (" + p.file + ":" + std::to_string(p.line) + ")");
            // Every rank named: the planted one, and the others that compile the frame as
            // ranges.
            std::vector<int64_t> rest;
            for (int64_t r = 0; r < options.ranks; ++r)
                if (r != p.rank
                    && (p.function != "helper" || p.rule == "rank-only-compiles"
                        || r != options.missingFrameRank))
                    rest.push_back(r);
            const std::string others = rankRanges(rest);
            QVERIFY2(f.title.find(others) != std::string::npos, f.title.c_str());
        }
    }

    // The same finding on every rank (each rank's `step` breaks at train.py:19) is one finding
    // naming the ranks, with every rank's compile: 16 ranks listed it 16 times before.
    void sameFindingOnEveryRankIsOne()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RankFolderOptions options;
        options.ranks = 16;
        synth::writeRankFolder(dir.path().toStdString(), options);
        const auto trace = loadFolder(dir.path());
        QVERIFY(trace);
        std::vector<Finding> breaks;
        for (auto& f : findFindings(*trace))
            if (std::string(toString(f.rule)) == "data-dependent")
                breaks.push_back(f);
        QCOMPARE(breaks.size(), size_t(1));
        QVERIFY2(breaks[0].title.find("`step` (train.py:16) on ranks 0-15 at train.py:19")
                != std::string::npos,
            breaks[0].title.c_str());
        QCOMPARE(breaks[0].compiles.size(), size_t(32)); // per rank: the break and its resume
        QCOMPARE(breaks[0].count, uint64_t(16));
        QCOMPARE(breaks[0].evidence.front().first, std::string("ranks"));
    }

    // A rank whose file holds records but no compile: one finding names it, and the ranks that
    // compiled are compared without it (they agree).
    void rankThatCompiledNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RankFolderOptions options;
        options.ranks = 4;
        const auto folder = synth::writeRankFolder(dir.path().toStdString(), options);
        {
            std::ofstream out(folder.files[2], std::ios::binary | std::ios::trunc);
            TraceWriter w(out, 4244, 1773484862000000);
            WriteContext ctx;
            ctx.rank = 2;
            w.artifact(ctx, "torch_version", "json", "{\"pytorch_version\": \"2.13.0\"}");
        }
        const auto trace = loadFolder(dir.path());
        QVERIFY(trace);
        const auto fs = rankFindings(findFindings(*trace));
        QVERIFY2(fs.size() == 1 && std::string(toString(fs[0].rule)) == "rank-only-compiles",
            describe(fs).c_str());
        QCOMPARE(fs[0].frame, kNone);
        QCOMPARE(fs[0].title, std::string("Rank 2 compiled nothing, unlike ranks 0, 1, 3"));
        QCOMPARE(evidence(fs[0], "ranks without a compile"), std::string("rank 2"));
    }

    // The tlparse corpus's multi-rank folders, every run loaded (--run all): ranks are compared
    // within a run only (core/load/runs.h), and what their ranks really did there agrees.
    //  - multi_rank_runtime: ranks 0-4 of the Aug 4 run compile `inner` 4 times each alike; the
    //    Aug 15 run's rank 1 (twice, the same bytes: one left out) is another job: nothing;
    //  - multi_rank_logs: four files of three runs (2024-12-06 ranks 0 and 2, 2025-07-18 rank
    //    1, 2025-07-21 rank 3). Merged into one job they looked divergent (`kernel` 15 times on
    //    rank 1 and 7 on rank 3, `fn` on ranks 0 and 2 only, a 10 s straggler): those were other
    //    runs. Within the 2024 run, ranks 0 and 2 both fail `fn` the same way: nothing;
    //  - multi_rank_schedule: its three files all say "rank": 0, one rank: no rank rule runs;
    //  - collectives_parity: one file.
    void tlparseFolders()
    {
        const QString inputs
            = QStringLiteral(DYNASCOPE_SHARED_TRACES) + u"/tlparse/tests/inputs"_qs;
        if (!QFileInfo::exists(inputs))
            QSKIP("../shared/traces is absent: the tlparse corpus's multi-rank folders are not on "
                  "this machine");
        auto findingsOf = [&](const char* name) {
            const auto trace
                = loadFolder(inputs + u"/"_qs + QString::fromUtf8(name), RunChoice::All);
            if (!trace)
                qFatal("cannot load %s", name);
            auto fs = rankFindings(findFindings(*trace));
            qInfo("%s (%zu files):\n%s", name, trace->files.size(), describe(fs).c_str());
            return std::make_pair(trace, fs);
        };
        const auto [runtime, runtimeFindings] = findingsOf("multi_rank_runtime");
        QCOMPARE(runtime->files.size(), size_t(6));
        QCOMPARE(runtime->runs.size(), size_t(2));
        QVERIFY2(runtimeFindings.empty(), describe(runtimeFindings).c_str());

        const auto [logs, fs] = findingsOf("multi_rank_logs");
        QCOMPARE(logs->files.size(), size_t(4));
        QCOMPARE(logs->runs.size(), size_t(3));
        QVERIFY2(fs.empty(), describe(fs).c_str());
        // `fn` fails on ranks 0 and 2 alike: one finding that names both.
        std::vector<std::string> failures;
        for (const auto& f : findFindings(*logs))
            if (std::string(toString(f.rule)) == "failure")
                failures.push_back(f.title);
        QCOMPARE(failures.size(), size_t(1));
        QVERIFY2(
            failures[0].find("on ranks 0, 2 failed") != std::string::npos, failures[0].c_str());

        for (const char* oneRank : { "multi_rank_schedule", "collectives_parity" }) {
            const auto [trace, none] = findingsOf(oneRank);
            std::set<int64_t> ranks;
            for (const auto& file : trace->files)
                ranks.insert(file.rank.value_or(-1));
            QCOMPARE(ranks.size(), size_t(1));
            QVERIFY2(none.empty(), describe(none).c_str());
        }
    }

    // The recorded gloo pair: both ranks compile `step` once, the same way, 6.43 s and 6.88 s
    // (7% apart: no straggler): no rank finding.
    void twoRanksGloo()
    {
        const auto trace
            = loadFolder(QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED) + u"/two_ranks_gloo"_qs);
        QVERIFY(trace);
        std::map<int64_t, std::vector<std::string>> compiled;
        for (const auto& c : trace->compiles)
            if (c.startRecord != kNone)
                compiled[*trace->files[c.file].rank].push_back(c.id.display() + " " + c.coName);
        const std::vector<std::string> one { "[0/0] step" };
        QCOMPARE(compiled.size(), size_t(2));
        QCOMPARE(compiled[0], one);
        QCOMPARE(compiled[1], one);
        const auto fs = rankFindings(findFindings(*trace));
        QVERIFY2(fs.empty(), describe(fs).c_str());
    }
};

QTEST_GUILESS_MAIN(TestRankDivergence)
#include "tst_rankdivergence.moc"
