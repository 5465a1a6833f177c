// The guard lab (core/analysis/guard_lab, guard_expr, guard_input) on the committed recordings:
// each scenario's recorded calls, described as its facts give them, must reuse the compile PyTorch
// made for them, and inputs PyTorch recompiled for must recompile; every guard line of every
// recording parses or is counted as not understood (none for the forms the lab reads).
#include "core/analysis/guard_lab.h"
#include "core/model/trace.h"
#include "scenario_suite.h"

#include <QDir>
#include <QTest>

using namespace dynascope;

namespace {

uint32_t frameOf(const scenarios::Scenario& s, const QString& label)
{
    const auto compiles = s.compilesOf(label);
    return compiles.empty() ? UINT32_MAX : s.trace->compiles[compiles.front()].frame;
}

std::string verdict(const scenarios::Scenario& s, const QString& label, const std::string& text)
{
    GuardInput in;
    std::string error;
    if (!parseGuardInput(text, in, error))
        return "error: " + error;
    return evaluateGuards(*s.trace, frameOf(s, label), in).verdict;
}

// "x: f32[8, 4]" from a facts call.
std::string describeCall(const QJsonObject& call, const QString& extra = {})
{
    const auto shape = call[u"shapes"_qs].toArray()[0].toArray();
    std::string dtype = scenarios::str(call[u"dtypes"_qs].toArray()[0]);
    std::string text = "x: " + dtype + "[";
    for (int k = 0; k < shape.size(); ++k)
        text += (k ? ", " : "") + std::to_string(shape[k].toInt());
    return text + "]" + extra.toStdString();
}

} // namespace

class TestGuardLab : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void expressions()
    {
        auto eval = [](const char* text, std::map<std::string, GuardValue> facts = {}) {
            GuardExpr e = GuardExpr::parse(text);
            if (!e.ok())
                return "parse error: " + e.error;
            return e
                .evaluate([&](const std::string& p) {
                    auto it = facts.find(p);
                    return it == facts.end() ? GuardValue::unknown(p) : it->second;
                })
                .toString();
        };
        const std::map<std::string, GuardValue> x48 { { "L['x'].size()[0]",
                                                          GuardValue::integer(48) },
            { "L['x'].size()[1]", GuardValue::integer(128) } };
        QCOMPARE(eval("2 <= L['x'].size()[0]", x48), "True");
        QCOMPARE(eval("L['x'].size()[0] <= 32", x48), "False");
        QCOMPARE(eval("2 <= L['x'].size()[0] <= 1024", x48), "True");
        QCOMPARE(eval("Eq(Mod(L['x'].size()[0], 16), 0)", x48), "True");
        QCOMPARE(eval("Ne(L['x'].size()[0] // 5, 9)", x48), "False");
        QCOMPARE(
            eval("And(L['x'].size()[0] * 2 + 1 > 96, Or(False, L['x'].size()[1] == 128))", x48),
            "True");
        QCOMPARE(eval("-7 // 2"), "-4");
        QCOMPARE(eval("-7 % 3"), "2");
        QCOMPARE(eval("L['k'] == 7"), "not known");
        QCOMPARE(eval("L['k'] == 7 or True"), "True");
        QCOMPARE(eval("(1024,) == (1024,)"), "True");
        QCOMPARE(
            eval("((getattr(L['x'], '_dynamo_dynamic_indices', set()).issubset({0})) if "
                 "hasattr(L['x'], '_dynamo_dynamic_indices') else True)",
                { { "hasattr(L['x'], '_dynamo_dynamic_indices')", GuardValue::boolean(false) } }),
            "True");
        // The sympy printer's other functions, as shape guards print them.
        QCOMPARE(eval("Eq(PythonMod(L['x'].size()[0], 5), 3)", x48), "True");
        QCOMPARE(eval("Eq(FloorDiv(L['x'].size()[0], 5), 9)", x48), "True");
        QCOMPARE(eval("CleanDiv(L['x'].size()[1], 16) * 16 == L['x'].size()[1]", x48), "True");
        QCOMPARE(eval("Max(2, L['x'].size()[0]) <= Min(64, L['x'].size()[1])", x48), "True");
        QCOMPARE(eval("CeilToInt(IntTrueDiv(L['x'].size()[0], 5)) == 10", x48), "True");
        QCOMPARE(eval("Abs(-L['x'].size()[0]) == 48", x48), "True");
        QCOMPARE(eval("Not(Lt(L['x'].size()[0], 2))", x48), "True");
        QCOMPARE(eval("L['x'].size()[0] not in (32, 64) and None is not 0", x48), "True");
        QCOMPARE(eval("2 ** 3 == 8 and 9 % 4 == 1"), "True");

        // The text around the expression: the object's repr 2.11+ appends to ID_MATCH and
        // TYPE_MATCH lines (quotes unbalanced, parentheses too), cut; an opaque call is "not
        // known", never guessed. A shape guard logged while guards were suppressed.
        const std::pair<const char*, const char*> cores[] = {
            { "___check_obj_id(G['torch'], 1399), type=<module 'torch' from "
              "'/v/torch/__init__.py'>",
                "___check_obj_id(G['torch'], 1399)" },
            { "___check_type_id(L['args'], 10759232), type=<class 'tuple'>  (HINT: type tuple)",
                "___check_type_id(L['args'], 10759232)" },
            { "___check_obj_id(L['func'].__code__, 1400), type=<code object inner at 0x7f69, "
              "file \"/v/torch/_compile.py\", line 42>",
                "___check_obj_id(L['func'].__code__, 1400)" },
            { "___check_obj_id(G['torch'].relu, 1400), type=<built-in method relu of type object "
              "at 0x7f3f>",
                "___check_obj_id(G['torch'].relu, 1400)" },
            { "___check_obj_id(G['dist'].group.WORLD, 1401), type=<torch.distributed."
              "distributed_c10d.ProcessGroup object at 0x7f82>",
                "___check_obj_id(G['dist'].group.WORLD, 1401)" },
            { "L['k'] == 7  # return x + k  # t.py:3 in f", "L['k'] == 7" },
            { "L['s'] == ', type=<x'", "L['s'] == ', type=<x'" }, // inside quotes: kept
            { "[guard suppressed] 12*s89 + 32 <= 128", "12*s89 + 32 <= 128" },
        };
        for (const auto& [line, core] : cores) {
            QCOMPARE(std::string(guardExprCore(line)), std::string(core));
            QVERIFY2(GuardExpr::parse(guardExprCore(line)).ok(), line);
        }
        QCOMPARE(eval(std::string(guardExprCore(cores[0].first)).c_str()), "not known");
        QCOMPARE(eval(std::string(guardExprCore(cores[7].first)).c_str(),
                     { { "s89", GuardValue::integer(8) } }),
            "True");
        QCOMPARE(eval(std::string(guardExprCore(cores[7].first)).c_str(),
                     { { "s89", GuardValue::integer(9) } }),
            "False");

        // Bad text: an error, never a crash or a hang; nesting is bounded.
        for (const char* bad :
            { "", "(", "L['x'", "1 +", "'open", "a if b", "f(x=)", "))))", "\x01" })
            QVERIFY(!GuardExpr::parse(bad).ok());
        QVERIFY(!GuardExpr::parse(std::string(100000, '(')).ok());
        QVERIFY(!GuardExpr::parse(std::string(100000, '-') + "1").ok());
        std::string chain = "a";
        for (int k = 0; k < 50000; ++k)
            chain += "+a";
        QVERIFY(!GuardExpr::parse(chain).ok());
    }

    void descriptions()
    {
        GuardInput in;
        std::string error;
        QVERIFY(parseGuardInput(
            "x: bf16[48, 128] cuda requires_grad; k: 7; training: False; grad: off; "
            "autocast: cuda bf16",
            in, error));
        QCOMPARE(*in.tensors["x"].dtype, "bfloat16");
        QCOMPARE(*in.tensors["x"].device, "cuda:0");
        QVERIFY(*in.tensors["x"].requiresGrad);
        QCOMPARE(in.values["k"].i, 7);
        QVERIFY(!in.values["training"].b);
        QVERIFY(!*in.gradMode);
        QCOMPARE(in.autocast->dtype, "bfloat16");
        QVERIFY(parseGuardInput("y: f32[32, 3, 224, 224] channels_last", in, error));
        QCOMPARE(*in.tensors["y"].effectiveStrides(), (std::vector<int64_t> { 150528, 1, 672, 3 }));
        QVERIFY(parseGuardInput("z: f32[8, 128] stride=[256, 1]", in, error));
        QCOMPARE(*in.tensors["z"].effectiveStrides(), (std::vector<int64_t> { 256, 1 }));
        QVERIFY(parseGuardInput("x.size(0) in 1..512", in, error));
        QCOMPARE(in.range->hi, 512);
        for (const char* bad : { "x: q32[4]", "x: f32[4, -1]", "x f32[4]", "x: f32[4] mars",
                 "grad: sideways", "x: f32[4] stride=[1, 1]", "x.size(0) in 9..1",
                 "x: f32[1, 2] channels_last", ": 7" }) {
            GuardInput b;
            std::string e;
            QVERIFY2(!parseGuardInput(bad, b, e), bad);
            QVERIFY2(!e.empty(), bad);
        }
        QVERIFY(!parseGuardInput("x: q32[4]", in, error));
        QVERIFY(error.find("q32") != std::string::npos);
    }

    // Each scenario's recorded calls reuse the compile PyTorch made for them (facts.json).
    void recordedCalls()
    {
        const auto dtype = scenarios::loadScenario(u"guard_dtype"_qs);
        QCOMPARE(verdict(dtype, u"scale"_qs, "x: f32[8, 4]"), "reuses [0/0]");
        QCOMPARE(verdict(dtype, u"scale"_qs, "x: f64[8, 4]"), "reuses [0/1]");
        QCOMPARE(verdict(dtype, u"scale"_qs, "x: f16[8, 4]"),
            "recompiles: no entry matches (6 of the recompile limit 8 left)");
        for (const auto& call : dtype.facts[u"calls"_qs].toArray())
            QVERIFY(
                verdict(dtype, u"scale"_qs, describeCall(call.toObject())).starts_with("reuses"));

        const auto rg = scenarios::loadScenario(u"guard_requires_grad"_qs);
        QCOMPARE(verdict(rg, u"scale"_qs, "x: f32[8, 4] requires_grad=False"), "reuses [0/0]");
        QCOMPARE(verdict(rg, u"scale"_qs, "x: f32[8, 4] requires_grad"), "reuses [0/1]");
        QCOMPARE(
            verdict(rg, u"scale"_qs, "x: f32[8, 5] requires_grad").substr(0, 10), "recompiles");

        const auto automatic = scenarios::loadScenario(u"dynamic_automatic"_qs);
        const auto rows = automatic.expect()[u"rows"_qs].toArray();
        QCOMPARE(
            verdict(automatic, u"scale"_qs, "x: f32[32, 128]"), "reuses [0/1]"); // newest first
        for (const auto& r : rows)
            QCOMPARE(
                verdict(automatic, u"scale"_qs, "x: f32[" + std::to_string(r.toInt()) + ", 128]"),
                "reuses [0/1]");
        QCOMPARE(verdict(automatic, u"scale"_qs, "x: f32[1, 128]"),
            "recompiles: no entry matches (6 of the recompile limit 8 left)");
        QCOMPARE(verdict(automatic, u"scale"_qs, "x: f32[64, 64]").substr(0, 10), "recompiles");

        const auto marked = scenarios::loadScenario(u"mark_dynamic"_qs);
        for (const auto& r : marked.expect()[u"rows"_qs].toArray())
            QCOMPARE(verdict(marked, u"scale"_qs,
                         "x: f32[" + std::to_string(r.toInt()) + ", 128] dynamic=0"),
                "reuses [0/0]");
        // Without the mark the DIMENSION_DYNAMIC_MARKING_GUARD form of 2.13 still holds
        // (issubset({0}) if marked else True), the size guard too.
        QCOMPARE(verdict(marked, u"scale"_qs, "x: f32[48, 128]"), "reuses [0/0]");

        const auto dyn = scenarios::loadScenario(u"dynamic_true"_qs);
        for (const auto& r : dyn.expect()[u"rows"_qs].toArray())
            QCOMPARE(verdict(dyn, u"scale"_qs, "x: f32[" + std::to_string(r.toInt()) + ", 128]"),
                "reuses [0/0]");
        const auto stat = scenarios::loadScenario(u"dynamic_false"_qs);
        const auto statRows = stat.expect()[u"rows"_qs].toArray();
        for (int k = 0; k < statRows.size(); ++k)
            QCOMPARE(verdict(stat, u"scale"_qs,
                         "x: f32[" + std::to_string(statRows[k].toInt()) + ", 128]"),
                "reuses [0/" + std::to_string(k) + "]");
        QCOMPARE(verdict(stat, u"scale"_qs, "x: f32[48, 128]"),
            "recompiles: no entry matches (3 of the recompile limit 8 left)");

        const auto constant = scenarios::loadScenario(u"guard_constant"_qs);
        // [0/1] took factor as a dynamic int (only a TYPE_MATCH on it): checked first, it takes any
        // int.
        QCOMPARE(verdict(constant, u"scale"_qs, "x: f32[8, 4]; factor: 2"), "reuses [0/1]");
        QCOMPARE(verdict(constant, u"scale"_qs, "x: f32[8, 4]; factor: 7"), "reuses [0/1]");
        QCOMPARE(verdict(constant, u"scale"_qs, "x: f32[8, 4]; factor: 0.5").substr(0, 10),
            "recompiles");

        const auto global = scenarios::loadScenario(u"guard_global"_qs);
        QCOMPARE(verdict(global, u"clip"_qs, "x: f32[8, 4]; THRESHOLD: 0.5"), "reuses [0/0]");
        QCOMPARE(verdict(global, u"clip"_qs, "x: f32[8, 4]; THRESHOLD: 0.25"), "reuses [0/1]");
        QCOMPARE(verdict(global, u"clip"_qs, "x: f32[8, 4]; THRESHOLD: 0.75").substr(0, 10),
            "recompiles");
        QCOMPARE(
            verdict(global, u"clip"_qs, "x: f32[8, 4]; THRESHOLD: 0.5; grad: off").substr(0, 10),
            "recompiles");

        const auto training = scenarios::loadScenario(u"guard_training_flag"_qs);
        QCOMPARE(verdict(training, u"forward"_qs, "x: f32[4, 16]; training: True"), "reuses [0/0]");
        QCOMPARE(
            verdict(training, u"forward"_qs, "x: f32[4, 16]; training: False"), "reuses [0/1]");

        const auto example = scenarios::loadScenario(u"example"_qs);
        // The example's dynamic compile of scale (facts: dynamic_compile 1) takes any row count
        // >= 2.
        const std::string big = verdict(example, u"scale"_qs, "x: f32[1000, 128]");
        QVERIFY2(big.starts_with("reuses [") && big.ends_with("/1]"), big.c_str());
        QCOMPARE(verdict(example, u"scale"_qs, "x: f32[32, 128] cuda").substr(0, 10), "recompiles");
    }

    // The recompile limit as the trace's dynamo_config says it: recompile_limit set it to 4 and
    // compiled `shift` 4 times, so one more value runs in eager (facts: recompile_limit 4);
    // guard_dtype kept PyTorch's default, 8.
    void recompileLimitFromTheTrace()
    {
        const auto limited = scenarios::loadScenario(u"recompile_limit"_qs);
        QCOMPARE(limited.expect()[u"recompile_limit"_qs].toInt(), 4);
        GuardInput in;
        std::string error;
        QVERIFY(parseGuardInput("k: 99", in, error));
        const GuardLabAnswer a = evaluateGuards(*limited.trace, frameOf(limited, u"shift"_qs), in);
        QCOMPARE(a.recompileLimit, 4);
        QCOMPARE(a.entriesLeft, 0);
        QCOMPARE(a.verdict,
            std::string("recompiles: no entry matches and the frame is at its recompile limit "
                        "(4): it runs in eager"));
        const auto dtype = scenarios::loadScenario(u"guard_dtype"_qs);
        QVERIFY(parseGuardInput("x: f16[8, 4]", in = {}, error));
        QCOMPARE(evaluateGuards(*dtype.trace, frameOf(dtype, u"scale"_qs), in).recompileLimit, 8);
    }

    void ranges()
    {
        const auto stat = scenarios::loadScenario(u"dynamic_false"_qs);
        GuardInput in;
        std::string error;
        QVERIFY(parseGuardInput("x: f32[32, 128]; x.size(0) in 30..70", in, error));
        const auto r = evaluateRange(*stat.trace, frameOf(stat, u"scale"_qs), in);
        QCOMPARE(r.rows.size(), size_t(5)); // 30-31 recompile, 32, 33-63, 64, 65-70
        QCOMPARE(r.rows[1].verdict, "reuses [0/0]");
        QCOMPARE(r.rows[3].verdict, "reuses [0/1]");
        QVERIFY(r.advice.find("mark_dynamic(x, 0)") != std::string::npos);
    }

    // Every guard line of every committed recording: parsed, or counted as not understood.
    void everyRecordedGuard()
    {
        size_t guards = 0, notUnderstood = 0;
        for (const char* version : { "torch-2.13.0", "torch-2.14.1" }) {
            const QString root = QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED "/../")
                + QString::fromLatin1(version);
            qputenv("DYNASCOPE_SCENARIOS_DIR", root.toUtf8());
            for (const QString& name : scenarios::scenarioNames()) {
                const auto s = scenarios::loadScenario(name);
                for (const Frame& f : s.trace->frames) {
                    GuardInput in;
                    in.gradMode = true;
                    const auto a = evaluateGuards(*s.trace, f.index, in);
                    for (const auto& e : a.entries) {
                        guards += e.guards;
                        notUnderstood += e.notUnderstood;
                    }
                    for (const Compile& c : s.trace->compiles)
                        if (c.frame == f.index && c.guards.get())
                            for (const auto& n : c.guards->nodes) {
                                if (n.isManager || n.kind.empty() || n.kind.ends_with("Manager")
                                    || n.kind == "GLOBAL_STATE")
                                    continue;
                                const GuardExpr e = GuardExpr::parse(guardExprCore(n.expr));
                                const bool ambient
                                    = n.expr.find("top_saved_tensors_hooks") != std::string::npos
                                    || n.kind == "TORCH_FUNCTION_MODE_STACK"
                                    || n.kind == "NO_TENSOR_ALIASING"
                                    || n.kind == "OBJECT_ALIASING";
                                QVERIFY2(
                                    e.ok() || (ambient && n.expr.find("L[") == std::string::npos),
                                    (name.toStdString() + ": " + n.kind + ": " + n.expr + " -> "
                                        + e.error)
                                        .c_str());
                            }
                }
            }
        }
        qunsetenv("DYNASCOPE_SCENARIOS_DIR");
        QVERIFY(guards > 1000);
        QCOMPARE(notUnderstood, size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestGuardLab)
#include "tst_guardlab.moc"
