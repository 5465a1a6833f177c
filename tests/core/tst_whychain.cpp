// The why-chain (core/analysis/why_chain.h), the one explanation the Why tab, the bug report and
// the reports render, tested as the struct itself:
//  - on the real scenario suite, against what each program knew without its trace (facts.json):
//    the primary rejection's kind, source, failed guard and values, the value chain, the fix;
//    each graph break's user line, GB code and resume frame (and the resume frame's origin);
//    each failure's type, layer and user frame;
//  - on the tlparse corpus: rank 1 of multi_rank_logs ([0/14]: 2 -> ... -> 16, 13 older
//    rejections, mark_dynamic(x, 0)), and invariants over every compile of every trace;
//  - on the fixtures, whose every fact is known (core/synth).
#include "scenario_suite.h"

#include "core/analysis/why_chain.h"
#include "core/load/loader.h"

#include <QDirIterator>
#include <QtTest>

using namespace dynascope;
using namespace scenarios;

namespace {
std::shared_ptr<const Trace> loadFile(const QString& path)
{
    return load({ path.toStdString() }).trace;
}

uint32_t compileIndex(const Trace& t, const char* id, size_t nth = 0)
{
    for (const Compile& c : t.compiles) {
        if (c.id.display() == id && nth-- == 0)
            return c.index;
    }
    return kNone;
}

// A facts value as the trace writes it: 32, True, 0.25.
std::string traceForm(const QJsonValue& v)
{
    if (v.isBool())
        return v.toBool() ? "True" : "False";
    if (v.isDouble() && v.toDouble() != double(v.toInteger()))
        return QString::number(v.toDouble()).toStdString();
    if (v.isDouble())
        return std::to_string(v.toInteger());
    return v.toString().toStdString();
}

// The invariants of any compile's chain, whatever the trace.
void checkInvariants(const Trace& t, uint32_t ci)
{
    const Compile& c = t.compiles[ci];
    const WhyChain why = explainCompile(t, ci);
    QCOMPARE(why.compile, ci);
    QCOMPARE(why.recompile.has_value(), c.isRecompile() || !c.recompileReasons.empty());
    QCOMPARE(why.graphBreaks.size(), c.graphBreaks.size());
    QCOMPARE(why.failure.has_value(), c.failure.has_value());
    QCOMPARE(why.callers.size(), c.stack.empty() ? size_t(0) : c.stack.size() - 1);
    if (c.frame != kNone)
        QVERIFY(std::count(why.frameCompiles.begin(), why.frameCompiles.end(), ci) == 1);
    if (!why.recompile)
        return;
    const RecompileWhy& r = *why.recompile;
    QCOMPARE(r.primary.has_value(), !c.recompileReasons.empty());
    if (!r.primary)
        return;
    QCOMPARE(r.others.size() + 1, c.recompileReasons.size());
    // The primary is against the newest earlier cache entry.
    for (const Rejection& o : r.others) {
        if (o.earlierCompile != kNone)
            QVERIFY(r.primary->earlierCompile > o.earlierCompile);
        QVERIFY(o.reason != r.primary->reason);
    }
    QCOMPARE(r.primary->earlierCompile == kNone ? kNone : r.primary->earlierCompile,
        primaryReason(c)->earlierCompile);
    // Every reason's kind reads back as the summary JSON's mismatch.
    for (const RecompileReason& reason : c.recompileReasons)
        QCOMPARE(std::string(toString(mismatchFromName(reason.mismatch))), reason.mismatch);
    if (r.primary->earlierCompile != kNone)
        QVERIFY(r.primary->earlierCompile < ci);
    if (r.primary->guardFound()) {
        QVERIFY(!r.primary->guardKind.empty());
        QVERIFY(r.primary->earlierCompile != kNone);
    }
    // The value chain comes from this frame's compiles up to this one, this one last.
    QVERIFY(r.values.size() <= 2 * r.valueCompiles.size());
    for (uint32_t v : r.valueCompiles) {
        QVERIFY(v <= ci);
        QCOMPARE(t.compiles[v].frame, c.frame);
    }
    if (!r.valueCompiles.empty())
        QCOMPARE(r.valueCompiles.back(), ci);
    if (r.fix.kind == FixKind::MarkDynamic)
        QVERIFY(isShapeChange(r.primary->mismatch));
}
} // namespace

class TestWhyChain : public QObject {
    Q_OBJECT

    std::map<QString, Scenario> m_cache;
    Scenario get(const QString& name)
    {
        auto it = m_cache.find(name);
        if (it == m_cache.end())
            it = m_cache.emplace(name, loadScenario(name)).first;
        return it->second;
    }
    void scenarioRows()
    {
        QTest::addColumn<QString>("name");
        const QStringList names = scenarioNames();
        if (names.isEmpty())
            QTest::newRow("none") << QString();
        for (const QString& n : names)
            QTest::newRow(qPrintable(n)) << n;
    }

private Q_SLOTS:
    void mismatchNames()
    {
        for (const char* name :
            { "", "size", "stride", "dtype", "device", "requires_grad", "rank", "dispatch_keys",
                "memory format", "layout", "id", "type", "shape", "value", "guard" })
            QCOMPARE(std::string(toString(mismatchFromName(name))), std::string(name));
        QCOMPARE(mismatchFromName("something new"), Mismatch::Guard);
        QCOMPARE(treeFormSource("x"), std::string("L['x']"));
        QCOMPARE(treeFormSource("L['x']"), std::string("L['x']"));
        QCOMPARE(treeFormSource("G['THRESHOLD']"), std::string("G['THRESHOLD']"));
        const SourceLine w = parseWhere("proj/train.py:12 in scale");
        QCOMPARE(w.file, std::string("proj/train.py"));
        QCOMPARE(w.line, int64_t(12));
        QCOMPARE(w.function, std::string("scale"));
        QVERIFY(!parseWhere("_dynamo/variables/builder.py in wrap").known());
        QVERIFY(!parseWhere("").known());
        QVERIFY(explainCompile(Trace {}, 0).compile == kNone);
    }

    // The fixtures (core/synth): a static recompile chain over 32 ... 512 rows.
    void recompileChainFixture()
    {
        const auto t = loadFile(QStringLiteral(DYNASCOPE_FIXTURES_DIR "/recompile_chain.log"));
        QVERIFY(t);
        const uint32_t last = compileIndex(*t, "[0/4]");
        QVERIFY(last != kNone);
        const WhyChain why = explainCompile(*t, last);
        QVERIFY(why.recompile && why.recompile->primary);
        const RecompileWhy& r = *why.recompile;
        const Rejection& p = *r.primary;
        QCOMPARE(p.earlierCompile, compileIndex(*t, "[0/3]"));
        QCOMPARE(p.mismatch, Mismatch::Size);
        QCOMPARE(p.dim, std::optional<int64_t>(0));
        QCOMPARE(p.expected, std::string("256"));
        QCOMPARE(p.actual, std::string("512"));
        QVERIFY(!p.actualInferred);
        QCOMPARE(p.loggedSource, std::string("x"));
        QCOMPARE(p.source, std::string("L['x']"));
        QCOMPARE(p.guardKind, std::string("TENSOR_MATCH"));
        QCOMPARE(p.guardSource, std::string("L['x']"));
        QVERIFY(p.guardExpr.find("size=[256, ") != std::string::npos);
        QCOMPARE(r.earlierCompiles, size_t(4));
        QCOMPARE(r.others.size(), size_t(3));
        QCOMPARE(r.others[0].earlierCompile, compileIndex(*t, "[0/2]"));
        QCOMPARE(r.others[2].earlierCompile, compileIndex(*t, "[0/0]"));
        QCOMPARE(r.values, (std::vector<std::string> { "32", "64", "128", "256", "512" }));
        QCOMPARE(r.valueCompiles.size(), size_t(4)); // [0/1] .. [0/4]
        QCOMPARE(r.fix.kind, FixKind::MarkDynamic);
        QCOMPARE(r.fix.code, std::string("torch._dynamo.mark_dynamic(x, 0)"));
        // Up to [0/2] only: the chain stops at the compile asked about.
        const WhyChain mid = explainCompile(*t, compileIndex(*t, "[0/2]"));
        QCOMPARE(mid.recompile->values, (std::vector<std::string> { "32", "64", "128" }));
        // The first compile is no recompile.
        QVERIFY(!explainCompile(*t, compileIndex(*t, "[0/0]")).recompile);
        for (uint32_t i = 0; i < t->compiles.size(); ++i)
            checkInvariants(*t, i);
    }

    void graphBreakAndFailureFixtures()
    {
        const auto gb = loadFile(QStringLiteral(DYNASCOPE_FIXTURES_DIR "/graph_break.log"));
        QVERIFY(gb);
        const uint32_t broke = compileIndex(*gb, "[0/0]");
        const WhyChain why = explainCompile(*gb, broke);
        QCOMPARE(why.graphBreaks.size(), size_t(1));
        const BreakWhy& b = why.graphBreaks.front();
        QVERIFY(b.userLine.known());
        QCOMPARE(b.userLine.line, gb->compiles[broke].graphBreaks.front().line);
        QVERIFY(!b.traceback.starts_with("User code traceback:"));
        QCOMPARE(b.resumeCompile, compileIndex(*gb, "[1/0]"));
        const WhyChain resume = explainCompile(*gb, b.resumeCompile);
        QVERIFY(resume.resumesAfter);
        QCOMPARE(resume.resumesAfter->compile, broke);
        QCOMPARE(resume.resumesAfter->breakIndex, size_t(0));
        QCOMPARE(resume.resumesAfter->breakLine.line, b.userLine.line);
        QVERIFY(!why.resumesAfter);

        const auto bf = loadFile(QStringLiteral(DYNASCOPE_FIXTURES_DIR "/backend_failure.log"));
        QVERIFY(bf);
        bool failed = false;
        for (uint32_t i = 0; i < bf->compiles.size(); ++i) {
            const WhyChain w = explainCompile(*bf, i);
            if (!w.failure)
                continue;
            failed = true;
            QCOMPARE(w.failure->type, std::string("BackendCompilerFailed"));
            QCOMPARE(w.failure->layer, std::string("backend"));
            QVERIFY(!w.failure->traceback.empty());
        }
        QVERIFY(failed);

        // The 2024 form: breaks only as restart_reasons, guards as a JSON list.
        const auto legacy = loadFile(QStringLiteral(DYNASCOPE_FIXTURES_DIR "/legacy_2024.log"));
        QVERIFY(legacy);
        for (uint32_t i = 0; i < legacy->compiles.size(); ++i)
            checkInvariants(*legacy, i);
    }

    // Real recompiles (PyTorch 2.13): what the program changed is what the chain says.
    void scenarioRecompiles_data() { scenarioRows(); }
    void scenarioRecompiles()
    {
        QFETCH(QString, name);
        if (name.isEmpty())
            QSKIP("no scenario recording (tests/scenarios/recorded)");
        const Scenario s = get(name);
        QVERIFY(s.trace);
        const Trace& t = *s.trace;
        for (uint32_t i = 0; i < t.compiles.size(); ++i)
            checkInvariants(t, i);
        for (const QJsonValue& v : s.facts[u"recompiles"_qs].toArray()) {
            const QJsonObject chain = v.toObject();
            const auto compiles = s.compilesOf(chain[u"function"_qs].toString());
            const QJsonArray values = chain[u"values"_qs].toArray();
            QCOMPARE(qsizetype(compiles.size()), values.size());
            const WhyChain why = explainCompile(t, compiles.back());
            QVERIFY(why.recompile && why.recompile->primary);
            const RecompileWhy& r = *why.recompile;
            const Rejection& p = *r.primary;
            QCOMPARE(p.earlierCompile, compiles[compiles.size() - 2]);
            QCOMPARE(r.earlierCompiles, compiles.size() - 1);
            QCOMPARE(r.others.size(), compiles.size() - 2);
            QCOMPARE(std::string(toString(p.mismatch)), str(chain[u"mismatch"_qs]));
            const std::string source = str(chain[u"source"_qs]);
            if (source.find('[') != std::string::npos)
                QCOMPARE(p.source, source);
            else // "training": the facts name the attribute only
                QVERIFY2(p.source.ends_with("." + source), p.source.c_str());
            QVERIFY(p.guardFound());
            if (!chain[u"guard_kind"_qs].toString().isEmpty())
                QCOMPARE(p.guardKind, str(chain[u"guard_kind"_qs]));
            QVERIFY(p.guardMadeAt.known());
            if (p.mismatch == Mismatch::Size || p.mismatch == Mismatch::Value) {
                // Every value the program passed, in order, this call's last.
                std::vector<std::string> want;
                for (const QJsonValue& x : values)
                    want.push_back(traceForm(x));
                QCOMPARE(r.values, want);
                QCOMPARE(p.expected, want[want.size() - 2]);
                QCOMPARE(p.actual, want.back());
                // A value guard's reason names the earlier value only; the call's value is read
                // from this compile (its own guard, or the symbol automatic dynamic made).
                QCOMPARE(p.actualInferred, p.mismatch == Mismatch::Value);
            } else {
                QVERIFY(r.values.size() <= size_t(values.size()));
            }
            if (p.mismatch == Mismatch::Size) {
                QCOMPARE(p.dim, std::optional<int64_t>(0));
                QCOMPARE(r.fix.kind, FixKind::MarkDynamic);
                QCOMPARE(r.fix.code, std::string("torch._dynamo.mark_dynamic(x, 0)"));
            } else if (p.mismatch == Mismatch::Dtype || p.mismatch == Mismatch::RequiresGrad) {
                QCOMPARE(r.fix.kind, FixKind::OneCompilePerValue);
            } else {
                QCOMPARE(r.fix.kind, FixKind::None);
            }
            if (p.mismatch == Mismatch::Value)
                QVERIFY(p.userLine.known()); // 2.13 logs the user stack of value guards
        }
    }

    // guard_constant: the second call's factor became a symbol (automatic dynamic took over).
    void automaticDynamicTookOver()
    {
        if (!scenarioNames().contains(u"guard_constant"_qs))
            QSKIP("no scenario recording (tests/scenarios/recorded)");
        const Scenario s = get(u"guard_constant"_qs);
        const auto compiles = s.compilesOf(u"scale"_qs);
        QCOMPARE(compiles.size(), size_t(2));
        const WhyChain why = explainCompile(*s.trace, compiles.back());
        const Rejection& p = *why.recompile->primary;
        QCOMPARE(p.source, std::string("L['factor']"));
        QVERIFY2(p.symbol.starts_with("s"), p.symbol.c_str());
        QCOMPARE(p.actual, std::string("3"));
    }

    void scenarioBreaksAndFailures_data() { scenarioRows(); }
    void scenarioBreaksAndFailures()
    {
        QFETCH(QString, name);
        if (name.isEmpty())
            QSKIP("no scenario recording (tests/scenarios/recorded)");
        const Scenario s = get(name);
        const Trace& t = *s.trace;
        for (const QJsonValue& v : s.facts[u"graph_breaks"_qs].toArray()) {
            const QJsonObject b = v.toObject();
            const QJsonObject where = s.line(b[u"line"_qs].toString());
            const uint32_t ci = s.compilesOf(b[u"function"_qs].toString()).front();
            const WhyChain why = explainCompile(t, ci);
            QCOMPARE(why.graphBreaks.size(), size_t(1));
            const BreakWhy& gb = why.graphBreaks.front();
            QCOMPARE(QString::fromStdString(gb.userLine.file), where[u"file"_qs].toString());
            QCOMPARE(gb.userLine.line, where[u"line"_qs].toInteger());
            QCOMPARE(gb.userLine.code, str(where[u"code"_qs]));
            QVERIFY(!gb.userLine.function.empty());
            QVERIFY(!gb.type.empty());
            if (b.contains(u"gb_type"_qs))
                QCOMPARE(gb.type, str(b[u"gb_type"_qs]));
            QVERIFY2(gb.gbCode.size() == 6 && gb.gbCode.starts_with("gb"), gb.gbCode.c_str());
            if (b.contains(u"gb_code"_qs))
                QCOMPARE(gb.gbCode, str(b[u"gb_code"_qs]));
            QCOMPARE(gb.skipsFrame, b[u"mode"_qs].toString() == u"skip"_qs);
            if (b[u"resume"_qs].toBool()) {
                QVERIFY(gb.resumeCompile != kNone);
                const WhyChain resume = explainCompile(t, gb.resumeCompile);
                QVERIFY(resume.resumesAfter);
                QCOMPARE(resume.resumesAfter->compile, ci);
                QCOMPARE(resume.resumesAfter->breakLine.line, gb.userLine.line);
            } else {
                QCOMPARE(gb.resumeCompile, kNone);
            }
        }
        for (const QJsonValue& v : s.facts[u"failures"_qs].toArray()) {
            const QJsonObject f = v.toObject();
            std::vector<WhyChain> failed;
            for (uint32_t ci : s.compilesOf(f[u"function"_qs].toString(), true)) {
                WhyChain why = explainCompile(t, ci);
                if (why.failure)
                    failed.push_back(std::move(why));
            }
            QCOMPARE(failed.size(), size_t(1));
            const FailureWhy& w = *failed.front().failure;
            QCOMPARE(w.layer, str(f[u"layer"_qs]));
            QCOMPARE(w.recompileLimit, f[u"recompile_limit"_qs].toBool());
            if (!w.recompileLimit)
                QCOMPARE(w.type, str(f[u"type"_qs]));
            if (!f[u"line"_qs].isNull()) {
                const QJsonObject where = s.line(f[u"line"_qs].toString());
                QCOMPARE(QString::fromStdString(w.userFrame.file), where[u"file"_qs].toString());
                QCOMPARE(w.userFrame.line, where[u"line"_qs].toInteger());
            }
        }
    }

    // tlparse's corpus: rank 1 of multi_rank_logs recompiles `kernel` 14 times over x.size(0).
    void multiRankRank1()
    {
        const QString path = QStringLiteral(DYNASCOPE_SHARED_TRACES
            "/tlparse/tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log");
        if (!QFile::exists(path))
            QSKIP("../shared/traces is absent");
        const auto t = loadFile(path);
        QVERIFY(t);
        const uint32_t ci = compileIndex(*t, "[0/14]");
        const WhyChain why = explainCompile(*t, ci);
        const RecompileWhy& r = *why.recompile;
        QCOMPARE(r.primary->earlierCompile, compileIndex(*t, "[0/13]"));
        QCOMPARE(r.primary->expected, std::string("15"));
        QCOMPARE(r.primary->actual, std::string("16"));
        QCOMPARE(r.primary->guardKind, std::string("TENSOR_MATCH"));
        QCOMPARE(r.others.size(), size_t(13));
        QCOMPARE(r.earlierCompiles, size_t(14));
        std::vector<std::string> want;
        for (int v = 2; v <= 16; ++v)
            want.push_back(std::to_string(v));
        QCOMPARE(r.values, want);
        QCOMPARE(r.fix.code, std::string("torch._dynamo.mark_dynamic(x, 0)"));
        QCOMPARE(why.callers.size(), size_t(2));
        QCOMPARE(why.callers.front().line, int64_t(25));
        QCOMPARE(why.callers.front().function, std::string("run_many_iters"));
        QCOMPARE(why.callers.front().code, std::string("kernel(x)"));
    }

    // Every compile of every trace in the corpus keeps the invariants.
    void corpusInvariants()
    {
        const QString root = QStringLiteral(DYNASCOPE_SHARED_TRACES "/tlparse");
        if (!QDir(root).exists())
            QSKIP("../shared/traces is absent");
        QDirIterator it(
            root, { QStringLiteral("*.log") }, QDir::Files, QDirIterator::Subdirectories);
        size_t traces = 0, recompiles = 0;
        while (it.hasNext()) {
            const auto t = loadFile(it.next());
            if (!t)
                continue;
            ++traces;
            for (uint32_t i = 0; i < t->compiles.size(); ++i) {
                checkInvariants(*t, i);
                if (QTest::currentTestFailed())
                    QFAIL(qPrintable(it.filePath() + QStringLiteral(": compile %1").arg(i)));
                recompiles += t->compiles[i].isRecompile() ? 1 : 0;
            }
        }
        QVERIFY(traces > 20);
        QVERIFY(recompiles > 20);
    }
};

QTEST_GUILESS_MAIN(TestWhyChain)
#include "tst_whychain.moc"
