#include "core/analysis/why_chain.h"

#include "core/load/finish/graph_break_text.h"

#include "core/util/trim.h"

#include <array>
#include <utility>

namespace dynascope {

namespace {
constexpr std::array<std::pair<Mismatch, const char*>, 15> kMismatchNames { {
    { Mismatch::None, "" },
    { Mismatch::Size, "size" },
    { Mismatch::Stride, "stride" },
    { Mismatch::Dtype, "dtype" },
    { Mismatch::Device, "device" },
    { Mismatch::RequiresGrad, "requires_grad" },
    { Mismatch::Rank, "rank" },
    { Mismatch::DispatchKeys, "dispatch_keys" },
    { Mismatch::MemoryFormat, "memory format" },
    { Mismatch::Layout, "layout" },
    { Mismatch::Id, "id" },
    { Mismatch::Type, "type" },
    { Mismatch::Shape, "shape" },
    { Mismatch::Value, "value" },
    { Mismatch::Guard, "guard" },
} };

bool isIdentifier(std::string_view s)
{
    if (s.empty() || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (char ch : s) {
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                || ch == '_'))
            return false;
    }
    return true;
}

// The Python name of a frame-local source: "x" for "x" and "L['x']"; "" for anything else.
std::string localName(std::string_view source)
{
    if (source.starts_with("L['") && source.ends_with("']"))
        source = source.substr(3, source.size() - 5);
    return isIdentifier(source) ? std::string(source) : std::string();
}

// "tensor 'x' size mismatch at index 0. expected 2, actual 3" -> 0.
std::optional<int64_t> dimensionOf(const RecompileReason& r)
{
    const std::string_view detail = r.detail.empty() ? r.text : r.detail;
    const std::string_view first = detail.substr(0, detail.find('\n'));
    constexpr std::string_view kAt = "at index ";
    const size_t at = first.find(kAt);
    if (at == std::string_view::npos)
        return std::nullopt;
    int64_t n = 0;
    size_t i = at + kAt.size();
    const size_t start = i;
    for (; i < first.size() && first[i] >= '0' && first[i] <= '9' && i - start < 18; ++i)
        n = n * 10 + (first[i] - '0');
    if (i == start)
        return std::nullopt;
    return n;
}

std::string_view trimmed(std::string_view s)
{
    return trimBlanks(s);
}

const GuardNode* nodeOf(const GuardTree* tree, int node)
{
    if (!tree || node < 0 || static_cast<size_t>(node) >= tree->nodes.size())
        return nullptr;
    return &tree->nodes[static_cast<size_t>(node)];
}

// A `source == value` guard's value in `compile`'s own guards (`source == other`): the value the
// call had, which the reason (it names the earlier compile's value only) does not say.
std::string valueInOwnGuards(const Compile& compile, const GuardNode& failed)
{
    const size_t eq = failed.expr.find(" == ");
    if (eq == std::string::npos || !compile.guards)
        return {};
    const std::string prefix = failed.expr.substr(0, eq + 4);
    const GuardTree* own = compile.guards.get();
    if (!own)
        return {};
    for (const GuardNode& g : own->nodes) {
        // The same kind, or the other of TRUE_MATCH and FALSE_MATCH (a flag that flipped).
        if (g.isManager || !g.expr.starts_with(prefix))
            continue;
        std::string value(trimmed(std::string_view(g.expr).substr(prefix.size())));
        // A literal only: "3", "0.25", "True", "'relu'". An expression there
        // ("___as_tensor(L['self'].scale).item()") means the new compile reads the value
        // symbolically, not which value it had.
        if (value.find('(') != std::string::npos || value.find("L[") != std::string::npos
            || value.find("G[") != std::string::npos || value.find("___") != std::string::npos)
            return {};
        return value;
    }
    return {};
}

SourceLine lineOf(const StackFrame& f)
{
    return { std::string(f.file), f.line, std::string(f.name), std::string(f.loc) };
}

// The values the primary rejection's source took along the frame, up to compile `ci`.
void valueChain(const Trace& t, const Compile& c, RecompileWhy& why)
{
    const Rejection& p = *why.primary;
    if (c.frame >= t.frames.size() || p.loggedSource.empty()
        || (p.expected.empty() && p.actual.empty()))
        return;
    const std::string source = treeFormSource(p.loggedSource);
    for (uint32_t other : t.frames[c.frame].compiles) {
        if (other > c.index)
            break;
        const Compile& o = t.compiles[other];
        const RecompileReason* q = primaryReason(o);
        if (!q || mismatchFromName(q->mismatch) != p.mismatch || treeFormSource(q->source) != source
            || (isShapeChange(p.mismatch) ? dimensionOf(*q) : std::nullopt) != p.dim)
            continue;
        const std::string& expected = q->expected;
        const std::string& actual = other == c.index ? p.actual : q->actual;
        if (!expected.empty() && (why.values.empty() || why.values.back() != expected))
            why.values.push_back(expected);
        if (!actual.empty())
            why.values.push_back(actual);
        why.valueCompiles.push_back(other);
    }
}
} // namespace

Fix fixFor(const Rejection& r)
{
    Fix fix;
    if (isShapeChange(r.mismatch)) {
        fix.kind = FixKind::MarkDynamic;
        const std::string name = localName(r.loggedSource.empty() ? r.source : r.loggedSource);
        if (!name.empty() && r.dim)
            fix.code = "torch._dynamo.mark_dynamic(" + name + ", " + std::to_string(*r.dim) + ")";
    } else if (r.mismatch == Mismatch::Id) {
        fix.kind = FixKind::StableObject;
    } else if (r.mismatch == Mismatch::Dtype || r.mismatch == Mismatch::Device
        || r.mismatch == Mismatch::RequiresGrad) {
        fix.kind = FixKind::OneCompilePerValue;
    }
    return fix;
}

std::string libraryOf(std::string_view path)
{
    for (std::string_view dir : { "/site-packages/", "/dist-packages/" }) {
        const size_t at = path.rfind(dir);
        if (at == std::string_view::npos)
            continue;
        std::string_view rest = path.substr(at + dir.size());
        rest = rest.substr(0, rest.find('/'));
        if (rest.ends_with(".py"))
            rest.remove_suffix(3); // a one-file module: six.py
        return std::string(rest);
    }
    // Python's own modules: .../lib/python3.11/logging/__init__.py (not a venv's packages).
    for (std::string_view dir : { "/lib/python3", "/lib64/python3" })
        if (path.find(dir) != std::string_view::npos)
            return "the standard library";
    return {};
}

BreakWhy describeBreak(const GraphBreak& gb, size_t index)
{
    BreakWhy b;
    b.index = index;
    b.reason = gb.reason;
    b.operation = gb.operation;
    b.details = gb.details;
    if (!gb.details.empty()) {
        const std::string& title = gb.details.front().title;
        b.type = title.substr(0, title.find('\n'));
        b.gbCode = gb.details.front().gbCode;
    }
    b.skipsFrame = gb.skipsFrame;
    b.cannotResume = gb.cannotResume;
    b.userLine.file = gb.file;
    b.userLine.line = gb.line;
    if (!gb.userFrames.empty() && gb.userFrames.back().file == gb.file
        && gb.userFrames.back().line == gb.line) {
        b.userLine.function = gb.userFrames.back().name;
        b.userLine.code = gb.userFrames.back().loc;
    }
    b.userFrames = gb.userFrames;
    b.library = libraryOf(gb.file);
    if (!b.library.empty())
        for (size_t i = gb.userFrames.size(); i-- > 0;) {
            const StackFrame& f = gb.userFrames[i];
            if (!libraryOf(f.file).empty() || f.file.starts_with("<"))
                continue;
            b.calledFrom = { std::string(f.file), f.line, std::string(f.name), std::string(f.loc) };
            break;
        }
    constexpr std::string_view kHeading = "User code traceback:\n";
    std::string_view traceback = gb.traceback;
    if (traceback.starts_with(kHeading))
        traceback.remove_prefix(kHeading.size());
    b.traceback = std::string(traceback);
    b.record = gb.record;
    b.resumeFrame = gb.resumeFrame;
    b.resumeCompile = gb.resumeCompile;
    return b;
}

FailureWhy describeFailure(const Failure& f)
{
    FailureWhy w;
    w.type = f.type.empty() ? f.rawType : f.type;
    w.reason = f.reason;
    w.layer = f.layer;
    w.userFrame.file = f.file;
    w.userFrame.line = f.line;
    w.traceback = f.traceback;
    w.details = f.details;
    w.frameSkipped = f.frameSkipped;
    w.recompileLimit = f.recompileLimit;
    w.record = f.record;
    return w;
}

const char* toString(Mismatch m)
{
    for (const auto& [kind, name] : kMismatchNames) {
        if (kind == m)
            return name;
    }
    return "";
}

Mismatch mismatchFromName(std::string_view name)
{
    if (name.empty())
        return Mismatch::None;
    for (const auto& [kind, n] : kMismatchNames) {
        if (name == n)
            return kind;
    }
    return Mismatch::Guard;
}

std::string treeFormSource(std::string_view source)
{
    return isIdentifier(source) ? "L['" + std::string(source) + "']" : std::string(source);
}

SourceLine parseWhere(std::string_view where)
{
    const std::string_view head = where.substr(0, where.find(" in "));
    const size_t colon = head.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= head.size())
        return {};
    int64_t n = 0;
    for (char ch : head.substr(colon + 1)) {
        if (ch < '0' || ch > '9' || n > (int64_t(1) << 40))
            return {};
        n = n * 10 + (ch - '0');
    }
    SourceLine s;
    s.file = std::string(head.substr(0, colon));
    s.line = n;
    if (const size_t in = where.find(" in "); in != std::string_view::npos)
        s.function = std::string(where.substr(in + 4));
    return s;
}

const RecompileReason* primaryReason(const Compile& c)
{
    const RecompileReason* best = nullptr;
    for (const auto& r : c.recompileReasons) {
        if (r.earlierCompile != kNone && (!best || r.earlierCompile > best->earlierCompile))
            best = &r;
    }
    if (!best && !c.recompileReasons.empty())
        best = &c.recompileReasons.front();
    return best;
}

Rejection describeRejection(const Trace& t, const Compile& c, const RecompileReason& r)
{
    Rejection j;
    j.reason = static_cast<size_t>(&r - c.recompileReasons.data());
    j.earlierCompile = r.earlierCompile < t.compiles.size() ? r.earlierCompile : kNone;
    j.earlierKey = r.earlierKey;
    j.text = r.text;
    j.detail = r.detail.empty() ? r.text : r.detail;
    j.mismatch = mismatchFromName(r.mismatch);
    j.loggedSource = r.source;
    j.source = treeFormSource(r.source);
    if (isShapeChange(j.mismatch))
        j.dim = dimensionOf(r);
    j.expected = r.expected;
    j.actual = r.actual;
    if (!r.userStack.empty())
        j.userLine = lineOf(r.userStack.back());
    const GuardTree* tree
        = j.earlierCompile != kNone ? t.compiles[j.earlierCompile].guards.get() : nullptr;
    if (const GuardNode* g = nodeOf(tree, r.guardNode)) {
        j.guardNode = r.guardNode;
        j.guardKind = g->kind;
        j.guardExpr = g->expr;
        j.guardWhere = g->where;
        j.guardMadeAt = parseWhere(g->where);
        j.guardUserStack = g->userStack;
        j.guardSource = tree->sourceOf(r.guardNode);
        if (!j.guardSource.empty()
            && (j.source.empty() || treeFormSource(j.guardSource) == j.source))
            j.source = j.guardSource;
        if (j.actual.empty() && j.mismatch == Mismatch::Value) {
            j.actual = valueInOwnGuards(c, *g);
            j.actualInferred = !j.actual.empty();
        }
    }
    // A value guard that failed on a source this compile made dynamic: its symbol and value.
    if (j.mismatch == Mismatch::Value && !j.source.empty()) {
        for (const ShapeEvent& e : c.shapeEvents) {
            if (e.kind != "create_symbol" || e.sources != j.source)
                continue;
            j.symbol = e.expr;
            if (j.actual.empty() && !e.value.empty()) {
                j.actual = e.value;
                j.actualInferred = true;
            }
            break;
        }
    }
    return j;
}

WhyChain explainCompile(const Trace& t, uint32_t index)
{
    WhyChain why;
    if (index >= t.compiles.size())
        return why;
    const Compile& c = t.compiles[index];
    why.compile = index;
    const Frame* frame = c.frame < t.frames.size() ? &t.frames[c.frame] : nullptr;
    if (frame)
        why.frameCompiles = frame->compiles;

    if (frame && frame->breakOrigin < t.compiles.size()) {
        ResumeOrigin o;
        o.compile = frame->breakOrigin;
        const Compile& origin = t.compiles[frame->breakOrigin];
        for (size_t i = 0; i < origin.graphBreaks.size(); ++i) {
            if (origin.graphBreaks[i].resumeFrame == c.frame)
                o.breakIndex = i;
        }
        if (o.breakIndex != SIZE_MAX) {
            const GraphBreak& gb = origin.graphBreaks[o.breakIndex];
            o.breakLine.file = gb.file;
            o.breakLine.line = gb.line;
            o.reason = gb.reason;
        }
        why.resumesAfter = std::move(o);
    }

    if (c.isRecompile() || !c.recompileReasons.empty()) {
        RecompileWhy r;
        if (frame) {
            for (uint32_t other : frame->compiles)
                r.earlierCompiles += other < index ? 1 : 0;
        }
        r.metricReason = c.recompileReasonMetric;
        if (const RecompileReason* p = primaryReason(c)) {
            r.primary = describeRejection(t, c, *p);
            for (const RecompileReason& other : c.recompileReasons) {
                if (&other != p)
                    r.others.push_back(describeRejection(t, c, other));
            }
            valueChain(t, c, r);
            r.fix = fixFor(*r.primary);
        }
        why.recompile = std::move(r);
    }

    for (size_t i = 0; i < c.graphBreaks.size(); ++i)
        why.graphBreaks.push_back(describeBreak(c.graphBreaks[i], i));
    for (size_t i = 0; i < c.restartReasons.size(); ++i) {
        RestartKind k = restartKindOf(c.restartReasons[i]);
        if (k.kind.empty() && !c.graphBreaks.empty())
            continue; // the break's own section says it
        why.restarts.push_back(
            { uint32_t(i), c.restartReasons[i], std::move(k.kind), std::move(k.meaning) });
    }
    if (!why.restarts.empty() && c.beforeRestartS && *c.beforeRestartS > 0)
        why.restartCostS = c.beforeRestartS;
    if (c.failure)
        why.failure = describeFailure(*c.failure);
    for (size_t i = c.stack.size() > 0 ? c.stack.size() - 1 : 0; i-- > 0;)
        why.callers.push_back(lineOf(c.stack[i]));
    return why;
}

} // namespace dynascope
