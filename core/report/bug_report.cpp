#include "core/report/bug_report.h"

#include "core/report/findings_render.h"

#include "core/analysis/why_chain.h"
#include "core/model/phase_groups.h"
#include "core/util/text_format.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace dynascope {

namespace {
using text::mdCode;
using text::mdFence;

constexpr size_t kMaxTracebackLines = 40;

// `train.py:25`, or words where the trace does not say.
std::string placeOf(std::string_view file, int64_t line)
{
    const std::string place = text::codePlace(file, line);
    return place.empty() ? std::string("a place the trace does not give") : mdCode(place);
}

std::string loc(const std::string& file, int64_t line)
{
    return placeOf(text::baseName(file), line);
}

std::string idOf(const Trace& t, uint32_t c)
{
    return t.compiles[c].id.display();
}

std::string compileName(const Trace& t, uint32_t c)
{
    const Compile& comp = t.compiles[c];
    return comp.id.display() + " " + mdCode(comp.coName);
}

std::string callSite(const WhyChain& why)
{
    if (why.callers.empty())
        return {};
    const SourceLine& caller = why.callers.front();
    std::string s
        = "called from " + loc(caller.file, caller.line) + " in " + mdCode(caller.function);
    if (!caller.code.empty())
        s += ": " + mdCode(caller.code);
    return s;
}

// " expected `32`, actual `64`", leaving out what the trace does not say.
std::string values(const Rejection& r)
{
    std::string s;
    if (!r.expected.empty())
        s += " expected " + mdCode(r.expected);
    if (!r.actual.empty())
        s += (r.expected.empty() ? " actual " : ", actual ") + mdCode(r.actual);
    return s;
}

void recompileSection(
    std::ostringstream& out, const Trace& t, const Compile& c, const WhyChain& chain)
{
    const RecompileWhy& why = *chain.recompile;
    out << "### Why it recompiled\n\n";
    if (!why.primary) {
        out << "This is recompile " << *c.id.frameCompile
            << " of the frame, but the trace logged no recompile reason (PyTorch before 2.5 does "
               "not).\n\n";
        return;
    }
    const Rejection& r = *why.primary;
    const std::string mismatch = toString(r.mismatch);
    out << "1. **Recompile reason**"
        << (r.earlierCompile != kNone ? " (against " + idOf(t, r.earlierCompile) + ")" : "") << ": "
        << mdCode(r.detail) << "\n";
    if (r.guardFound()) {
        out << "2. **Failed guard** in " << idOf(t, r.earlierCompile) << ": "
            << mdCode(r.guardKind);
        if (!r.guardSource.empty())
            out << " on " << mdCode(r.guardSource);
        if (!r.expected.empty() || !r.actual.empty())
            out << ", " << text::mdText(mismatch) << values(r);
        out << "\n\n" << mdFence(r.guardKind + ": " + r.guardExpr);
        if (!r.guardWhere.empty())
            out << "\n   Guard installed at " << mdCode(r.guardWhere) << ".\n";
        if (!r.guardUserStack.empty())
            out << "\n   User stack of the guard:\n\n" << mdFence(r.guardUserStack);
        out << "\n";
    } else {
        out << "2. **Failed guard:** not found in the earlier compile's guard tree";
        if (!r.expected.empty() || !r.actual.empty())
            out << " (" << text::mdText(mismatch) << values(r) << ")";
        out << ".\n";
    }
    out << "3. **Source:** " << mdCode(c.coName) << " at " << loc(c.coFilename, c.coFirstLineno);
    std::string site = callSite(chain);
    if (!site.empty())
        out << ", " << site;
    out << "\n\n";
    if (!why.others.empty()) {
        out << "It also failed against the older cache entries:\n\n";
        for (const Rejection& other : why.others)
            out << "- " << mdCode(text::firstLine(other.text)) << "\n";
        out << "\n";
    }
    // The values this guard saw along the frame, up to this compile.
    if (why.values.size() > 2) {
        std::string values;
        for (size_t k = 0; k < why.values.size(); ++k)
            values += (k ? " → " : "") + why.values[k];
        const std::string& source = r.guardFound() ? r.guardSource : r.loggedSource;
        out << "Values of " << mdCode(source) << " " << text::mdText(mismatch)
            << " that recompiled this frame so far: " << mdCode(values) << "\n\n";
    }
}

void graphBreakSection(std::ostringstream& out, const Trace& t, const std::vector<BreakWhy>& breaks)
{
    out << "### Graph break" << (breaks.size() > 1 ? "s" : "") << "\n\n";
    for (size_t i = 0; i < breaks.size(); ++i) {
        const BreakWhy& gb = breaks[i];
        if (breaks.size() > 1)
            out << "#### " << i + 1 << ".\n\n";
        int step = 1;
        out << step++ << ". **Reason:** " << mdCode(text::firstLine(gb.reason));
        if (gb.userLine.known())
            out << " at " << loc(gb.userLine.file, gb.userLine.line) << " ("
                << mdCode(gb.userLine.file) << ")";
        out << "\n";
        if (gb.reason.find('\n') != std::string::npos)
            out << "\n" << mdFence(gb.reason) << "\n";
        if (!gb.traceback.empty())
            out << step++ << ". **User code traceback:**\n\n"
                << mdFence(text::headLines(gb.traceback, kMaxTracebackLines)) << "\n";
        else if (!gb.userFrames.empty()) {
            std::string tb;
            for (const auto& f : gb.userFrames)
                tb += "  File \"" + std::string(f.file) + "\", line " + std::to_string(f.line)
                    + ", in " + std::string(f.name) + "\n";
            out << step++ << ". **User code traceback:**\n\n" << mdFence(tb) << "\n";
        }
        if (gb.resumeCompile != kNone) {
            const Compile& r = t.compiles[gb.resumeCompile];
            out << step << ". **Resumes in** " << compileName(t, gb.resumeCompile) << " ("
                << toString(r.status)
                << "), the code after the break compiled as its own frame.\n\n";
        } else {
            out << step << ". **Resume frame:** none found in this trace.\n\n";
        }
    }
}

void failureSection(std::ostringstream& out, const FailureWhy& f)
{
    out << "### Failure\n\n";
    out << "**" << mdCode(f.type) << "**";
    if (f.userFrame.known())
        out << " in user frame " << loc(f.userFrame.file, f.userFrame.line) << " ("
            << mdCode(f.userFrame.file) << ")";
    out << "\n\n";
    if (!f.reason.empty())
        out << mdFence(f.reason) << "\n";
    if (!f.traceback.empty())
        out << "Traceback:\n\n"
            << mdFence(text::headLines(f.traceback, kMaxTracebackLines)) << "\n";
}
} // namespace

std::string bugReportMarkdown(const Trace& t, uint32_t index, const std::vector<Finding>& findings)
{
    if (index >= t.compiles.size())
        return {};
    const Compile& c = t.compiles[index];
    const WhyChain why = explainCompile(t, index);
    std::ostringstream out;
    const std::string name = compileName(t, index);
    out << "## torch.compile " << name << ": ";
    if (why.failure)
        out << "failed with " << mdCode(why.failure->type);
    else if (!why.graphBreaks.empty())
        out << "graph break"
            << (why.graphBreaks.front().userLine.known() ? " at "
                           + loc(why.graphBreaks.front().userLine.file,
                               why.graphBreaks.front().userLine.line)
                                                         : std::string());
    else if (c.isRecompile())
        out << "recompiled";
    else
        out << toString(c.status);
    out << "\n\n";
    out << "**Function:** " << mdCode(c.coName) << " at " << placeOf(c.coFilename, c.coFirstLineno);
    if (t.files[c.file].rank)
        out << ", rank " << *t.files[c.file].rank;
    std::string site = callSite(why);
    if (!site.empty())
        out << ", " << site;
    out << "\n\n";
    if (why.resumesAfter)
        out << "This frame is the code after a graph break in "
            << compileName(t, why.resumesAfter->compile) << ".\n\n";

    if (c.isRecompile() && why.recompile)
        recompileSection(out, t, c, why);
    if (!why.graphBreaks.empty())
        graphBreakSection(out, t, why.graphBreaks);
    if (why.failure)
        failureSection(out, *why.failure);

    out << "### Key metrics\n\n| Metric | Value |\n| --- | --- |\n";
    out << "| Compile | " << c.id.display() << " (#" << c.index << " in the trace, "
        << c.attempts.size() << " attempt" << (c.attempts.size() == 1 ? "" : "s") << ") |\n";
    out << "| Status | " << toString(c.status) << " |\n";
    out << "| Duration | " << text::duration(c.durationUs()) << " (from " << toString(c.timeSource)
        << ") |\n";
    if (c.startUs > 0)
        out << "| Started | " << text::utcTime(c.startUs) << " |\n";
    PhaseTimes p = phaseTimes(c);
    std::vector<std::pair<double, size_t>> order;
    for (size_t i = 0; i < kPhaseGroupCount; ++i)
        if (p[i] > 0)
            order.push_back({ p[i], i });
    std::stable_sort(
        order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (!order.empty()) {
        out << "| Time by phase | ";
        for (size_t k = 0; k < order.size() && k < 4; ++k)
            out << (k ? " · " : "") << phaseGroupLabel(static_cast<PhaseGroup>(order[k].second))
                << " " << text::duration(order[k].first);
        out << " |\n";
    }
    auto opt = [](const std::optional<int64_t>& v) {
        return v ? std::to_string(*v) : std::string("not logged");
    };
    out << "| Guards | "
        << (c.guardCount      ? std::to_string(*c.guardCount)
                   : c.guards ? std::to_string(c.guards->guardCount())
                              : std::string("not logged"))
        << " |\n";
    out << "| Graph ops | " << opt(c.graphOpCount) << " |\n";
    if (!c.cacheEvents.empty()) {
        out << "| Cache | ";
        for (size_t k = 0; k < c.cacheEvents.size(); ++k) {
            const auto& e = c.cacheEvents[k];
            out << (k ? ", " : "") << mdCode(e.cache, true) << " "
                << (e.kind == CacheKind::Hit           ? "hit"
                           : e.kind == CacheKind::Miss ? "miss"
                                                       : "bypass");
        }
        out << " |\n";
    }
    if (c.frame != kNone) {
        const Frame& f = t.frames[c.frame];
        out << "| Compiles of this frame | " << f.compiles.size() << " |\n";
    }
    out << "| Trace | " << mdCode(text::baseName(t.files[c.file].path), true) << " |\n";

    // The findings that name this compile (core/analysis/findings.h), in rank order.
    bool header = false;
    for (const Finding& f : findings) {
        if (std::find(f.compiles.begin(), f.compiles.end(), index) == f.compiles.end())
            continue;
        if (!header)
            out << "\n### Findings about this compile\n\n";
        header = true;
        out << findingMarkdown(f);
    }
    out << "\n_Generated by dynascope " << DYNASCOPE_VERSION << "._\n";
    return out.str();
}

} // namespace dynascope
