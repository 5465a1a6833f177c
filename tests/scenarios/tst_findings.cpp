// Findings (core/analysis/findings.h) on traces PyTorch wrote: every recorded scenario's findings
// name what its program was written to show (the rule, the function, the user line, the values),
// and none warns about what did not happen (the clean scenarios give notes at most); the ranking
// on the example; the tlparse corpus's clean logs give no warning; the JSON document and the
// Markdown; and a pathological trace (one frame compiled 40,000 times) costs what its size does.
#include "scenario_suite.h"

#include "core/analysis/findings.h"
#include "core/io/input_buffer.h"
#include "core/load/loader.h"
#include "core/load/trace/file_builder.h"
#include "core/report/findings_render.h"
#include "core/synth/pathological.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QtTest>

#include <set>
#include <sstream>

using namespace dynascope;
using namespace scenarios;

namespace {

std::string rulesOf(const std::vector<Finding>& fs)
{
    std::string s;
    for (const auto& f : fs)
        s += std::string(toString(f.severity)) + " " + std::string(toString(f.rule)) + ": "
            + f.title + "\n";
    return s;
}

const Finding* byRule(const std::vector<Finding>& fs, const std::string& rule)
{
    for (const auto& f : fs)
        if (std::string(toString(f.rule)) == rule)
            return &f;
    return nullptr;
}

// One record of frame 0 as PyTorch writes it, for traces written by hand: compile
// `compile`'s record `body`, its payload on the next line when there is one.
std::string handRecord(int compile, const std::string& body, const std::string& payload = {})
{
    std::string s = "V1202 10:00:0" + std::to_string(compile)
        + ".000000 7 torch/_dynamo/convert_frame.py:1] {" + body
        + ", \"frame_id\": 0, \"frame_compile_id\": " + std::to_string(compile) + ", \"attempt\": 0"
        + (payload.empty() ? "" : ", \"has_payload\": \"0\"") + "}\n";
    if (!payload.empty())
        s += "\t" + payload + "\n";
    return s;
}

// The dynamo_start of `f` (t.py:3) the hand-written traces begin each compile with.
const std::string kHandStart
    = "\"dynamo_start\": {\"stack\": [{\"line\": 3, \"name\": \"f\", \"filename\": 0}]}";

} // namespace

class TestFindings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qInfo("scenario recording: %s", qPrintable(suiteDir()));
        if (optionalSuiteAbsent())
            QSKIP(qPrintable(u"no recording at "_qs + suiteDir()
                + u" (../shared is not on this machine): nothing to test"_qs));
    }

    void scenarios_data() { addScenarioRows(); }

    // What each scenario was written to show is found, by the rule the facts call for, at the
    // user line the program recorded; nothing else warns.
    void scenarios()
    {
        QFETCH(QString, name);
        const Scenario s = loadScenario(name);
        QVERIFY(s.trace);
        const auto fs = findFindings(*s.trace);
        const std::string all = rulesOf(fs);
        qInfo("%s:\n%s", qPrintable(name), all.c_str());
        const QJsonObject expect = s.expect();
        std::set<std::string> expected; // rules that must be there
        for (const auto& v : s.facts[u"recompiles"_qs].toArray()) {
            const QJsonObject r = v.toObject();
            const QString m = r[u"mismatch"_qs].toString();
            const std::string rule
                = m == u"size"_qs || m == u"stride"_qs ? "recompile-shape" : "recompile-guard";
            expected.insert(rule);
            const Finding* f = byRule(fs, rule);
            QVERIFY2(f, all.c_str());
            const QJsonObject function = s.function(r[u"function"_qs].toString());
            const std::string fn = "`" + str(function[u"name"_qs]) + "`";
            QVERIFY2(f->title.find(fn) != std::string::npos, f->title.c_str());
            // A frame compiled apart because Dynamo skipped its caller: the finding names the
            // caller and points at the break in it, where the fix goes.
            if (r.contains(u"caused_by_skipped"_qs)) {
                const auto cause = std::find_if(f->evidence.begin(), f->evidence.end(),
                    [](const auto& e) { return e.first == "caused by"; });
                QVERIFY2(cause != f->evidence.end(), all.c_str());
                const QJsonObject caller = s.function(r[u"caused_by_skipped"_qs].toString());
                const std::string callerAt = "`" + str(caller[u"name"_qs]) + "` ("
                    + str(caller[u"file"_qs]) + ":"
                    + std::to_string(caller[u"firstlineno"_qs].toInteger()) + ")";
                QVERIFY2(cause->second.find(callerAt) != std::string::npos, cause->second.c_str());
                const QJsonObject brk = s.line(
                    s.facts[u"graph_breaks"_qs].toArray()[0].toObject()[u"line"_qs].toString());
                QCOMPARE(f->userLine, brk[u"line"_qs].toInteger());
                QVERIFY2(f->hint.starts_with("Fix the graph break"), f->hint.c_str());
            }
            if (rule == "recompile-shape") // the sizes the program called with, in order
                for (const auto& value : r[u"values"_qs].toArray())
                    QVERIFY2(f->title.find(str(value)) != std::string::npos, f->title.c_str());
            QVERIFY(!f->compiles.empty());
            QVERIFY(!f->hint.empty());
        }
        for (const auto& v : s.facts[u"graph_breaks"_qs].toArray()) {
            const QJsonObject g = v.toObject();
            const QString reason = g[u"reason"_qs].toString();
            std::string rule = "graph-break";
            if (expect[u"frame_skipped"_qs].toBool())
                rule = "graph-break-skipped-frame";
            else if (reason == u"print"_qs || reason == u"logging.Logger"_qs)
                rule = "graph-break-io";
            else if (reason.contains(u"item()"_qs) || reason.contains(u"Data-dependent"_qs))
                rule = "data-dependent";
            expected.insert(rule);
            const Finding* f = byRule(fs, rule);
            QVERIFY2(f, all.c_str());
            // The line to change: the user's call into the library for a break inside one.
            const QJsonObject line
                = s.line(g[g.contains(u"called_at"_qs) ? u"called_at"_qs : u"line"_qs].toString());
            QCOMPARE(f->userLine, line[u"line"_qs].toInteger());
            QVERIFY2(f->userFile.ends_with(str(line[u"file"_qs])), f->userFile.c_str());
            QCOMPARE(f->severity, FindingSeverity::Warning);
            // The fix PyTorch's hint gives for that call, naming the function that broke.
            if (g.contains(u"io_code"_qs))
                QCOMPARE(f->code, str(g[u"io_code"_qs]));
        }
        // Rules a program sets out to trigger without listing each case (guard_lab_probes
        // recompiles on purpose): each must fire.
        for (const auto& v : expect[u"findings"_qs].toArray()) {
            expected.insert(str(v));
            QVERIFY2(byRule(fs, str(v)), (str(v) + " missing:\n" + all).c_str());
        }
        const int failures = expect[u"failures"_qs].toInt();
        if (failures > 0 && !expect[u"frame_skipped"_qs].toBool()) {
            std::string rule = "failure";
            if (expect.contains(u"recompile_limit"_qs))
                rule = "recompile-limit";
            else if (name == u"fullgraph_error"_qs)
                rule = "fullgraph-error";
            expected.insert(rule);
            const Finding* f = byRule(fs, rule);
            QVERIFY2(f, all.c_str());
            if (rule == "failure") {
                const QJsonObject facts = s.facts[u"failures"_qs].toArray()[0].toObject();
                QCOMPARE(f->severity, FindingSeverity::Error);
                const auto layer = std::find_if(f->evidence.begin(), f->evidence.end(),
                    [](const auto& e) { return e.first == "layer"; });
                QVERIFY(layer != f->evidence.end());
                QCOMPARE(QString::fromStdString(layer->second), facts[u"layer"_qs].toString());
                QVERIFY2(f->code.find("aot_eager") != std::string::npos, f->code.c_str());
            }
        }
        // A straggler is a timing, not a fact of the program: on a busy machine one rank of
        // two_ranks_gloo can compile far longer. It is allowed where the trace bears it out: the
        // rank it names compiled longer than every other rank, by more than 100 ms.
        if (const Finding* f = byRule(fs, "straggler")) {
            QCOMPARE(f->files.size(), size_t(1));
            std::vector<double> perFile(s.trace->files.size(), 0);
            for (const Compile& c : s.trace->compiles)
                if (c.file < perFile.size())
                    perFile[c.file] += c.durationUs();
            for (size_t file = 0; file < perFile.size(); ++file)
                if (file != f->files[0])
                    QVERIFY2(perFile[f->files[0]] > perFile[file] + 100e3, all.c_str());
            expected.insert("straggler");
        }
        // No false warning: every warning or error is one the facts call for.
        for (const auto& f : fs)
            if (f.severity != FindingSeverity::Note)
                QVERIFY2(expected.count(std::string(toString(f.rule))),
                    (std::string(toString(f.rule)) + " unexpected:\n" + all).c_str());
        // Ranked: errors first, then by cost within a severity.
        for (size_t i = 1; i < fs.size(); ++i) {
            QVERIFY(fs[i - 1].severity >= fs[i].severity);
            if (fs[i - 1].severity == fs[i].severity)
                QVERIFY(fs[i - 1].costUs >= fs[i].costUs);
        }
    }

    // The example's ranking: the backend failure, then the data-dependent break, then notes;
    // the recompile on x's size is a note (automatic dynamic took over after one).
    // guard_constant's text as TORCH_LOGS=recompiles,graph_breaks writes it (its guard dumps,
    // where the new value of `factor` is, taken out): the finding says the value it was and
    // that the new one is not in the text, not "changed: 2". The full text, and the trace,
    // give both.
    void recompileValueNotInTheText()
    {
        const QString dir = suiteDir() + u"/guard_constant"_qs;
        // Compressed in the committed recording, plain in a fresh one (the live stage).
        QString path = dir + u"/torch_logs.txt.zst"_qs;
        if (!QFileInfo::exists(path))
            path = dir + u"/torch_logs.txt"_qs;
        std::string error;
        const auto text = InputBuffer::open(path.toStdString(), uint64_t(1) << 30, error);
        QVERIFY2(text, error.c_str());
        std::string withoutGuards;
        std::istringstream lines { std::string(text->view()) };
        for (std::string line; std::getline(lines, line);)
            if (line.find("[__guards]") == std::string::npos)
                withoutGuards += line + "\n";
        auto title = [](const std::vector<Finding>& fs) {
            const Finding* f = byRule(fs, "recompile-guard");
            return f ? f->title : std::string("(no recompile-guard finding)");
        };
        const auto partial = loadText("guard_constant.txt", withoutGuards);
        QVERIFY(partial.trace);
        const std::string cut = title(findFindings(*partial.trace));
        QVERIFY2(cut.ends_with("the value of `factor` changed from 2 (the new value is not in the "
                               "text; the trace has it)"),
            cut.c_str());
        const auto full = load({ path.toStdString() });
        const auto trace = load({ dir.toStdString() });
        QVERIFY(full.trace && trace.trace);
        QVERIFY2(title(findFindings(*full.trace)).ends_with("changed: 2 → 3"),
            title(findFindings(*full.trace)).c_str());
        QCOMPARE(title(findFindings(*trace.trace)), title(findFindings(*full.trace)));
    }

    void rankingOnTheExample()
    {
        if (!scenarioNames().contains(u"example"_qs))
            QSKIP("the recording has no example scenario");
        const auto fs = findFindings(*loadScenario(u"example"_qs).trace);
        QVERIFY(fs.size() >= 3);
        QCOMPARE(std::string(toString(fs[0].rule)), std::string("failure"));
        QCOMPARE(std::string(toString(fs[1].rule)), std::string("data-dependent"));
        const Finding* shape = byRule(fs, "recompile-shape");
        QVERIFY(shape);
        QCOMPARE(shape->severity, FindingSeverity::Note);
        QVERIFY2(shape->code == "torch._dynamo.mark_dynamic(x, 0)", shape->code.c_str());
        const FindingCounts n = countFindings(fs);
        QCOMPARE(n.errors, size_t(1));
        QCOMPARE(n.warnings, size_t(1));
    }

    // Recompiles on the 2.11 H200 traces (cuda-scenarios, what each scenario.py does):
    // guard_failures sets m.scale = 2.0 after a call with 1.0, and the new compile reads the
    // float symbolically: the value is its symbol's, not the guard expression
    // "___as_tensor(L['self'].scale).item()". graph_break_item's resume frame recompiles on
    // `.item() <= 0.0`, a guard without a source the reason names: the guard is named.
    void recompilesOnCudaTraces()
    {
        const QString dir
            = QStringLiteral(DYNASCOPE_SHARED_TRACES) + u"/torch-2.11-h200/cuda-scenarios"_qs;
        if (!QFileInfo::exists(dir))
            QSKIP("../shared/traces is absent: the torch 2.11 H200 traces are not on this machine");
        auto titles = [&](const char* scenario) {
            auto r = load({ (dir + u"/"_qs + QString::fromUtf8(scenario)).toStdString() });
            std::vector<std::string> out;
            if (r.trace)
                for (const Finding& f : findFindings(*r.trace))
                    if (std::string_view(toString(f.rule)).starts_with("recompile"))
                        out.push_back(f.title);
            return out;
        };
        auto has = [](const std::vector<std::string>& ts, const std::string& part) {
            return std::any_of(ts.begin(), ts.end(),
                [&](const std::string& t) { return t.find(part) != std::string::npos; });
        };
        auto all = [](const std::vector<std::string>& ts) {
            std::string s;
            for (const auto& t : ts)
                s += t + "\n";
            return s;
        };
        const auto guards = titles("guard_failures");
        QVERIFY2(has(guards, "the value of `self.scale` changed: 1.0 → 2.0"), all(guards).c_str());
        QVERIFY2(has(guards, "the value of `n` changed: 2 → 3"), all(guards).c_str());
        const auto item = titles("graph_break_item");
        QVERIFY2(has(item, "because a guard failed: `___as_tensor(L['___stack0']).item() <= 0.0`"),
            all(item).c_str());
        for (const auto& ts : { guards, item })
            for (const auto& t : ts)
                QVERIFY2(t.find("``") == std::string::npos
                        && t.find("___as_tensor(L['___stack0']).item()\n") == std::string::npos,
                    t.c_str());
    }

    // The tlparse corpus's clean logs (one compile, no break, no failure) give no warning.
    void cleanCorpusLogs()
    {
        const QString corpus
            = QStringLiteral(DYNASCOPE_SHARED_TRACES) + u"/tlparse/tests/inputs"_qs;
        if (!QFileInfo::exists(corpus))
            QSKIP("../shared/traces is absent: the tlparse corpus is not on this machine");
        for (const char* clean : { "simple.log", "artifacts.log", "export.log", "links.log" }) {
            auto r = load({ (corpus + u"/"_qs + QString::fromUtf8(clean)).toStdString() });
            QVERIFY(r.trace);
            const auto fs = findFindings(*r.trace);
            for (const auto& f : fs)
                QVERIFY2(
                    f.severity == FindingSeverity::Note, (clean + (": " + rulesOf(fs))).c_str());
        }
        // A real cache bypass is a warning with its reason.
        auto r = load({ (corpus + u"/cache_hit_miss.log"_qs).toStdString() });
        QVERIFY(r.trace);
        const auto fs = findFindings(*r.trace);
        const Finding* f = byRule(fs, "cache-miss");
        QVERIFY2(f && f->severity == FindingSeverity::Warning, rulesOf(fs).c_str());
    }

    // The JSON document: format, version, and each finding's fields, for a scenario with all
    // three severities.
    void jsonDocument()
    {
        if (!scenarioNames().contains(u"example"_qs))
            QSKIP("the recording has no example scenario");
        const Scenario s = loadScenario(u"example"_qs);
        const auto fs = findFindings(*s.trace);
        QJsonParseError err;
        const auto doc
            = QJsonDocument::fromJson(QByteArray::fromStdString(findingsJson(*s.trace, fs)), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o[u"format"_qs].toString(), u"dynascope-findings"_qs);
        QCOMPARE(o[u"version"_qs].toInt(), kFindingsJsonVersion);
        const QJsonArray list = o[u"findings"_qs].toArray();
        QCOMPARE(list.size(), qsizetype(fs.size()));
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QJsonObject f = list[i].toObject();
            for (const char* key : { "rule", "severity", "title", "compiles", "frame", "evidence",
                     "hint", "cost_us", "count", "pytorch" })
                QVERIFY2(f.contains(QString::fromUtf8(key)), key);
            QCOMPARE(
                f[u"rule"_qs].toString().toStdString(), std::string(toString(fs[size_t(i)].rule)));
            for (const auto& c : f[u"compiles"_qs].toArray()) {
                const auto index = c.toObject()[u"index"_qs].toInteger();
                QCOMPARE(c.toObject()[u"id"_qs].toString().toStdString(),
                    s.trace->compiles[size_t(index)].id.display());
            }
        }
        const Finding* gb = byRule(fs, "data-dependent");
        QVERIFY(gb);
        QCOMPARE(gb->gbCode, std::string("gb0170"));
        const std::string md = findingMarkdown(*gb);
        QVERIFY2(md.find("```python\ntorch.cond(") != std::string::npos, md.c_str());
        QVERIFY2(md.find("gb0170") != std::string::npos, md.c_str());
    }

    // The rules no recorded scenario shows, on a trace written by hand the way PyTorch writes
    // it: a frame made dynamic ([0/0] created s0) that still recompiles on a shape guard, a
    // recompile that traced no tensor operation, a compile with 1,500 guards.
    void rulesOnAHandWrittenTrace()
    {
        auto metrics = [](int guards, int ops) {
            return "\"compilation_metrics\": {\"co_name\": \"f\", \"co_filename\": \"t.py\", "
                   "\"co_firstlineno\": 3, \"guard_count\": "
                + std::to_string(guards) + ", \"graph_op_count\": " + std::to_string(ops) + "}";
        };
        const std::string text = "V1202 10:00:00.000000 7 torch/_dynamo/convert_frame.py:1] "
                                 "{\"str\": [\"t.py\", 0]}\n"
            + handRecord(0, kHandStart)
            + handRecord(0,
                "\"create_symbol\": {\"symbol\": \"s0\", \"val\": 8, \"source\": "
                "\"L['x'].size()[0]\"}")
            + handRecord(0, metrics(1500, 4)) + handRecord(1, kHandStart)
            + handRecord(1,
                "\"artifact\": {\"name\": \"recompile_reasons\", \"encoding\": \"json\"}",
                "[\"0/0: L['x'].size()[0] <= 16\"]")
            + handRecord(1, metrics(20, 0));
        std::string error;
        auto t = buildFile({ "hand.log", InputBuffer::fromBytes(text, ~0ull, error), {}, {} });
        QCOMPARE(t->compiles.size(), size_t(2));
        const auto fs = findFindings(*t);
        const std::string all = rulesOf(fs);
        const Finding* still = byRule(fs, "dynamic-still-recompiles");
        QVERIFY2(still, all.c_str());
        QCOMPARE(still->severity, FindingSeverity::Warning); // dynamic did not stop it
        QVERIFY2(still->title.find("size()[0] <= 16") != std::string::npos, still->title.c_str());
        QVERIFY2(!byRule(fs, "recompile-shape"), all.c_str());
        const Finding* empty = byRule(fs, "empty-graph");
        QVERIFY2(empty && empty->compiles == std::vector<uint32_t> { 1 }, all.c_str());
        const Finding* guards = byRule(fs, "guard-cost");
        QVERIFY2(guards && guards->compiles == std::vector<uint32_t> { 0 }, all.c_str());
        QVERIFY2(guards->title.find("1500 guards") != std::string::npos, guards->title.c_str());
    }

    // CUDA graphs skipped under mode="reduce-overhead": no recording here has a GPU, so the
    // records are written by hand in the form PyTorch 2.11-2.14 give them
    // (log_cudagraph_skip_and_bump_counter sets compilation_metrics.cudagraph_skip_reason; the
    // lazy backward's goes to bwd_compilation_metrics). Two compiles of one frame with one reason
    // make one finding; the backward's reason another, said to be the backward's.
    void cudagraphsSkipped()
    {
        const std::string mutated = "skipping cudagraphs due to mutated inputs (1 instances). "
                                    "Found from : \\n   File \\\"t.py\\\", line 4, in f\\n    "
                                    "x.add_(1)\\n";
        auto metrics = [&](const std::string& skip) {
            return "\"compilation_metrics\": {\"co_name\": \"f\", \"co_filename\": \"t.py\", "
                   "\"co_firstlineno\": 3, \"graph_op_count\": 4, \"cudagraph_skip_reason\": \""
                + skip + "\"}";
        };
        const std::string text = "V1202 10:00:00.000000 7 torch/_dynamo/convert_frame.py:1] "
                                 "{\"str\": [\"t.py\", 0]}\n"
            + handRecord(0, kHandStart) + handRecord(0, metrics(mutated))
            + handRecord(1, kHandStart) + handRecord(1, metrics(mutated))
            + handRecord(1,
                "\"bwd_compilation_metrics\": {\"cudagraph_skip_reason\": \"skipping "
                "cudagraphs due to cpu device (arg3_1)\"}");
        std::string error;
        auto t = buildFile({ "hand.log", InputBuffer::fromBytes(text, ~0ull, error), {}, {} });
        QVERIFY(t);
        QCOMPARE(t->compiles.size(), size_t(2));
        QVERIFY(t->diagnostics.empty());
        QCOMPARE(t->compiles[1].cudagraphSkipReasonBackward,
            std::string("skipping cudagraphs due to cpu device (arg3_1)"));
        const auto fs = findFindings(*t);
        std::vector<const Finding*> skipped;
        for (const Finding& f : fs)
            if (f.rule == Rule::CudagraphsSkipped)
                skipped.push_back(&f);
        QCOMPARE(skipped.size(), size_t(2));
        const Finding* mut
            = skipped[0]->title.find("mutated") != std::string::npos ? skipped[0] : skipped[1];
        const Finding* cpu = mut == skipped[0] ? skipped[1] : skipped[0];
        QCOMPARE(mut->title,
            std::string("CUDA graphs skipped for `f` (t.py:3): mutated inputs (1 instances) "
                        "(2 compiles)"));
        QCOMPARE(mut->compiles, (std::vector<uint32_t> { 0, 1 }));
        QCOMPARE(mut->severity, FindingSeverity::Warning);
        QVERIFY2(mut->hint.find("in place") != std::string::npos, mut->hint.c_str());
        const auto from = std::find_if(mut->evidence.begin(), mut->evidence.end(),
            [](const auto& e) { return e.first == "found from"; });
        QVERIFY(from != mut->evidence.end());
        QCOMPARE(from->second, std::string("File \"t.py\", line 4, in f"));
        QVERIFY2(cpu->title.find("(its backward): cpu device (arg3_1)") != std::string::npos,
            cpu->title.c_str());
        QVERIFY2(cpu->hint.find("GPU") != std::string::npos, cpu->hint.c_str());
    }

    // A frame compiled three times with 1,500 guards each (and once with 20): one guard-cost
    // finding naming its three compiles, not three with the same numbers.
    void guardCostOncePerFrame()
    {
        auto metrics = [](int guards) {
            return "\"compilation_metrics\": {\"co_name\": \"f\", \"co_filename\": \"t.py\", "
                   "\"co_firstlineno\": 3, \"guard_count\": "
                + std::to_string(guards) + ", \"graph_op_count\": 4}";
        };
        std::string text = "V1202 10:00:00.000000 7 torch/_dynamo/convert_frame.py:1] "
                           "{\"str\": [\"t.py\", 0]}\n";
        for (int c = 0; c < 4; ++c)
            text += handRecord(c, kHandStart) + handRecord(c, metrics(c == 2 ? 20 : 1500));
        std::string error;
        auto t = buildFile({ "hand.log", InputBuffer::fromBytes(text, ~0ull, error), {}, {} });
        QCOMPARE(t->compiles.size(), size_t(4));
        const auto fs = findFindings(*t);
        size_t n = 0;
        for (const Finding& f : fs)
            n += f.rule == Rule::GuardCost;
        QCOMPARE(n, size_t(1));
        const Finding* guards = byRule(fs, "guard-cost");
        QVERIFY(guards);
        QCOMPARE(guards->compiles, (std::vector<uint32_t> { 0, 1, 3 }));
        QVERIFY2(guards->title.ends_with("checks 1500 guards in each of its 3 compiles, before "
                                         "every call"),
            guards->title.c_str());
    }

    // A probe run (dynascope-cli probe --check, its artifact in the trace) of a backend that
    // perturbs the result: the wrong result is the first finding, and compiling never paid.
    void probeArtifactFindings()
    {
        const std::string dir = std::string(DYNASCOPE_SOURCE_DIR)
            + "/tests/probe/recorded/torch-2.13.0/perturbed_backend/program";
        auto r = load({ dir });
        QVERIFY(r.trace);
        const auto fs = findFindings(*r.trace);
        QVERIFY(!fs.empty());
        QCOMPARE(std::string(toString(fs[0].rule)), std::string("wrong-result"));
        QCOMPARE(fs[0].severity, FindingSeverity::Error);
        QVERIFY2(fs[0].title.find("6 of 6 checked calls differ") != std::string::npos,
            fs[0].title.c_str());
        const Finding* payoff = byRule(fs, "compile-payoff");
        QVERIFY2(payoff && payoff->severity == FindingSeverity::Warning, rulesOf(fs).c_str());
        QVERIFY2(payoff->title.find("never pays for itself") != std::string::npos,
            payoff->title.c_str());
        QVERIFY(!payoff->compiles.empty());
    }

    // One frame compiled 10,000 times (each a recompile against the one before, on x's size):
    // the findings come in one pass; the recompiles are one finding, not one each, and its
    // title keeps a readable length.
    void manyCompilesOfOneFrame()
    {
        std::string error;
        auto buffer = InputBuffer::fromBytes(
            synth::makePathological("compiles_of_one_frame", 8u << 20), ~0ull, error);
        auto t = buildFile({ "many.log", buffer, {}, {} });
        QVERIFY(t->compiles.size() > 10000);
        const auto fs = findFindings(*t);
        QVERIFY2(fs.size() <= 3, rulesOf(fs).c_str());
        const Finding* f = byRule(fs, "recompile-shape");
        QVERIFY2(f, rulesOf(fs).c_str());
        QCOMPARE(f->count, uint64_t(t->compiles.size() - 1));
        QVERIFY2(f->title.size() < 300, f->title.c_str());
    }
};

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
