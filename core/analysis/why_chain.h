// The why-chain of one compile: why it happened and what went wrong, worked out once from the
// trace into plain facts that each caller renders in its own words: the Why tab
// (ui/inspector/whyview), the bug-report Markdown (core/report/bug_report), the compile report
// (core/report/report_builder), and the analyses that compare or judge compiles.
//
//  - a recompile: the rejection by the newest earlier cache entry (the guard of that compile that
//    failed, what it checked, the guarded source, expected and actual values, where the guard was
//    made and the user line behind it), the older entries' rejections, the values the guarded
//    source took along the frame up to this compile (2 -> 3 -> ... -> 16) and the fix that
//    applies (torch._dynamo.mark_dynamic(x, 0) for a size);
//  - a graph break: the reason, PyTorch's break type, GB code, explanation and hints, the user
//    line and traceback, the frame the code after the break resumes in;
//  - a failure: the exception type, reason, the compiler layer that failed, the user frame and
//    the traceback;
//  - a resume frame: the graph break it resumes after;
//  - the call site.
//
// Facts only: kinds, sources, values, guard kinds, layers, user file:line, GB codes. No sentence
// is made here (the renderers word them), so a rule or a comparison of two traces can use them.
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

// A line of user code.
struct SourceLine {
    std::string file; // as logged (the full path when the trace has it)
    int64_t line = 0;
    std::string function; // "" when not logged
    std::string code; // the line's source text when the trace carries it
    bool known() const { return !file.empty(); }
};

// What the failed guard of a recompile checked, as the reason says (RecompileReason::mismatch).
enum class Mismatch : uint8_t {
    None, // no reason logged
    Size,
    Stride,
    Dtype,
    Device,
    RequiresGrad,
    Rank,
    DispatchKeys,
    MemoryFormat,
    Layout,
    Id, // ___check_obj_id: a different object
    Type, // ___check_type_id
    Shape, // a symbolic shape guard (Eq(...), size())
    Value, // `source == value`: a constant, a global, a module attribute
    Guard, // any other guard
};
// The names of the summary JSON's `mismatch` ("size", "requires_grad", "memory format", ...;
// "" for None): mismatchFromName(toString(m)) == m.
const char* toString(Mismatch m);
Mismatch mismatchFromName(std::string_view name);
// A size or a stride changed: the mismatch dynamic shapes can take away.
inline bool isShapeChange(Mismatch m)
{
    return m == Mismatch::Size || m == Mismatch::Stride;
}

// One earlier cache entry's rejection of the call: the guard of that compile that failed.
struct Rejection {
    size_t reason = 0; // index into Compile::recompileReasons
    uint32_t earlierCompile = kNone; // Trace::compiles index; kNone when no compile is named
    std::string earlierKey; // "0/13" as the reason names it, "" when it names none
    std::string text; // the reason as logged
    std::string detail; // the reason without its "<id>: " prefix
    Mismatch mismatch = Mismatch::None;
    std::string loggedSource; // the guarded source as the reason names it: "x", "G['THRESHOLD']"
    std::string guardSource; // as the earlier compile's guard tree names it, "L['x']" ("": none)
    // The one name of the source: the guard tree's when it agrees with the reason's, else the
    // reason's in the tree's form ("x" -> "L['x']").
    std::string source;
    std::optional<int64_t> dim; // the dimension of a size or stride mismatch ("at index 0")
    std::string expected; // the value the earlier compile was made for, when logged
    // The value of the call: from the reason; else, for a `source == value` guard, from this
    // compile's own guard on the same source or the symbol it made for it.
    std::string actual;
    bool actualInferred = false; // `actual` was read from this compile, not from the reason
    // The symbol this compile made for the source (automatic dynamic took over: "s48"), "".
    std::string symbol;
    // The failed guard in the earlier compile's guard tree (guardNode < 0: not found).
    int guardNode = -1;
    std::string guardKind; // "TENSOR_MATCH", "EQUALS_MATCH", ...
    std::string guardExpr;
    std::string guardWhere; // where Dynamo made it, as logged ("file.py:12 in fn")
    SourceLine guardMadeAt; // guardWhere read as a file and line (unknown when it is not one)
    std::string guardUserStack; // dynamo_guards JSON: the user stack text
    SourceLine userLine; // the user code behind the guard (the reason's user stack, PyTorch 2.11+)

    bool guardFound() const { return guardNode >= 0; }
};

// What to change so a frame stops recompiling, when the failed guard says.
enum class FixKind : uint8_t {
    None,
    MarkDynamic, // a size or stride changes: mark the dimension dynamic (or dynamic=True)
    StableObject, // an object the function reads is a new object on each call
    OneCompilePerValue, // dtype, device or requires_grad: each value gets its own compile
};
struct Fix {
    FixKind kind = FixKind::None;
    // The code to write when the trace names it: "torch._dynamo.mark_dynamic(x, 0)" for a local
    // tensor `x` whose dimension 0 changed; "" otherwise.
    std::string code;
};

struct RecompileWhy {
    // Against the newest earlier cache entry (PyTorch logs one reason per entry, newest first;
    // the link says which entry each is about). Absent when no reason was logged.
    std::optional<Rejection> primary;
    std::vector<Rejection> others; // the older entries' rejections, in logged order
    size_t earlierCompiles = 0; // compiles of the frame before this one
    // compilation_metrics.recompile_reason, for a recompile that logged no recompile_reasons.
    std::string metricReason;
    // The values the primary rejection's source took along the frame up to this compile, in
    // compile order (the first compile's value, then each recompile's), from the compiles whose
    // primary rejection is of the same kind, source and dimension; and those compiles.
    std::vector<std::string> values;
    std::vector<uint32_t> valueCompiles;
    Fix fix;
};

struct BreakWhy {
    size_t index = 0; // into Compile::graphBreaks
    std::string reason; // as logged (without PyTorch's "Encountered graph break ..." preamble)
    std::string operation; // what Dynamo was tracing, "CALL: a function call, e.g. f(x, y)"
    // PyTorch's structured text (2.6+): [0] the break, [1..] chained breaks; empty otherwise.
    std::vector<GraphBreakDetail> details;
    std::string type; // details[0]'s break type, its first line ("" when unstructured)
    std::string gbCode; // "gb0124" ("" when not logged)
    bool skipsFrame = false; // Dynamo skipped the whole frame (it runs in eager)
    bool cannotResume = false; // the rest of the function runs in eager
    SourceLine userLine; // where in user code (function and code from the traceback)
    // A break in library code (userLine's file is an installed package's, libraryOf()): the
    // library's name, and the user's own line that called into it: the innermost frame of the
    // traceback outside libraries (unknown when the traceback has none).
    std::string library;
    SourceLine calledFrom;
    Stack userFrames; // the user code traceback, innermost last
    std::string traceback; // the traceback text as logged, without its "User code traceback:"
    uint32_t record = kNone; // the dynamo_graph_break_reason record (kNone: restart_reasons)
    uint32_t resumeFrame = kNone; // Trace::frames index of the frame after the break
    uint32_t resumeCompile = kNone; // that frame's first compile
};

struct FailureWhy {
    std::string type; // the bare exception class ("BackendCompilerFailed"), else as logged
    std::string reason;
    std::string layer; // "dynamo", "aot_autograd", "backend", "inductor", "" when nothing says
    SourceLine userFrame; // the user frame it failed in
    std::string traceback; // the dynamo_error text
    std::vector<GraphBreakDetail> details; // structured graph-break text of the reason
    bool frameSkipped = false; // Dynamo gave up on the frame and ran it in eager
    bool recompileLimit = false; // the frame's cache is full: later calls run in eager
    uint32_t record = kNone;
};

// The graph break a resume frame (torch_dynamo_resume_in_*) resumes after.
struct ResumeOrigin {
    uint32_t compile = kNone; // the compile that broke
    size_t breakIndex = SIZE_MAX; // into that compile's graphBreaks (SIZE_MAX: not found)
    SourceLine breakLine; // where it broke
    std::string reason; // the break's reason, as logged
};

struct RestartWhy {
    uint32_t attempt = 0; // the attempt that restarted (the next one traced again)
    std::string reason; // as logged
    std::string kind; // the restart's class ("TensorifyScalarRestartAnalysis"); empty: a break
    std::string meaning; // why PyTorch restarts for it, in words (empty when unknown)
};

struct WhyChain {
    uint32_t compile = kNone; // kNone: no such compile
    std::optional<ResumeOrigin> resumesAfter; // this frame is the code after a graph break
    // A recompile (frame_compile_id > 0), or a compile that logged recompile reasons.
    std::optional<RecompileWhy> recompile;
    std::vector<BreakWhy> graphBreaks;
    // Restarts of the analysis, in order: each that is no graph break (a float made a constant,
    // a failed speculation, ...), and a graph break's when the compile logged no break artifact.
    std::vector<RestartWhy> restarts;
    std::optional<double> restartCostS; // dynamo_time_before_restart_s, when over 0
    std::optional<FailureWhy> failure;
    std::vector<SourceLine> callers; // the call stack that led here, the direct caller first
    std::vector<uint32_t> frameCompiles; // every compile of the frame, this one included
};

// The library a source file belongs to, from its path: the package under site-packages or
// dist-packages ("torch", "transformers"), "the standard library" for Python's own modules;
// empty for the user's code (any other path, a bare file name, "<string>").
std::string libraryOf(std::string_view path);

// The why-chain of compile `index` (a Trace::compiles index; an empty chain when out of range).
// Costs one pass over the compile's frame; parses the guard trees it looks into.
WhyChain explainCompile(const Trace& trace, uint32_t index);

// The reason against the newest earlier cache entry; the first reason when none names a
// compile of the trace; null when none was logged.
const RecompileReason* primaryReason(const Compile& compile);

// One reason of `compile` with its failed guard looked up in the earlier compile's tree.
Rejection describeRejection(const Trace& trace, const Compile& compile, const RecompileReason& r);

// The fix a rejection calls for (mark_dynamic code for a local tensor's dimension).
Fix fixFor(const Rejection& r);

// One graph break (the compile's graphBreaks[index]) and one failure, as in a WhyChain.
BreakWhy describeBreak(const GraphBreak& gb, size_t index);
FailureWhy describeFailure(const Failure& failure);

// The guarded source the way guard trees write it: "x" -> "L['x']"; other sources unchanged.
std::string treeFormSource(std::string_view source);

// "file.py:12 in fn" (a guard's `where`) as a source line; unknown when it is not one.
SourceLine parseWhere(std::string_view where);

} // namespace dynascope
