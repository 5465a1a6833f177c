// recompile-shape, recompile-guard, dynamic-still-recompiles, recompile-limit (findings.h).
#include "core/analysis/findings_rules.h"
#include "core/analysis/why_chain.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace dynascope::findings {

namespace {

// The recompiles of one frame that failed the same guard: one finding.
struct Group {
    uint32_t frame = kNone;
    Mismatch mismatch = Mismatch::None;
    std::string source; // the guard tree's form, "L['x']"
    std::optional<int64_t> dim;
    bool stillDynamic = false; // a symbolic guard of a compile that was already dynamic failed
    std::vector<uint32_t> recompiles; // compile order
    std::vector<std::string> values; // expected of the first, then each actual
    size_t actualsMissing = 0; // recompiles whose new value the trace does not give
    std::string symbol; // automatic dynamic took over with this symbol
    uint32_t symbolCompile = kNone;
    Rejection first; // the first recompile's rejection
};

// Whether `compile` had made a tensor dimension dynamic (a symbol for an input's size).
bool madeDynamic(const Compile& c)
{
    for (const auto& e : c.shapeEvents)
        if (e.kind == "create_symbol")
            return true;
    return false;
}

std::string valuesText(const std::vector<std::string>& values)
{
    // A long chain: its first and last values, the count between.
    std::string s;
    const size_t n = values.size();
    for (size_t i = 0; i < n; ++i) {
        if (n > 12 && i == 5) {
            s += " → … (" + std::to_string(n - 10) + " more)";
            i = n - 6;
            continue;
        }
        s += (i ? " → " : "") + values[i];
    }
    return s;
}

// "the size of `x` dimension 0", "the dtype of `x`", "`self.drop.training`", ...
// The left side of a value guard's reason, "factor == 2" -> "factor", "self.drop.training ==
// True" -> "self.drop.training": what the guard read, named as the reason names it, when no
// guard tree gives its source (TORCH_LOGS without `guards`).
std::string valueSubject(std::string_view reason)
{
    reason = reason.substr(0, reason.find('\n'));
    const size_t eq = reason.find(" == ");
    if (eq == std::string_view::npos)
        return {};
    std::string_view lhs = reason.substr(0, eq);
    if (const size_t colon = lhs.find(": "); colon != std::string_view::npos)
        lhs = lhs.substr(colon + 2); // "0/0: factor"
    const bool name = !lhs.empty() && std::all_of(lhs.begin(), lhs.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.';
    });
    return name ? std::string(lhs) : std::string();
}

std::string whatChanged(const Group& g)
{
    const std::string name = "`" + userName(g.source) + "`";
    const std::string dim = g.dim ? " dimension " + std::to_string(*g.dim) : "";
    switch (g.mismatch) {
    case Mismatch::Size:
        return "the size of " + name + dim;
    case Mismatch::Stride:
        return "the stride of " + name + dim;
    case Mismatch::Dtype:
        return "the dtype of " + name;
    case Mismatch::Device:
        return "the device of " + name;
    case Mismatch::RequiresGrad:
        return "requires_grad of " + name;
    case Mismatch::Rank:
        return "the number of dimensions of " + name;
    case Mismatch::MemoryFormat:
    case Mismatch::Layout:
        return "the memory layout of " + name;
    case Mismatch::DispatchKeys:
        return "the dispatch keys of " + name + " (a different tensor subclass or mode)";
    case Mismatch::Id:
        return "the object behind " + name;
    case Mismatch::Type:
        return "the type of " + name;
    case Mismatch::Shape:
        return "a shape guard on " + name;
    case Mismatch::Value:
        return g.source.starts_with("G[") ? "the global " + name : "the value of " + name;
    default:
        return "the guard on " + name;
    }
}

void hintFor(const Group& g, Finding& f)
{
    const std::string name = "`" + userName(g.source) + "`";
    switch (g.mismatch) {
    case Mismatch::Size:
    case Mismatch::Stride:
        f.code = fixFor(g.first).code;
        if (g.symbolCompile != kNone)
            f.hint = "Automatic dynamic shapes already took over ("
                + (g.symbol.empty() ? std::string("a symbolic size") : g.symbol)
                + "); marking the dimension dynamic before the first call saves the "
                  "recompile"
                + (f.code.empty() ? "" : ": " + f.code) + ".";
        else
            f.hint = "Mark the dimension dynamic before the first call"
                + (f.code.empty() ? std::string() : " (" + f.code + ")")
                + ", or compile with dynamic=True. Automatic dynamic shapes did not take over: "
                  "is torch.compile called with dynamic=False, or "
                  "torch._dynamo.config.automatic_dynamic_shapes off? Pad or bucket the sizes "
                  "when only a few occur.";
        if (f.code.empty())
            f.code = "torch.compile(fn, dynamic=True)";
        break;
    case Mismatch::Dtype:
    case Mismatch::Device:
        f.hint = "Each " + std::string(g.mismatch == Mismatch::Dtype ? "dtype" : "device")
            + " gets a compile of its own: expected for a few. If it keeps changing, convert "
            + name + " once before the call.";
        break;
    case Mismatch::RequiresGrad:
        f.hint = "Calls with and without autograd compile separately: call it under "
                 "torch.no_grad() (or with requires_grad set) consistently.";
        break;
    case Mismatch::Id:
        f.hint = "A new object each call: create " + name
            + " once outside the compiled function, or pass its tensors as arguments.";
        break;
    case Mismatch::Type:
        f.hint = "Call it with one type for " + name + ".";
        break;
    case Mismatch::Value:
        if (g.source.ends_with(".training"))
            f.hint = "model.train() and model.eval() compile once each: expected. If the mode "
                     "alternates every step, keep one compiled module per mode.";
        else if (g.source.starts_with("G["))
            f.hint = "The compiled code is specialised on the global " + name
                + "; changing it recompiles. Pass it as an argument (a tensor) instead.";
        else
            f.hint = "The compiled code is specialised on " + name
                + " (a Python constant); each new value compiles again. Pass it as a tensor "
                  "(whose value is not guarded), or keep it constant.";
        break;
    default:
        f.hint = "Find what changes between the calls in the failed guard below, and keep it "
                 "fixed or pass it as a tensor.";
        break;
    }
}

// requires_grad reasons say "expected requires_grad=0" only: the values as Python has them.
std::vector<std::string> readableValues(const Group& g)
{
    if (g.mismatch != Mismatch::RequiresGrad)
        return g.values;
    std::vector<std::string> out;
    for (const auto& v : g.values)
        out.push_back(v.ends_with("=0") || v == "0" ? "False"
                : v.ends_with("=1") || v == "1"     ? "True"
                                                    : v);
    if (out.size() == 1 && (out[0] == "False" || out[0] == "True"))
        out.push_back(out[0] == "False" ? "True" : "False");
    return out;
}

// The compiles whose frame Dynamo skipped after a graph break (a break in a loop): their code
// then runs in eager, and every function it calls is a frame Dynamo compiles on its own.
std::vector<uint32_t> skippedFrames(const Trace& t)
{
    std::vector<uint32_t> out;
    for (const Compile& c : t.compiles)
        if (std::any_of(c.graphBreaks.begin(), c.graphBreaks.end(),
                [](const GraphBreak& b) { return b.skipsFrame; }))
            out.push_back(c.index);
    return out;
}

// The skipped compile whose code calls this one, from the recompile's call stack (its frames
// below the compiled function): kNone when no caller was skipped.
uint32_t skippedCaller(const Trace& t, const Compile& c, const std::vector<uint32_t>& skipped)
{
    for (size_t i = c.stack.size() > 0 ? c.stack.size() - 1 : 0; i-- > 0;) {
        const StackFrame& s = c.stack[i];
        for (uint32_t k : skipped) {
            const Compile& caller = t.compiles[k];
            if (k != c.index && caller.frame != c.frame && s.name == caller.coName
                && s.file == caller.coFilename && s.line >= caller.coFirstLineno)
                return k;
        }
    }
    return kNone;
}

void groupFinding(Context& cx, const Group& g, const std::vector<uint32_t>& skipped)
{
    const Trace& t = cx.trace;
    const bool shape = isShapeChange(g.mismatch) || g.mismatch == Mismatch::Shape;
    const size_t n = g.recompiles.size();
    const Rule rule = g.stillDynamic ? Rule::DynamicStillRecompiles
        : shape                      ? Rule::RecompileShape
                                     : Rule::RecompileGuard;
    // One recompile that automatic dynamic then absorbed, or one per value of a flag, is what
    // PyTorch is meant to do: a note. More, or a size that never went dynamic: a warning.
    const bool expected = n == 1 && (shape ? g.symbolCompile != kNone : true);
    Finding& f = cx.add(rule, expected ? FindingSeverity::Note : FindingSeverity::Warning, g.frame);
    const std::string times = n == 1 ? "recompiled" : "recompiled " + std::to_string(n) + " times";
    std::string values = valuesText(readableValues(g));
    // Only the value the guard expected: the new one is not in what was logged. TORCH_LOGS text
    // often lacks it where the trace has it (the compile's own guards, its symbols).
    const bool onlyExpected
        = !values.empty() && g.actualsMissing == n && g.mismatch != Mismatch::RequiresGrad;
    if (onlyExpected) {
        const Compile& c = t.compiles[g.recompiles.front()];
        const bool text
            = c.file < t.files.size() && t.files[c.file].format == TraceFormat::TorchLogs;
        values += text ? " (the new value is not in the text; the trace has it)"
                       : " (the new value is not in the trace)";
    }
    // ": 32 → 64", or " from 2 (the new value is not in the text; ...)".
    const std::string changed = values.empty() ? std::string()
        : onlyExpected                         ? " from " + values
                                               : ": " + values;
    // A guard with no source the reason names ("___as_tensor(___stack0).item() <= 0.0"): the
    // guard itself is what changed.
    std::string failedGuard = g.first.guardExpr;
    if (failedGuard.empty()) {
        std::string_view line = firstLine(g.first.detail);
        line = line.substr(0, line.find("  # "));
        if (const size_t colon = line.find(": "); colon != std::string_view::npos
            && line.substr(0, colon).find('/') != std::string_view::npos)
            line.remove_prefix(colon + 2); // "1/1: " (the compile whose guard failed)
        while (!line.empty() && line.back() == ' ')
            line.remove_suffix(1);
        failedGuard = std::string(line);
    }
    if (g.source.empty() && !g.stillDynamic && g.mismatch != Mismatch::Value)
        cx.setTitle(f, cx.codeTitle(g.frame),
            " " + times + " because a guard failed: `" + failedGuard + "`");
    else if (g.stillDynamic)
        cx.setTitle(f, cx.codeTitle(g.frame),
            " still " + times + " after its shapes went dynamic: "
                + (g.first.guardExpr.empty() ? g.first.detail : g.first.guardExpr) + " failed");
    else if (shape && !values.empty())
        cx.setTitle(f, cx.codeTitle(g.frame),
            " compiled " + std::to_string(n + 1) + " times because " + whatChanged(g) + " changed"
                + changed);
    else
        cx.setTitle(f, cx.codeTitle(g.frame),
            " " + times + " because " + whatChanged(g) + " changed" + changed);
    f.compiles = g.recompiles;
    f.count = n;
    f.costUs = cx.durationOf(g.recompiles);
    f.evidence.emplace_back("recompiles", cx.compileList(g.recompiles));
    if (!values.empty())
        f.evidence.emplace_back("values", values);
    f.evidence.emplace_back("guarded source", g.source);
    if (!g.first.guardKind.empty())
        f.evidence.emplace_back("failed guard", g.first.guardKind + ": " + g.first.guardExpr);
    if (g.first.earlierCompile != kNone)
        f.evidence.emplace_back("guard made by",
            findingCompileLabel(t, g.first.earlierCompile)
                + (g.first.guardWhere.empty() ? "" : " at " + g.first.guardWhere));
    f.evidence.emplace_back("reason", std::string(firstLine(g.first.detail)));
    if (g.symbolCompile != kNone)
        f.evidence.emplace_back("automatic dynamic",
            "took over in " + findingCompileLabel(t, g.symbolCompile)
                + (g.symbol.empty() ? "" : " (symbol " + g.symbol + ")"));
    f.why = "The recompiles cost " + formatUs(f.costUs)
        + " of compile time, and every call first runs the guards of each cache entry.";
    if (g.first.userLine.known()) {
        f.userFile = g.first.userLine.file;
        f.userLine = g.first.userLine.line;
    } else if (g.first.guardMadeAt.known()) {
        f.userFile = g.first.guardMadeAt.file;
        f.userLine = g.first.guardMadeAt.line;
    }
    if (g.stillDynamic) {
        f.hint = "A guard on the dynamic size failed: the code specialises on it (a branch on "
                 "x.shape, a size-dependent op). Look at the guard's user line; torch._check() "
                 "can state what holds, or remove the branch.";
    } else {
        hintFor(g, f);
    }
    // The cause upstream: the frame compiles on its own only because Dynamo skipped its caller,
    // whose calls (the first with the input, the next with activations) differ in the guard.
    const uint32_t caller = skippedCaller(t, t.compiles[g.recompiles.front()], skipped);
    if (caller == kNone)
        return;
    const Compile& sc = t.compiles[caller];
    const GraphBreak* gb = nullptr;
    for (const GraphBreak& b : sc.graphBreaks)
        if (b.skipsFrame && !gb)
            gb = &b;
    const std::string breakAt = gb && !gb->file.empty()
        ? " at " + std::string(baseName(gb->file)) + ":" + std::to_string(gb->line)
        : std::string();
    f.evidence.emplace_back("caused by",
        "Dynamo skipped the caller " + findingCompileLabel(t, caller) + " " + cx.codeTitle(sc.frame)
            + " after a graph break" + breakAt
            + ", so this frame compiles on its own for each kind of call it gets");
    f.why += " It compiles apart at all because Dynamo skipped its caller " + cx.codeTitle(sc.frame)
        + ": that code runs in eager and calls it with different inputs.";
    f.hint = "Fix the graph break" + breakAt + " in the caller first: once the caller compiles, "
        + "this code is traced into its graph and this recompile goes away. Otherwise: " + f.hint;
    if (gb && !gb->file.empty()) {
        f.userFile = gb->file;
        f.userLine = gb->line;
    }
}

void limitFindings(Context& cx)
{
    for (const Compile& c : cx.trace.compiles) {
        if (!c.failure || !c.failure->recompileLimit)
            continue;
        const uint32_t frame = c.frame;
        std::vector<uint32_t> compiles = frame < cx.trace.frames.size()
            ? cx.trace.frames[frame].compiles
            : std::vector<uint32_t> { c.index };
        Finding& f = cx.add(Rule::RecompileLimit, FindingSeverity::Warning, frame);
        std::string limit;
        const std::string& reason = c.failure->reason;
        if (size_t p = reason.find("currently set to "); p != std::string::npos) {
            p += 17;
            size_t e = p;
            while (e < reason.size() && reason[e] >= '0' && reason[e] <= '9')
                ++e;
            limit = reason.substr(p, e - p);
        }
        cx.setTitle(f, cx.codeTitle(frame),
            " hit the recompile limit" + (limit.empty() ? "" : " (" + limit + ")")
                + ": later calls run in eager");
        f.compiles = compiles;
        f.count = compiles.size();
        f.costUs = cx.durationOf(compiles);
        f.evidence.emplace_back("compiles of the frame", cx.compileList(compiles));
        f.evidence.emplace_back("limit hit at", findingCompileLabel(cx.trace, c.index));
        f.evidence.emplace_back("reason", std::string(firstLine(reason)));
        f.why = "Dynamo gave up on the frame: it runs uncompiled from now on, after "
            + formatUs(f.costUs) + " spent compiling it.";
        f.hint = "Fix what makes it recompile (the recompile findings of this frame name the "
                 "guard). Raising torch._dynamo.config.recompile_limit only postpones it.";
        if (!c.failure->details.empty()) {
            f.explanation = c.failure->details[0].explanation;
            f.pytorchHints = c.failure->details[0].hints;
            f.gbCode = c.failure->details[0].gbCode;
        }
    }
}

} // namespace

void recompileRules(Context& cx)
{
    const Trace& t = cx.trace;
    std::vector<Group> groups;
    std::map<std::tuple<uint32_t, int, std::string, int64_t, bool>, size_t> byKey;
    for (const Compile& c : t.compiles) {
        if (cx.stop.stop_requested())
            return;
        if (c.startRecord == kNone || !c.isRecompile())
            continue;
        const RecompileReason* r = primaryReason(c);
        if (!r)
            continue;
        Rejection rej = describeRejection(t, c, *r);
        const bool shapeLike = isShapeChange(rej.mismatch) || rej.mismatch == Mismatch::Shape;
        const bool stillDynamic = shapeLike && rej.earlierCompile < t.compiles.size()
            && madeDynamic(t.compiles[rej.earlierCompile]);
        const auto key = std::make_tuple(c.frame, static_cast<int>(rej.mismatch), rej.source,
            rej.dim.value_or(-1), stillDynamic);
        auto [it, fresh] = byKey.try_emplace(key, groups.size());
        if (fresh) {
            Group& g = groups.emplace_back();
            g.frame = c.frame;
            g.mismatch = rej.mismatch;
            g.source = rej.source.empty() ? rej.loggedSource : rej.source;
            if (g.source.empty() && rej.mismatch == Mismatch::Value)
                g.source = valueSubject(rej.detail);
            g.dim = rej.dim;
            g.stillDynamic = stillDynamic;
            g.first = rej;
            if (!rej.expected.empty())
                g.values.push_back(rej.expected);
        }
        Group& g = groups[it->second];
        g.recompiles.push_back(c.index);
        if (!rej.actual.empty() && g.values.size() < 64)
            g.values.push_back(rej.actual);
        g.actualsMissing += rej.actual.empty();
        // Automatic dynamic took over in this recompile: it made a symbol (for this source,
        // when the reason's lookup found it; else the first the compile created).
        if (g.symbol.empty() && shapeLike && !stillDynamic) {
            if (!rej.symbol.empty()) {
                g.symbol = rej.symbol;
                g.symbolCompile = c.index;
            } else if (madeDynamic(c)) {
                for (const auto& e : c.shapeEvents)
                    if (e.kind == "create_symbol") {
                        g.symbol = e.expr;
                        break;
                    }
                g.symbolCompile = c.index;
            }
        }
    }
    const std::vector<uint32_t> skipped = skippedFrames(t);
    for (const Group& g : groups)
        groupFinding(cx, g, skipped);
    limitFindings(cx);
}

} // namespace dynascope::findings
