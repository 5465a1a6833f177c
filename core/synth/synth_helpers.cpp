// writeCompile(): the record sequence of one Dynamo compile as PyTorch 2.7/2.8 logs it (and the
// 2024 form for legacy fixtures): chromium B/E nesting, dynamo_start, describe_*, shape-env
// records, graphs, fx graph cache artifacts, the guard tree, compilation_metrics with PyTorch's
// field order and the dynamo E event. Values derive from the CompileSpec and the writer clock, so
// the output is deterministic.
#include "core/synth/synth_helpers.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace dynascope::synth {

namespace {

using OJson = nlohmann::ordered_json;

std::string py(const OJson& j, bool pretty = false)
{
    return TraceWriter::pythonJson(j.dump(), pretty);
}

int64_t numel(const TensorInput& t)
{
    int64_t n = 1;
    for (auto d : t.size)
        n *= d;
    return n;
}

OJson frameJsonList(TraceWriter& w, const std::vector<WriteFrame>& frames)
{
    return OJson::parse(w.stackJson(frames));
}

std::vector<WriteFrame> shapeEnvStack(const CompileSpec& spec)
{
    const std::string site = "/home/alice/.venv/lib/python3.11/site-packages/torch/";
    std::vector<WriteFrame> s = spec.stack;
    s.push_back(frame(site + "_dynamo/eval_frame.py", 655, "_fn", "return fn(*args, **kwargs)"));
    s.push_back(frame(site + "_dynamo/convert_frame.py", 1432, "__call__",
        "return self._torchdynamo_orig_callable("));
    s.push_back(frame(site + "_dynamo/symbolic_convert.py", 3285, "run", "super().run()"));
    s.push_back(frame(site + "fx/experimental/symbolic_shapes.py", 7178, "evaluate_expr",
        "return self._evaluate_expr("));
    return s;
}

OJson cacheComponents(const CompileSpec& spec)
{
    OJson comps = OJson::array();
    std::string seed = spec.coName + std::to_string(spec.frameKey);
    comps.push_back("[" + fakeKey(seed + "gm") + "] gm: <lambda>()\n\n\n\ndef forward(self, "
        + std::string(spec.inputs.empty() ? "" : "arg0_1")
        + "):\n    # To see more debug info, please use `graph_module.print_readable()`");
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
        const auto& t = spec.inputs[i];
        comps.push_back("[" + fakeKey(seed + "in" + std::to_string(i)) + "] example_inputs["
            + std::to_string(i) + "]: TensorMetadata(dtype=" + t.dtype + ", shape=torch.Size(["
            + joinSizes(t.size) + "]), stride=(" + joinSizes(t.stride)
            + (t.stride.size() == 1 ? "," : "")
            + "), device=device(type='cpu'), layout=torch.strided, memory_format=torch."
              "contiguous_format, storage_offset=0, storage_bytes=None, requires_grad="
            + (t.requiresGrad ? "True" : "False")
            + ", is_quantized=False, is_conj=False, is_neg=False, is_inference=False, "
              "is_sparse=False, is_coalesced=None, dense_dim=None, sparse_dim=None)");
    }
    const char* fixed[] = {
        "cache_key_tag: ",
        "fx_kwargs[boxed_forward_device_index]: BoxedDeviceIndex(value=None)",
        "fx_kwargs[cpp_wrapper]: False",
        "fx_kwargs[cudagraphs]: BoxedBool(value=False)",
        "fx_kwargs[extern_node_serializer]: None",
        "fx_kwargs[is_backward]: False",
        "fx_kwargs[is_inference]: True",
        "fx_kwargs[layout_opt]: None",
        "fx_kwargs[static_input_idxs]: []",
        "deterministic_algorithms_settings: (False, False, True)",
        "cuda_matmul_settings: (False, True, True)",
        "torch_version: <bytes>",
        "system_info[hash]: 5d3fd1c8a2b7e1046e9b33c1c7a4f0e2d4b9a6f1c3e8d7b2a0f9e6c5d4b3a2f1",
        "inductor_config[fx_graph_cache]: True",
        "inductor_config[max_autotune]: False",
        "inductor_config[cpp.simdlen]: None",
    };
    for (const char* f : fixed)
        comps.push_back("[" + fakeKey(std::string(f)) + "] " + f);
    return comps;
}

OJson metricsJson(const CompileSpec& spec, const std::string& compileId, int64_t startUs,
    int64_t endUs, int64_t backendUs, int64_t beforeRestartUs, int64_t guardCount, bool failed)
{
    const double s = 1e6;
    OJson m;
    const bool hasGraph = !failed;
    const bool inductor = spec.backendName == "inductor" && !failed;
    auto nullable = [&](bool present, const OJson& v) { return present ? v : OJson(nullptr); };
    if (!spec.legacy2024)
        m["compile_id"] = compileId;
    m["frame_key"] = std::to_string(spec.frameKey);
    m["co_name"] = spec.coName;
    m["co_filename"] = spec.coFilename;
    m["co_firstlineno"] = spec.coFirstLineno;
    m["cache_size"] = spec.cacheSize;
    m["accumulated_cache_size"] = spec.accumulatedCacheSize;
    m["guard_count"] = nullable(hasGraph, guardCount);
    m["shape_env_guard_count"] = nullable(hasGraph, int64_t(spec.shapeGuards.size()));
    m["graph_op_count"] = nullable(hasGraph, spec.graphOpCount);
    m["graph_node_count"] = nullable(hasGraph, spec.graphNodeCount);
    m["graph_input_count"] = nullable(hasGraph, spec.graphInputCount);
    m["start_time"] = double(startUs) / s;
    m["entire_frame_compile_time_s"] = nullable(!failed, double(endUs - startUs) / s);
    m["backend_compile_time_s"] = nullable(!failed, double(backendUs) / s);
    m["inductor_compile_time_s"]
        = nullable(inductor && !spec.cacheHit, double(backendUs * 7 / 10) / s);
    m["code_gen_time_s"] = nullable(inductor && !spec.cacheHit, double(backendUs * 3 / 10) / s);
    m["fail_type"] = nullable(!spec.failType.empty(), spec.failType);
    m["fail_reason"] = nullable(!spec.failReason.empty(), spec.failReason);
    m["fail_user_frame_filename"] = nullable(!spec.failUserFile.empty(), spec.failUserFile);
    m["fail_user_frame_lineno"] = nullable(!spec.failUserFile.empty(), spec.failUserLine);
    m["non_compliant_ops"] = OJson::array();
    m["compliant_custom_ops"] = OJson::array();
    m["restart_reasons"] = spec.restartReasons;
    m["dynamo_time_before_restart_s"] = double(beforeRestartUs) / s;
    if (spec.legacy2024)
        return m;
    m["has_guarded_code"] = !failed;
    m["remote_cache_time_saved_s"] = nullptr;
    m["structured_logging_overhead_s"] = 0.004117;
    m["config_suppress_errors"] = false;
    m["config_inline_inbuilt_nn_modules"] = true;
    m["specialize_float"] = false;
    m["dynamo_config"] = dynamoConfigJson(spec.automaticDynamicShapes);
    m["is_forward"] = true;
    m["num_triton_bundles"] = nullptr;
    m["remote_fx_graph_cache_get_time_ms"] = nullptr;
    m["remote_fx_graph_cache_put_time_ms"] = nullptr;
    m["start_time_us"] = startUs;
    m["duration_us"] = endUs - startUs;
    m["dynamo_cumulative_compile_time_us"] = endUs - startUs;
    m["aot_autograd_cumulative_compile_time_us"] = nullable(!spec.aotGraph.empty(), backendUs);
    m["inductor_cumulative_compile_time_us"]
        = nullable(inductor && !spec.cacheHit, backendUs * 7 / 10);
    m["inductor_code_gen_cumulative_compile_time_us"]
        = nullable(inductor && !spec.cacheHit, backendUs * 3 / 10);
    m["triton_compile_time_us"] = nullptr;
    m["runtime_cudagraphify_time_us"] = nullptr;
    m["runtime_triton_autotune_time_us"] = nullptr;
    m["dynamo_compile_time_before_restart_us"] = beforeRestartUs;
    m["distributed_ephemeral_timeout_us"] = nullptr;
    m["structured_logging_overhead_us"] = 4117;
    m["remote_fx_graph_cache_get_time_us"] = nullptr;
    m["remote_fx_graph_cache_put_time_us"] = nullptr;
    m["backward_cumulative_compile_time_us"] = nullptr;
    m["end_time_us"] = endUs;
    m["pre_grad_pass_time_us"] = nullable(inductor, 2841);
    m["post_grad_pass_time_us"] = nullable(inductor && !spec.cacheHit, 6120);
    m["joint_graph_pass_time_us"] = nullable(inductor && !spec.cacheHit, 4375);
    m["log_format_version"] = 3;
    m["inductor_config"] = spec.inductorConfig.empty() ? inductorConfigJson() : spec.inductorConfig;
    m["remote_cache_version"] = nullptr;
    m["inductor_fx_remote_cache_hit_count"] = nullptr;
    m["inductor_fx_remote_cache_miss_count"] = nullptr;
    m["inductor_fx_remote_cache_backend_type"] = nullptr;
    m["inductor_fx_remote_cache_hit_keys"] = nullptr;
    m["inductor_fx_remote_cache_miss_keys"] = nullptr;
    m["cuda_version"] = nullptr;
    m["triton_version"] = "3.3.1";
    m["feature_usage"] = OJson { { "dynamo.automatic_dynamic_shapes", spec.automaticDynamicShapes },
        { "aot_autograd_remote_cache", false }, { "fx_cache", true } };
    m["compile_time_autotune_time_us"] = nullptr;
    m["is_runtime"] = false;
    m["gc_time_us"] = 512;
    m["tensorify_float_attempt"] = nullptr;
    m["tensorify_float_success"] = nullptr;
    m["tensorify_float_failure"] = nullptr;
    m["guard_latency_us"] = nullable(!failed, int64_t(spec.guardLatencyUs));
    m["recompile_reason"] = nullable(!spec.recompileReasons.empty(),
        spec.recompileReasons.empty() ? "" : spec.recompileReasons.front());
    m["num_graph_breaks"] = spec.numGraphBreaks;
    m["triton_kernel_compile_times_us"] = nullptr;
    m["ir_count"] = nullable(hasGraph, spec.graphNodeCount * 2);
    m["cudagraph_skip_reason"] = nullptr;
    m["python_version"] = "3.11.9 (main, Apr 19 2024, 16:48:06) [GCC 11.2.0]";
    m["pgo_put_remote_code_state_time_us"] = nullptr;
    m["pgo_get_remote_code_state_time_us"] = nullptr;
    m["param_numel"] = nullptr;
    m["param_bytes"] = nullptr;
    m["param_count"] = nullptr;
    return m;
}

} // namespace

void writeCompile(TraceWriter& w, const CompileSpec& spec)
{
    const bool full = spec.detail == Detail::Full && !spec.legacy2024;
    const bool legacy = spec.legacy2024;
    const bool failed = !spec.failType.empty();
    const bool restarts = !spec.restartReasons.empty();
    CompileId id0 = spec.id;
    id0.attempt = 0;
    WriteContext ctx = WriteContext::forCompile(id0, spec.rank);
    // 2024 chromium events carry no compile id on the envelope.
    WriteContext chromeCtx = legacy ? WriteContext {} : ctx;
    if (legacy)
        chromeCtx.rank = spec.rank;
    const uint64_t seed = stableHash(spec.coName + TraceWriter::compileIdString(ctx));
    auto jitter = [&](int64_t base, int k) {
        return base + int64_t((seed >> (k % 48)) % uint64_t(base / 5 + 1));
    };
    auto ev = [&](std::string_view name, std::string_view ph, std::string_view args = "") {
        w.chromiumEvent(chromeCtx, name, ph, legacy ? std::string_view("null") : args);
    };
    const std::string efcArgs = "{\"fn_name\": \"_compile.compile_inner\"}";
    const std::string backendArgs = "{\"fn_name\": \"OutputGraph.call_user_compiler\"}";

    const int64_t startUs = w.clockUs();
    if (!legacy)
        ev("dynamo", "B");
    else
        ev("_compile.compile_inner", "B");
    w.advanceUs(jitter(90, 1));
    ev("entire_frame_compile", "B", legacy ? "" : efcArgs);
    w.advanceUs(jitter(300, 2));
    if (!spec.recompileReasons.empty()) {
        std::string payload;
        if (spec.recompileReasonsRawText && spec.recompileReasons.size() == 1)
            payload = spec.recompileReasons.front();
        else
            payload = py(OJson(spec.recompileReasons), true);
        w.artifact(ctx, "recompile_reasons", "json", payload);
        w.advanceUs(jitter(120, 3));
    }
    w.dynamoStart(ctx, spec.stack);
    if (!spec.compiledAutogradGraph.empty())
        w.write("compiled_autograd_graph", "{}", ctx, spec.compiledAutogradGraph,
            "torch/_dynamo/compiled_autograd.py:1011");
    w.advanceUs(jitter(450, 4));

    int64_t beforeRestartUs = 0;
    auto traceAttempt = [&](int64_t attempt, bool breakHere) {
        WriteContext a = ctx;
        a.attempt = attempt;
        WriteContext ca = legacy ? chromeCtx : a;
        std::string attemptName = "compile_attempt_" + std::to_string(attempt);
        if (!legacy)
            w.chromiumEvent(ca, attemptName, "B");
        w.advanceUs(jitter(3200, 5));
        if (!legacy)
            w.chromiumEvent(ca, "bytecode_tracing", "B");
        w.advanceUs(jitter(900, 6));
        const int64_t describer = (spec.frameKey - 1) * 2 + attempt;
        for (size_t i = 0; i < spec.inputs.size(); ++i) {
            const auto& t = spec.inputs[i];
            OJson st;
            st["id"] = int64_t(i);
            st["describer_id"] = describer;
            st["size"] = numel(t) * 4;
            w.write(
                "describe_storage", py(st), a, std::nullopt, "torch/_subclasses/meta_utils.py:272");
            OJson dt;
            dt["id"] = int64_t(i);
            dt["ndim"] = int64_t(t.size.size());
            dt["dtype"] = t.dtype;
            dt["device"] = "device(type='cpu')";
            dt["size"] = t.size;
            if (t.requiresGrad)
                dt["requires_grad"] = true;
            dt["is_leaf"] = true;
            if (t.parameter)
                dt["is_parameter"] = true;
            dt["stride"] = t.stride;
            dt["storage"] = int64_t(i);
            char addr[32];
            std::snprintf(addr, sizeof addr, "0x7f%010llx",
                static_cast<unsigned long long>((seed + i * 0x1f40) % 0xffffffffffull));
            dt["view_func"] = "_CustomViewFunc(func=<built-in method _view_func_unsafe of Tensor "
                              "object at "
                + std::string(addr) + ">)";
            dt["describer_id"] = describer;
            w.write(
                "describe_tensor", py(dt), a, std::nullopt, "torch/_subclasses/meta_utils.py:489");
            OJson ds;
            ds["describer_id"] = describer;
            ds["id"] = int64_t(i);
            ds["source"] = t.source;
            w.write(
                "describe_source", py(ds), a, std::nullopt, "torch/_subclasses/meta_utils.py:1899");
            w.advanceUs(jitter(160, 7));
        }
        if (!breakHere) {
            for (const auto& sym : spec.symbols) {
                OJson m;
                m["symbol"] = sym.symbol;
                m["val"] = std::to_string(sym.value);
                m["vr"] = "[2, int_oo]";
                m["source"] = sym.source;
                m["user_stack"] = frameJsonList(w, { sym.userFrame });
                m["stack"] = frameJsonList(w, shapeEnvStack(spec));
                w.write("create_symbol", py(m), a, std::nullopt,
                    "torch/fx/experimental/symbolic_shapes.py:4818");
                w.advanceUs(jitter(240, 8));
            }
        }
        w.advanceUs(breakHere ? spec.tracingUs / 2 : spec.tracingUs);
        if (!breakHere) {
            for (const auto& g : spec.shapeGuards) {
                OJson m;
                m["expr"] = g.expr;
                m["user_stack"] = frameJsonList(w, { g.userFrame });
                m["stack"] = frameJsonList(w, shapeEnvStack(spec));
                w.write("guard_added_fast", py(m), a, std::nullopt,
                    "torch/fx/experimental/symbolic_shapes.py:7290");
                w.advanceUs(jitter(700, 9));
            }
            for (const auto& sp : spec.specializations) {
                OJson m;
                m["symbol"] = sp.symbol;
                m["sources"] = sp.sources;
                m["value"] = sp.value;
                m["reason"] = sp.reason;
                m["stack"] = frameJsonList(w, shapeEnvStack(spec));
                m["user_stack"] = frameJsonList(w, { sp.userFrame });
                w.write("symbolic_shape_specialization", py(m), a, std::nullopt,
                    "torch/fx/experimental/symbolic_shapes.py:6832");
                w.advanceUs(jitter(500, 10));
            }
        }
        if (breakHere && !spec.graphBreakText.empty()) {
            w.artifact(a, "dynamo_graph_break_reason", "string", spec.graphBreakText);
            w.advanceUs(jitter(350, 11));
        }
        if (!legacy)
            w.chromiumEvent(ca, "bytecode_tracing", "E");
        if (breakHere) {
            w.advanceUs(jitter(200, 12));
            if (!legacy)
                w.chromiumEvent(ca, attemptName, "E");
            w.advanceUs(jitter(150, 13));
        }
        return a;
    };

    WriteContext a = ctx;
    if (restarts) {
        traceAttempt(0, true);
        beforeRestartUs = w.clockUs() - startUs;
        a = traceAttempt(1, false);
    } else {
        a = traceAttempt(0, false);
    }
    WriteContext ca = legacy ? chromeCtx : a;
    const std::string attemptName = "compile_attempt_" + std::to_string(a.attempt.value_or(0));
    auto evA = [&](std::string_view name, std::string_view ph, std::string_view args = "") {
        w.chromiumEvent(ca, name, ph, legacy ? std::string_view("null") : args);
    };

    w.advanceUs(jitter(600, 14));
    if (!spec.fxGraph.empty())
        w.write("dynamo_output_graph",
            "{\"sizes\": " + TraceWriter::pythonJson(spec.fxSizesJson) + "}", a, spec.fxGraph,
            "torch/_dynamo/output_graph.py:1685");
    w.advanceUs(jitter(300, 15));

    const int64_t backendStart = w.clockUs();
    evA(legacy ? "OutputGraph.call_user_compiler" : "backend_compile", "B",
        legacy ? "" : backendArgs);
    if (legacy)
        evA("backend_compile", "B");
    const bool inductor = spec.backendName == "inductor";
    if (inductor && !failed) {
        std::string key = spec.cacheKey.empty()
            ? fakeKey(spec.coName + TraceWriter::compileIdString(a))
            : spec.cacheKey;
        if (full) {
            evA("_recursive_pre_grad_passes", "B");
            w.advanceUs(jitter(2800, 16));
            evA("_recursive_pre_grad_passes", "E");
            w.advanceUs(jitter(400, 17));
            evA("create_aot_dispatcher_function", "B");
            w.advanceUs(spec.backendUs / 12);
        } else {
            w.advanceUs(spec.backendUs / 10);
        }
        if (!spec.aotGraph.empty()) {
            if (spec.aotBackwardGraph.empty()) {
                w.write("aot_inference_graph", "{}", a, spec.aotGraph,
                    "torch/_functorch/_aot_autograd/autograd_cache.py:773");
            } else {
                w.write("aot_joint_graph", "{}", a, spec.aotGraph + "\n" + spec.aotBackwardGraph,
                    "torch/_functorch/_aot_autograd/jit_compile_runtime_wrappers.py:571");
                w.write("aot_forward_graph", "{}", a, spec.aotGraph,
                    "torch/_functorch/_aot_autograd/jit_compile_runtime_wrappers.py:1171");
                w.write("aot_backward_graph", "{}", a, spec.aotBackwardGraph,
                    "torch/_functorch/_aot_autograd/jit_compile_runtime_wrappers.py:1186");
            }
        }
        w.advanceUs(jitter(500, 18));
        if (full) {
            evA("compile_fx_inner", "B");
            w.advanceUs(jitter(80, 19));
            evA("inductor_compile", "B", "{\"fn_name\": \"compile_fx_inner\"}");
            w.advanceUs(jitter(2200, 20));
            OJson comps = cacheComponents(spec);
            const int64_t eventTimeNs = w.clockUs() * 1000 + 417;
            std::string which = spec.cacheHit ? "fx_graph_cache_hit" : "fx_graph_cache_miss";
            OJson iargs;
            if (spec.cacheHit)
                iargs["cache_status_detailed"] = "hit";
            iargs["key"] = key;
            iargs["components"] = comps;
            iargs["cache_event_time"] = eventTimeNs;
            iargs["cache_state"] = spec.cacheHit ? "hit" : "miss";
            iargs["time_saved_ns"] = spec.cacheHit ? spec.backendUs * 1000 * 9 : 0;
            if (!spec.cacheHit)
                iargs.erase("time_saved_ns");
            evA(which, "i", iargs.dump());
            OJson art = iargs;
            art["compile_id"] = TraceWriter::compileIdString(a);
            w.artifact(a, which, "json", py(art));
            w.advanceUs(jitter(300, 21));
            if (!spec.cacheHit) {
                evA("fx_codegen_and_compile", "B");
                w.advanceUs(jitter(1500, 22));
                w.write("inductor_post_grad_graph", "{}", a,
                    spec.aotGraph.empty() ? spec.fxGraph : spec.aotGraph,
                    "torch/_inductor/compile_fx.py:1193");
                evA("GraphLowering.run", "B");
                w.advanceUs(spec.backendUs / 8);
                evA("GraphLowering.run", "E");
                w.advanceUs(jitter(600, 23));
                evA("GraphLowering.compile_to_module", "B");
                evA("code_gen", "B", "{\"fn_name\": \"GraphLowering.compile_to_module\"}");
                w.advanceUs(spec.backendUs / 4);
            }
            std::string kernel
                = "cpp_fused_" + std::string(spec.graphOpCount > 1 ? "add_mul_0" : "mul_0");
            std::string code
                = spec.outputCode.empty() ? inductorOutputCode(spec, kernel) : spec.outputCode;
            std::string file = spec.outputCodeFile.empty()
                ? "/tmp/torchinductor_alice/" + key.substr(0, 2) + "/c" + key + ".py"
                : spec.outputCodeFile;
            w.write("inductor_output_code", "{\"filename\": " + OJson(file).dump() + "}", a, code,
                "torch/_inductor/graph.py:2269");
            if (!spec.cacheHit) {
                w.advanceUs(jitter(700, 24));
                evA("async_compile.wait", "B");
                w.advanceUs(spec.backendUs / 3);
                evA("async_compile.wait", "E");
                w.advanceUs(jitter(200, 25));
                evA("code_gen", "E", "{\"fn_name\": \"GraphLowering.compile_to_module\"}");
                evA("GraphLowering.compile_to_module", "E");
                w.advanceUs(jitter(400, 26));
                evA("fx_codegen_and_compile", "E");
            }
            w.advanceUs(jitter(300, 27));
            OJson endArgs;
            endArgs["fn_name"] = "compile_fx_inner";
            endArgs["compile_id"] = TraceWriter::compileIdString(a);
            endArgs["is_backward"] = false;
            endArgs["cache_state"] = spec.cacheHit ? "hit" : "miss";
            endArgs["cache_event_time"] = eventTimeNs;
            endArgs["key"] = key;
            endArgs["cache_bypass_reason"] = nullptr;
            endArgs["remote_cache_enabled"] = false;
            endArgs["local_cache_enabled"] = true;
            evA("inductor_compile", "E", endArgs.dump());
            evA("compile_fx_inner", "E");
            w.advanceUs(jitter(900, 28));
            evA("create_aot_dispatcher_function", "E");
        } else {
            w.advanceUs(spec.backendUs * 8 / 10);
            if (!legacy && !spec.outputCode.empty())
                w.write("inductor_output_code",
                    "{\"filename\": \"/tmp/torchinductor_alice/" + key.substr(0, 2) + "/c" + key
                        + ".py\"}",
                    a, spec.outputCode, "torch/_inductor/graph.py:2269");
        }
    } else {
        w.advanceUs(spec.backendUs);
    }
    if (failed) {
        if (legacy)
            evA("backend_compile", "E");
        else
            evA("backend_compile", "E", backendArgs);
        if (legacy)
            evA("OutputGraph.call_user_compiler", "E");
        w.advanceUs(jitter(1200, 29));
        if (!spec.errorTraceback.empty())
            w.artifact(a, "dynamo_error", "string", spec.errorTraceback);
        w.advanceUs(jitter(300, 30));
        if (!legacy)
            evA(attemptName, "E");
    } else {
        OJson bargs;
        bargs["fn_name"] = "OutputGraph.call_user_compiler";
        bargs["compile_id"] = TraceWriter::compileIdString(a);
        if (inductor && full) {
            bargs["dispatch_mode"] = "inference";
            bargs["requires_subclass_dispatch"] = false;
        }
        if (legacy) {
            evA("backend_compile", "E");
            evA("OutputGraph.call_user_compiler", "E");
        } else {
            evA("backend_compile", "E", bargs.dump());
        }
        w.advanceUs(jitter(250, 31));
        if (!legacy)
            evA(attemptName, "E");
    }
    const int64_t backendUs = w.clockUs() - backendStart;

    int64_t guardCount = spec.guardCount;
    if (guardCount == 0)
        guardCount = 4 + int64_t(spec.inputs.size()) * 2 + int64_t(spec.shapeGuards.size())
            + int64_t(spec.extraRootGuards.size());
    if (!failed) {
        w.advanceUs(jitter(140, 32));
        if (!legacy)
            evA("build_guards", "B");
        w.advanceUs(spec.guardsUs);
        if (legacy) {
            OJson list = OJson::array();
            for (const auto& t : spec.inputs) {
                list.push_back(
                    { { "code", "hasattr(" + t.source + ", '_dynamo_dynamic_indices') == False" },
                        { "stack", nullptr }, { "user_stack", nullptr } });
            }
            list.push_back({ { "code", "utils_device.CURRENT_DEVICE == None" },
                { "stack", nullptr }, { "user_stack", nullptr } });
            list.push_back({ { "code", "___check_global_state()" }, { "stack", nullptr },
                { "user_stack", nullptr } });
            for (const auto& t : spec.inputs)
                list.push_back({ { "code", checkTensorText(t) }, { "stack", nullptr },
                    { "user_stack", nullptr } });
            std::string payload = "[\n";
            for (size_t i = 0; i < list.size(); ++i)
                payload += py(list[i]) + (i + 1 < list.size() ? ",\n" : "\n");
            payload += "]";
            w.write("dynamo_guards", "{}", a, payload, "torch/_dynamo/guards.py:2231");
        } else {
            w.write("dynamo_cpp_guards_str", "{}", a,
                spec.guardTree.empty() ? cppGuardTree(spec) : spec.guardTree,
                "torch/_dynamo/guards.py:3029");
            w.advanceUs(jitter(300, 33));
            evA("build_guards", "E");
        }
        if (full) {
            w.advanceUs(jitter(180, 34));
            evA("gc", "B");
            w.advanceUs(jitter(500, 35));
            evA("gc", "E");
        }
    }
    w.advanceUs(jitter(130, 36));
    evA("entire_frame_compile", "E", legacy ? "" : efcArgs);
    w.advanceUs(jitter(200, 37));
    const int64_t endUs = w.clockUs();

    OJson m = metricsJson(spec, TraceWriter::compileIdString(a), startUs, endUs, backendUs,
        beforeRestartUs, guardCount, failed);
    w.write("compilation_metrics", py(m), a, std::nullopt,
        legacy ? "torch/_dynamo/utils.py:685" : "torch/_dynamo/utils.py:1601");
    w.advanceUs(jitter(900, 38));
    if (legacy) {
        evA("_compile.compile_inner", "E");
        return;
    }
    OJson dargs;
    dargs["compile_id"] = TraceWriter::compileIdString(a);
    if (full || failed) {
        dargs["guard_latency_us"] = m["guard_latency_us"];
        static const char* copied[] = { "frame_key", "co_name", "co_filename", "co_firstlineno",
            "cache_size", "accumulated_cache_size", "guard_count", "shape_env_guard_count",
            "graph_op_count", "graph_node_count", "graph_input_count", "fail_type", "fail_reason",
            "fail_user_frame_filename", "fail_user_frame_lineno", "non_compliant_ops",
            "compliant_custom_ops", "restart_reasons", "dynamo_time_before_restart_s",
            "has_guarded_code", "dynamo_config" };
        for (const char* k : copied)
            dargs[k] = m[k];
    }
    evA("dynamo", "E", dargs.dump());
}

} // namespace dynascope::synth
