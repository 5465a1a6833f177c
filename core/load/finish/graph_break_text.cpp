#include "core/load/finish/graph_break_text.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace dynascope {

namespace {
std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (
        !s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

int64_t toInt(std::string_view s)
{
    int64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}
} // namespace

Stack parsePythonTraceback(std::string_view text, StringPool& pool)
{
    Stack frames;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        std::string_view line
            = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        std::string_view t = trim(line);
        if (!t.starts_with("File \"")) {
            // The source line printed under a frame.
            if (!frames.empty() && frames.back().loc.empty() && !t.empty()
                && t.find_first_not_of("^~ ") != std::string_view::npos
                && !t.starts_with("Traceback"))
                frames.back().loc = pool.intern(t);
            continue;
        }
        size_t q = t.find('"', 6);
        if (q == std::string_view::npos)
            continue;
        StackFrame f;
        f.file = pool.intern(t.substr(6, q - 6));
        size_t ln = t.find(", line ", q);
        if (ln != std::string_view::npos) {
            size_t start = ln + 7;
            size_t end = start;
            while (end < t.size() && t[end] >= '0' && t[end] <= '9')
                ++end;
            f.line = toInt(t.substr(start, end - start));
            size_t in = t.find(", in ", end);
            if (in != std::string_view::npos)
                f.name = pool.intern(t.substr(in + 5));
        }
        frames.push_back(std::move(f));
    }
    return frames;
}

namespace {
constexpr std::string_view kChain
    = "*** While handling this graph break, another graph break occurred: ***";
constexpr std::string_view kTracePreamble = "Encountered graph break when attempting to trace ";
constexpr std::string_view kSkipPreamble
    = "Failed to handle graph break gracefully. Skipping the function and falling back to eager.";
constexpr std::string_view kNoResumePreamble
    = "Encountered graph break that we cannot resume from.";
constexpr std::string_view kAttribution = "Stack variable source attribution:";

std::string_view firstLineOf(std::string_view s)
{
    return s.substr(0, s.find('\n'));
}

// Drops trailing blank or whitespace-only lines and trailing spaces.
std::string trimmedBlock(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    return s;
}

GraphBreakDetail parseSection(std::string_view section, bool& structured)
{
    GraphBreakDetail d;
    enum { Title, Explanation, Hint, Context, None } field = Title;
    size_t pos = 0;
    while (pos <= section.size()) {
        size_t nl = section.find('\n', pos);
        std::string_view line
            = section.substr(pos, nl == std::string_view::npos ? section.npos : nl - pos);
        pos = nl == std::string_view::npos ? section.size() + 1 : nl + 1;
        std::string_view t = trim(line);
        auto starts = [&](std::string_view key) {
            if (!t.starts_with(key))
                return false;
            t = trim(t.substr(key.size()));
            structured = true;
            return true;
        };
        if (starts("Explanation:")) {
            d.explanation = std::string(t);
            field = Explanation;
        } else if (starts("Hint:")) {
            d.hints.emplace_back(t);
            field = Hint;
        } else if (starts("Developer debug context:")) {
            d.developerContext = std::string(t);
            field = Context;
        } else if (starts("For more details about this graph break, please visit:")) {
            d.link = std::string(t);
            // ".../gb/gb0124.html" -> gb0124
            size_t gb = d.link.rfind("/gb");
            if (gb != std::string::npos) {
                size_t e = gb + 3;
                while (e < d.link.size() && d.link[e] >= '0' && d.link[e] <= '9')
                    ++e;
                if (e > gb + 3)
                    d.gbCode = d.link.substr(gb + 1, e - gb - 1);
            }
            field = None;
        } else {
            // A continuation of the field before (multi-line explanations quote code).
            std::string* into = field == Title ? &d.title
                : field == Explanation         ? &d.explanation
                : field == Hint                ? &d.hints.back()
                : field == Context             ? &d.developerContext
                                               : nullptr;
            if (!into || (into->empty() && t.empty()))
                continue;
            if (!into->empty())
                *into += '\n';
            *into += field == Title ? std::string(t) : std::string(line);
        }
    }
    d.title = trimmedBlock(std::move(d.title));
    d.explanation = trimmedBlock(std::move(d.explanation));
    d.developerContext = trimmedBlock(std::move(d.developerContext));
    for (auto& h : d.hints)
        h = trimmedBlock(std::move(h));
    return d;
}
} // namespace

bool isRestartWithoutBreak(std::string_view reason)
{
    std::string_view t = trim(reason);
    return t.starts_with("<class '") && t.ends_with("RestartAnalysis'>")
        && t.find('\n') == std::string_view::npos;
}

RestartKind restartKindOf(std::string_view reason)
{
    if (!isRestartWithoutBreak(reason))
        return {};
    std::string_view t = trim(reason);
    t = t.substr(8, t.size() - 10); // inside "<class '...'>"
    if (const size_t dot = t.rfind('.'); dot != std::string_view::npos)
        t = t.substr(dot + 1);
    // What torch/_dynamo raises each for (torch 2.11 to 2.14: exc.py and where it is raised).
    static constexpr std::pair<std::string_view, std::string_view> kMeanings[] = {
        { "TensorifyScalarRestartAnalysis",
            "Dynamo traced a Python float as a tensor (specialize_float is off), then found it "
            "used where only a Python number will do, so it traced the frame again with that "
            "float specialised: a constant in the graph and a guard on its value" },
        { "SpeculationRestartAnalysis",
            "a speculative trace failed (a graph break inside a branch, a loop or a `with` "
            "block), so Dynamo traced the frame again, breaking the graph earlier" },
        { "UnspecializeRestartAnalysis",
            "Dynamo traced an nn.Module as static, found state it must treat as dynamic, and "
            "traced the frame again with that module unspecialised" },
        { "CompileCollectiveRestartAnalysis",
            "the ranks exchanged their automatic-dynamic decisions (the compiler collective), "
            "so Dynamo traced the frame again with the shared decisions" },
        { "AutogradGradRestartAnalysis",
            "torch.autograd.grad consumed gradients the graph returns, so Dynamo traced the "
            "frame again with a graph break at that call" },
        { "RequiresGradRestartAnalysis",
            "a requires_grad_() intermediate would leak out of the graph, so Dynamo traced the "
            "frame again with a graph break at that call" },
    };
    RestartKind k { std::string(t), {} };
    for (const auto& [name, meaning] : kMeanings)
        if (t == name)
            k.meaning = meaning;
    return k;
}

std::vector<GraphBreakDetail> parseGraphBreakDetails(std::string_view text)
{
    std::vector<GraphBreakDetail> out;
    bool structured = false;
    size_t pos = 0;
    while (true) {
        size_t chain = text.find(kChain, pos);
        std::string_view section
            = text.substr(pos, chain == std::string_view::npos ? text.npos : chain - pos);
        out.push_back(parseSection(trim(section), structured));
        if (chain == std::string_view::npos)
            break;
        pos = chain + kChain.size();
    }
    if (!structured)
        out.clear();
    return out;
}

GraphBreak parseGraphBreakReason(std::string_view reason)
{
    GraphBreak gb;
    std::string_view r = trim(reason);
    // Preambles end with ':' at the end of their line; they nest ("Failed to handle ... Graph
    // break encountered:" then the break's own text).
    while (true) {
        std::string_view first = firstLineOf(r);
        bool trace = first.starts_with(kTracePreamble);
        bool skip = first.starts_with(kSkipPreamble);
        bool noResume = first.starts_with(kNoResumePreamble);
        if (!(trace || skip || noResume) || !trim(first).ends_with(":"))
            break;
        if (trace) {
            std::string_view op = trim(first).substr(kTracePreamble.size());
            op.remove_suffix(1);
            gb.operation = std::string(op);
        }
        gb.skipsFrame = gb.skipsFrame || skip;
        gb.cannotResume = gb.cannotResume || noResume;
        r = trim(r.substr(first.size()));
    }
    if (size_t a = r.find(kAttribution); a != std::string_view::npos) {
        gb.stackAttribution = trimmedBlock(std::string(r.substr(a)));
        r = trim(r.substr(0, a));
    }
    gb.reason = std::string(r);
    gb.details = parseGraphBreakDetails(r);
    return gb;
}

GraphBreak parseGraphBreakText(std::string_view text, StringPool& pool)
{
    std::string file;
    int64_t line = 0;
    std::string_view first = text.substr(0, text.find('\n'));
    // "Graph break in user code at FILE:LINE", and for a break Dynamo logged before with the same
    // type and frames, "Graph break (user stack suppressed due to duplicate graph break) in user
    // code at FILE:LINE" (torch/_dynamo/symbolic_convert.py, 2.6 to 2.14).
    constexpr std::string_view kAt = " in user code at ";
    const size_t graphBreak = first.find("Graph break");
    if (auto p = graphBreak == std::string_view::npos ? graphBreak : first.find(kAt, graphBreak);
        p != std::string_view::npos) {
        std::string_view where = trim(first.substr(p + kAt.size()));
        size_t colon = where.rfind(':');
        if (colon != std::string_view::npos) {
            file = std::string(where.substr(0, colon));
            line = toInt(where.substr(colon + 1));
        } else {
            file = std::string(where);
        }
    }
    size_t tb = text.find("User code traceback:");
    std::string_view head = text.substr(0, tb);
    size_t r = head.find("Graph Break Reason:");
    size_t skip = 19;
    if (r == std::string_view::npos) {
        r = head.find("Reason:");
        skip = 7;
    }
    GraphBreak gb = parseGraphBreakReason(r != std::string_view::npos
            ? head.substr(r + skip)
            : (tb == std::string_view::npos ? text : head));
    gb.file = std::move(file);
    gb.line = line;
    if (tb != std::string_view::npos) {
        std::string_view rest = text.substr(tb);
        // The user traceback ends at the first blank line (an internal traceback may follow).
        size_t blank = rest.find("\n\n");
        std::string_view user = rest.substr(0, blank);
        gb.traceback = std::string(trim(user));
        gb.userFrames = parsePythonTraceback(user, pool);
        if (gb.file.empty() && !gb.userFrames.empty()) {
            gb.file = gb.userFrames.back().file;
            gb.line = gb.userFrames.back().line;
        }
    }
    return gb;
}

std::string normaliseExceptionType(std::string_view raw)
{
    std::string_view t = trim(raw);
    if (t.starts_with("<class '") && t.ends_with("'>"))
        t = t.substr(8, t.size() - 10);
    size_t dot = t.rfind('.');
    if (dot != std::string_view::npos)
        t = t.substr(dot + 1);
    return std::string(t);
}

} // namespace dynascope

namespace dynascope {

std::string failureLayer(const Failure& f)
{
    const std::string& type = f.type;
    if (type == "BackendCompilerFailed") {
        // "backend='inductor' raised:" names the backend; aot_eager and custom backends that
        // go through AOTAutograd fail inside it when the traceback passes _functorch.
        std::string_view r = f.reason;
        if (r.find("backend='inductor'") != std::string_view::npos
            || r.find("backend='compile_fx_wrapper'") != std::string_view::npos)
            return "inductor";
        if (f.traceback.find("torch/_inductor/") != std::string::npos
            && r.find("backend='") == std::string_view::npos)
            return "inductor";
        if (r.find("backend='aot_eager'") != std::string_view::npos
            || r.find("backend='aot_ts'") != std::string_view::npos)
            return "aot_autograd";
        return "backend";
    }
    if (type == "Unsupported" || type == "UncapturedHigherOrderOpError" || type == "UserError"
        || type == "InternalTorchDynamoError" || type == "TorchRuntimeError"
        || type == "ObservedException" || type == "RecompileError" || type == "SkipFrame"
        || type == "ArgsMismatchError")
        return "dynamo";
    if (f.traceback.find("torch/_inductor/") != std::string::npos)
        return "inductor";
    if (f.traceback.find("torch/_functorch/") != std::string::npos)
        return "aot_autograd";
    if (f.traceback.find("torch/_dynamo/") != std::string::npos || !type.empty())
        return "dynamo";
    return {};
}

void describeFailure(Compile& c)
{
    if (!c.failure)
        return;
    Failure& f = *c.failure;
    f.details = parseGraphBreakDetails(f.reason);
    f.frameSkipped = std::any_of(c.graphBreaks.begin(), c.graphBreaks.end(),
        [](const GraphBreak& gb) { return gb.skipsFrame; });
    f.recompileLimit = f.reason.starts_with("Dynamo recompile limit exceeded");
    f.layer = failureLayer(f);
}

std::string_view withoutReasonLead(std::string_view reason)
{
    constexpr std::string_view lead = "Graph Break Reason: ";
    return reason.starts_with(lead) ? reason.substr(lead.size()) : reason;
}

} // namespace dynascope
