#include "core/report/bug_report.h"

#include "core/report/phase_groups.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace dynascope {

namespace {
using text::mdCode;
using text::mdFence;

constexpr size_t kMaxTracebackLines = 40;

std::string loc(const std::string& file, int64_t line)
{
    return mdCode(std::string(text::baseName(file)) + ":" + std::to_string(line));
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

std::string callSite(const Compile& c)
{
    if (c.stack.size() < 2)
        return {};
    const StackFrame& caller = c.stack[c.stack.size() - 2];
    std::string s = "called from " + loc(caller.file, caller.line) + " in " + mdCode(caller.name);
    if (!caller.loc.empty())
        s += ": " + mdCode(caller.loc);
    return s;
}

void recompileSection(std::ostringstream& out, const Trace& t, const Compile& c)
{
    out << "### Why it recompiled\n\n";
    const RecompileReason* r = primaryReason(c);
    if (!r) {
        out << "This is recompile " << *c.id.frameCompile
            << " of the frame, but the trace logged no recompile reason (PyTorch before 2.5 does "
               "not).\n\n";
        return;
    }
    out << "1. **Recompile reason**"
        << (r->earlierCompile != kNone ? " (against " + idOf(t, r->earlierCompile) + ")" : "")
        << ": " << mdCode(r->detail.empty() ? r->text : r->detail) << "\n";
    if (r->guardNode >= 0 && r->earlierCompile != kNone && t.compiles[r->earlierCompile].guards) {
        const GuardTree& tree = *t.compiles[r->earlierCompile].guards;
        const GuardNode& g = tree.nodes[static_cast<size_t>(r->guardNode)];
        std::string source = tree.sourceOf(r->guardNode);
        out << "2. **Failed guard** in " << idOf(t, r->earlierCompile) << ": " << mdCode(g.kind);
        if (!source.empty())
            out << " on " << mdCode(source);
        if (!r->expected.empty() || !r->actual.empty())
            out << ", " << text::mdText(r->mismatch) << " expected " << mdCode(r->expected)
                << ", actual " << mdCode(r->actual);
        out << "\n\n" << mdFence(g.kind + ": " + g.expr);
        if (!g.where.empty())
            out << "\n   Guard installed at " << mdCode(g.where) << ".\n";
        if (!g.userStack.empty())
            out << "\n   User stack of the guard:\n\n" << mdFence(g.userStack);
        out << "\n";
    } else {
        out << "2. **Failed guard:** not found in the earlier compile's guard tree";
        if (!r->expected.empty() || !r->actual.empty())
            out << " (" << text::mdText(r->mismatch) << " expected " << mdCode(r->expected)
                << ", actual " << mdCode(r->actual) << ")";
        out << ".\n";
    }
    out << "3. **Source:** " << mdCode(c.coName) << " at " << loc(c.coFilename, c.coFirstLineno);
    std::string site = callSite(c);
    if (!site.empty())
        out << ", " << site;
    out << "\n\n";
    if (c.recompileReasons.size() > 1) {
        out << "It also failed against the older cache entries:\n\n";
        for (const auto& other : c.recompileReasons)
            if (&other != r)
                out << "- " << mdCode(text::firstLine(other.text)) << "\n";
        out << "\n";
    }
    // The values this guard saw along the frame, up to this compile.
    if (c.frame != kNone && !r->actual.empty()) {
        std::vector<std::string> values;
        std::vector<std::string> ids;
        for (uint32_t ci : t.frames[c.frame].compiles) {
            if (ci > c.index)
                break;
            const RecompileReason* p = primaryReason(t.compiles[ci]);
            if (!p || p->mismatch != r->mismatch || p->source != r->source)
                continue;
            if (!p->expected.empty() && (values.empty() || values.back() != p->expected))
                values.push_back(p->expected);
            if (!p->actual.empty())
                values.push_back(p->actual);
            ids.push_back(t.compiles[ci].id.display());
        }
        if (values.size() > 2) {
            std::string chain;
            for (size_t k = 0; k < values.size(); ++k)
                chain += (k ? " → " : "") + values[k];
            std::string source = r->source;
            if (r->guardNode >= 0 && r->earlierCompile != kNone
                && t.compiles[r->earlierCompile].guards)
                source = t.compiles[r->earlierCompile].guards->sourceOf(r->guardNode);
            out << "Values of " << mdCode(source) << " " << text::mdText(r->mismatch)
                << " that recompiled this frame so far: " << mdCode(chain) << "\n\n";
        }
    }
}

void graphBreakSection(std::ostringstream& out, const Trace& t, const Compile& c)
{
    out << "### Graph break" << (c.graphBreaks.size() > 1 ? "s" : "") << "\n\n";
    for (size_t i = 0; i < c.graphBreaks.size(); ++i) {
        const GraphBreak& gb = c.graphBreaks[i];
        if (c.graphBreaks.size() > 1)
            out << "#### " << i + 1 << ".\n\n";
        int step = 1;
        out << step++ << ". **Reason:** " << mdCode(text::firstLine(gb.reason));
        if (!gb.file.empty())
            out << " at " << loc(gb.file, gb.line) << " (" << mdCode(gb.file) << ")";
        out << "\n";
        if (gb.reason.find('\n') != std::string::npos)
            out << "\n" << mdFence(gb.reason) << "\n";
        std::string_view traceback = gb.traceback;
        if (traceback.starts_with("User code traceback:\n"))
            traceback.remove_prefix(std::string_view("User code traceback:\n").size());
        if (!traceback.empty())
            out << step++ << ". **User code traceback:**\n\n"
                << mdFence(text::headLines(traceback, kMaxTracebackLines)) << "\n";
        else if (!gb.userFrames.empty()) {
            std::string tb;
            for (const auto& f : gb.userFrames)
                tb += "  File \"" + f.file + "\", line " + std::to_string(f.line) + ", in " + f.name
                    + "\n";
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

void failureSection(std::ostringstream& out, const Compile& c)
{
    const Failure& f = *c.failure;
    out << "### Failure\n\n";
    out << "**" << mdCode(f.type.empty() ? f.rawType : f.type) << "**";
    if (!f.file.empty())
        out << " in user frame " << loc(f.file, f.line) << " (" << mdCode(f.file) << ")";
    out << "\n\n";
    if (!f.reason.empty())
        out << mdFence(f.reason) << "\n";
    if (!f.traceback.empty())
        out << "Traceback:\n\n"
            << mdFence(text::headLines(f.traceback, kMaxTracebackLines)) << "\n";
}
} // namespace

std::string bugReportMarkdown(const Trace& t, uint32_t index)
{
    if (index >= t.compiles.size())
        return {};
    const Compile& c = t.compiles[index];
    std::ostringstream out;
    const std::string name = compileName(t, index);
    out << "## torch.compile " << name << ": ";
    if (c.failure)
        out << "failed with "
            << mdCode(c.failure->type.empty() ? c.failure->rawType : c.failure->type);
    else if (!c.graphBreaks.empty())
        out << "graph break"
            << (c.graphBreaks.front().file.empty()
                       ? std::string()
                       : " at " + loc(c.graphBreaks.front().file, c.graphBreaks.front().line));
    else if (c.isRecompile())
        out << "recompiled";
    else
        out << toString(c.status);
    out << "\n\n";
    out << "**Function:** " << mdCode(c.coName) << " at "
        << mdCode(c.coFilename + ":" + std::to_string(c.coFirstLineno));
    if (t.files[c.file].rank)
        out << ", rank " << *t.files[c.file].rank;
    std::string site = callSite(c);
    if (!site.empty())
        out << ", " << site;
    out << "\n\n";
    if (c.frame != kNone && t.frames[c.frame].breakOrigin != kNone) {
        uint32_t origin = t.frames[c.frame].breakOrigin;
        out << "This frame is the code after a graph break in " << compileName(t, origin)
            << ".\n\n";
    }

    if (c.isRecompile())
        recompileSection(out, t, c);
    if (!c.graphBreaks.empty())
        graphBreakSection(out, t, c);
    if (c.failure)
        failureSection(out, c);

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
    out << "\n_Generated by dynascope " << DYNASCOPE_VERSION << "._\n";
    return out.str();
}

} // namespace dynascope
