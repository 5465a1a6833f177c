// Fixed text pieces of the synthetic traces: stack frames, stable hashes and cache-key-like
// strings, the dynamo_config / inductor_config JSON strings of compilation_metrics, Python
// tracebacks through Dynamo, and Inductor's generated CPU module (inductor_output_code).
#include "core/synth/synth_helpers.h"

#include <nlohmann/json.hpp>

namespace dynascope::synth {

namespace {

using OJson = nlohmann::ordered_json;

} // namespace

WriteFrame frame(
    const std::string& file, int64_t line, const std::string& name, const std::string& loc)
{
    return WriteFrame { line, name, file, loc };
}

uint64_t stableHash(std::string_view s)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string joinSizes(const std::vector<int64_t>& v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s;
}

std::string fakeKey(std::string_view seed, size_t len)
{
    static const char* alphabet = "abcdefghijklmnopqrstuvwxyz234567";
    uint64_t h = stableHash(seed);
    std::string out;
    while (out.size() < len) {
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 32;
        out += alphabet[h % 32];
    }
    return out;
}

std::string dynamoConfigJson(bool automaticDynamicShapes, bool legacy2024)
{
    OJson c;
    if (legacy2024) {
        c["verify_correctness"] = false;
        c["minimum_call_count"] = 1;
        c["dead_code_elimination"] = true;
        c["cache_size_limit"] = 8;
        c["accumulated_cache_size_limit"] = 256;
        c["specialize_int"] = false;
        c["dynamic_shapes"] = true;
        c["assume_static_by_default"] = true;
        c["automatic_dynamic_shapes"] = automaticDynamicShapes;
        c["force_parameter_static_shapes"] = true;
        c["guard_nn_modules"] = false;
        c["suppress_errors"] = false;
        c["capture_scalar_outputs"] = false;
        c["optimize_ddp"] = true;
        c["inline_inbuilt_nn_modules"] = false;
        return c.dump();
    }
    c["_autograd_backward_strict_mode_conditional_banned_ops"]
        = { "stride", "storage_offset", "is_contiguous" };
    c["_unsafe_skip_fsdp_module_guards"] = false;
    c["accumulated_recompile_limit"] = 256;
    c["allow_complex_guards_as_runtime_asserts"] = false;
    c["allow_empty_graphs"] = false;
    c["allow_ignore_mark_dynamic"] = false;
    c["allow_rnn"] = false;
    c["allow_unspec_int_on_fsdp_module"] = false;
    c["allow_unspec_int_on_nn_module"] = false;
    c["allowed_functions_module_string_ignorelist"] = { "torch._decomp", "torch._prims",
        "torch._refs", "torch.distributions", "torch.testing" };
    c["assume_static_by_default"] = true;
    c["automatic_dynamic_local_pgo"] = true;
    c["automatic_dynamic_remote_pgo"] = nullptr;
    c["automatic_dynamic_shapes"] = automaticDynamicShapes;
    c["automatic_dynamic_shapes_mark_as"] = "dynamic";
    c["capture_autograd_function"] = true;
    c["capture_dynamic_output_shape_ops"] = false;
    c["capture_func_transforms"] = true;
    c["capture_scalar_outputs"] = false;
    c["capture_sparse_compute"] = true;
    c["compiled_autograd"] = false;
    c["compiled_autograd_kwargs_override"] = OJson::object();
    c["cprofile"] = false;
    c["cudagraph_backend_keep_input_mutation"] = false;
    c["cudagraph_backend_support_input_mutation"] = false;
    c["dead_code_elimination"] = true;
    c["disable"] = false;
    c["do_not_emit_runtime_asserts"] = false;
    c["dont_skip_tracing"] = false;
    c["dynamic_shapes"] = true;
    c["enable_compiler_collectives"] = false;
    c["enable_cpp_framelocals_guard_eval"] = true;
    c["enable_cpp_guard_manager"] = true;
    c["enable_cpp_symbolic_shape_guards"] = true;
    c["enable_faithful_generator_behavior"] = true;
    c["enable_trace_contextlib"] = true;
    c["enable_trace_unittest"] = false;
    c["error_on_nested_fx_trace"] = true;
    c["error_on_nested_jit_trace"] = true;
    c["error_on_recompile"] = false;
    c["fail_on_recompile_limit_hit"] = false;
    c["fake_tensor_cache_crosscheck_enabled"] = false;
    c["fake_tensor_cache_enabled"] = true;
    c["fake_tensor_disable_inference_mode"] = true;
    c["force_nn_module_property_static_shapes"] = true;
    c["force_parameter_static_shapes"] = true;
    c["force_unspec_int_unbacked_size_like_on_torchrec_kjt"] = false;
    c["graph_deduplication_lint"] = false;
    c["guard_nn_modules"] = true;
    c["guard_nn_modules_using_dict_tags"] = true;
    c["inline_inbuilt_nn_modules"] = true;
    c["install_free_tensors"] = false;
    c["issue_3_13_0_warning"] = true;
    c["minimum_call_count"] = 1;
    c["numpy_default_complex"] = "complex128";
    c["numpy_default_float"] = "float64";
    c["numpy_default_int"] = "int64";
    c["only_allow_pt2_compliant_ops"] = false;
    c["optimize_ddp"] = true;
    c["optimize_ddp_lazy_compile"] = false;
    c["prefer_deferred_runtime_asserts_over_guards"] = false;
    c["prepare_freezing"] = false;
    c["raise_on_ctx_manager_usage"] = true;
    c["raise_on_unsafe_aot_autograd"] = false;
    c["recompile_limit"] = 8;
    c["record_compile_time_instruction_count"] = false;
    c["record_runtime_overhead"] = true;
    c["replay_record_enabled"] = false;
    c["report_guard_failures"] = true;
    c["rewrite_assert_with_torch_assert"] = true;
    c["run_gc_after_compile"] = true;
    c["skip_code_recursive_on_recompile_limit_hit"] = true;
    c["skip_fsdp_guards"] = true;
    c["skip_fsdp_hooks"] = true;
    c["skip_nnmodule_hook_guards"] = true;
    c["skip_no_tensor_aliasing_guards_on_parameters"] = true;
    c["skip_tensor_guards_with_matching_dict_tags"] = true;
    c["skip_torchrec"] = true;
    c["skipfiles_inline_module_allowlist"] = OJson::object();
    c["specialize_float"] = false;
    c["specialize_int"] = false;
    c["suppress_errors"] = false;
    c["trace_numpy"] = true;
    c["track_nodes_for_deduplication"] = false;
    c["use_graph_deduplication"] = false;
    c["use_lazy_graph_module"] = true;
    c["use_numpy_random_stream"] = false;
    c["verify_correctness"] = false;
    c["wrap_top_frame"] = false;
    return TraceWriter::pythonJson(c.dump());
}

std::string inductorConfigJson()
{
    OJson c;
    c["TYPE_CHECKING"] = false;
    c["autotune_local_cache"] = true;
    c["autotune_remote_cache"] = nullptr;
    c["bundled_autotune_remote_cache"] = nullptr;
    c["force_disable_caches"] = false;
    c["fx_graph_cache"] = true;
    c["fx_graph_remote_cache"] = nullptr;
    c["autotune_in_subproc"] = false;
    c["max_autotune"] = false;
    c["max_autotune_pointwise"] = false;
    c["max_autotune_gemm"] = false;
    c["max_autotune_gemm_backends"] = "ATEN,TRITON,CPP";
    c["coordinate_descent_tuning"] = false;
    c["freezing"] = false;
    c["cpp_wrapper"] = false;
    c["compile_threads"] = 2;
    c["worker_start_method"] = "subprocess";
    c["triton.cudagraphs"] = false;
    c["triton.unique_kernel_names"] = true;
    c["cpp.threads"] = -1;
    c["cpp.simdlen"] = nullptr;
    c["cpp.vec_isa_ok"] = nullptr;
    c["size_asserts"] = true;
    c["nan_asserts"] = false;
    c["benchmark_kernel"] = false;
    c["epilogue_fusion"] = true;
    c["pattern_matcher"] = true;
    c["split_reductions"] = true;
    c["comprehensive_padding"] = true;
    c["debug"] = false;
    return TraceWriter::pythonJson(c.dump());
}

std::string pythonTracebackFrames()
{
    const std::string t = "/home/alice/.venv/lib/python3.11/site-packages/torch/";
    return "Traceback (most recent call last):\n"
           "  File \""
        + t
        + "_dynamo/convert_frame.py\", line 1215, in _compile\n"
          "    guarded_code = compile_inner(code, one_graph, hooks, transform)\n"
          "                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
          "  File \""
        + t
        + "_utils_internal.py\", line 97, in wrapper_function\n"
          "    return function(*args, **kwargs)\n"
          "           ^^^^^^^^^^^^^^^^^^^^^^^^^\n"
          "  File \""
        + t
        + "_dynamo/convert_frame.py\", line 994, in _compile_inner\n"
          "    out_code = transform_code_object(code, transform)\n"
          "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
          "  File \""
        + t
        + "_dynamo/bytecode_transformation.py\", line 1517, in transform_code_object\n"
          "    transformations(instructions, code_options)\n"
          "  File \""
        + t
        + "_dynamo/convert_frame.py\", line 778, in transform\n"
          "    tracer.run()\n"
          "  File \""
        + t
        + "_dynamo/symbolic_convert.py\", line 3285, in run\n"
          "    super().run()\n"
          "  File \""
        + t
        + "_dynamo/symbolic_convert.py\", line 1232, in run\n"
          "    while self.step():\n"
          "          ^^^^^^^^^^^\n";
}

std::string inductorOutputCode(const CompileSpec& spec, const std::string& kernel)
{
    std::string args;
    for (size_t i = 0; i < spec.inputs.size(); ++i)
        args += (i ? ", " : "") + std::string("arg") + std::to_string(i) + "_1";
    std::string s;
    s += "# AOT ID: ['" + std::to_string(spec.frameKey - 1) + "_inference']\n";
    s += "from ctypes import c_void_p, c_long, c_int\nimport torch\nimport math\nimport random\n"
         "import os\nimport tempfile\nfrom math import inf, nan\nfrom cmath import nanj\n"
         "from torch._inductor.hooks import run_intermediate_hooks\n"
         "from torch._inductor.utils import maybe_profile\n"
         "from torch._inductor.codegen.memory_planning import _align as align\n"
         "from torch import device, empty_strided\n"
         "from torch._inductor.async_compile import AsyncCompile\n"
         "from torch._inductor.select_algorithm import extern_kernels\n\n"
         "aten = torch.ops.aten\ninductor_ops = torch.ops.inductor\n"
         "_quantized = torch.ops._quantized\nassert_size_stride = "
         "torch._C._dynamo.guards.assert_size_stride\nempty_strided_cpu = "
         "torch._C._dynamo.guards._empty_strided_cpu\nreinterpret_tensor = "
         "torch._C._dynamo.guards._reinterpret_tensor\nalloc_from_pool = "
         "torch.ops.inductor._alloc_from_pool\nasync_compile = AsyncCompile()\n"
         "empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p\n\n\n";
    s += kernel
        + " = async_compile.cpp_pybinding(['const float*', 'float*'], '''\n"
          "#include <torch/csrc/inductor/cpp_prefix.h>\n"
          "extern \"C\"  void kernel(const float* in_ptr0,\n"
          "                       float* out_ptr0)\n{\n"
          "    {\n"
          "        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4096L); "
          "x0+=static_cast<int64_t>(16L))\n"
          "        {\n"
          "            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + "
          "static_cast<int64_t>(x0), static_cast<int64_t>(16));\n"
          "            auto tmp1 = static_cast<float>(0.5);\n"
          "            auto tmp2 = at::vec::Vectorized<float>(tmp1);\n"
          "            auto tmp3 = tmp0 * tmp2;\n"
          "            tmp3.store(out_ptr0 + static_cast<int64_t>(x0));\n"
          "        }\n    }\n}\n''')\n\n\n";
    s += "async_compile.wait(globals())\ndel async_compile\n\n"
         "class Runner:\n    def __init__(self, partitions):\n        self.partitions = "
         "partitions\n\n    def recursively_apply_fns(self, fns):\n        new_callables = []\n"
         "        for fn, c in zip(fns, self.partitions):\n"
         "            new_callables.append(fn(c))\n        self.partitions = new_callables\n\n"
         "    def call(self, args):\n";
    s += "        " + args + ", = args\n        args.clear()\n";
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
        const auto& t = spec.inputs[i];
        bool dyn = false;
        for (bool b : t.dynamicDims)
            dyn = dyn || b;
        if (!dyn)
            s += "        assert_size_stride(arg" + std::to_string(i) + "_1, (" + joinSizes(t.size)
                + (t.size.size() == 1 ? "," : "") + "), (" + joinSizes(t.stride)
                + (t.stride.size() == 1 ? "," : "") + "))\n";
    }
    s += "        buf0 = empty_strided_cpu(("
        + joinSizes(spec.inputs.empty() ? std::vector<int64_t> { 1 } : spec.inputs.back().size)
        + (spec.inputs.empty() || spec.inputs.back().size.size() == 1 ? "," : "") + "), ("
        + joinSizes(spec.inputs.empty() ? std::vector<int64_t> { 1 } : spec.inputs.back().stride)
        + (spec.inputs.empty() || spec.inputs.back().stride.size() == 1 ? "," : "")
        + "), torch.float32)\n";
    s += "        " + kernel
        + "(arg0_1, buf0)\n        del arg0_1\n        return (buf0, )\n\n"
          "runner = Runner(partitions=[])\ncall = runner.call\n"
          "recursively_apply_fns = runner.recursively_apply_fns\n\n\n"
          "def benchmark_compiled_module(times=10, repeat=10):\n"
          "    from torch._dynamo.testing import rand_strided\n"
          "    from torch._inductor.utils import print_performance\n";
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
        const auto& t = spec.inputs[i];
        s += "    arg" + std::to_string(i) + "_1 = rand_strided((" + joinSizes(t.size)
            + (t.size.size() == 1 ? "," : "") + "), (" + joinSizes(t.stride)
            + (t.stride.size() == 1 ? "," : "") + "), device='cpu', dtype=torch.float32)\n";
    }
    s += "    fn = lambda: call([" + args
        + "])\n"
          "    return print_performance(fn, times=times, repeat=repeat)\n\n\n"
          "if __name__ == \"__main__\":\n"
          "    from torch._inductor.wrapper_benchmark import compiled_module_main\n"
          "    compiled_module_main('None', benchmark_compiled_module)\n";
    return s;
}

} // namespace dynascope::synth
