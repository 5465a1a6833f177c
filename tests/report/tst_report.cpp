// The compile report (core/report): its numbers equal `summary --json`'s (totals, per file, per
// frame) on every fixture and on the real traces in ../shared/traces; the recompile_chain group
// lists 32 → 64 → 128 → 256 → 512; the HTML stands alone and escapes a hostile trace written on
// the fly; the bug-report Markdown tells the why-chain of a recompile, a graph break and a failure.
#include "core/load/loader.h"
#include "core/model/compile_id.h"
#include "core/model/phase_groups.h"
#include "core/report/bug_report.h"
#include "core/report/report_render.h"
#include "core/util/text_format.h"
#include "core/writer/summary_json.h"
#include "core/writer/trace_writer.h"

#include "tests/support/trace_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace dynascope;

namespace {
std::string fixture(const QString& name)
{
    return std::string(DYNASCOPE_FIXTURES_DIR) + "/" + name.toStdString();
}

QJsonObject parse(const std::string& json)
{
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "JSON does not parse:" << error.errorString() << "at" << error.offset;
    return doc.object();
}

struct Counts {
    qint64 compiles = 0, withoutStart = 0, recompiles = 0, graphBreaks = 0, failures = 0;
    bool operator==(const Counts&) const = default;
};

// Counts from the summary's compile list, with the summary's own rules.
Counts countSummary(const QJsonArray& compiles, const std::function<bool(const QJsonObject&)>& keep)
{
    Counts n;
    for (const auto& v : compiles) {
        QJsonObject c = v.toObject();
        if (!keep(c))
            continue;
        bool start = c[u"has_dynamo_start"_qs].toBool();
        if (start) {
            ++n.compiles;
            auto id = CompileId::parse(c[u"id"_qs].toString().toStdString());
            if (id && id->frameCompile && *id->frameCompile > 0)
                ++n.recompiles;
        } else {
            ++n.withoutStart;
        }
        n.graphBreaks += c[u"graph_breaks"_qs].toArray().size();
        if (!c[u"failure"_qs].isNull())
            ++n.failures;
    }
    return n;
}

Counts countEvidence(const QJsonObject& e)
{
    Counts n;
    n.compiles = e[u"compiles"_qs].toInteger();
    n.withoutStart = e[u"compiles_without_start"_qs].toInteger();
    n.recompiles = e[u"recompiles"_qs].toInteger();
    n.graphBreaks = e[u"graph_breaks"_qs].toInteger();
    n.failures = e[u"failures"_qs].toInteger();
    return n;
}

QString describe(const Counts& c)
{
    return u"compiles %1 (+%2 without start), recompiles %3, graph breaks %4, failures %5"_qs
        .arg(c.compiles)
        .arg(c.withoutStart)
        .arg(c.recompiles)
        .arg(c.graphBreaks)
        .arg(c.failures);
}

// The report JSON against the summary JSON of the same trace: totals, per file, per frame, and
// the group lists add up.
void checkAgainstSummary(const Trace& t, const QString& label)
{
    QJsonObject summary = parse(summaryJson(t));
    Report rep = buildReport(t, findFindings(t));
    QJsonObject report = parse(reportJson(rep));
    QCOMPARE(report[u"format"_qs].toString(), u"dynascope-report"_qs);
    QCOMPARE(report[u"format_version"_qs].toInt(), 1);
    QJsonArray compiles = summary[u"compiles"_qs].toArray();
    QJsonObject totals = summary[u"totals"_qs].toObject();

    Counts all = countSummary(compiles, [](const QJsonObject&) { return true; });
    QCOMPARE(all.compiles, totals[u"compiles"_qs].toInteger());
    QCOMPARE(all.recompiles, totals[u"recompiles"_qs].toInteger());
    QCOMPARE(all.graphBreaks, totals[u"graph_breaks"_qs].toInteger());
    QCOMPARE(all.failures, totals[u"failures"_qs].toInteger());
    Counts total = countEvidence(report[u"evidence"_qs].toObject());
    QVERIFY2(total == all,
        qPrintable(label + u": report "_qs + describe(total) + u" vs summary "_qs + describe(all)));
    QCOMPARE(
        qint64(report[u"diagnostics"_qs].toArray().size()), totals[u"diagnostics"_qs].toInteger());

    QJsonArray files = report[u"files"_qs].toArray();
    QCOMPARE(files.size(), summary[u"files"_qs].toArray().size());
    for (qsizetype i = 0; i < files.size(); ++i) {
        QJsonObject f = files[i].toObject();
        Counts want = countSummary(
            compiles, [&](const QJsonObject& c) { return c[u"file"_qs].toInteger() == i; });
        Counts got = countEvidence(f[u"evidence"_qs].toObject());
        QVERIFY2(got == want,
            qPrintable(label + u" file "_qs + QString::number(i) + u": "_qs + describe(got)
                + u" vs "_qs + describe(want)));
        QCOMPARE(f[u"payload_hash_mismatches"_qs],
            summary[u"files"_qs].toArray()[i].toObject()[u"payload_hash_mismatches"_qs]);
    }

    QJsonArray frames = report[u"frames"_qs].toArray();
    QCOMPARE(qsizetype(frames.size()), qsizetype(t.frames.size()));
    qint64 frameCompiles = 0;
    for (const auto& v : frames) {
        QJsonObject f = v.toObject();
        qint64 frame = f[u"frame"_qs].toInteger();
        Counts want = countSummary(
            compiles, [&](const QJsonObject& c) { return c[u"frame"_qs].toInteger() == frame; });
        Counts got = countEvidence(f[u"evidence"_qs].toObject());
        QVERIFY2(got == want,
            qPrintable(label + u" frame "_qs + f[u"function"_qs].toString() + u": "_qs
                + describe(got) + u" vs "_qs + describe(want)));
        frameCompiles += f[u"compiles"_qs].toArray().size();
        // Time by phase adds up to the frame's compile time (integer rounding per group).
        qint64 sum = 0;
        QJsonObject phases = f[u"evidence"_qs].toObject()[u"phases_us"_qs].toObject();
        for (auto it = phases.begin(); it != phases.end(); ++it)
            sum += it.value().toInteger();
        qint64 totalUs = f[u"evidence"_qs].toObject()[u"total_compile_us"_qs].toInteger();
        QVERIFY2(std::abs(sum - totalUs) <= qint64(kPhaseGroupCount),
            qPrintable(label + u": phases "_qs + QString::number(sum) + u" vs total "_qs
                + QString::number(totalUs)));
    }
    QCOMPARE(frameCompiles, qint64(compiles.size()));

    qint64 breaks = 0;
    for (const auto& g : report[u"graph_breaks"_qs].toArray())
        breaks += g.toObject()[u"count"_qs].toInteger();
    QCOMPARE(breaks, all.graphBreaks);
    qint64 recompiles = 0;
    for (const auto& g : report[u"recompiles"_qs].toArray())
        recompiles += g.toObject()[u"count"_qs].toInteger();
    QCOMPARE(recompiles, all.recompiles);
    QCOMPARE(qint64(report[u"failures"_qs].toArray().size()), all.failures);

    // The other renderers run on the same report.
    std::string md = reportMarkdown(rep);
    QVERIFY(md.find("## Evidence") != std::string::npos);
    std::string html = reportHtml(rep);
    QVERIFY(html.starts_with("<!DOCTYPE html>"));
    QVERIFY(html.ends_with("</html>\n"));
}

// Lines of Markdown outside fenced blocks, with code spans removed: what a renderer would parse
// as markup.
std::string markupOutsideCode(const std::string& md)
{
    std::istringstream in(md);
    std::string line, out;
    std::string fence;
    while (std::getline(in, line)) {
        size_t ticks = line.find_first_not_of('`');
        if (line.starts_with("```")) {
            std::string run = line.substr(0, ticks == std::string::npos ? line.size() : ticks);
            if (fence.empty())
                fence = run;
            else if (run.size() >= fence.size() && line.find_first_not_of('`') == std::string::npos)
                fence.clear();
            continue;
        }
        if (!fence.empty())
            continue;
        // Remove code spans: a run of N backticks up to the next run of exactly N.
        std::string kept;
        for (size_t i = 0; i < line.size();) {
            if (line[i] != '`') {
                kept += line[i++];
                continue;
            }
            size_t n = line.find_first_not_of('`', i);
            n = (n == std::string::npos ? line.size() : n) - i;
            std::string delim(n, '`');
            size_t close = line.find(delim, i + n);
            while (close != std::string::npos && close + n < line.size() && line[close + n] == '`')
                close = line.find(delim, line.find_first_not_of('`', close));
            if (close == std::string::npos) {
                kept += line.substr(i, n);
                i += n;
                continue;
            }
            i = close + n;
        }
        out += kept + "\n";
    }
    return out;
}

const std::string kHostileFn = "<script>alert(1)</script>";
const std::string kHostileFile = "/home/alice/\"><img src=x onerror=alert(2)>.py";

// A trace whose every string is hostile: function and file names, graph break reason, failure,
// recompile reason.
std::string writeHostileTrace(const std::string& dir)
{
    std::string path = dir + "/hostile.log";
    std::ofstream out(path, std::ios::binary);
    TraceWriter w(out, 77, 1773484862000000);
    auto metrics = [&](const std::string& extra) {
        QJsonObject m;
        m[u"co_name"_qs] = QString::fromStdString(kHostileFn);
        m[u"co_filename"_qs] = QString::fromStdString(kHostileFile);
        m[u"co_firstlineno"_qs] = 20;
        m[u"graph_op_count"_qs] = 2;
        m[u"guard_count"_qs] = 3;
        if (extra == "fail") {
            m[u"recompile_reason"_qs] = u"0/0: <script>alert(4)</script> == 3"_qs;
            m[u"fail_type"_qs] = u"<b>Boom</b>"_qs;
            m[u"fail_reason"_qs] = u"</pre><script src=\"http://evil.example/x.js\"></script>"_qs;
            m[u"fail_user_frame_filename"_qs] = QString::fromStdString(kHostileFile);
            m[u"fail_user_frame_lineno"_qs] = 21;
        }
        return QJsonDocument(m).toJson(QJsonDocument::Compact).toStdString();
    };
    std::vector<WriteFrame> stack { { 10, "main", "/home/alice/run.py", "" },
        { 20, kHostileFn, kHostileFile, "" } };
    for (int i = 0; i < 2; ++i) {
        auto ctx = WriteContext::forCompile({ std::nullopt, 0, i, 0 });
        w.chromiumEvent(ctx, "dynamo", "B");
        if (i == 1)
            w.artifact(
                ctx, "recompile_reasons", "json", "[\"0/0: <script>alert(4)</script> == 3\"]");
        w.dynamoStart(ctx, stack);
        if (i == 0)
            w.artifact(ctx, "dynamo_graph_break_reason", "string",
                "Graph break in user code at " + kHostileFile
                    + ":21\nGraph Break Reason: <script>alert(3)</script>\nUser code traceback:\n"
                      "  File \""
                    + kHostileFile + "\", line 21, in " + kHostileFn + "\n    x = <iframe>\n");
        w.advanceUs(5000);
        w.write("compilation_metrics", metrics(i == 1 ? "fail" : ""), ctx);
        w.chromiumEvent(ctx, "dynamo", "E");
        w.advanceUs(1000);
    }
    return path;
}
} // namespace

class TestReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!std::filesystem::exists(fixture(u"graph_break.log"_qs)))
            QSKIP("fixtures not generated: run ctest (the make_fixtures test writes them first)");
    }

    void matchesSummaryOnFixtures_data()
    {
        QTest::addColumn<QString>("input");
        for (const char* name : { "graph_break.log", "recompile_chain.log", "dynamic_shape.log",
                 "backend_failure.log", "compiled_autograd.log", "reset_ids.log", "legacy_2024.log",
                 "truncated.log", "crlf.log", "blank_lines.log", "bad_header_json.log",
                 "example.log", "two_ranks", "recompile_chain.log.zst" })
            QTest::newRow(name) << QString::fromUtf8(name);
    }
    void matchesSummaryOnFixtures()
    {
        QFETCH(QString, input);
        auto r = load({ fixture(input) });
        QVERIFY(r.trace && r.errors.empty());
        checkAgainstSummary(*r.trace, input);
    }

    void matchesSummaryOnRealTraces_data()
    {
        QTest::addColumn<QString>("path");
        QString root = QString::fromUtf8(DYNASCOPE_SHARED_TRACES);
        if (!QFileInfo::exists(root))
            QSKIP(qPrintable(u"real traces not available: "_qs + root
                + u" does not exist (it comes with the workplace's shared/ folder)"_qs));
        std::vector<std::string> files;
        testsupport::addTraceFiles(root.toStdString(), files, UINTMAX_MAX);
        QStringList paths;
        for (const std::string& f : files)
            paths << QString::fromStdString(f);
        for (const QString& p : paths)
            QTest::newRow(qPrintable(p.mid(root.size() + 1))) << p;
    }
    void matchesSummaryOnRealTraces()
    {
        QFETCH(QString, path);
        auto r = load({ path.toStdString() });
        QVERIFY(r.trace && r.errors.empty());
        checkAgainstSummary(*r.trace, path);
    }

    void recompileChainValues()
    {
        auto r = load({ fixture(u"recompile_chain.log"_qs) });
        Report rep = buildReport(*r.trace, findFindings(*r.trace));
        QCOMPARE(rep.recompiles.size(), size_t(1));
        const RecompileGroup& g = rep.recompiles[0];
        QCOMPARE(g.count, uint64_t(4));
        QCOMPARE(g.guardKind, std::string("TENSOR_MATCH"));
        QCOMPARE(g.mismatch, std::string("size"));
        QCOMPARE(g.source, std::string("L['x']"));
        QCOMPARE(g.function, std::string("scale"));
        QCOMPARE(g.chains.size(), size_t(1));
        QCOMPARE(
            g.chains[0].values, (std::vector<std::string> { "32", "64", "128", "256", "512" }));
        QCOMPARE(g.steps.size(), size_t(4));
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(g.steps[i].compile.id, "[0/" + std::to_string(i + 1) + "]");
            QVERIFY(g.steps[i].earlier);
            QCOMPARE(g.steps[i].earlier->id, "[0/" + std::to_string(i) + "]");
            // PyTorch lists one reason per older cache entry: [0/i+1] names the i older ones too.
            QCOMPARE(g.steps[i].otherReasons, uint64_t(i));
        }
        QVERIFY(g.guardExpr.find("size=[32, 128]") != std::string::npos);

        QJsonObject json = parse(reportJson(rep));
        QJsonArray values = json[u"recompiles"_qs].toArray()[0].toObject()[u"values"_qs].toArray();
        QCOMPARE(values, (QJsonArray { u"32"_qs, u"64"_qs, u"128"_qs, u"256"_qs, u"512"_qs }));
        QVERIFY(reportMarkdown(rep).find("32 → 64 → 128 → 256 → 512") != std::string::npos);
        std::string html = reportHtml(rep);
        QVERIFY(html.find("<span class=\"v\">32</span><span class=\"arrow\">→</span><span "
                          "class=\"v\">64</span>")
            != std::string::npos);
    }

    void graphBreaksDeduplicated()
    {
        auto r = load({ fixture(u"example.log"_qs) });
        Report rep = buildReport(*r.trace, findFindings(*r.trace));
        QCOMPARE(rep.graphBreaks.size(), size_t(1));
        const GraphBreakGroup& g = rep.graphBreaks[0];
        QCOMPARE(g.count, uint64_t(1));
        QCOMPARE(g.line, int64_t(19));
        QVERIFY(g.file.ends_with("train.py"));
        QCOMPARE(g.compiles.size(), size_t(1));
        QCOMPARE(g.compiles[0].id, std::string("[1/0]"));
        QCOMPARE(g.resumes.size(), size_t(1));
        QCOMPARE(g.resumes[0].id, std::string("[2/0]"));
        QVERIFY(!g.traceback.starts_with("User code traceback:"));
        QVERIFY(g.traceback.find("line 19, in step") != std::string::npos);
    }

    void evidenceOfTheExample()
    {
        auto r = load({ fixture(u"example.log"_qs) });
        Report rep = buildReport(*r.trace, findFindings(*r.trace));
        const Evidence& e = rep.total;
        QCOMPARE(e.compiles, uint64_t(9));
        QCOMPARE(e.recompiles, uint64_t(4));
        QCOMPARE(e.graphBreaks, uint64_t(1));
        QCOMPARE(e.failures, uint64_t(1));
        QVERIFY(e.firstCompile);
        QCOMPARE(e.firstCompile->id, std::string("[0/0]"));
        QCOMPARE(e.firstCompileUs, r.trace->compiles[0].durationUs());
        double sum = 0;
        for (const auto& c : r.trace->compiles)
            sum += c.durationUs();
        QCOMPARE(e.totalCompileUs, sum);
        QCOMPARE(e.cache.misses, uint64_t(8));
        QCOMPARE(e.cache.hitRate().value_or(-1), 0.0);
    }

    void phaseTimesAddUp()
    {
        auto r = load({ fixture(u"example.log"_qs) });
        for (const auto& c : r.trace->compiles) {
            PhaseTimes p = phaseTimes(c);
            double sum = 0;
            for (double v : p)
                sum += v;
            QVERIFY2(std::abs(sum - c.durationUs()) < 1e-3, c.id.display().c_str());
            if (c.status == CompileStatus::Ok)
                QVERIFY2(p[size_t(PhaseGroup::InductorCodegen)] > 0, c.id.display().c_str());
            QCOMPARE(p[size_t(PhaseGroup::Unattributed)], 0.0); // all inside the dynamo span
        }
    }

    void phaseGroupOfNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("group"); // "" = inherits from the enclosing span
        auto row = [](const char* n, const char* g) {
            QTest::newRow(n) << QString::fromUtf8(n) << QString::fromUtf8(g);
        };
        row("bytecode_tracing", "dynamo_tracing");
        row("build_guards", "guards");
        row("dynamo", "dynamo_other");
        row("compile_attempt_1", "dynamo_other");
        row("backend_compile", "backend");
        row("create_aot_dispatcher_function", "aot_autograd");
        row("aot_collect_metadata", "aot_autograd");
        row("inductor_compile", "inductor");
        row("GraphLowering.run", "inductor");
        row("_recursive_post_grad_passes", "inductor");
        row("code_gen", "inductor_codegen");
        row("GraphLowering.compile_to_module", "inductor_codegen");
        row("async_compile.wait", "inductor_codegen");
        row("AOTAutogradCache.inductor_load", "cache");
        row("inductor_codecache_torch_key", "cache");
        row("CachingAutotuner.benchmark_all_configs", "autotuning");
        row("pad_mm_benchmark", "autotuning");
        row("CUDAGraphTreeManager.run_eager", "cudagraphs");
        row("my_custom_span", "");
    }
    void phaseGroupOfNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, group);
        auto g = phaseGroupOf(name.toStdString());
        QCOMPARE(g ? QString::fromUtf8(phaseGroupId(*g)) : QString(), group);
    }

    void htmlStandsAloneAndEscapes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string path = writeHostileTrace(dir.path().toStdString());
        auto r = load({ path });
        QVERIFY(r.trace && r.errors.empty());
        const Trace& t = *r.trace;
        QCOMPARE(t.compiles.size(), size_t(2));
        QCOMPARE(t.compiles[0].coName, kHostileFn);
        QCOMPARE(t.graphBreakCount(), uint64_t(1));
        QCOMPARE(t.failureCount(), uint64_t(1));
        Report rep = buildReport(t, findFindings(t));
        QString html = QString::fromStdString(reportHtml(rep));

        // No external references, no scripts at all.
        for (const char* bad : { "src=\"http", "src='http", "<link", "<script", "@import",
                 "url(http", "<iframe", "<img", "href=\"http", "<b>" })
            QVERIFY2(!html.contains(QLatin1String(bad), Qt::CaseInsensitive), bad);
        // No element carries an event handler (the hostile " onerror=" is text, after "&lt;").
        QString tags = html;
        tags.replace(QRegularExpression(u"\"[^\"]*\""_qs), u"\"\""_qs); // attribute values
        QVERIFY(!tags.contains(QRegularExpression(u"<[^>]*\\son\\w+="_qs)));
        // Every hostile string is there, escaped.
        QVERIFY(html.contains(u"&lt;script&gt;alert(1)&lt;/script&gt;"_qs));
        QVERIFY(html.contains(u"&lt;script&gt;alert(3)&lt;/script&gt;"_qs));
        QVERIFY(html.contains(u"&lt;script&gt;alert(4)&lt;/script&gt;"_qs));
        QVERIFY(html.contains(u"&lt;b&gt;Boom&lt;/b&gt;"_qs));
        QVERIFY(html.contains(u"&quot;&gt;&lt;img src=x onerror=alert(2)&gt;.py"_qs));
        QVERIFY(html.contains(u"&lt;/pre&gt;&lt;script src=&quot;http://evil.example/x.js"_qs));
        QVERIFY(html.contains(u"<style>"_qs));

        // Markdown: trace text only inside code.
        for (const std::string& md :
            { reportMarkdown(rep), bugReportMarkdown(t, 0, findFindings(t)),
                bugReportMarkdown(t, 1, findFindings(t)) }) {
            std::string outside = markupOutsideCode(md);
            QVERIFY2(outside.find('<') == std::string::npos, outside.c_str());
            QVERIFY(md.find(kHostileFn) != std::string::npos);
        }
        // JSON: parses and holds the strings verbatim.
        QJsonObject json = parse(reportJson(rep));
        QCOMPARE(json[u"frames"_qs].toArray()[0].toObject()[u"function"_qs].toString(),
            QString::fromStdString(kHostileFn));
    }

    void bugReportRecompile()
    {
        auto r = load({ fixture(u"recompile_chain.log"_qs) });
        std::string md = bugReportMarkdown(*r.trace, 4, findFindings(*r.trace));
        QVERIFY2(md.starts_with("## torch.compile [0/4] `scale`: recompiled"), md.c_str());
        QVERIFY(md.find("(against [0/3])") != std::string::npos);
        QVERIFY(
            md.find("**Failed guard** in [0/3]: `TENSOR_MATCH` on `L['x']`") != std::string::npos);
        QVERIFY(md.find("expected `256`, actual `512`") != std::string::npos);
        QVERIFY(md.find("```\nTENSOR_MATCH: check_tensor(L['x']") != std::string::npos);
        QVERIFY(md.find("size=[256, 128]") != std::string::npos);
        QVERIFY(md.find("**Source:** `scale` at `train.py:25`") != std::string::npos);
        QVERIFY(md.find("32 → 64 → 128 → 256 → 512") != std::string::npos);
        QVERIFY(md.find("| Compile | [0/4] (#4 in the trace") != std::string::npos);
        QVERIFY(bugReportMarkdown(*r.trace, 99, findFindings(*r.trace)).empty());
    }

    // A value guard's reason names the earlier compile's value only; the bug report and the
    // report take the call's from the recompile's own guards (they showed "actual ` `" and a
    // chain missing its last value before).
    void valueGuardsSayBothValues()
    {
        const std::string suite = DYNASCOPE_SOURCE_DIR "/tests/scenarios/recorded/torch-2.13.0/";
        auto r = load({ suite + "guard_constant" });
        if (!r.trace)
            QSKIP("no scenario recording (tests/scenarios/recorded)");
        std::string md = bugReportMarkdown(*r.trace, 1, findFindings(*r.trace));
        QVERIFY2(md.find("**Failed guard** in [0/0]: `EQUALS_MATCH` on `L['factor']`, value "
                         "expected `2`, actual `3`")
                != std::string::npos,
            md.c_str());
        QVERIFY2(md.find("actual ` `") == std::string::npos, md.c_str());

        auto limit = load({ suite + "recompile_limit" });
        QVERIFY(limit.trace);
        const Report rep = buildReport(*limit.trace, findFindings(*limit.trace));
        QCOMPARE(rep.recompiles.size(), size_t(1));
        QCOMPARE(rep.recompiles[0].chains.size(), size_t(1));
        QCOMPARE(
            rep.recompiles[0].chains[0].values, (std::vector<std::string> { "0", "1", "2", "3" }));
        QCOMPARE(rep.recompiles[0].steps.back().actual, std::string("3"));
        for (uint32_t i = 0; i < limit.trace->compiles.size(); ++i) {
            md = bugReportMarkdown(*limit.trace, i, findFindings(*limit.trace));
            QVERIFY2(md.find("actual ` `") == std::string::npos, md.c_str());
        }
        // The training flag flipped: TRUE_MATCH in [0/0], FALSE_MATCH in [0/1].
        auto flag = load({ suite + "guard_training_flag" });
        QVERIFY(flag.trace);
        md = bugReportMarkdown(*flag.trace, 1, findFindings(*flag.trace));
        QVERIFY2(md.find("value expected `True`, actual `False`") != std::string::npos, md.c_str());
    }

    void bugReportGraphBreak()
    {
        auto r = load({ fixture(u"graph_break.log"_qs) });
        std::string md = bugReportMarkdown(*r.trace, 0, findFindings(*r.trace));
        QVERIFY2(md.find("graph break at `train.py:19`") != std::string::npos, md.c_str());
        QVERIFY(md.find("**Reason:** `Data-dependent branching`") != std::string::npos);
        QVERIFY(md.find("**User code traceback:**\n\n```\n  File") != std::string::npos);
        QVERIFY(md.find("line 19, in step") != std::string::npos);
        QVERIFY(md.find("**Resumes in** [1/0] `torch_dynamo_resume_in_step_at_19`")
            != std::string::npos);
        std::string resume = bugReportMarkdown(*r.trace, 1, findFindings(*r.trace));
        QVERIFY(resume.find("code after a graph break in [0/0] `step`") != std::string::npos);
    }

    void bugReportFailure()
    {
        auto r = load({ fixture(u"backend_failure.log"_qs) });
        std::string md = bugReportMarkdown(*r.trace, 0, findFindings(*r.trace));
        QVERIFY2(md.find("failed with `BackendCompilerFailed`") != std::string::npos, md.c_str());
        QVERIFY(md.find("in user frame `") != std::string::npos);
        QVERIFY(md.find("Traceback:\n\n```") != std::string::npos);
        QVERIFY(md.find("| Status | error |") != std::string::npos);
    }

    void textHelpers()
    {
        QCOMPARE(text::mdCode("a`b"), std::string("``a`b``"));
        QCOMPARE(text::mdCode("`x`"), std::string("`` `x` ``"));
        QCOMPARE(text::mdCode("a|b", true), std::string("`a\\|b`"));
        QCOMPARE(text::mdFence("x ``` y"), std::string("````\nx ``` y\n````\n"));
        QCOMPARE(text::htmlEscape("<a href='x'>&\"</a>"),
            std::string("&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"));
        QCOMPARE(text::cleanUtf8("ok\xff\xfe\x01 é"),
            std::string("ok\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD é"));
        QCOMPARE(text::duration(812), std::string("812 µs"));
        QCOMPARE(text::duration(41200), std::string("41.2 ms"));
        QCOMPARE(text::duration(2.41e6), std::string("2.41 s"));
        QCOMPARE(text::utcTime(1773484862001200.0), std::string("2026-03-14 10:41:02.001 UTC"));
        QCOMPARE(text::headLines("a\nb\nc\nd", 2), std::string("a\nb\n… (2 more lines)"));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
