// writeRankFolder(): a distributed job's TORCH_TRACE folder with planted divergence between
// ranks (rank_folder.h). Compiles are written here rather than with synth_helpers' writeCompile:
// a thousand ranks need a compile of a few KB (a compact compilation_metrics, no graphs, no
// guard tree), with the same chromium nesting PyTorch logs.
#include "core/synth/rank_folder.h"

#include "core/synth/synth_helpers.h"
#include "core/writer/trace_writer.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dynascope::synth {

namespace {

using OJson = nlohmann::ordered_json;

struct Spec {
    CompileId id;
    std::string coName, coFilename;
    int64_t firstLine = 0;
    std::vector<WriteFrame> stack;
    int64_t backendUs = 0;
    int64_t tracingUs = 0;
    int64_t graphOps = 4;
    std::string breakText; // dynamo_graph_break_reason: attempt 0 breaks, attempt 1 compiles
    std::string breakReason; // its restart reason
    std::string recompileReason;
    bool fails = false;
    bool cacheHit = true;
};

const std::string kSite = "/home/alice/.venv/lib/python3.11/site-packages/torch/";

std::string breakText(const std::string& type, const std::string& explanation, int64_t line,
    const std::string& fn, const std::string& code)
{
    return "Graph break in user code at " + kTrainPy + ":" + std::to_string(line)
        + "\nGraph Break Reason: " + type + "\n  Explanation: " + explanation
        + "\n\nUser code traceback:\n  File \"" + kTrainPy + "\", line 48, in main\n"
        + "    loss = step(model, x)\n  File \"" + kTrainPy + "\", line " + std::to_string(line)
        + ", in " + fn + "\n    " + code + "\n";
}

void writeCompact(TraceWriter& w, const Spec& s, std::optional<int64_t> rank)
{
    WriteContext ctx = WriteContext::forCompile(s.id, rank);
    const std::string id = TraceWriter::compileIdString(ctx);
    const std::string efc = "{\"fn_name\": \"_compile.compile_inner\"}";
    const int64_t start = w.clockUs();
    w.chromiumEvent(ctx, "dynamo", "B");
    w.advanceUs(85);
    w.chromiumEvent(ctx, "entire_frame_compile", "B", efc);
    w.advanceUs(310);
    if (!s.recompileReason.empty()) {
        w.artifact(ctx, "recompile_reasons", "json",
            TraceWriter::pythonJson(OJson::array({ s.recompileReason }).dump(), true));
        w.advanceUs(120);
    }
    w.dynamoStart(ctx, s.stack);
    w.advanceUs(450);
    WriteContext a = ctx;
    int64_t beforeRestart = 0;
    if (!s.breakText.empty()) {
        w.chromiumEvent(a, "bytecode_tracing", "B");
        w.advanceUs(s.tracingUs / 2);
        w.artifact(a, "dynamo_graph_break_reason", "string", s.breakText);
        w.advanceUs(340);
        w.chromiumEvent(a, "bytecode_tracing", "E");
        beforeRestart = w.clockUs() - start;
        a.attempt = 1;
    }
    w.chromiumEvent(a, "bytecode_tracing", "B");
    w.advanceUs(s.tracingUs);
    w.chromiumEvent(a, "bytecode_tracing", "E");
    w.advanceUs(600);
    const int64_t backendStart = w.clockUs();
    const std::string bargs = "{\"fn_name\": \"OutputGraph.call_user_compiler\"}";
    w.chromiumEvent(a, "backend_compile", "B", bargs);
    if (s.fails) {
        w.advanceUs(s.backendUs / 4);
    } else {
        w.advanceUs(s.backendUs / 10);
        w.chromiumEvent(a, "inductor_compile", "B", "{\"fn_name\": \"compile_fx_inner\"}");
        w.advanceUs(2200);
        const std::string key = fakeKey(s.coName + std::to_string(s.firstLine));
        OJson cache { { "key", key }, { "cache_state", s.cacheHit ? "hit" : "miss" },
            { "compile_id", TraceWriter::compileIdString(a) } };
        w.artifact(a, s.cacheHit ? "fx_graph_cache_hit" : "fx_graph_cache_miss", "json",
            TraceWriter::pythonJson(cache.dump()));
        w.advanceUs(s.backendUs * 8 / 10);
        w.chromiumEvent(a, "inductor_compile", "E", "{\"fn_name\": \"compile_fx_inner\"}");
        w.advanceUs(s.backendUs / 10);
    }
    w.chromiumEvent(a, "backend_compile", "E", bargs);
    const int64_t backendUs = w.clockUs() - backendStart;
    if (!s.fails) {
        w.advanceUs(140);
        w.chromiumEvent(a, "build_guards", "B");
        w.advanceUs(3400);
        w.chromiumEvent(a, "build_guards", "E");
    }
    w.advanceUs(130);
    w.chromiumEvent(a, "entire_frame_compile", "E", efc);
    w.advanceUs(200);
    const int64_t end = w.clockUs();
    auto nullable = [](bool present, const OJson& v) { return present ? v : OJson(nullptr); };
    OJson m;
    m["compile_id"] = TraceWriter::compileIdString(a);
    m["co_name"] = s.coName;
    m["co_filename"] = s.coFilename;
    m["co_firstlineno"] = s.firstLine;
    m["cache_size"] = s.id.frameCompile.value_or(0);
    m["guard_count"] = nullable(!s.fails, 9);
    m["graph_op_count"] = nullable(!s.fails, s.graphOps);
    m["graph_node_count"] = nullable(!s.fails, s.graphOps + 3);
    m["start_time"] = double(start) / 1e6;
    m["entire_frame_compile_time_s"] = nullable(!s.fails, double(end - start) / 1e6);
    m["backend_compile_time_s"] = nullable(!s.fails, double(backendUs) / 1e6);
    m["fail_type"] = nullable(s.fails, "BackendCompilerFailed");
    m["fail_reason"] = nullable(s.fails,
        "backend='inductor' raised:\nRuntimeError: out of memory while autotuning on this "
        "device");
    m["fail_user_frame_filename"] = nullable(s.fails, s.coFilename);
    m["fail_user_frame_lineno"] = nullable(s.fails, s.firstLine + 1);
    m["restart_reasons"] = s.breakReason.empty() ? OJson::array() : OJson::array({ s.breakReason });
    m["dynamo_time_before_restart_s"] = double(beforeRestart) / 1e6;
    m["has_guarded_code"] = !s.fails;
    m["start_time_us"] = start;
    m["duration_us"] = end - start;
    m["end_time_us"] = end;
    m["recompile_reason"] = nullable(!s.recompileReason.empty(), s.recompileReason);
    m["num_graph_breaks"] = s.breakText.empty() ? 0 : 1;
    w.write("compilation_metrics", TraceWriter::pythonJson(m.dump()), a, std::nullopt,
        "torch/_dynamo/utils.py:1601");
    w.advanceUs(900);
    w.chromiumEvent(a, "dynamo", "E");
}

// A rank's spread: up to 2% either way, the same for a rank and a frame every time.
int64_t jittered(int64_t us, int64_t rank, int64_t salt)
{
    const uint64_t h = stableHash(std::to_string(rank) + "/" + std::to_string(salt));
    return us + us * (int64_t(h % 41) - 20) / 1000;
}

Spec spec(int64_t frameId, int64_t fcid, const std::string& fn, const std::string& file,
    int64_t line, const std::string& callLoc)
{
    Spec s;
    s.id = { std::nullopt, frameId, fcid, 0 };
    s.coName = fn;
    s.coFilename = file;
    s.firstLine = line;
    s.stack = { frame(kTrainPy, 52, "<module>", "main()"), frame(kTrainPy, 48, "main", callLoc),
        frame(file, line, fn) };
    return s;
}

} // namespace

std::vector<PlantedDivergence> plantedDivergence(const RankFolderOptions& o)
{
    std::vector<PlantedDivergence> out;
    auto in = [&](const std::optional<int64_t>& r) { return r && *r >= 0 && *r < o.ranks; };
    if (in(o.extraRecompileRank))
        out.push_back({ "rank-recompiles", *o.extraRecompileRank, "forward", "model.py", 12 });
    if (in(o.graphBreakRank) && o.graphBreakRank != o.failureRank
        && o.graphBreakRank != o.missingFrameRank)
        out.push_back({ "rank-graph-breaks", *o.graphBreakRank, "helper", "train.py", 30 });
    if (in(o.failureRank) && o.failureRank != o.missingFrameRank)
        out.push_back({ "rank-failures", *o.failureRank, "helper", "train.py", 30 });
    if (in(o.missingFrameRank))
        out.push_back({ "rank-only-compiles", *o.missingFrameRank, "helper", "train.py", 30 });
    if (in(o.cacheMissRank))
        out.push_back({ "rank-cache", *o.cacheMissRank, "forward", "model.py", 12 });
    if (in(o.stragglerRank))
        out.push_back({ "straggler", *o.stragglerRank, "", "", 0 });
    return out;
}

void writeRankTrace(std::ostream& out, int64_t rank, const RankFolderOptions& o)
{
    TraceWriter w(out, kDefaultPid + rank, kDefaultStartUs + rank * 1370);
    const double slow = o.stragglerRank == rank ? o.stragglerFactor : 1.0;
    auto time = [&](int64_t us, int64_t salt) {
        return int64_t(double(jittered(us, rank, salt)) * slow);
    };
    auto run = [&](Spec s, int64_t backendUs, int64_t tracingUs, int64_t salt) {
        s.backendUs = time(backendUs, salt);
        s.tracingUs = time(tracingUs, salt + 100);
        writeCompact(w, s, rank);
        w.advanceUs(jittered(35000, rank, salt + 200)); // running until the next compile
    };
    Spec forward = spec(0, 0, "forward", kModelPy, 12, "loss = model(x)");
    forward.graphOps = 24;
    forward.cacheHit = o.cacheMissRank != rank;
    run(forward, 520000, 21000, 1);
    Spec step = spec(1, 0, "step", kTrainPy, 16, "loss = step(model, x)");
    step.graphOps = 6;
    step.breakText = breakText("Data-dependent branching",
        "Detected data-dependent branching (e.g. `if my_tensor:`). Dynamo does not support "
        "tracing dynamic control flow.",
        19, "step", "if loss.sum() > 0:");
    step.breakReason = "Data-dependent branching";
    run(step, 240000, 9000, 2);
    Spec resume
        = spec(2, 0, "torch_dynamo_resume_in_step_at_19", kTrainPy, 19, "loss = step(model, x)");
    resume.stack.insert(resume.stack.end() - 1, frame(kTrainPy, 19, "step", "if loss.sum() > 0:"));
    resume.graphOps = 5;
    run(resume, 130000, 6000, 3);
    if (o.missingFrameRank != rank) {
        Spec helper = spec(3, 0, "helper", kTrainPy, 30, "helper(loss)");
        const bool breaks = o.graphBreakRank == rank && o.failureRank != rank;
        helper.fails = o.failureRank == rank;
        if (breaks) {
            helper.breakText = breakText("Attempted to call function marked as skipped",
                "Dynamo does not know how to trace the builtin `print`.", 32, "helper",
                "print(f\"rank {rank}: {loss.item()}\")");
            helper.breakReason = "Attempted to call function marked as skipped";
        }
        run(helper, 90000, 5000, 4);
        if (breaks) {
            Spec r
                = spec(4, 0, "torch_dynamo_resume_in_helper_at_32", kTrainPy, 32, "helper(loss)");
            r.stack.insert(r.stack.end() - 1, frame(kTrainPy, 32, "helper", "print(...)"));
            r.graphOps = 2;
            run(r, 12000, 1500, 5);
        }
    }
    if (o.extraRecompileRank == rank) {
        Spec again = forward;
        again.id.frameCompile = 1;
        again.recompileReason = "0/0: tensor 'x' size mismatch at index 0. expected 32, actual 16";
        run(again, 15000, 3000, 6);
    }
}

RankFolder writeRankFolder(const std::string& dir, const RankFolderOptions& o)
{
    RankFolder folder;
    folder.planted = plantedDivergence(o);
    for (int64_t r = 0; r < o.ranks; ++r) {
        std::ostringstream text;
        writeRankTrace(text, r, o);
        const std::string path
            = dir + "/dedicated_log_torch_trace_rank_" + std::to_string(r) + ".log";
        std::ofstream out(path, std::ios::binary);
        const std::string bytes = text.str();
        out.write(bytes.data(), std::streamsize(bytes.size()));
        if (!out)
            throw std::runtime_error("cannot write " + path);
        folder.files.push_back(path);
        folder.bytes += bytes.size();
    }
    return folder;
}

} // namespace dynascope::synth
