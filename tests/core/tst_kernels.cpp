// The kernels of a compile (core/analysis/kernels.h) on real traces: the 2.11 H200 CUDA
// scenarios in ../shared (Triton kernels and triton_kernel_info; skipped when absent), what each
// scenario.py makes Inductor generate, and a committed 2.13 CPU recording (C++ kernels); bad
// triton_kernel_info payloads give a diagnostic and keep what parsed.
#include "core/analysis/findings.h"
#include "core/analysis/kernels.h"
#include "core/load/loader.h"

#include <QFileInfo>
#include <QtTest>

#include <algorithm>
#include <sstream>

using namespace dynascope;

namespace {

QString cudaDir()
{
    return QStringLiteral(DYNASCOPE_SHARED_TRACES) + u"/torch-2.11-h200/cuda-scenarios"_qs;
}

std::shared_ptr<const Trace> loadScenario(const QString& dir)
{
    auto r = load({ dir.toStdString() });
    return r.trace;
}

bool has(const std::vector<std::string>& v, const std::string& s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

// One line per kernel, for failure messages.
std::string describe(const Trace& t)
{
    std::ostringstream o;
    for (const Compile& c : t.compiles) {
        const CompileKernels ks = compileKernels(t, c);
        for (const Kernel& k : ks.kernels) {
            o << c.id.display() << " " << k.graph << " " << k.name << " " << toString(k.kind)
              << " [";
            for (const auto& op : k.fusedOps)
                o << op << ",";
            o << "] " << k.compileTimeUs.value_or(-1) << "us " << k.autotuneState << " "
              << k.numConfigs.value_or(-1) << " {" << k.config << "} line " << k.codeLine
              << " calls " << k.calls << "\n";
        }
        for (const Diagnostic& d : ks.diagnostics)
            o << d.format() << "\n";
    }
    return o.str();
}

const Kernel* byName(const std::vector<Kernel>& ks, std::string_view name)
{
    for (const Kernel& k : ks)
        if (k.name == name)
            return &k;
    return nullptr;
}

} // namespace

class TestKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo::exists(cudaDir()))
            qInfo("../shared/traces/torch-2.11-h200/cuda-scenarios is absent: the CUDA tests "
                  "skip");
    }

    // clean_mlp: Linear -> GELU -> Linear on the GPU: one pointwise kernel fusing the first
    // addmm's bias with the GELU, between two extern matmuls (mm, then addmm).
    void cleanMlp()
    {
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        auto t = loadScenario(cudaDir() + u"/clean_mlp"_qs);
        QVERIFY(t && t->compiles.size() == 1);
        const std::string all = describe(*t);
        const CompileKernels ks = compileKernels(*t, t->compiles[0]);
        QVERIFY2(ks.diagnostics.empty(), all.c_str());
        QCOMPARE(ks.outputCodes, 1u);
        QCOMPARE(ks.kernels.size(), size_t(3));
        const Kernel& k = ks.kernels[0];
        QCOMPARE(k.name, std::string("triton_poi_fused_addmm_gelu_0"));
        QCOMPARE(k.kind, KernelKind::Pointwise);
        QVERIFY2(
            k.fusedOps == (std::vector<std::string> { "aten.addmm", "aten.gelu" }), all.c_str());
        QVERIFY(!k.opsFromName);
        QCOMPARE(k.compileTimeUs.value_or(0), int64_t(551300));
        QCOMPARE(k.autotuneState, std::string("miss"));
        QCOMPARE(k.numConfigs.value_or(0), int64_t(2));
        QCOMPARE(k.graph, std::string("inference"));
        // The line is the definition in the output code's payload.
        const std::string code = t->payload(k.codeRecord);
        std::istringstream lines(code);
        std::string line;
        for (uint32_t i = 0; i < k.codeLine; ++i)
            std::getline(lines, line);
        QVERIFY2(line.starts_with("triton_poi_fused_addmm_gelu_0 = async_compile.triton("),
            line.c_str());
        const Kernel* mm = byName(ks.kernels, "extern_kernels.mm");
        const Kernel* addmm = byName(ks.kernels, "extern_kernels.addmm");
        QVERIFY2(mm && addmm, all.c_str());
        QCOMPARE(mm->kind, KernelKind::Extern);
        QCOMPARE(mm->calls, 1u);
        QVERIFY(has(mm->fusedOps, "aten.addmm"));
        KernelCounts n;
        n.add(ks.kernels);
        QCOMPARE(n.generated, uint64_t(1));
        QCOMPARE(n.externCalls, uint64_t(2));
        QCOMPARE(n.byKind[size_t(KernelKind::Pointwise)], uint64_t(1));
        QCOMPARE(n.compileTimeUs, int64_t(551300));
        QCOMPARE(n.autotuneMisses, uint64_t(1));
    }

    // graph_break_item: sin, then x.sum().item() breaks the graph. The first graph reduces
    // (sin + sum: a reduction kernel, one config so nothing to tune); the resume function's
    // graphs either side of the branch are pointwise (cos; mul by 2 then cos).
    void graphBreakItem()
    {
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        auto t = loadScenario(cudaDir() + u"/graph_break_item"_qs);
        QVERIFY(t);
        const std::string all = describe(*t);
        std::vector<const Compile*> withKernels;
        std::vector<std::vector<Kernel>> kernels;
        for (const Compile& c : t->compiles) {
            CompileKernels ks = compileKernels(*t, c);
            QVERIFY2(ks.diagnostics.empty(), all.c_str());
            if (!ks.kernels.empty()) {
                withKernels.push_back(&c);
                kernels.push_back(std::move(ks.kernels));
            }
        }
        // fn's graph, then the resume function's: compiled once per branch, and once more when
        // the .item() value is tensorified; that compile hit the FX graph cache, so its kernel
        // was loaded, not compiled, and has no triton_kernel_info.
        QVERIFY2(withKernels.size() == 4, all.c_str());
        const Kernel* red = byName(kernels[0], "triton_red_fused_sin_sum_0");
        QVERIFY2(red, all.c_str());
        QCOMPARE(withKernels[0]->coName, std::string("fn"));
        QCOMPARE(red->kind, KernelKind::Reduction);
        QCOMPARE(red->autotuneState, std::string("only 1 config"));
        QCOMPARE(red->config, std::string("R0_BLOCK=2048, XBLOCK=1, num_warps=16, num_stages=1"));
        QVERIFY(!red->numConfigs);
        QVERIFY2(has(red->fusedOps, "aten.sin") && has(red->fusedOps, "aten.sum"), all.c_str());
        size_t cached = 0, mul = 0;
        for (size_t i = 1; i < kernels.size(); ++i) {
            QVERIFY2(withKernels[i]->coName.starts_with("torch_dynamo_resume_in_fn"),
                withKernels[i]->coName.c_str());
            QCOMPARE(kernels[i].size(), size_t(1));
            const Kernel& k = kernels[i][0];
            QCOMPARE(k.kind, KernelKind::Pointwise);
            QVERIFY(has(k.fusedOps, "aten.cos"));
            mul += has(k.fusedOps, "aten.mul");
            if (!k.hasInfo) {
                ++cached;
                QVERIFY(compileKernels(*t, *withKernels[i]).fxGraphCacheHit);
            }
        }
        // One branch multiplies by 2 before the cos, the other does not.
        QVERIFY2(mul == 1 && cached == 1, all.c_str());
    }

    // training_backward: the forward fuses the first Linear's bias with the ReLU; the backward
    // sums the bias gradients in persistent reductions, one through ReLU's threshold_backward.
    void trainingBackward()
    {
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        auto t = loadScenario(cudaDir() + u"/training_backward"_qs);
        QVERIFY(t && !t->compiles.empty());
        const std::string all = describe(*t);
        const CompileKernels ks = compileKernels(*t, t->compiles[0]);
        QVERIFY2(ks.outputCodes == 2 && ks.diagnostics.empty(), all.c_str());
        const Kernel* fwd = byName(ks.kernels, "triton_poi_fused_addmm_relu_0");
        QVERIFY2(fwd && fwd->graph == "forward", all.c_str());
        const Kernel* sum = byName(ks.kernels, "triton_per_fused_sum_0");
        const Kernel* thr = byName(ks.kernels, "triton_per_fused_sum_threshold_backward_1");
        QVERIFY2(sum && thr, all.c_str());
        for (const Kernel* k : { sum, thr }) {
            QCOMPARE(k->kind, KernelKind::PersistentReduction);
            QCOMPARE(k->graph, std::string("backward"));
            QVERIFY(k->hasInfo && k->compileTimeUs);
        }
        QCOMPARE(thr->numConfigs.value_or(0), int64_t(4));
        QVERIFY2(has(thr->fusedOps, "aten.threshold_backward"), all.c_str());
        // The backward's matmuls are extern calls.
        QVERIFY2(std::any_of(ks.kernels.begin(), ks.kernels.end(),
                     [](const Kernel& k) {
                         return k.kind == KernelKind::Extern && k.graph == "backward";
                     }),
            all.c_str());
    }

    // recompile_static: dynamic=False over five sizes: the same pointwise kernel (sin + cos + add)
    // is generated and tuned again for each shape; the two sizes seen again reuse theirs.
    void recompileStatic()
    {
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        auto t = loadScenario(cudaDir() + u"/recompile_static"_qs);
        QVERIFY(t);
        const std::string all = describe(*t);
        size_t compilesWithIt = 0;
        for (const Compile& c : t->compiles) {
            const CompileKernels ks = compileKernels(*t, c);
            if (const Kernel* k = byName(ks.kernels, "triton_poi_fused_add_cos_sin_0")) {
                ++compilesWithIt;
                QCOMPARE(k->kind, KernelKind::Pointwise);
                QVERIFY(has(k->fusedOps, "aten.sin") && has(k->fusedOps, "aten.cos"));
                QCOMPARE(k->autotuneState, std::string("miss"));
            }
        }
        QVERIFY2(compilesWithIt == 5, all.c_str());
    }

    // No Inductor, no kernels: backend_failure's backend raises; the eager and aot_eager rungs
    // of backends_ladder generate nothing, only the inductor rung does.
    void noInductorNoKernels()
    {
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        auto failed = loadScenario(cudaDir() + u"/backend_failure"_qs);
        QVERIFY(failed);
        for (const Compile& c : failed->compiles)
            QVERIFY(compileKernels(*failed, c).kernels.empty());
        auto ladder = loadScenario(cudaDir() + u"/backends_ladder"_qs);
        QVERIFY(ladder);
        KernelCounts n;
        for (const Compile& c : ladder->compiles)
            n.add(compileKernels(*ladder, c).kernels);
        const std::string all = describe(*ladder);
        QVERIFY2(n.byKind[size_t(KernelKind::Pointwise)] == 1
                && n.byKind[size_t(KernelKind::PersistentReduction)] == 1,
            all.c_str());
    }

    // A committed 2.13 CPU recording: Inductor's C++ backend, no triton_kernel_info.
    void cpuRecording()
    {
        const QString dir = QStringLiteral(DYNASCOPE_SOURCE_DIR)
            + u"/tests/scenarios/recorded/torch-2.13.0/clean_mlp"_qs;
        auto t = loadScenario(dir);
        QVERIFY(t && !t->compiles.empty());
        const std::string all = describe(*t);
        const CompileKernels ks = compileKernels(*t, t->compiles[0]);
        QVERIFY2(ks.diagnostics.empty(), all.c_str());
        const Kernel* gelu = byName(ks.kernels, "cpp_fused_gelu_0");
        QVERIFY2(gelu, all.c_str());
        QCOMPARE(gelu->kind, KernelKind::Cpp);
        QVERIFY(!gelu->hasInfo && !gelu->compileTimeUs && gelu->autotuneState.empty());
        QVERIFY2(gelu->fusedOps == std::vector<std::string> { "gelu" } && gelu->opsFromName,
            all.c_str());
        const Kernel* addmm = byName(ks.kernels, "extern_kernels.addmm");
        QVERIFY2(addmm && addmm->calls == 2, all.c_str());
    }

    // The kernel findings on the CUDA traces, one per frame: recompile_static compiles the same
    // kernel again for each new size (kernel-compile-time, naming it, with the dynamic-shape
    // hint), and autotunes it after a cache miss in all five compiles (autotune-miss);
    // training_backward autotunes its three kernels (2 to 4 configs). clean_mlp's one compile
    // is mostly not kernel compiling: no kernel-compile-time there. The CPU recordings log no
    // kernel info: neither rule.
    void kernelFindings()
    {
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        auto findingsOf = [](const QString& dir, const char* rule) {
            std::vector<Finding> out;
            auto t = loadScenario(dir);
            if (t)
                for (Finding& f : findFindings(*t))
                    if (toString(f.rule) == rule)
                        out.push_back(std::move(f));
            return out;
        };
        const auto heavy = findingsOf(cudaDir() + u"/recompile_static"_qs, "kernel-compile-time");
        QCOMPARE(heavy.size(), size_t(1));
        QVERIFY2(heavy[0].title.starts_with("`fn` (scenario.py:6) spent "), heavy[0].title.c_str());
        QCOMPARE(heavy[0].compiles.size(), size_t(4)); // [0/1]..[0/4]; [0/0] is mostly tracing
        QVERIFY(heavy[0].costUs > 1e6);
        QVERIFY2(heavy[0].hint.find("mark_dynamic") != std::string::npos, heavy[0].hint.c_str());
        const auto again = std::find_if(heavy[0].evidence.begin(), heavy[0].evidence.end(),
            [](const auto& e) { return e.first == "compiled again"; });
        QVERIFY(again != heavy[0].evidence.end());
        QCOMPARE(again->second, std::string("triton_poi_fused_add_cos_sin_0 in 4 compiles"));
        const auto tuned = findingsOf(cudaDir() + u"/recompile_static"_qs, "autotune-miss");
        QCOMPARE(tuned.size(), size_t(1));
        QCOMPARE(tuned[0].compiles.size(), size_t(5));
        QVERIFY2(tuned[0].title.find("autotuned 5 Triton kernels because the autotune cache "
                                     "missed (2 configs each")
                != std::string::npos,
            tuned[0].title.c_str());
        QVERIFY(tuned[0].hint.find("autotune_remote_cache") != std::string::npos);
        QVERIFY(tuned[0].hint.find("max-autotune") != std::string::npos);
        const auto training = findingsOf(cudaDir() + u"/training_backward"_qs, "autotune-miss");
        QCOMPARE(training.size(), size_t(1));
        QVERIFY2(training[0].title.find("3 Triton kernels") != std::string::npos
                && training[0].title.find("(2-4 configs each") != std::string::npos,
            training[0].title.c_str());
        QVERIFY(findingsOf(cudaDir() + u"/clean_mlp"_qs, "kernel-compile-time").empty());
        // graph_break_item's first graph ran its only config: nothing tuned there.
        for (const Finding& f : findingsOf(cudaDir() + u"/graph_break_item"_qs, "autotune-miss"))
            QVERIFY2(f.title.find("`fn`") == std::string::npos, f.title.c_str());
        const QString cpu = QStringLiteral(DYNASCOPE_SOURCE_DIR)
            + u"/tests/scenarios/recorded/torch-2.13.0/clean_mlp"_qs;
        QVERIFY(findingsOf(cpu, "kernel-compile-time").empty());
        QVERIFY(findingsOf(cpu, "autotune-miss").empty());
    }

    // graph-break-lost-fusion: graph_break_item's `fn` computes sin and the sum in one
    // reduction kernel, breaks on .item() at scenario.py:9, and its resume frame's three
    // compiles ([1/0]..[1/2]) run one pointwise kernel each (cos, and mul+cos): one finding for
    // the break site, naming it, its type, both sides' kernels and the capture_scalar_outputs
    // fix. clean_mlp and training_backward have no break: none. The committed 2.13 CPU
    // graph_break_item compiled no Inductor code (kernels 0), so no graph is known to be
    // small: none either.
    void lostFusion()
    {
        auto findingsOf = [](const QString& dir) {
            std::vector<Finding> out;
            auto t = loadScenario(dir);
            if (t)
                for (Finding& f : findFindings(*t))
                    if (f.rule == Rule::GraphBreakLostFusion)
                        out.push_back(std::move(f));
            return std::make_pair(t, out);
        };
        const QString cpu = QStringLiteral(DYNASCOPE_SOURCE_DIR)
            + u"/tests/scenarios/recorded/torch-2.13.0/graph_break_item"_qs;
        const auto [cpuTrace, cpuFindings] = findingsOf(cpu);
        QVERIFY(cpuTrace && cpuTrace->compiles.size() == 2);
        QVERIFY(cpuFindings.empty());
        if (!QFileInfo::exists(cudaDir()))
            QSKIP("../shared/traces/torch-2.11-h200/cuda-scenarios is absent");
        const auto [t, found] = findingsOf(cudaDir() + u"/graph_break_item"_qs);
        QVERIFY(t);
        QCOMPARE(found.size(), size_t(1));
        const Finding& f = found[0];
        QCOMPARE(toString(f.rule), std::string_view("graph-break-lost-fusion"));
        QCOMPARE(f.severity, FindingSeverity::Note);
        QVERIFY2(f.title.starts_with("`fn` (scenario.py:6) runs as graphs of one kernel each, "
                                     "split by the graph break at scenario.py:9: 1 reduction "
                                     "kernel before it, 1 pointwise kernel after it"),
            f.title.c_str());
        QVERIFY(f.userFile.ends_with("scenario.py"));
        QCOMPARE(f.userLine, int64_t(9));
        QCOMPARE(f.count, uint64_t(1));
        std::vector<std::string> ids;
        for (uint32_t c : f.compiles)
            ids.push_back(t->compiles[c].id.display());
        QCOMPARE(ids, (std::vector<std::string> { "[0/0]", "[1/0]", "[1/1]", "[1/2]" }));
        auto evidence = [&](const std::string& label) {
            for (const auto& [l, v] : f.evidence)
                if (l == label)
                    return v;
            return std::string();
        };
        QCOMPARE(evidence("graph break"),
            std::string("scenario.py:9: Unsupported Tensor.item() call with "
                        "capture_scalar_outputs=False"));
        QCOMPARE(evidence("before the break"),
            std::string("[0/0]: triton_red_fused_sin_sum_0 (reduction)"));
        const std::string after = evidence("after the break");
        QVERIFY2(after.starts_with("[1/0], [1/1] and [1/2]: ")
                && after.find("triton_poi_fused_cos_0 (pointwise)") != std::string::npos
                && after.find("triton_poi_fused_cos_mul_0 (pointwise)") != std::string::npos,
            after.c_str());
        QCOMPARE(f.code, std::string("torch._dynamo.config.capture_scalar_outputs = True"));
        QVERIFY2(f.hint.find("torch.where") != std::string::npos, f.hint.c_str());
        QVERIFY(!f.gbCode.empty() && !f.pytorchHints.empty());
        for (const char* clean : { "clean_mlp", "training_backward" }) {
            const auto [ct, none] = findingsOf(cudaDir() + u"/"_qs + QLatin1String(clean));
            QVERIFY2(ct && !ct->compiles.empty(), clean);
            QVERIFY2(none.empty(), clean);
        }
    }

    // Bad triton_kernel_info payloads: not JSON, not an object, an entry that is not an object.
    // Each gives a BadPayload diagnostic naming the file and the record's line; what parsed is
    // kept (the good entry of the third).
    void badPayloads()
    {
        auto rec = [](const std::string& body, const std::string& payload = {}) {
            std::string s = "V1202 10:00:00.000000 7 torch/_inductor/async_compile.py:1] {" + body
                + ", \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0"
                + (payload.empty() ? "" : ", \"has_payload\": \"0\"") + "}\n";
            if (!payload.empty())
                s += "\t" + payload + "\n";
            return s;
        };
        const std::string info = "\"artifact\": {\"name\": \"triton_kernel_info\", "
                                 "\"encoding\": \"json\"}";
        const std::string text = rec("\"dynamo_start\": {\"stack\": []}") + rec(info, "{not json")
            + rec(info, "[1, 2]")
            + rec(info,
                "{\"triton_red_fused_sum_0\": {\"autotune_cache_state\": \"hit\", "
                "\"best_config\": [[\"XBLOCK\", 8], [\"num_warps\", 4]], "
                "\"compile_time_us\": \"soon\"}, \"triton_poi_x_1\": 7}");
        auto r = loadText("hand.log", text);
        QVERIFY(r.trace && r.trace->compiles.size() == 1);
        const CompileKernels ks = compileKernels(*r.trace, r.trace->compiles[0]);
        QCOMPARE(ks.diagnostics.size(), size_t(3));
        for (const Diagnostic& d : ks.diagnostics) {
            QCOMPARE(d.code, DiagnosticCode::BadPayload);
            QCOMPARE(d.file, std::string("hand.log"));
            QVERIFY(d.line > 1);
        }
        QVERIFY2(ks.diagnostics[0].message.find("not JSON") != std::string::npos,
            ks.diagnostics[0].message.c_str());
        QCOMPARE(ks.diagnostics[0].line, uint64_t(2));
        QVERIFY2(ks.diagnostics[2].message.find("triton_poi_x_1") != std::string::npos,
            ks.diagnostics[2].message.c_str());
        QCOMPARE(ks.kernels.size(), size_t(1));
        const Kernel& k = ks.kernels[0];
        QCOMPARE(k.kind, KernelKind::Reduction);
        QCOMPARE(k.autotuneState, std::string("hit"));
        QCOMPARE(k.config, std::string("XBLOCK=8, num_warps=4"));
        QVERIFY(!k.compileTimeUs); // a string is no time
        QVERIFY(k.opsFromName && k.fusedOps == std::vector<std::string> { "sum" });
    }
};

QTEST_GUILESS_MAIN(TestKernels)
#include "tst_kernels.moc"
