// buildReport(): one pass over the compiles of a Trace into the plain report model (report.h).
#include "core/report/report.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace dynascope {

std::optional<double> CacheCounts::hitRate() const
{
    if (hits + misses == 0)
        return std::nullopt;
    return static_cast<double>(hits) / static_cast<double>(hits + misses);
}

std::vector<const FrameEntry*> framesByCompileTime(const Report& report)
{
    std::vector<const FrameEntry*> frames;
    for (const auto& f : report.frames)
        frames.push_back(&f);
    std::stable_sort(frames.begin(), frames.end(), [](const FrameEntry* a, const FrameEntry* b) {
        return a->evidence.totalCompileUs > b->evidence.totalCompileUs;
    });
    return frames;
}

std::string commonFolder(const Report& report)
{
    if (report.files.size() < 2)
        return {};
    auto folderOf = [](const std::string& p) {
        size_t slash = p.find_last_of('/');
        return slash == std::string::npos ? std::string() : p.substr(0, slash + 1);
    };
    std::string folder = folderOf(report.files[0].path);
    for (const auto& f : report.files)
        if (folderOf(f.path) != folder)
            return {};
    return folder;
}

std::string compileLabel(const CompileRef& c, bool withRank)
{
    std::string s = c.id;
    if (withRank && c.rank)
        s += " (rank " + std::to_string(*c.rank) + ")";
    return s;
}

namespace {

CompileRef refOf(const Trace& t, uint32_t index)
{
    const Compile& c = t.compiles[index];
    return { index, c.id.display(), t.files[c.file].rank, c.status,
        c.startRecord != kNone && c.isRecompile() };
}

void accumulate(Evidence& e, const Trace& t, const Compile& c)
{
    if (c.startRecord != kNone) {
        ++e.compiles;
        if (c.isRecompile())
            ++e.recompiles;
    } else {
        ++e.compilesWithoutStart;
    }
    e.graphBreaks += c.graphBreakCount();
    if (c.failure)
        ++e.failures;
    e.totalCompileUs += c.durationUs();
    for (const auto& ev : c.cacheEvents) {
        if (ev.kind == CacheKind::Hit)
            ++e.cache.hits;
        else if (ev.kind == CacheKind::Miss)
            ++e.cache.misses;
        else
            ++e.cache.bypasses;
    }
    PhaseTimes p = phaseTimes(c);
    for (size_t i = 0; i < kPhaseGroupCount; ++i)
        e.phases[i] += p[i];
    // First compile: the earliest timed one; a timeless compile only when nothing is timed.
    bool timed = c.timeSource != TimeSource::None && c.startUs > 0;
    bool take = !e.firstCompile
        || (timed && (e.firstCompileStartUs <= 0 || c.startUs < e.firstCompileStartUs));
    if (take) {
        e.firstCompile = refOf(t, c.index);
        e.firstCompileUs = c.durationUs();
        e.firstCompileStartUs = timed ? c.startUs : 0;
    }
}

// "x" (as recompile reasons name locals) and "L['x']" (as guard trees do) are one source.
std::string normalSource(const std::string& s)
{
    if (s.empty())
        return s;
    bool identifier = std::all_of(s.begin(), s.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
            || ch == '_';
    });
    return identifier ? "L['" + s + "']" : s;
}

// The reason against the newest earlier cache entry (PyTorch lists them newest first, but the
// link is what says which entry each reason is about).
const RecompileReason* primaryReason(const Compile& c)
{
    const RecompileReason* best = nullptr;
    for (const auto& r : c.recompileReasons)
        if (r.earlierCompile != kNone && (!best || r.earlierCompile > best->earlierCompile))
            best = &r;
    if (!best && !c.recompileReasons.empty())
        best = &c.recompileReasons.front();
    return best;
}

void buildFrames(Report& rep, const Trace& t)
{
    for (const Frame& f : t.frames) {
        FrameEntry fe;
        fe.frame = f.index;
        fe.file = f.file;
        fe.rank = t.files[f.file].rank;
        fe.function = f.coName;
        fe.filename = f.coFilename;
        fe.line = f.coFirstLineno;
        for (uint32_t ci : f.compiles) {
            const Compile& c = t.compiles[ci];
            accumulate(fe.evidence, t, c);
            fe.compiles.push_back(refOf(t, ci));
            if (c.guardCount)
                fe.guardCount = c.guardCount;
            else if (c.guards)
                fe.guardCount = static_cast<int64_t>(c.guards->guardCount());
            if (fe.callerFile.empty() && c.stack.size() >= 2) {
                const StackFrame& caller = c.stack[c.stack.size() - 2];
                fe.callerFile = caller.file;
                fe.callerLine = caller.line;
                fe.callerFunction = caller.name;
                fe.callerCode = caller.loc;
            }
        }
        rep.frames.push_back(std::move(fe));
    }
}

void buildGraphBreaks(Report& rep, const Trace& t)
{
    std::map<std::tuple<std::string, std::string, int64_t>, size_t> groups;
    for (const Compile& c : t.compiles) {
        for (const GraphBreak& gb : c.graphBreaks) {
            auto [it, added] = groups.try_emplace({ gb.reason, gb.file, gb.line }, 0);
            if (added) {
                it->second = rep.graphBreaks.size();
                GraphBreakGroup g;
                g.reason = gb.reason;
                g.file = gb.file;
                g.line = gb.line;
                g.function = c.coName;
                g.traceback = gb.traceback;
                constexpr std::string_view kHeading = "User code traceback:\n";
                if (std::string_view(g.traceback).starts_with(kHeading))
                    g.traceback.erase(0, kHeading.size());
                rep.graphBreaks.push_back(std::move(g));
            }
            GraphBreakGroup& g = rep.graphBreaks[it->second];
            ++g.count;
            if (g.compiles.empty() || g.compiles.back().index != c.index)
                g.compiles.push_back(refOf(t, c.index));
            if (gb.resumeCompile != kNone
                && std::none_of(g.resumes.begin(), g.resumes.end(),
                    [&](const CompileRef& r) { return r.index == gb.resumeCompile; }))
                g.resumes.push_back(refOf(t, gb.resumeCompile));
        }
    }
    std::stable_sort(rep.graphBreaks.begin(), rep.graphBreaks.end(),
        [](const GraphBreakGroup& a, const GraphBreakGroup& b) { return a.count > b.count; });
}

void buildRecompiles(Report& rep, const Trace& t)
{
    using Key
        = std::tuple<std::string, std::string, std::string, std::string, std::string, int64_t>;
    std::map<Key, size_t> groups;
    for (const Compile& c : t.compiles) {
        if (c.startRecord == kNone || !c.isRecompile())
            continue;
        const Frame* frame = c.frame != kNone ? &t.frames[c.frame] : nullptr;
        std::string function = frame ? frame->coName : c.coName;
        std::string filename = frame ? frame->coFilename : c.coFilename;
        int64_t line = frame ? frame->coFirstLineno : c.coFirstLineno;
        const RecompileReason* r = primaryReason(c);
        std::string kind, mismatch = "unknown", source, expr, where;
        if (r) {
            mismatch = r->mismatch.empty() ? "guard" : r->mismatch;
            source = normalSource(r->source);
            if (r->guardNode >= 0 && r->earlierCompile != kNone
                && t.compiles[r->earlierCompile].guards) {
                const GuardTree& tree = *t.compiles[r->earlierCompile].guards;
                const GuardNode& g = tree.nodes[static_cast<size_t>(r->guardNode)];
                kind = g.kind;
                expr = g.expr;
                where = g.where;
                std::string treeSource = tree.sourceOf(r->guardNode);
                if (!treeSource.empty() && (source.empty() || normalSource(treeSource) == source))
                    source = treeSource;
            }
        }
        auto [it, added]
            = groups.try_emplace({ kind, mismatch, source, function, filename, line }, 0);
        if (added) {
            it->second = rep.recompiles.size();
            RecompileGroup g;
            g.guardKind = kind;
            g.mismatch = mismatch;
            g.source = source;
            g.function = function;
            g.filename = filename;
            g.line = line;
            g.guardExpr = expr;
            g.guardWhere = where;
            rep.recompiles.push_back(std::move(g));
        }
        RecompileGroup& g = rep.recompiles[it->second];
        ++g.count;
        RecompileStep step;
        step.compile = refOf(t, c.index);
        if (r) {
            if (r->earlierCompile != kNone)
                step.earlier = refOf(t, r->earlierCompile);
            step.text = r->text;
            step.detail = r->detail.empty() ? r->text : r->detail;
            step.expected = r->expected;
            step.actual = r->actual;
            step.otherReasons = c.recompileReasons.size() - 1;
        }
        g.steps.push_back(std::move(step));
    }
    for (RecompileGroup& g : rep.recompiles) {
        for (const RecompileStep& s : g.steps) {
            uint32_t file = t.compiles[s.compile.index].file;
            auto chain = std::find_if(g.chains.begin(), g.chains.end(),
                [&](const ValueChain& v) { return v.file == file; });
            if (s.expected.empty() && s.actual.empty())
                continue;
            if (chain == g.chains.end()) {
                g.chains.push_back({ file, t.files[file].rank, {} });
                chain = g.chains.end() - 1;
            }
            auto& v = chain->values;
            if (!s.expected.empty() && (v.empty() || v.back() != s.expected))
                v.push_back(s.expected);
            if (!s.actual.empty())
                v.push_back(s.actual);
        }
    }
    std::stable_sort(rep.recompiles.begin(), rep.recompiles.end(),
        [](const RecompileGroup& a, const RecompileGroup& b) { return a.count > b.count; });
}

} // namespace

Report buildReport(const Trace& t, const ReportOptions& options)
{
    Report rep;
    rep.generator = std::string("dynascope ") + DYNASCOPE_VERSION;
    rep.payloadsVerified = options.verifyPayloads;
    Trace::PayloadCheck check;
    if (options.verifyPayloads)
        check = t.verifyPayloads();
    rep.diagnostics = t.diagnostics;
    rep.diagnostics.insert(
        rep.diagnostics.end(), check.diagnostics.begin(), check.diagnostics.end());

    for (uint32_t i = 0; i < t.files.size(); ++i) {
        const TraceFile& f = t.files[i];
        FileEntry fe;
        fe.index = i;
        fe.path = f.path;
        fe.rank = f.rank;
        fe.records = f.records;
        fe.badLines = f.badLines;
        if (options.verifyPayloads)
            fe.payloadHashMismatches = check.mismatchesPerFile[i];
        fe.diagnostics = static_cast<uint64_t>(std::count_if(rep.diagnostics.begin(),
            rep.diagnostics.end(), [&](const Diagnostic& d) { return d.file == f.path; }));
        rep.files.push_back(std::move(fe));
    }
    for (const Compile& c : t.compiles) {
        accumulate(rep.total, t, c);
        accumulate(rep.files[c.file].evidence, t, c);
        if (c.failure) {
            FailureEntry fe;
            fe.compile = refOf(t, c.index);
            fe.function = c.coName;
            fe.filename = c.coFilename;
            fe.functionLine = c.coFirstLineno;
            fe.type = c.failure->type.empty() ? c.failure->rawType : c.failure->type;
            fe.reason = c.failure->reason;
            fe.file = c.failure->file;
            fe.line = c.failure->line;
            fe.traceback = c.failure->traceback;
            rep.failures.push_back(std::move(fe));
        }
    }
    buildFrames(rep, t);
    buildGraphBreaks(rep, t);
    buildRecompiles(rep, t);
    return rep;
}

} // namespace dynascope
