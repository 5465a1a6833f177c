// graph-break, graph-break-io, data-dependent, graph-break-skipped-frame, failure,
// fullgraph-error (findings.h).
#include "core/analysis/findings_rules.h"
#include "core/analysis/why_chain.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace dynascope::findings {

namespace {

bool contains(std::string_view s, std::string_view what)
{
    return s.find(what) != std::string_view::npos;
}

enum class BreakKind { Plain, Io, Item, Branch, Disabled };

BreakKind kindOf(const BreakWhy& b)
{
    const std::string text = b.type + "\n" + b.reason
        + (b.details.empty() ? std::string() : "\n" + b.details[0].explanation);
    if (contains(text, "builtin operator `print`") || contains(text, "reorderable_logging")
        || contains(text, "logging.Logger") || contains(text, "`print`"))
        return BreakKind::Io;
    if (contains(text, "Tensor.item()") || contains(text, "capture_scalar_outputs"))
        return BreakKind::Item;
    if (contains(text, "Data-dependent branching") || contains(text, "data-dependent")
        || contains(text, "generic_jump"))
        return BreakKind::Branch;
    if (contains(text, "torch.compiler.disable"))
        return BreakKind::Disabled;
    return BreakKind::Plain;
}

struct BreakGroup {
    BreakWhy first;
    uint32_t frame = kNone;
    BreakKind kind = BreakKind::Plain;
    bool skipsFrame = false;
    uint64_t count = 0;
    std::vector<uint32_t> compiles; // that broke here, distinct
    std::vector<uint32_t> resumes; // the resume frames' first compiles, distinct
    std::set<uint32_t> frames;
};

std::string where(const BreakWhy& b)
{
    if (!b.userLine.known())
        return {};
    return std::string(baseName(b.userLine.file)) + ":" + std::to_string(b.userLine.line);
}

// The print or logging call that broke the graph, as the user wrote it, and PyTorch's own fix
// for it: a logging.Logger method goes to ignore_logging_functions (Dynamo drops the call),
// print and other logging functions to reorderable_logging_functions (Dynamo runs it after the
// graph). The callee comes from the user's line (`logger.warning_once("...")` ->
// logger.warning_once), else from PyTorch's context ("method: <Logger x>.warning").
struct IoCall {
    std::string callee; // "print", "logger.warning_once", "" when neither says
    bool loggerMethod = false;
};

IoCall ioCallOf(const BreakWhy& b)
{
    IoCall io;
    const std::string context = b.details.empty() ? std::string() : b.details[0].developerContext;
    io.loggerMethod = contains(b.type, "logging.Logger") || contains(b.reason, "logging.Logger")
        || contains(context, "<Logger ");
    if (contains(b.reason, "builtin operator `print`")) {
        io.callee = "print";
        return io;
    }
    // The callee of the call on the user's line: the dotted name before its "(".
    std::string_view code = b.userLine.code;
    while (!code.empty() && (code.front() == ' ' || code.front() == '\t'))
        code.remove_prefix(1);
    if (const size_t paren = code.find('('); paren != std::string_view::npos && paren > 0) {
        size_t start = paren;
        while (start > 0
            && (std::isalnum(static_cast<unsigned char>(code[start - 1])) || code[start - 1] == '_'
                || code[start - 1] == '.'))
            --start;
        if (start < paren)
            io.callee = std::string(code.substr(start, paren - start));
    }
    if (io.callee.empty() && io.loggerMethod) {
        // "method: <Logger app (WARNING)>.warning, args: ..."
        if (const size_t dot = context.find(">."); dot != std::string::npos) {
            size_t end = dot + 2;
            while (end < context.size()
                && (std::isalnum(static_cast<unsigned char>(context[end])) || context[end] == '_'))
                ++end;
            io.callee = "logger." + context.substr(dot + 2, end - dot - 2);
        }
    }
    return io;
}

void breakFinding(Context& cx, const BreakGroup& g)
{
    const Trace& t = cx.trace;
    const BreakWhy& b = g.first;
    const std::string at = where(b);
    const std::string type = b.type.empty() ? std::string(firstLine(b.reason)) : b.type;
    const Rule rule = g.skipsFrame                                 ? Rule::GraphBreakSkippedFrame
        : g.kind == BreakKind::Io                                  ? Rule::GraphBreakIo
        : g.kind == BreakKind::Item || g.kind == BreakKind::Branch ? Rule::DataDependent
                                                                   : Rule::GraphBreak;
    Finding& f = cx.add(rule, FindingSeverity::Warning, g.frame);
    const std::string frame = cx.codeTitle(g.frame);
    // A break in library code says so, and where the user's code calls into the library.
    const std::string calledAt = b.calledFrom.known()
        ? std::string(baseName(b.calledFrom.file)) + ":" + std::to_string(b.calledFrom.line)
        : std::string();
    const std::string atLine = !b.library.empty()
        ? " in " + b.library + "'s code" + (at.empty() ? "" : " (" + at + ")")
            + (calledAt.empty() ? "" : ", called at " + calledAt)
        : at.empty() ? ""
                     : " at " + at;
    // The print or logging call of an I/O break: its title and its fix name it.
    const IoCall io = g.kind == BreakKind::Io ? ioCallOf(b) : IoCall {};
    if (g.skipsFrame)
        cx.setTitle(f, "Dynamo skipped " + frame,
            " after a graph break" + atLine + ": the whole function runs in eager (" + type + ")");
    else if (g.kind == BreakKind::Io) {
        cx.setTitle(f,
            (io.callee.empty() ? std::string("`print` or logging") : "`" + io.callee + "`") + " in "
                + frame,
            atLine + (b.library.empty() ? "" : ",") + " breaks the graph");
    } else if (g.kind == BreakKind::Item)
        cx.setTitle(f, "`.item()` in " + frame,
            atLine + (b.library.empty() ? "" : ",")
                + " breaks the graph (a tensor's value read in Python)");
    else if (g.kind == BreakKind::Branch)
        cx.setTitle(f, "Branching on a tensor's value in " + frame,
            atLine + (b.library.empty() ? "" : ",") + " breaks the graph");
    else
        cx.setTitle(f, "Graph break in " + frame, atLine + ": " + type);
    if (g.count > 1)
        f.title += " (" + std::to_string(g.count) + " times)";
    f.compiles = g.compiles;
    f.compiles.insert(f.compiles.end(), g.resumes.begin(), g.resumes.end());
    f.count = g.count;
    f.costUs = cx.durationOf(f.compiles);
    // The place to change is the user's: their call into the library, when the break is in one.
    const SourceLine& own = b.calledFrom.known() ? b.calledFrom : b.userLine;
    f.userFile = own.file;
    f.userLine = own.line;
    f.evidence.emplace_back("break", type);
    if (!b.library.empty()) {
        f.evidence.emplace_back("library", b.library);
        if (!at.empty())
            f.evidence.emplace_back("library line",
                at
                    + (b.userLine.code.empty() ? ""
                                               : ": " + std::string(firstLine(b.userLine.code))));
        if (!calledAt.empty())
            f.evidence.emplace_back("user line",
                calledAt + (own.code.empty() ? "" : ": " + std::string(firstLine(own.code))));
    } else if (!at.empty())
        f.evidence.emplace_back("user line",
            at + (b.userLine.code.empty() ? "" : ": " + std::string(firstLine(b.userLine.code))));
    f.evidence.emplace_back("compiles that broke", cx.compileList(g.compiles));
    if (!g.resumes.empty())
        f.evidence.emplace_back("resumes in", cx.compileList(g.resumes));
    if (g.frames.size() > 1)
        f.evidence.emplace_back("frames", std::to_string(g.frames.size()));
    const size_t frameCompiles
        = g.frame < t.frames.size() ? t.frames[g.frame].compiles.size() : size_t(0);
    if (frameCompiles >= 3)
        f.evidence.emplace_back("the frame compiled",
            std::to_string(frameCompiles) + " times: the break is paid in each compile");
    if (!b.operation.empty())
        f.evidence.emplace_back("Dynamo was tracing", b.operation);
    if (!b.details.empty()) {
        f.gbCode = b.details[0].gbCode;
        f.explanation = b.details[0].explanation;
        f.pytorchHints = b.details[0].hints;
    }
    f.why = g.skipsFrame
        ? "Nothing of the function is compiled: it runs at eager speed on every call."
        : "Each break ends a graph: the code around it runs in separate graphs with Python in "
          "between, fewer fusions, and the resume functions compile on their own ("
            + formatUs(f.costUs) + " of compile time here).";
    switch (g.kind) {
    case BreakKind::Io: {
        const std::string callee = io.callee.empty() ? std::string("print") : io.callee;
        if (io.loggerMethod) {
            f.hint = "Move the " + callee
                + " call out of the compiled function, or let Dynamo drop it while tracing "
                  "(PyTorch's hint for logging.Logger methods; the call then does not run in "
                  "the compiled code):";
            f.code = "torch._dynamo.config.ignore_logging_functions.add(" + callee + ")";
        } else {
            f.hint = "Move the " + callee
                + " call out of the compiled function, or let Dynamo run it after the graph:";
            f.code = "torch._dynamo.config.reorderable_logging_functions.add(" + callee + ")";
        }
        break;
    }
    case BreakKind::Item:
        f.hint = "Let Dynamo capture the scalar in the graph, or keep the value a tensor "
                 "(torch.where instead of a Python if):";
        f.code = "torch._dynamo.config.capture_scalar_outputs = True";
        break;
    case BreakKind::Branch:
        f.hint = "Express the branch in the graph: torch.cond for two code paths, or make it "
                 "branchless with torch.where / torch.clamp.";
        f.code = "torch.cond(pred, true_fn, false_fn, (x,))";
        break;
    case BreakKind::Disabled:
        f.hint = "The call is to a function wrapped in torch.compiler.disable: the break is by "
                 "design. Move the call out of the hot path if the break costs too much.";
        break;
    case BreakKind::Plain:
        f.hint = "Rewrite the line so Dynamo can trace it, or keep the callee out of the graph "
                 "with torch.compiler.disable. To list every break at once, compile with "
                 "fullgraph=True: each break becomes an error at its line.";
        f.code = "torch.compile(fn, fullgraph=True)";
        break;
    }
    if (g.skipsFrame)
        f.hint = "Fix the break (" + type
            + ") so Dynamo can resume after it; a break inside a loop often makes Dynamo skip "
              "the frame: move the code that breaks out of the loop. "
            + f.hint;
    if (!b.library.empty())
        f.hint = "The break is inside " + b.library + ", not in your code: change your call into it"
            + (calledAt.empty() ? std::string() : " at " + calledAt)
            + " (an argument that avoids the path that breaks, or the call moved out of the "
              "compiled function), or wrap the call in torch.compiler.disable to keep the "
              "library out of the graph in one clean break. What breaks it: "
            + f.hint;
}

void failureFinding(Context& cx, const Compile& c)
{
    const FailureWhy w = describeFailure(*c.failure);
    const bool fullgraph = !w.details.empty() && w.type == "Unsupported";
    Finding& f
        = cx.add(fullgraph ? Rule::FullgraphError : Rule::Failure, FindingSeverity::Error, c.frame);
    const std::string at = w.userFrame.known()
        ? std::string(baseName(w.userFrame.file)) + ":" + std::to_string(w.userFrame.line)
        : std::string();
    // The reason's first line, and the next one when the first only introduces it
    // ("backend='my_backend' raised:" then "RuntimeError: ...").
    std::string reason = std::string(firstLine(w.reason));
    if (reason.ends_with(":") && reason.size() < w.reason.size()) {
        std::string_view rest = std::string_view(w.reason).substr(reason.size() + 1);
        while (!rest.empty() && firstLine(rest).find_first_not_of(" \t") == std::string_view::npos)
            rest = rest.substr(std::min(rest.size(), firstLine(rest).size() + 1));
        if (!rest.empty())
            reason += " " + std::string(firstLine(rest));
    }
    if (fullgraph) {
        cx.setTitle(f, cx.codeTitle(c.frame),
            " cannot compile as one graph (fullgraph=True): "
                + (w.details[0].title.empty() ? reason : w.details[0].title)
                + (at.empty() ? "" : " at " + at));
        f.hint = "Remove or rewrite the break at that line; or drop fullgraph=True to let Dynamo "
                 "split the graph there (the program then runs, with a graph break).";
    } else {
        cx.setTitle(f, cx.codeTitle(c.frame),
            " failed to compile"
                + (w.layer.empty()
                        ? ""
                        : " in " + std::string(w.layer == "backend" ? "the backend" : w.layer))
                + ": " + w.type + (reason.empty() ? "" : ": " + reason));
        if (w.layer == "backend") {
            f.hint = "The backend raised. Compile with backend=\"aot_eager\": if that runs, Dynamo "
                     "and AOTAutograd are fine and the fault is the backend's.";
            f.code = "torch.compile(fn, backend=\"aot_eager\")";
        } else if (w.layer == "inductor") {
            f.hint = "Inductor failed. Compile with backend=\"aot_eager\": if that runs, the fault "
                     "is Inductor's; TORCHDYNAMO_REPRO_AFTER=\"aot\" makes a minimal repro.";
            f.code = "torch.compile(fn, backend=\"aot_eager\")";
        } else if (w.layer == "aot_autograd") {
            f.hint = "AOTAutograd failed. Compile with backend=\"eager\": if that runs, the fault "
                     "is in AOTAutograd; TORCHDYNAMO_REPRO_AFTER=\"dynamo\" makes a repro.";
            f.code = "torch.compile(fn, backend=\"eager\")";
        } else {
            f.hint = "Dynamo failed while tracing the function (backend=\"eager\" fails the same "
                     "way): look at the user line, and compile a smaller region around it.";
        }
    }
    f.compiles = { c.index };
    f.count = 1;
    f.costUs = c.durationUs();
    f.userFile = w.userFrame.file;
    f.userLine = w.userFrame.line;
    f.evidence.emplace_back("compile", findingCompileLabel(cx.trace, c.index));
    f.evidence.emplace_back("exception", w.type);
    if (!w.layer.empty())
        f.evidence.emplace_back("layer", w.layer);
    if (!at.empty())
        f.evidence.emplace_back("user line", at);
    if (!reason.empty())
        f.evidence.emplace_back("reason", reason);
    f.why = "The compile raised " + w.type
        + ": the call did not run compiled (the error reached the program, or with "
          "torch._dynamo.config.suppress_errors the frame ran in eager).";
    if (!w.details.empty()) {
        f.gbCode = w.details[0].gbCode;
        f.explanation = w.details[0].explanation;
        f.pytorchHints = w.details[0].hints;
    }
}

} // namespace

void breakRules(Context& cx)
{
    const Trace& t = cx.trace;
    std::vector<BreakGroup> groups;
    std::map<std::tuple<uint32_t, std::string, std::string, int64_t>, size_t> byKey;
    std::set<uint32_t> skippedFrames; // frames a break made Dynamo skip, said once
    for (const Compile& c : t.compiles) {
        if (cx.stop.stop_requested())
            return;
        for (size_t i = 0; i < c.graphBreaks.size(); ++i) {
            const BreakWhy b = describeBreak(c.graphBreaks[i], i);
            const bool skips = b.skipsFrame || (c.failure && c.failure->frameSkipped);
            const auto key = std::make_tuple(c.frame,
                b.type.empty() ? std::string(firstLine(b.reason)) : b.type, b.userLine.file,
                b.userLine.line);
            auto [it, fresh] = byKey.try_emplace(key, groups.size());
            if (fresh) {
                BreakGroup& g = groups.emplace_back();
                g.first = b;
                g.frame = c.frame;
                g.kind = kindOf(b);
            }
            BreakGroup& g = groups[it->second];
            g.skipsFrame = g.skipsFrame || skips;
            ++g.count;
            if (g.compiles.empty() || g.compiles.back() != c.index)
                g.compiles.push_back(c.index);
            if (b.resumeCompile != kNone
                && std::find(g.resumes.begin(), g.resumes.end(), b.resumeCompile) == g.resumes.end()
                && g.resumes.size() < 1024)
                g.resumes.push_back(b.resumeCompile);
            g.frames.insert(c.frame);
            if (skips)
                skippedFrames.insert(c.frame);
        }
    }
    for (const BreakGroup& g : groups)
        breakFinding(cx, g);
    for (const Compile& c : t.compiles) {
        if (!c.failure || c.failure->recompileLimit)
            continue;
        if (c.failure->frameSkipped) {
            if (skippedFrames.insert(c.frame).second) { // a skip with no break logged
                Finding& f
                    = cx.add(Rule::GraphBreakSkippedFrame, FindingSeverity::Warning, c.frame);
                cx.setTitle(f, "Dynamo skipped " + cx.codeTitle(c.frame),
                    ": the whole function runs in eager ("
                        + std::string(firstLine(c.failure->reason)) + ")");
                f.compiles = { c.index };
                f.count = 1;
                f.costUs = c.durationUs();
                f.evidence.emplace_back("compile", findingCompileLabel(t, c.index));
                f.why = "Nothing of the function is compiled: it runs at eager speed.";
                f.hint = "Fix the graph break that made Dynamo give up (see the reason).";
            }
            continue;
        }
        failureFinding(cx, c);
    }
}

} // namespace dynascope::findings
