#include "core/load/finish/compile_links.h"

#include "core/load/finish/graph_break_text.h"
#include "core/load/finish/recompile_linker.h"

#include <cstdlib>
#include <memory>
#include <unordered_map>

namespace dynascope {

namespace {

constexpr std::string_view kResume = "torch_dynamo_resume_in_";
constexpr size_t kStopCheck = 4096; // compiles between looks at the stop token

// Resume frames by the prefix a break's function gives them ("torch_dynamo_resume_in_f_at_"),
// each list in frame order. A frame is candidate for a break of compile C when nothing claimed
// it yet and its first compile comes after C; compiles are visited in order, so a frame that is
// not a candidate once never is again and each list is walked once by its cursors.
class ResumeIndex {
public:
    explicit ResumeIndex(const Trace& t)
        : m_trace(t)
        , m_claimed(t.frames.size(), false)
    {
        for (const Frame& f : t.frames) {
            if (f.compiles.empty() || !f.coName.starts_with(kResume))
                continue;
            // Every "_at_" can end the prefix (a function may be named look_at_me).
            for (size_t at = f.coName.find("_at_", kResume.size()); at != std::string::npos;
                 at = f.coName.find("_at_", at + 1)) {
                Candidates& c = m_byPrefix[f.coName.substr(0, at + 4)];
                c.all.frames.push_back(f.index);
                c.byLine[std::atoll(f.coName.c_str() + at + 4)].frames.push_back(f.index);
            }
        }
    }

    // The frame the break of compile `compile` at `line` resumes in: the first candidate whose
    // name has that line, else the first candidate; kNone when there is none. Claims it.
    uint32_t claim(const std::string& prefix, uint32_t compile, int64_t line)
    {
        auto it = m_byPrefix.find(prefix);
        if (it == m_byPrefix.end())
            return kNone;
        uint32_t best = kNone;
        if (line > 0) {
            if (auto l = it->second.byLine.find(line); l != it->second.byLine.end())
                best = next(l->second, compile);
        }
        if (best == kNone)
            best = next(it->second.all, compile);
        if (best != kNone)
            m_claimed[best] = true;
        return best;
    }

private:
    struct List {
        std::vector<uint32_t> frames;
        size_t cursor = 0;
    };
    struct Candidates {
        List all;
        std::unordered_map<int64_t, List> byLine;
    };
    uint32_t next(List& l, uint32_t compile)
    {
        while (l.cursor < l.frames.size()) {
            const uint32_t f = l.frames[l.cursor];
            if (!m_claimed[f] && m_trace.frames[f].compiles.front() > compile)
                return f;
            ++l.cursor;
        }
        return kNone;
    }

    const Trace& m_trace;
    std::vector<bool> m_claimed;
    std::unordered_map<std::string, Candidates> m_byPrefix;
};

} // namespace

void linkGraphBreaks(
    Trace& t, std::vector<std::vector<GraphBreak>>& artifactBreaks, std::stop_token stop)
{
    ResumeIndex resumes(t);
    for (auto& comp : t.compiles) {
        if (comp.index % kStopCheck == 0 && stop.stop_requested())
            return;
        if (comp.index < artifactBreaks.size() && !artifactBreaks[comp.index].empty()) {
            comp.graphBreaks = std::move(artifactBreaks[comp.index]);
        } else {
            for (const auto& r : comp.restartReasons) {
                if (isRestartWithoutBreak(r))
                    continue; // "<class '...TensorifyScalarRestartAnalysis'>": not a break
                comp.graphBreaks.push_back(parseGraphBreakReason(r));
            }
        }
        if (comp.graphBreaks.empty() || comp.coName.empty())
            continue;
        // A resume function's own breaks resume in frames named after the original function.
        std::string base = comp.coName;
        if (base.starts_with(kResume)) {
            base = base.substr(kResume.size());
            if (auto at = base.rfind("_at_"); at != std::string::npos)
                base.resize(at);
        }
        const std::string prefix = std::string(kResume) + base + "_at_";
        for (auto& gb : comp.graphBreaks) {
            const uint32_t best = resumes.claim(prefix, comp.index, gb.line);
            if (best == kNone)
                continue;
            gb.resumeFrame = best;
            gb.resumeCompile = t.frames[best].compiles.front();
            t.frames[best].breakOrigin = comp.index;
            if (gb.file.empty()) {
                // restart_reasons carry no location: the resume frame's name has the line.
                gb.file = comp.coFilename;
                gb.line = std::atoll(t.frames[best].coName.c_str() + prefix.size());
            }
        }
    }
}

void linkRecompileReasons(Trace& t, std::vector<std::vector<std::string>>& reasonTexts,
    StringPool& pool, std::stop_token stop)
{
    // Guard trees of the earlier compiles that reasons name, parsed once here and not kept.
    std::unordered_map<uint32_t, std::shared_ptr<const GuardTree>> trees;
    // The latest compile so far of each id: the one a later reason naming that id means.
    std::unordered_map<std::string, uint32_t> latest;
    for (auto& comp : t.compiles) {
        if (comp.index % kStopCheck == 0 && stop.stop_requested())
            return;
        std::vector<std::string> texts;
        if (comp.index < reasonTexts.size())
            texts = std::move(reasonTexts[comp.index]);
        if (texts.empty() && !comp.recompileReasonMetric.empty())
            texts.push_back(comp.recompileReasonMetric);
        for (const auto& text : texts) {
            RecompileReason r = parseRecompileReason(text, pool);
            if (r.earlierKey.empty() && comp.isRecompile() && comp.id.frame) {
                // A reason without an id is about the previous compile of the frame.
                CompileId prev = comp.id;
                prev.frameCompile = *comp.id.frameCompile - 1;
                r.earlierKey = prev.key();
            }
            if (auto it = latest.find(r.earlierKey); it != latest.end())
                r.earlierCompile = it->second;
            if (r.earlierCompile != kNone && t.compiles[r.earlierCompile].guards) {
                auto& tree = trees[r.earlierCompile];
                if (!tree)
                    tree = t.compiles[r.earlierCompile].guards.parseTransient();
                r.guardNode = matchGuard(r, *tree);
                if (r.source.empty() && r.guardNode >= 0)
                    r.source = tree->sourceOf(r.guardNode);
            }
            comp.recompileReasons.push_back(std::move(r));
        }
        latest[comp.id.key()] = comp.index;
    }
}

} // namespace dynascope
