// buildReport(): one pass over the compiles of a Trace into the plain report model (report.h).
#include "core/report/report.h"

#include "core/analysis/why_chain.h"

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

void accumulate(Evidence& e, const Trace& t, const Compile& c, const KernelCounts& kernels)
{
    e.kernels.add(kernels);
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

void buildFrames(Report& rep, const Trace& t, const std::vector<KernelCounts>& kernels)
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
            accumulate(fe.evidence, t, c, kernels[ci]);
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
        for (size_t i = 0; i < c.graphBreaks.size(); ++i) {
            const BreakWhy gb = describeBreak(c.graphBreaks[i], i);
            auto [it, added]
                = groups.try_emplace({ gb.reason, gb.userLine.file, gb.userLine.line }, 0);
            if (added) {
                it->second = rep.graphBreaks.size();
                GraphBreakGroup g;
                g.reason = gb.reason;
                g.file = gb.userLine.file;
                g.line = gb.userLine.line;
                g.function = c.coName;
                g.traceback = gb.traceback;
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
        // The primary rejection: against the newest earlier cache entry (core/analysis/why_chain).
        const RecompileReason* reason = primaryReason(c);
        std::optional<Rejection> r;
        if (reason)
            r = describeRejection(t, c, *reason);
        std::string kind, mismatch = "unknown", source, expr, where;
        if (r) {
            mismatch = r->mismatch == Mismatch::None ? "guard" : toString(r->mismatch);
            source = r->source;
            kind = r->guardKind;
            expr = r->guardExpr;
            where = r->guardWhere;
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
            step.detail = r->detail;
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

Report buildReport(
    const Trace& t, const std::vector<Finding>& findings, const ReportOptions& options)
{
    Report rep;
    rep.generator = std::string("dynascope ") + DYNASCOPE_VERSION;
    rep.payloadsVerified = options.verifyPayloads;
    Trace::PayloadCheck check;
    if (options.verifyPayloads)
        check = options.check ? *options.check : t.verifyPayloads();
    rep.diagnostics = t.diagnostics;
    rep.diagnostics.insert(
        rep.diagnostics.end(), check.diagnostics.begin(), check.diagnostics.end());
    const TraceKernelCounts kernels = countTraceKernels(t);
    rep.diagnostics.insert(
        rep.diagnostics.end(), kernels.diagnostics.begin(), kernels.diagnostics.end());

    for (const Finding& f : findings) {
        ReportFinding rf;
        for (uint32_t c : f.compiles)
            rf.compiles.push_back(refOf(t, c));
        rf.finding = f;
        rep.findings.push_back(std::move(rf));
    }
    for (uint32_t i = 0; i < t.files.size(); ++i) {
        const TraceFile& f = t.files[i];
        FileEntry fe;
        fe.index = i;
        fe.path = f.path;
        fe.rank = f.rank;
        fe.records = f.recordCount;
        fe.badLines = f.badLines;
        if (options.verifyPayloads)
            fe.payloadHashMismatches = check.mismatchesPerFile[i];
        fe.diagnostics = static_cast<uint64_t>(std::count_if(rep.diagnostics.begin(),
            rep.diagnostics.end(), [&](const Diagnostic& d) { return d.file == f.path; }));
        rep.files.push_back(std::move(fe));
    }
    for (const Compile& c : t.compiles) {
        accumulate(rep.total, t, c, kernels.perCompile[c.index]);
        accumulate(rep.files[c.file].evidence, t, c, kernels.perCompile[c.index]);
        if (c.failure) {
            const FailureWhy f = describeFailure(*c.failure);
            FailureEntry fe;
            fe.compile = refOf(t, c.index);
            fe.function = c.coName;
            fe.filename = c.coFilename;
            fe.functionLine = c.coFirstLineno;
            fe.type = f.type;
            fe.reason = f.reason;
            fe.file = f.userFrame.file;
            fe.line = f.userFrame.line;
            fe.traceback = f.traceback;
            rep.failures.push_back(std::move(fe));
        }
    }
    buildFrames(rep, t, kernels.perCompile);
    buildGraphBreaks(rep, t);
    buildRecompiles(rep, t);
    return rep;
}

} // namespace dynascope
