// Dynascope's answers on traces PyTorch itself wrote, against what the programs that ran know
// without the trace (tests/scenarios/README.md): compile counts, every graph break with its user
// file:line and resume frame, recompile chains with their values and failed guards, dynamic
// shapes, failures and the layer that failed, cache hits, ranks. The traces are loaded through
// core as the CLI loads them.
//
// By default the committed recording (tests/scenarios/recorded/torch-2.13.0); with
// DYNASCOPE_SCENARIOS_DIR a fresh one (scripts/run-pytorch-suite.sh runs this binary on it).
// Generic checks are driven by each scenario's facts.json; scenario-specific ones name it.
#include "scenario_suite.h"

#include "core/analysis/torch_version.h"
#include "core/analysis/why_chain.h"
#include "core/io/input_buffer.h"
#include "core/load/finish/graph_break_text.h"
#include "core/model/row_range.h"
#include "core/report/why_render.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QtTest>

#include <set>

using namespace dynascope;
using namespace scenarios;

namespace {
std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    size_t b = s.find_first_not_of(" \n");
    return b == std::string::npos ? std::string() : s.substr(b);
}

bool contains(const std::string& hay, const QJsonValue& needle)
{
    return hay.find(str(needle)) != std::string::npos;
}

// The payload of a file's torch_version artifact, parsed.
QJsonObject torchVersionArtifact(const Trace& t, uint32_t file)
{
    const TraceFile& f = t.files[file];
    for (uint32_t r : recordsOf(f)) {
        if (t.kindName(r) != "artifact")
            continue;
        if (t.headerJson(r).find("\"name\": \"torch_version\"") == std::string_view::npos)
            continue;
        return QJsonDocument::fromJson(QByteArray::fromStdString(t.payload(r))).object();
    }
    return {};
}

// The counter groups that count graph breaks (keys: the break's text without preamble).
std::map<std::string, qint64> breakCounters(const QJsonObject& counters)
{
    std::map<std::string, qint64> out;
    for (const char* group : { "graph_break", "unimplemented" }) {
        const QJsonObject g = counters[QLatin1String(group)].toObject();
        for (auto it = g.begin(); it != g.end(); ++it)
            out[trimmed(it.key().toStdString())] += it.value().toInteger();
    }
    return out;
}
} // namespace

class TestScenarios : public QObject {
    Q_OBJECT

    Scenario get(const QString& name)
    {
        auto it = m_cache.find(name);
        if (it == m_cache.end())
            it = m_cache.emplace(name, loadScenario(name)).first;
        return it->second;
    }
    std::map<QString, Scenario> m_cache;

    void scenarioRows() { addScenarioRows(); }
    // Skips the row when the recording lacks this scenario (a partial --only recording).
    bool have(const QString& name) { return scenarioNames().contains(name); }

private Q_SLOTS:
    void initTestCase()
    {
        qInfo("scenario recording: %s", qPrintable(suiteDir()));
        if (optionalSuiteAbsent())
            QSKIP(qPrintable(u"no recording at "_qs + suiteDir()
                + u" (../shared is not on this machine): nothing to test"_qs));
        QVERIFY2(QFileInfo::exists(suiteDir() + u"/MANIFEST.json"_qs),
            qPrintable(u"no MANIFEST.json in "_qs + suiteDir()));
    }

    // The recording is whole: every scenario of the manifest ran to the end and has its facts.
    void manifestIsComplete()
    {
        const QJsonObject m = readJson(suiteDir() + u"/MANIFEST.json"_qs);
        QCOMPARE(m[u"format"_qs].toString(), u"dynascope-scenario-recording"_qs);
        const QJsonObject sc = m[u"scenarios"_qs].toObject();
        QStringList names = sc.keys();
        names.sort();
        QCOMPARE(scenarioNames(), names);
        for (auto it = sc.begin(); it != sc.end(); ++it)
            QVERIFY2(it.value().toObject()[u"ok"_qs].toBool(), qPrintable(it.key()));
        if (isCommittedRecording())
            QVERIFY2(names.size() >= 21, qPrintable(QString::number(names.size())));
    }

    void versions_data() { scenarioRows(); }
    void versions()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        QVERIFY(s.trace);
        QVERIFY(!s.trace->files.empty());
        const QJsonObject m = readJson(suiteDir() + u"/MANIFEST.json"_qs);
        QCOMPARE(s.facts[u"torch_version"_qs].toString(), m[u"torch_version"_qs].toString());
        // The release, with its local suffix ("2.13.0+cpu", "2.11.0+cu130"): PyTorch 2.13 and
        // 2.14 write a torch_version artifact into every file; 2.11 writes none, and a
        // compile's compilation_metrics carries it. Dynascope says which it read.
        const QString version = s.facts[u"torch_version"_qs].toString();
        bool artifacts = true;
        for (uint32_t f = 0; f < s.trace->files.size(); ++f) {
            const QString inFile
                = torchVersionArtifact(*s.trace, f)[u"pytorch_version"_qs].toString();
            artifacts = artifacts && !inFile.isEmpty();
            if (!inFile.isEmpty())
                QCOMPARE(inFile, version);
        }
        const TorchVersion read = torchVersionOf(*s.trace);
        QCOMPARE(QString::fromStdString(read.version), version);
        if (version.startsWith(u"2.11."_qs))
            QVERIFY(!artifacts);
        if (version.startsWith(u"2.13."_qs) || version.startsWith(u"2.14."_qs))
            QVERIFY(artifacts);
        QCOMPARE(
            read.from, std::string(artifacts ? "torch_version artifact" : "compilation_metrics"));
        // Real traces load cleanly.
        for (const Diagnostic& d : s.trace->diagnostics)
            QVERIFY2(false,
                qPrintable(QString::fromStdString(
                    d.file + ":" + std::to_string(d.line) + ": " + d.message)));
        const auto check = s.trace->verifyPayloads();
        for (uint64_t n : check.mismatchesPerFile)
            QCOMPARE(n, uint64_t(0));
    }

    // Counts against the program's own claims and PyTorch's in-process counters.
    void counts_data() { scenarioRows(); }
    void counts()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const Trace& t = *s.trace;
        const QJsonObject e = s.expect();
        QCOMPARE(qint64(t.compileCount()), e[u"compiles"_qs].toInteger());
        // A compile without dynamo_start is the one PyTorch logs when the recompile limit is hit.
        for (const Compile& c : t.compiles)
            if (c.startRecord == kNone)
                QVERIFY(c.failure && c.failure->recompileLimit);
        QCOMPARE(qint64(t.recompileCount()), e[u"recompiles"_qs].toInteger());
        QCOMPARE(qint64(t.graphBreakCount()), e[u"graph_breaks"_qs].toInteger());
        QCOMPARE(qint64(t.failureCount()), e[u"failures"_qs].toInteger());

        const QJsonObject counters = s.counters();
        const QJsonObject frames = counters[u"frames"_qs].toObject();
        if (!frames.isEmpty()) {
            // counters["frames"]["total"]: frames Dynamo compiled; "ok": those that compiled.
            // A program whose compiled code calls into Python Dynamo only looks at (logging,
            // after a break) has those frames counted too, with no compile and no record.
            if (e[u"eager_frames_counted"_qs].toBool())
                QVERIFY(qint64(t.compiles.size()) <= frames[u"total"_qs].toInteger());
            else
                QCOMPARE(qint64(t.compiles.size()), frames[u"total"_qs].toInteger());
            QCOMPARE(qint64(t.failureCount()),
                frames[u"total"_qs].toInteger() - frames[u"ok"_qs].toInteger());
        }
        // Every break PyTorch counted is a graph break in the trace, with the same text; a
        // break that fails the compile (fullgraph=True) is a failure without a break.
        std::map<std::string, qint64> seen;
        for (const Compile& c : t.compiles) {
            // A chained break ("*** While handling this graph break, another graph break
            // occurred: ***") is one artifact; PyTorch counts both the first break and the
            // chained text.
            for (const GraphBreak& gb : c.graphBreaks) {
                ++seen[trimmed(gb.reason)];
                if (size_t chain = gb.reason.find("\n\n*** While handling");
                    chain != std::string::npos)
                    ++seen[trimmed(gb.reason.substr(0, chain))];
            }
            if (c.failure && c.failure->type == "Unsupported" && c.graphBreaks.empty())
                ++seen[trimmed(c.failure->reason)];
        }
        const auto counted = breakCounters(counters);
        if (seen != counted) {
            for (const auto& [k, n] : seen)
                qWarning("trace:    %lld x %s", qlonglong(n), k.substr(0, 120).c_str());
            for (const auto& [k, n] : counted)
                qWarning("counters: %lld x %s", qlonglong(n), k.substr(0, 120).c_str());
        }
        QCOMPARE(seen, counted);
        // Resume frames are the functions PyTorch made for them.
        const QJsonObject resumes = counters[u"resumes"_qs].toObject();
        for (const Compile& c : t.compiles)
            if (c.coName.starts_with("torch_dynamo_resume_in_"))
                QVERIFY2(resumes.contains(QString::fromStdString(c.coName)), c.coName.c_str());
    }

    // Each function the program called compiled, under its own code object's name and line.
    void compiledFunctions_data() { scenarioRows(); }
    void compiledFunctions()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        std::set<QString> called;
        for (const QJsonValue& call : s.facts[u"calls"_qs].toArray())
            called.insert(call.toObject()[u"function"_qs].toString());
        QStringList never;
        for (const QJsonValue& v : s.expect()[u"never_compiled"_qs].toArray())
            never << v.toString();
        const QJsonObject fns = s.facts[u"functions"_qs].toObject();
        for (auto it = fns.begin(); it != fns.end(); ++it) {
            const auto compiles = s.compilesOf(it.key());
            if (never.contains(it.key()))
                QVERIFY2(compiles.empty(), qPrintable(it.key()));
            else if (called.count(it.key()))
                QVERIFY2(!compiles.empty(), qPrintable(it.key()));
        }
    }

    void graphBreaks_data() { scenarioRows(); }
    void graphBreaks()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const Trace& t = *s.trace;
        const QJsonArray breaks = s.facts[u"graph_breaks"_qs].toArray();
        if (breaks.isEmpty())
            return;
        for (const QJsonValue& v : breaks) {
            const QJsonObject b = v.toObject();
            const QString fnLabel = b[u"function"_qs].toString();
            const QJsonObject fn = s.function(fnLabel);
            const QJsonObject where = s.line(b[u"line"_qs].toString());
            const auto compiles = s.compilesOf(fnLabel);
            QVERIFY(!compiles.empty());
            const Compile& c = t.compiles[compiles.front()];
            QCOMPARE(c.graphBreaks.size(), size_t(1));
            const GraphBreak& gb = c.graphBreaks.front();
            // The user file:line of the break, and the user frames leading there.
            QCOMPARE(QString::fromStdString(gb.file), where[u"file"_qs].toString());
            QCOMPARE(gb.line, where[u"line"_qs].toInteger());
            QVERIFY(!gb.userFrames.empty());
            // A break inside a called function ("in": its label) resumes the compiled frame
            // after the call ("resume_at": the call's line).
            const QJsonObject inner
                = b.contains(u"in"_qs) ? s.function(b[u"in"_qs].toString()) : fn;
            const QJsonObject resumeAt
                = b.contains(u"resume_at"_qs) ? s.line(b[u"resume_at"_qs].toString()) : where;
            QCOMPARE(QString::fromStdString(std::string(gb.userFrames.back().name)),
                inner[u"name"_qs].toString());
            QCOMPARE(gb.userFrames.back().line, where[u"line"_qs].toInteger());
            QCOMPARE(std::string(gb.userFrames.back().loc), str(where[u"code"_qs]));
            QVERIFY2(contains(gb.reason, b[u"reason"_qs]), gb.reason.c_str());
            // A break in library code is named as such, with the user's line that called in.
            const BreakWhy why = explainCompile(t, c.index).graphBreaks.front();
            QCOMPARE(QString::fromStdString(why.library), b[u"library"_qs].toString());
            if (b.contains(u"called_at"_qs)) {
                const QJsonObject call = s.line(b[u"called_at"_qs].toString());
                QCOMPARE(QString::fromStdString(why.calledFrom.file), call[u"file"_qs].toString());
                QCOMPARE(why.calledFrom.line, call[u"line"_qs].toInteger());
                QCOMPARE(
                    QString::fromStdString(why.calledFrom.function), fn[u"name"_qs].toString());
            } else {
                QVERIFY(!why.calledFrom.known());
            }
            // Structured text (2.6+): a title, an explanation, a GB code, a link.
            QVERIFY(!gb.details.empty());
            const GraphBreakDetail& d = gb.details.front();
            if (b.contains(u"gb_type"_qs))
                QCOMPARE(d.title, str(b[u"gb_type"_qs]));
            QVERIFY2(d.gbCode.size() == 6 && d.gbCode.starts_with("gb"), d.gbCode.c_str());
            QVERIFY(d.link.ends_with(d.gbCode + ".html"));
            QVERIFY(!d.explanation.empty());
            if (b.contains(u"gb_code"_qs))
                QCOMPARE(d.gbCode, str(b[u"gb_code"_qs]));
            QVERIFY(gb.reason.starts_with(d.title)); // no preamble left in the reason
            // How the frame went on.
            const QString mode = b[u"mode"_qs].toString();
            if (b[u"resume"_qs].toBool()) {
                QVERIFY(gb.resumeCompile < t.compiles.size());
                const std::string resume = "torch_dynamo_resume_in_" + str(fn[u"name"_qs]) + "_at_"
                    + std::to_string(resumeAt[u"line"_qs].toInteger());
                QCOMPARE(t.compiles[gb.resumeCompile].coName, resume);
                QVERIFY(gb.resumeCompile > c.index);
                QCOMPARE(t.frames[t.compiles[gb.resumeCompile].frame].breakOrigin, c.index);
                QVERIFY(!gb.skipsFrame);
            } else {
                QCOMPARE(gb.resumeCompile, kNone);
            }
            if (mode == u"restart"_qs) {
                // The analysis restarted: attempt 1 compiles the graph before the break.
                QCOMPARE(c.attempts.size(), size_t(2));
                QCOMPARE(c.restartReasons.size(), size_t(1));
                QCOMPARE(trimmed(c.restartReasons.front()), trimmed(gb.reason));
                QVERIFY(!gb.operation.empty());
                // Empty when the graph before the break holds no operation ("empty_graph").
                QCOMPARE(c.status,
                    b[u"empty_graph"_qs].toBool() ? CompileStatus::Empty
                                                  : CompileStatus::GraphBreak);
            } else if (mode == u"partial"_qs) {
                // Compiled in the same attempt; only the artifact shows the break.
                QCOMPARE(c.attempts.size(), size_t(1));
                QVERIFY(c.restartReasons.empty());
                QCOMPARE(c.status, CompileStatus::GraphBreak);
            } else if (mode == u"skip"_qs) {
                // The frame falls back to eager: PyTorch logs it as a failed compile.
                QVERIFY(gb.skipsFrame);
                QVERIFY(gb.details.size() >= 2); // "While handling this graph break, ..."
                QVERIFY(c.failure);
                QVERIFY(c.failure->frameSkipped);
                QCOMPARE(c.failure->layer, std::string("dynamo"));
                QCOMPARE(c.status, CompileStatus::Error);
            }
        }
    }

    void recompiles_data() { scenarioRows(); }
    void recompiles()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const Trace& t = *s.trace;
        const QJsonArray chains = s.facts[u"recompiles"_qs].toArray();
        if (chains.isEmpty())
            return;
        for (const QJsonValue& v : chains) {
            const QJsonObject chain = v.toObject();
            const auto compiles = s.compilesOf(chain[u"function"_qs].toString());
            const QJsonArray values = chain[u"values"_qs].toArray();
            QCOMPARE(qsizetype(compiles.size()), values.size());
            for (size_t k = 0; k < compiles.size(); ++k) {
                const Compile& c = t.compiles[compiles[k]];
                QCOMPARE(c.frame, t.compiles[compiles.front()].frame);
                QCOMPARE(*c.id.frameCompile, int64_t(k));
                if (k == 0) {
                    QVERIFY(c.recompileReasons.empty());
                    continue;
                }
                // One reason per earlier cache entry, newest first.
                QCOMPARE(c.recompileReasons.size(), size_t(k));
                for (size_t j = 0; j < k; ++j)
                    QCOMPARE(c.recompileReasons[j].earlierCompile, compiles[k - 1 - j]);
                const RecompileReason& r = c.recompileReasons.front();
                QVERIFY2(contains(r.text, chain[u"reason"_qs]), r.text.c_str());
                QCOMPARE(r.mismatch, str(chain[u"mismatch"_qs]));
                // "tensor 'x'" names the local L['x'].
                const std::string src
                    = r.source.find('[') == std::string::npos ? "L['" + r.source + "']" : r.source;
                QVERIFY2(contains(src, chain[u"source"_qs]), r.source.c_str());
                // The failed guard is found in the earlier compile's guard tree.
                QVERIFY2(r.guardNode >= 0, r.text.c_str());
                const GuardTree& tree = *t.compiles[r.earlierCompile].guards;
                const GuardNode& g = tree.nodes[size_t(r.guardNode)];
                if (!chain[u"guard_kind"_qs].toString().isEmpty())
                    QCOMPARE(g.kind, str(chain[u"guard_kind"_qs]));
                QVERIFY(!g.where.empty());
                if (r.mismatch == "size") {
                    // The values of the chain: the earlier and the new size of dim 0.
                    QCOMPARE(r.expected, std::to_string(values[qsizetype(k) - 1].toInteger()));
                    QCOMPARE(r.actual, std::to_string(values[qsizetype(k)].toInteger()));
                } else if (r.mismatch == "value") {
                    // "factor == 2": the value the earlier compile was specialised for.
                    const QJsonValue prev = values[qsizetype(k) - 1];
                    const std::string want = prev.isBool() ? (prev.toBool() ? "True" : "False")
                        : prev.isDouble() && prev.toDouble() != double(prev.toInteger())
                        ? QString::number(prev.toDouble()).toStdString()
                        : std::to_string(prev.toInteger());
                    QCOMPARE(r.expected, want);
                    // 2.13 appends the user stack of the guard to value-guard reasons.
                    QVERIFY(!r.userStack.empty());
                    QCOMPARE(QString::fromStdString(std::string(r.userStack.front().file)),
                        s.facts[u"program"_qs].toString());
                }
                if (chain.contains(u"expected"_qs)) {
                    QCOMPARE(r.expected, str(chain[u"expected"_qs]));
                    QCOMPARE(r.actual, str(chain[u"actual"_qs]));
                }
            }
        }
    }

    // The dynamic compile's TENSOR_MATCH has size=[None, ...] and its shape guards name the
    // user line; compiles before it are static.
    void dynamicShapes_data() { scenarioRows(); }
    void dynamicShapes()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const QJsonObject e = s.expect();
        if (!e.contains(u"dynamic_size"_qs))
            return;
        const QString label = e[u"dynamic_function"_qs].toString(u"scale"_qs);
        const auto compiles = s.compilesOf(label);
        const qsizetype at = e[u"dynamic_compile"_qs].toInteger();
        QVERIFY(at < qsizetype(compiles.size()));
        QString want = u"size=["_qs;
        const QJsonArray dims = e[u"dynamic_size"_qs].toArray();
        for (qsizetype i = 0; i < dims.size(); ++i)
            want += (i ? u", "_qs : QString())
                + (dims[i].isNull() ? u"None"_qs : QString::number(dims[i].toInteger()));
        want += u"]"_qs;
        for (qsizetype k = 0; k <= at; ++k) {
            const Compile& c = s.trace->compiles[compiles[size_t(k)]];
            QVERIFY(c.guards);
            bool found = false;
            for (const GuardNode& g : c.guards->nodes)
                if (g.kind == "TENSOR_MATCH"
                    && c.guards->sourceOf(int(&g - &c.guards->nodes[0])) == "L['x']")
                    found = QString::fromStdString(g.expr).contains(want);
            QCOMPARE(found, k == at);
        }
        const Compile& dyn = s.trace->compiles[compiles[size_t(at)]];
        bool symbol = false, userLine = false;
        for (const ShapeEvent& ev : dyn.shapeEvents) {
            symbol = symbol || ev.kind == "create_symbol";
            for (const StackFrame& f : ev.userStack)
                userLine = userLine
                    || QString::fromStdString(std::string(f.file))
                        == s.function(label)[u"file"_qs].toString();
        }
        QVERIFY(symbol);
        QVERIFY(userLine);
    }

    void failures_data() { scenarioRows(); }
    void failures()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const QJsonArray fs = s.facts[u"failures"_qs].toArray();
        if (fs.isEmpty())
            return;
        for (const QJsonValue& v : fs) {
            const QJsonObject f = v.toObject();
            std::vector<uint32_t> failed;
            for (uint32_t ci : s.compilesOf(f[u"function"_qs].toString(), true))
                if (s.trace->compiles[ci].failure)
                    failed.push_back(ci);
            QCOMPARE(failed.size(), size_t(1));
            const Compile& c = s.trace->compiles[failed.front()];
            QCOMPARE(c.failure->recompileLimit, f[u"recompile_limit"_qs].toBool());
            if (c.failure->recompileLimit) {
                // No dynamo_start, no traceback; the reason is structured text (gb0039).
                QCOMPARE(c.startRecord, kNone);
                QVERIFY(!c.failure->details.empty());
                QCOMPARE(c.failure->details.front().gbCode, std::string("gb0039"));
                QCOMPARE(c.failure->layer, str(f[u"layer"_qs]));
                QVERIFY(!c.recompileReasons.empty());
                continue;
            }
            QCOMPARE(c.failure->type, str(f[u"type"_qs]));
            QCOMPARE(c.failure->layer, str(f[u"layer"_qs]));
            QVERIFY2(contains(c.failure->reason, f[u"reason"_qs]), c.failure->reason.c_str());
            // The exception the program caught is the one the trace reports.
            if (!f[u"caught"_qs].isNull())
                QVERIFY2(
                    f[u"caught"_qs].toString().startsWith(QString::fromStdString(c.failure->type)),
                    qPrintable(f[u"caught"_qs].toString()));
            QVERIFY(!c.failure->traceback.empty()); // dynamo_error artifact
            QCOMPARE(c.status, CompileStatus::Error);
            QCOMPARE(c.failure->frameSkipped, s.expect()[u"frame_skipped"_qs].toBool());
            if (!f[u"line"_qs].isNull()) {
                const QJsonObject where = s.line(f[u"line"_qs].toString());
                QCOMPARE(QString::fromStdString(c.failure->file), where[u"file"_qs].toString());
                QCOMPARE(c.failure->line, where[u"line"_qs].toInteger());
            }
        }
    }

    void caches_data() { scenarioRows(); }
    void caches()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const QJsonObject e = s.expect();
        if (!e.contains(u"cache_hits"_qs))
            return;
        std::map<std::string, qint64> hits, misses;
        for (const Compile& c : s.trace->compiles)
            for (const CacheEvent& ev : c.cacheEvents)
                ++(ev.kind == CacheKind::Hit ? hits : misses)[ev.cache];
        for (auto [key, map] :
            { std::pair { u"cache_hits"_qs, &hits }, std::pair { u"cache_misses"_qs, &misses } }) {
            const QJsonObject want = e[key].toObject();
            std::map<std::string, qint64> w;
            for (auto it = want.begin(); it != want.end(); ++it)
                w[it.key().toStdString()] = it.value().toInteger();
            for (auto it = map->begin(); it != map->end();)
                it = w.count(it->first) ? std::next(it) : map->erase(it);
            QCOMPARE(*map, w);
        }
    }

    void ranks_data() { scenarioRows(); }
    void ranks()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        const QJsonArray want = s.expect()[u"ranks"_qs].toArray();
        if (want.isEmpty()) {
            QCOMPARE(s.trace->files.size(), size_t(1));
            QVERIFY(!s.trace->files[0].rank);
            return;
        }
        QCOMPARE(qsizetype(s.trace->files.size()), want.size());
        for (qsizetype i = 0; i < want.size(); ++i) {
            QCOMPARE(*s.trace->files[size_t(i)].rank, want[i].toInteger());
            qint64 n = 0;
            for (const Compile& c : s.trace->compiles)
                n += c.file == uint32_t(i);
            QCOMPARE(n, s.expect()[u"compiles_per_rank"_qs].toInteger());
        }
    }

    // Guard payloads (2.10+) start with a blank line and end with "Guard latency = N us"; the
    // user line that made a guard is its own field, not part of the guard's code.
    void guardTrees_data() { scenarioRows(); }
    void guardTrees()
    {
        QFETCH(QString, name);
        const Scenario s = get(name);
        for (const Compile& c : s.trace->compiles) {
            if (!c.guards)
                continue;
            QVERIFY2(QString::fromStdString(c.guards->latency).endsWith(u" us"_qs),
                c.guards->latency.c_str());
            for (const GuardNode& g : c.guards->nodes) {
                QVERIFY2(g.expr.find("  # ") == std::string::npos, g.expr.c_str());
                if (g.kind == "TENSOR_MATCH")
                    QVERIFY2(!g.userCode.empty(), g.expr.c_str());
            }
        }
    }

    // Scenario-specific answers.

    void resetRepeatsIds()
    {
        if (!have(u"reset_ids"_qs))
            QSKIP("not recorded");
        const Scenario s = get(u"reset_ids"_qs);
        QStringList ids, want;
        for (const Compile& c : s.trace->compiles)
            ids << QString::fromStdString(c.id.key());
        for (const QJsonValue& v : s.expect()[u"ids"_qs].toArray())
            want << v.toString();
        QCOMPARE(ids, want);
        // Same code objects compiled again after the reset: two frames of two compiles each,
        // and no recompile (the second compiles start the numbering over, at [0/0]).
        QCOMPARE(s.trace->frames.size(), size_t(2));
        for (const Frame& f : s.trace->frames)
            QCOMPARE(f.compiles.size(), size_t(2));
        QCOMPARE(s.trace->recompileCount(), uint64_t(0));
    }

    void lazyBackwardArrivesLater()
    {
        if (!have(u"training_backward"_qs))
            QSKIP("not recorded");
        const Scenario s = get(u"training_backward"_qs);
        const Trace& t = *s.trace;
        const auto fwd = s.compilesOf(u"forward"_qs);
        const auto loss = s.compilesOf(u"loss"_qs);
        QCOMPARE(fwd.size(), size_t(1));
        QCOMPARE(loss.size(), size_t(1));
        QVERIFY(fwd.front() < loss.front());
        // The forward's bwd_compilation_metrics is logged after the loss compile finished,
        // under the forward's id, and belongs to the forward's compile.
        uint32_t bwd = kNone;
        for (uint32_t r : t.compiles[fwd.front()].records)
            if (t.kindName(r) == "bwd_compilation_metrics")
                bwd = r;
        QVERIFY(bwd != kNone);
        QVERIFY(bwd > t.compiles[loss.front()].metricsRecord);
        QCOMPARE(t.compiles[fwd.front()].status, CompileStatus::Ok);
    }

    void recompileLimitStopsCompiling()
    {
        if (!have(u"recompile_limit"_qs))
            QSKIP("not recorded");
        const Scenario s = get(u"recompile_limit"_qs);
        const auto compiles = s.compilesOf(u"shift"_qs);
        QCOMPARE(qint64(compiles.size()), s.expect()[u"recompile_limit"_qs].toInteger());
        QVERIFY(s.expect()[u"calls"_qs].toInteger() > qint64(compiles.size()));
    }

    void restartWithoutBreakIsNoGraphBreak()
    {
        // guard_global: the float THRESHOLD is made dynamic on the recompile, which restarts the
        // analysis with "<class '...TensorifyScalarRestartAnalysis'>": no graph break.
        if (!have(u"guard_global"_qs))
            QSKIP("not recorded");
        const Scenario s = get(u"guard_global"_qs);
        const auto compiles = s.compilesOf(u"clip"_qs);
        bool restarted = false;
        for (uint32_t ci : compiles) {
            const Compile& c = s.trace->compiles[ci];
            QVERIFY(c.graphBreaks.empty());
            QCOMPARE(c.status, CompileStatus::Ok);
            bool here = false;
            for (const std::string& r : c.restartReasons)
                here = here || isRestartWithoutBreak(r);
            restarted = restarted || here;
            // The Why tab shows it as a restart of that attempt, named and explained, with what
            // the thrown-away attempt cost, and never as a break.
            const WhyChain why = explainCompile(*s.trace, ci);
            QVERIFY(why.graphBreaks.empty());
            QCOMPARE(why.restarts.empty(), !here);
            if (!here)
                continue;
            QCOMPARE(c.attempts.size(), size_t(2));
            QCOMPARE(why.restarts.front().attempt, 0u);
            QCOMPARE(why.restarts.front().kind, std::string("TensorifyScalarRestartAnalysis"));
            QVERIFY(why.restarts.front().meaning.find("float") != std::string::npos);
            QVERIFY(why.restartCostS && *why.restartCostS > 0);
            const std::string doc = whyText(whyDocument(*s.trace, ci));
            QVERIFY2(doc.find("Restarted analysis (no graph break)") != std::string::npos
                    && doc.find("Graph break") == std::string::npos,
                doc.c_str());
        }
        QVERIFY(restarted);
    }

    // resources/examples/example.log is the example scenario's trace, byte for byte.
    void exampleIsCurrent()
    {
        if (!isCommittedRecording())
            QSKIP("the bundled example is compared with the committed recording only");
        std::string error;
        auto rec = InputBuffer::open(
            (suiteDir() + u"/example/dedicated_log_torch_trace.log.zst"_qs).toStdString(),
            1ull << 30, error);
        QVERIFY2(rec, error.c_str());
        QFile bundled(QStringLiteral(DYNASCOPE_SOURCE_DIR "/resources/examples/example.log"));
        QVERIFY(bundled.open(QIODevice::ReadOnly));
        const QByteArray want = bundled.readAll();
        QCOMPARE(QByteArray(rec->data(), qsizetype(rec->size())), want);
        // Beside it, the program that wrote it: the trace names it "example.py", so the Source
        // tab finds it next to the trace.
        QFile program(QStringLiteral(DYNASCOPE_SOURCE_DIR "/resources/examples/example.py"));
        QFile original(QStringLiteral(DYNASCOPE_SOURCE_DIR "/tests/scenarios/programs/example.py"));
        QVERIFY(program.open(QIODevice::ReadOnly) && original.open(QIODevice::ReadOnly));
        QCOMPARE(program.readAll(), original.readAll());
        QVERIFY(want.contains("\"example.py\""));
    }
};

QTEST_GUILESS_MAIN(TestScenarios)
#include "tst_scenarios.moc"
