// The trace model of TORCH_LOGS text (torch_logs.h): statements (statement_reader.h) -> one
// Trace part per process, merged with appendTrace like the files of a folder.
#include "core/load/logs/torch_logs.h"

#include "core/io/input_buffer.h"
#include "core/io/trace_source.h"
#include "core/load/finish/append_trace.h"
#include "core/load/finish/compile_links.h"
#include "core/load/finish/graph_break_text.h"
#include "core/load/finish/recompile_linker.h"
#include "core/load/finish/status.h"
#include "core/load/logs/log_messages.h"
#include "core/load/logs/statement_reader.h"
#include "core/parse/content_kind.h"
#include "core/parse/kind_names.h"
#include "core/parse/log_line.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <map>
#include <set>
#include <unordered_map>

namespace dynascope::logs {

namespace {

constexpr int64_t kAbsent = INT64_MIN;
using IdKey = std::array<int64_t, 3>; // compiled autograd, frame, frame compile
using FrameKey = std::array<int64_t, 2>; // compiled autograd, frame

IdKey keyOf(const CompileId& id)
{
    return { id.compiledAutograd.value_or(kAbsent), id.frame.value_or(kAbsent),
        id.frameCompile.value_or(kAbsent) };
}

// The kind of a statement: the TORCH_LOGS name that logged it (what the user put in
// TORCH_LOGS), from its artifact tag or its module.
std::string kindOf(const LogLine& l, std::string_view message)
{
    if (!l.artifact.empty())
        return std::string(l.artifact);
    const std::string_view e = l.emitter;
    if (e.find("fx/experimental/symbolic_shapes") != std::string_view::npos
        || message.starts_with("marking ") || e.find("_dynamo/pgo.py") != std::string_view::npos)
        return "dynamic";
    if (e.find("torch/_dynamo/") != std::string_view::npos)
        return "dynamo";
    if (e.find("torch/_inductor/") != std::string_view::npos)
        return "inductor";
    if (e.find("torch/_functorch/") != std::string_view::npos)
        return "aot";
    if (e.find("torch/distributed/") != std::string_view::npos)
        return "distributed";
    return "torch";
}

// The year the prefixes' dates belong to: the text carries none. The file's modification time
// (or now, for text from memory), a year earlier when the log's month and day come after it.
struct YearHint {
    int year = 1970;
    int month = 1, day = 1;
};
YearHint yearHint(const std::string& path)
{
    std::time_t when = std::time(nullptr);
    struct stat st { };
    if (!path.empty() && path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        when = st.st_mtime;
    std::tm tm {};
    gmtime_r(&when, &tm);
    return { tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday };
}

struct Group {
    int64_t rank = -1;
    uint64_t pid = 0;
    std::vector<uint32_t> statements; // indices into ReadResult::statements
};

class PartBuilder {
public:
    PartBuilder(const FileBuildInput& in, std::shared_ptr<const InputBuffer> text,
        const ReadResult& read, const Group& group, const YearHint& year)
        : m_text(std::move(text))
        , m_read(read)
        , m_group(group)
        , m_trace(std::make_unique<Trace>())
    {
        m_trace->pools.push_back(m_pool);
        TraceFile f;
        f.path = in.path;
        f.source = TraceSource::fromMemory(m_text);
        f.bytes = in.buffer->fileBytes();
        f.decodedBytes = in.buffer->size();
        f.compression = toString(in.buffer->compression());
        f.format = TraceFormat::TorchLogs;
        if (group.rank >= 0)
            f.rank = group.rank;
        f.year = year.year;
        m_year = year;
        m_trace->files.push_back(std::move(f));
    }

    std::unique_ptr<Trace> run()
    {
        auto& t = *m_trace;
        t.records.reserve(m_group.statements.size());
        bool yearSet = false;
        for (uint32_t s : m_group.statements) {
            const StatementInfo& st = m_read.statements[s];
            if (!yearSet) {
                // A log dated after the file was written is from the year before.
                auto l = parseLogLine(m_text->view().substr(st.offset, st.headerLength));
                if (l
                    && (l->month > m_year.month
                        || (l->month == m_year.month && l->day > m_year.day)))
                    t.files[0].year = m_year.year - 1;
                yearSet = true;
            }
            process(st);
        }
        finish();
        return std::move(m_trace);
    }

private:
    uint16_t internKind(std::string_view kind) { return m_kinds.intern(kind); }

    double epochUs(const Record& r) const { return glogEpochUs(r, m_trace->files[0].year, 0); }

    uint32_t newCompile(const CompileId& id, uint32_t idx)
    {
        auto& t = *m_trace;
        const auto c = static_cast<uint32_t>(t.compiles.size());
        Compile comp;
        comp.index = c;
        comp.file = 0;
        comp.id = id;
        comp.id.attempt = 0;
        comp.startRecord = idx;
        t.compiles.push_back(std::move(comp));
        m_closed.push_back(false);
        m_closedAt.push_back(kNone);
        m_body.push_back(false);
        m_reasons.emplace_back();
        m_keys[keyOf(id)] = c;
        return c;
    }

    void process(const StatementInfo& st)
    {
        auto& t = *m_trace;
        const auto idx = static_cast<uint32_t>(t.records.size());
        const std::string_view header = m_text->view().substr(st.offset, st.headerLength);
        const auto l = parseLogLine(header);
        Record rec;
        rec.offset = st.offset;
        rec.headerLength = st.headerLength;
        rec.payloadLength = st.payloadLength;
        rec.line = st.line;
        if (st.cut)
            rec.flags |= kTruncated;
        if (l) {
            rec.glogMs = l->msOfDay;
            rec.glogDate = static_cast<uint16_t>(l->month * 32 + l->day);
        }
        t.records.push_back(rec);
        if (!l) {
            t.records.back().kind = internKind("torch");
            return;
        }
        std::string message(l->message);
        if (st.payloadLength) {
            message += '\n';
            message += t.payload(idx);
        }
        const std::string kind = kindOf(*l, message);
        t.records.back().kind = internKind(kind);
        if (m_kindCount.size() <= t.records.back().kind)
            m_kindCount.resize(t.records.back().kind + 1u);
        ++m_kindCount[t.records.back().kind];

        // What the statement says, before choosing its compile: a statement that begins the
        // work of a compile opens a new one when its id's compile already finished.
        // Only the graph_breaks artifact: Dynamo also warns "Graph break from `Tensor.item()`,
        // consider setting: ..." before the break itself is logged.
        const bool graphBreak = kind == "graph_breaks";
        std::optional<Recompiling> recompiling;
        if (kind.starts_with("recompiles") || message.starts_with("Recompiling function "))
            recompiling = parseRecompiling(message);
        const bool tree
            = kind == "guards" && message.find("TREE_GUARD_MANAGER:") != std::string::npos;
        const bool guardsHead = kind == "guards" && message.starts_with("GUARDS:");
        const bool latency = kind == "guards" && message.starts_with("Guard eval latency");
        std::optional<DynamoStart> start;
        if (message.starts_with("torchdynamo start compiling ")
            || message.starts_with("Step 1: torchdynamo start tracing "))
            start = parseDynamoStart(message, *m_pool);
        std::vector<ShapeEvent> shapes;
        if (kind == "dynamic")
            shapes = parseShapeEvents(message, *m_pool);
        std::optional<RecompileLimit> limit;
        if (message.starts_with("torch._dynamo hit config."))
            limit = parseRecompileLimit(message);
        const bool begins = graphBreak || recompiling || tree || guardsHead || start
            || message == "create_env" || !shapes.empty();

        std::optional<CompileId> id;
        if (!l->compileId.empty())
            id = CompileId::parse(l->compileId);
        if (!id)
            return; // not about a compile: "skipping: ...", Dynamo's summary at exit, warnings
        uint32_t c;
        auto it = m_keys.find(keyOf(*id));
        if (it == m_keys.end() || (m_closed[it->second] && begins))
            c = newCompile(*id, idx);
        else
            c = it->second;
        Compile& comp = t.compiles[c];
        t.records[idx].compile = c;
        comp.records.push_back(idx);
        auto at = std::find_if(comp.attempts.begin(), comp.attempts.end(),
            [&](const Attempt& a) { return a.attempt == id->attempt; });
        if (at == comp.attempts.end())
            comp.attempts.push_back({ id->attempt, idx, 1 });
        else
            ++at->recordCount;
        if (!recompiling && !limit)
            m_body[c] = true;

        const FrameKey frame { id->compiledAutograd.value_or(kAbsent),
            id->frame.value_or(kAbsent) };
        if (graphBreak && message.starts_with("WON'T CONVERT ")) {
            // Dynamo gave up on the frame (torch/_dynamo/exc.py, format_error_msg_verbose):
            // "WON'T CONVERT NAME FILE line N" and its exception. Not a break; it names the frame.
            if (auto ref = wontConvertRef(message))
                nameFrame(frame, *ref, NameFrom::Statement);
        } else if (graphBreak) {
            for (std::string_view text : splitGraphBreaks(message)) {
                CodeRef skipped;
                GraphBreak gb = graphBreakOf(text, st.line, skipped);
                if (!skipped.name.empty())
                    nameFrame(frame, skipped, NameFrom::Statement);
                gb.record = idx;
                comp.graphBreaks.push_back(std::move(gb));
            }
        }
        if (recompiling) {
            nameFrame(frame, recompiling->function, NameFrom::Statement);
            for (auto& r : recompiling->reasons)
                m_reasons[c].push_back(std::move(r));
        }
        if (start) {
            nameFrame(frame, start->function, NameFrom::Start);
            if (start->compiling)
                comp.stack = std::move(start->stack);
        }
        if (tree) {
            comp.guardsRecord = idx;
            comp.guards = LazyGuardTree::fromRecord(m_trace->files[0].source, t.records[idx], true);
            resumeNames(frame, message);
        }
        if ((tree || latency) && (!m_closed[c] || m_closedAt[c] + 8 > idx)) {
            // Its guards: the dump, then the latency just after it (a later statement of its
            // id after other work is not part of it).
            m_closed[c] = true;
            m_closedAt[c] = idx;
        }
        for (auto& ev : shapes) {
            ev.record = idx;
            comp.shapeEvents.push_back(std::move(ev));
        }
        if (limit) {
            if (!limit->function.name.empty())
                nameFrame(frame, limit->function, NameFrom::Statement);
            Failure f;
            std::string reason(message);
            if (const size_t tail = reason.find("\nTo log all recompilation reasons");
                tail != std::string::npos)
                reason.resize(tail);
            f.reason = std::move(reason);
            f.record = idx;
            f.recompileLimit = true;
            f.layer = "dynamo";
            comp.failure = std::move(f);
        }
    }

    // "WON'T CONVERT forward /x/prog.py line 12" -> forward, /x/prog.py, 12.
    static std::optional<CodeRef> wontConvertRef(std::string_view message)
    {
        std::string_view first = message.substr(0, message.find('\n'));
        first.remove_prefix(std::string_view("WON'T CONVERT ").size());
        const size_t space = first.find(' ');
        const size_t at = first.rfind(" line ");
        if (space == std::string_view::npos || at == std::string_view::npos || at <= space)
            return std::nullopt;
        CodeRef ref;
        ref.name = std::string(first.substr(0, space));
        ref.file = std::string(first.substr(space + 1, at - space - 1));
        ref.line = std::atoll(std::string(first.substr(at + 6)).c_str());
        return ref;
    }

    // The graph break text of every header form PyTorch 2.6 to 2.14 logs (docs/formats.md):
    // "Graph break in user code at FILE:LINE" with its reason and traceback; the same break
    // again, "Graph break (user stack suppressed due to duplicate graph break) in user code at
    // FILE:LINE" (parseGraphBreakText reads both); a break Dynamo cannot resume from,
    // "Graph break: torch.compile cannot properly resume from this graph break, which results
    // in a skip.\ntorch.compile will skip tracing the frame NAME (FILE line N) and fall back to
    // eager.\nThe graph break occurred in the following user code:\n  File ..."
    // (convert_frame.py), which also names the frame (`skipped`); and the older one-line form
    // "Graph break: REASON from user code at:\n  File ...".
    GraphBreak graphBreakOf(std::string_view text, uint32_t line, CodeRef& skipped)
    {
        constexpr std::string_view kCannotResume
            = "Graph break: torch.compile cannot properly resume from this graph break";
        if (text.starts_with(kCannotResume)) {
            GraphBreak gb;
            const std::string_view first = text.substr(0, text.find('\n'));
            gb.reason = std::string(first.substr(std::string_view("Graph break: ").size()));
            gb.skipsFrame = true;
            constexpr std::string_view kFrame = "torch.compile will skip tracing the frame ";
            if (const size_t f = text.find(kFrame); f != std::string_view::npos) {
                std::string_view rest = text.substr(f + kFrame.size());
                rest = rest.substr(0, rest.find('\n'));
                const size_t open = rest.find(" (");
                const size_t lineAt = rest.rfind(" line ");
                const size_t close = rest.rfind(')');
                if (open != std::string_view::npos && lineAt != std::string_view::npos
                    && close != std::string_view::npos && open < lineAt && lineAt < close) {
                    skipped.name = std::string(rest.substr(0, open));
                    skipped.file = std::string(rest.substr(open + 2, lineAt - open - 2));
                    skipped.line = std::atoll(
                        std::string(rest.substr(lineAt + 6, close - lineAt - 6)).c_str());
                }
            }
            constexpr std::string_view kCode
                = "The graph break occurred in the following user code:\n";
            if (const size_t c = text.find(kCode); c != std::string_view::npos) {
                std::string_view stack = text.substr(c + kCode.size());
                // The exception's own traceback (exc_info) follows the user code.
                if (const size_t tb = stack.find("Traceback (most recent call last)");
                    tb != std::string_view::npos)
                    stack = stack.substr(0, tb);
                gb.userFrames = parsePythonTraceback(stack, *m_pool);
                gb.traceback = std::string(stack);
            }
            if (!gb.userFrames.empty()) {
                gb.file = gb.userFrames.back().file;
                gb.line = gb.userFrames.back().line;
            }
            return gb;
        }
        if (!text.starts_with("Graph break")) {
            // The text starts inside the message (a paste cut at its top): its first lines, the
            // location and the reason, are gone; what is left (sections, traceback) is kept.
            GraphBreak gb
                = parseGraphBreakText("Graph Break Reason: \n" + std::string(text), *m_pool);
            gb.reason.clear();
            m_trace->diagnostics.push_back(
                { Severity::Warning, DiagnosticCode::TruncatedRecord, m_trace->files[0].path, line,
                    "this graph-break message starts in the middle (the text was cut above it): "
                    "its location and reason are not in the text" });
            return gb;
        }
        constexpr std::string_view kOld = "Graph break: ";
        constexpr std::string_view kFrom = " from user code at:";
        if (text.starts_with(kOld)) {
            std::string_view first = text.substr(0, text.find('\n'));
            if (const size_t from = first.find(kFrom); from != std::string_view::npos) {
                GraphBreak gb
                    = parseGraphBreakReason(first.substr(kOld.size(), from - kOld.size()));
                const std::string_view rest
                    = text.size() > first.size() ? text.substr(first.size() + 1) : "";
                gb.userFrames = parsePythonTraceback(rest, *m_pool);
                gb.traceback = std::string(rest);
                if (!gb.userFrames.empty()) {
                    gb.file = gb.userFrames.back().file;
                    gb.line = gb.userFrames.back().line;
                }
                return gb;
            }
        }
        return parseGraphBreakText(text, *m_pool);
    }

    // How sure a name is, weakest first: read from a guard's comment, from a recompile or limit
    // statement ("Recompiling function scale in example.py:36"), from Dynamo's start line.
    enum class NameFrom { None, GuardComment, Statement, Start };

    void nameFrame(const FrameKey& frame, const CodeRef& ref, NameFrom from)
    {
        auto& slot = m_frameNames[frame];
        if (from > slot.from) {
            slot.name = ref.name;
            slot.file = ref.file;
            slot.line = ref.line;
            slot.from = from;
        }
    }

    // A resume function's guard dump names it: "# return y.neg()  # example.py:33 in
    // torch_dynamo_resume_in_step_at_31". Resume functions are compiled frames, never inlined.
    // Other guards' comments name where the guard was made, often a function inlined into the
    // frame (nn/modules/linear.py's forward for an input first read there): not the frame.
    void resumeNames(const FrameKey& frame, std::string_view text)
    {
        if (m_frameNames[frame].from >= NameFrom::GuardComment)
            return;
        constexpr std::string_view kIn = " in torch_dynamo_resume_in_";
        const size_t p = text.find(kIn);
        if (p == std::string_view::npos)
            return;
        const size_t nameStart = p + 4;
        size_t nameEnd = nameStart;
        while (nameEnd < text.size() && text[nameEnd] != ' ' && text[nameEnd] != '\n'
            && text[nameEnd] != '(' && text[nameEnd] != '\r')
            ++nameEnd;
        const size_t hash = text.rfind("  # ", p);
        const size_t lineStart = text.rfind('\n', p);
        CodeRef ref;
        ref.name = std::string(text.substr(nameStart, nameEnd - nameStart));
        if (hash != std::string_view::npos
            && (lineStart == std::string_view::npos || hash > lineStart)) {
            std::string_view where = text.substr(hash + 4, p - hash - 4);
            if (const size_t colon = where.rfind(':'); colon != std::string_view::npos)
                ref.file = std::string(where.substr(0, colon));
        }
        nameFrame(frame, ref, NameFrom::GuardComment);
    }

    void finish()
    {
        auto& t = *m_trace;
        for (size_t k = 0; k < m_kindCount.size(); ++k)
            if (m_kindCount[k])
                t.kindCounts[t.kindNames[k]] += m_kindCount[k];
        for (auto& comp : t.compiles) {
            // A compile the recompile limit stopped has no work of its own, like the
            // TORCH_TRACE's compile without dynamo_start.
            if (comp.failure && comp.failure->recompileLimit && !m_body[comp.index])
                comp.startRecord = kNone;
            skippedFrameFailure(comp);
            std::sort(comp.attempts.begin(), comp.attempts.end(),
                [](const Attempt& a, const Attempt& b) { return a.attempt < b.attempt; });
        }
        times();
        wholePaths();
        frames();
        linkGraphBreaks();
        // The same linking as a trace file's (core/load/finish/compile_links.h).
        linkRecompileReasons(*m_trace, m_reasons, *m_pool, {});
        for (auto& comp : t.compiles)
            comp.status = computeStatus(comp, TraceFormat::TorchLogs);
        TraceFile& f = t.files[0];
        f.recordCount = static_cast<uint32_t>(t.records.size());
    }

    // "Graph Break Reason: Failed to handle graph break gracefully. Skipping the function and
    // falling back to eager. Graph break encountered: ..." (a break in a loop, or one Dynamo
    // cannot resume from): Dynamo raised Unsupported out of the frame and ran it in eager. The
    // trace has it as the compile's failure (compilation_metrics' fail_type), the text only in
    // the break's message: read it as the same failure.
    static void skippedFrameFailure(Compile& comp)
    {
        if (comp.failure)
            return;
        for (const GraphBreak& gb : comp.graphBreaks) {
            if (!gb.skipsFrame)
                continue;
            Failure f;
            f.type = f.rawType = "Unsupported";
            f.reason = std::string(withoutReasonLead(gb.reason));
            f.file = gb.file;
            f.line = gb.line;
            f.record = gb.record;
            comp.failure = std::move(f);
            describeFailure(comp);
            return;
        }
    }

    // PyTorch shortens the paths in guard comments (torch/utils/_traceback.py,
    // shorten_filename: len(commonpath) + 1 characters off the front, which can cut into a
    // folder's name: "mp/cb/prog.py" for /tmp/cb/prog.py). A frame's file given that way is
    // the one whole path the text gives elsewhere (tracebacks, Dynamo's stack) that ends so.
    void wholePaths()
    {
        std::set<std::string, std::less<>> whole;
        auto add = [&](std::string_view f) {
            if (f.starts_with('/'))
                whole.emplace(f);
        };
        for (const auto& comp : m_trace->compiles) {
            for (const auto& gb : comp.graphBreaks) {
                add(gb.file);
                for (const auto& f : gb.userFrames)
                    add(f.file);
            }
            for (const auto& f : comp.stack)
                add(f.file);
        }
        for (auto& [key, name] : m_frameNames) {
            if (name.file.empty() || name.file.starts_with('/'))
                continue;
            const std::string* match = nullptr;
            bool unique = true;
            for (const std::string& w : whole)
                if (w.size() > name.file.size() && w.ends_with(name.file)) {
                    unique = match == nullptr;
                    match = &w;
                }
            if (match && unique)
                name.file = *match;
        }
    }

    void times()
    {
        auto& t = *m_trace;
        for (auto& comp : t.compiles) {
            double first = 0, last = 0;
            for (uint32_t r : comp.records) {
                // Statements after the compile installed its guards are later work logged
                // under its id (the backward graph compiled at the first backward call).
                if (m_closedAt[comp.index] != kNone && r > m_closedAt[comp.index])
                    break;
                const double us = epochUs(t.records[r]);
                if (us <= 0)
                    continue;
                if (first == 0 || us < first)
                    first = us;
                last = std::max(last, us);
            }
            // One time for all its statements says when, not how long: no duration.
            if (first > 0 && last > first) {
                comp.startUs = first;
                comp.endUs = last;
                comp.timeSource = TimeSource::Glog;
            }
        }
    }

    void frames()
    {
        auto& t = *m_trace;
        std::map<FrameKey, uint32_t> byKey;
        for (auto& comp : t.compiles) {
            const FrameKey key { comp.id.compiledAutograd.value_or(kAbsent),
                comp.id.frame.value_or(kAbsent) };
            auto it = byKey.find(key);
            uint32_t fi;
            if (it == byKey.end()) {
                fi = static_cast<uint32_t>(t.frames.size());
                Frame f;
                f.index = fi;
                f.file = 0;
                f.frameId = comp.id.frame;
                f.compiledAutograd = comp.id.compiledAutograd;
                if (auto n = m_frameNames.find(key); n != m_frameNames.end()) {
                    f.coName = n->second.name;
                    f.coFilename = n->second.file;
                    f.coFirstLineno = n->second.line;
                    // A resume function's first line is the line in its name
                    // (torch/_dynamo/resume_execution.py: co_firstlineno = lineno).
                    if (!f.coFirstLineno && f.coName.starts_with("torch_dynamo_resume_in_"))
                        if (const size_t at = f.coName.rfind("_at_"); at != std::string::npos)
                            f.coFirstLineno = std::atoll(f.coName.c_str() + at + 4);
                }
                t.frames.push_back(std::move(f));
                byKey.emplace(key, fi);
            } else {
                fi = it->second;
            }
            comp.frame = fi;
            t.frames[fi].compiles.push_back(comp.index);
        }
        for (auto& comp : t.compiles)
            nameCompile(comp);
    }

    void nameCompile(Compile& comp)
    {
        const Frame& f = m_trace->frames[comp.frame];
        comp.coName = f.coName;
        comp.coFilename = f.coFilename;
        comp.coFirstLineno = f.coFirstLineno;
    }

    // Graph breaks -> the resume frame PyTorch compiled for the code after them,
    // torch_dynamo_resume_in_<function>_at_<line>, where <function> is the frame that broke
    // and <line> its line: one of the break's user frames. A break in a frame the text does
    // not name gets its name from there.
    void linkGraphBreaks()
    {
        auto& t = *m_trace;
        constexpr std::string_view kResume = "torch_dynamo_resume_in_";
        // Resume frames by (function, line), by function and by line, in frame order (which is
        // the order of their first compiles). Each list has a cursor past the frames no later
        // break can take (taken, or compiled before the compile now linked), so the linking is
        // linear, not frames x breaks.
        struct Candidates {
            std::vector<uint32_t> frames;
            size_t next = 0;
        };
        std::map<std::pair<std::string, int64_t>, Candidates> byBoth;
        std::map<std::string, Candidates> byName;
        std::map<int64_t, Candidates> byLine;
        std::vector<std::pair<std::string, int64_t>> resumeOf(t.frames.size());
        for (const auto& f : t.frames) {
            if (f.compiles.empty() || !f.coName.starts_with(kResume))
                continue;
            const std::string_view rest = std::string_view(f.coName).substr(kResume.size());
            const size_t at = rest.rfind("_at_");
            if (at == std::string_view::npos)
                continue;
            const std::string fn(rest.substr(0, at));
            const int64_t line = std::atoll(std::string(rest.substr(at + 4)).c_str());
            resumeOf[f.index] = { fn, line };
            byBoth[{ fn, line }].frames.push_back(f.index);
            byName[fn].frames.push_back(f.index);
            byLine[line].frames.push_back(f.index);
        }
        std::vector<bool> claimed(t.frames.size(), false);
        // The first frame of a list this compile's break can take (kNone when none).
        auto first = [&](Candidates* c, uint32_t compile) -> uint32_t {
            if (!c)
                return kNone;
            while (c->next < c->frames.size()
                && (claimed[c->frames[c->next]]
                    || t.frames[c->frames[c->next]].compiles.front() <= compile))
                ++c->next;
            return c->next < c->frames.size() ? c->frames[c->next] : kNone;
        };
        auto find = [](auto& map, const auto& key) -> Candidates* {
            auto it = map.find(key);
            return it == map.end() ? nullptr : &it->second;
        };
        for (auto& comp : t.compiles) {
            std::string base = comp.coName;
            if (base.starts_with(kResume)) {
                base = base.substr(kResume.size());
                base.resize(std::min(base.size(), base.rfind("_at_")));
            }
            for (auto& gb : comp.graphBreaks) {
                // Best first: the frame's own name at the break's line; a user frame of the
                // break, outermost first from the frame's own (a break inside an inlined call
                // resumes the compiled frame after the call: resume_in_forward_at_14 for a
                // break at helper:7 called from forward:14); the frame's own name at another
                // line; with no name, the break's line.
                uint32_t best = kNone;
                if (!base.empty())
                    best = first(find(byBoth, std::make_pair(base, gb.line)), comp.index);
                size_t outermost = 0;
                for (size_t k = 0; !base.empty() && k < gb.userFrames.size(); ++k)
                    if (gb.userFrames[k].name == base) {
                        outermost = k;
                        break;
                    }
                for (size_t k = outermost; best == kNone && k < gb.userFrames.size(); ++k)
                    best = first(find(byBoth,
                                     std::make_pair(std::string(gb.userFrames[k].name),
                                         gb.userFrames[k].line)),
                        comp.index);
                if (best == kNone && !base.empty())
                    best = first(find(byName, base), comp.index);
                if (best == kNone && base.empty())
                    best = first(find(byLine, gb.line), comp.index);
                if (best == kNone)
                    continue;
                claimed[best] = true;
                gb.resumeFrame = best;
                gb.resumeCompile = t.frames[best].compiles.front();
                t.frames[best].breakOrigin = comp.index;
                Frame& self = t.frames[comp.frame];
                if (self.coName.empty()) {
                    self.coName = resumeOf[best].first;
                    for (const auto& uf : gb.userFrames)
                        if (uf.name == self.coName)
                            self.coFilename = uf.file;
                    // No user frames (a duplicate break's stack is suppressed): the break at
                    // the resume's own line is in the frame's own file.
                    if (gb.userFrames.empty() && resumeOf[best].second == gb.line)
                        self.coFilename = gb.file;
                    for (uint32_t c : self.compiles)
                        nameCompile(t.compiles[c]);
                    base = self.coName;
                }
            }
        }
    }

    struct FrameName {
        std::string name, file;
        int64_t line = 0;
        NameFrom from = NameFrom::None;
    };

    std::shared_ptr<const InputBuffer> m_text;
    const ReadResult& m_read;
    const Group& m_group;
    std::unique_ptr<Trace> m_trace;
    YearHint m_year;
    KindNames m_kinds { m_trace->kindNames }; // after m_trace
    // The stacks' texts (the trace keeps it in Trace::pools).
    std::shared_ptr<StringPool> m_pool = std::make_shared<StringPool>();
    std::vector<uint64_t> m_kindCount;
    std::map<IdKey, uint32_t> m_keys;
    std::vector<bool> m_closed, m_body;
    std::vector<uint32_t> m_closedAt; // the statement that finished the compile (its guards)
    std::vector<std::vector<std::string>> m_reasons;
    std::map<FrameKey, FrameName> m_frameNames;
};

std::string count(uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

void addReadDiagnostics(Trace& t, const std::string& path, const ReadResult& read)
{
    auto diag = [&](Severity s, DiagnosticCode c, uint64_t line, std::string msg) {
        t.diagnostics.push_back({ s, c, path, line, std::move(msg) });
    };
    if (read.foreignLines) {
        std::string msg = count(read.foreignLines, "line is", "lines are")
            + " not PyTorch log lines (the program's own output, blank lines";
        if (read.otherLoggerLines)
            msg += ", " + std::to_string(read.otherLoggerLines) + " from other loggers";
        msg += "), lines " + std::to_string(read.firstForeignLine) + "-"
            + std::to_string(read.lastForeignLine) + "; ignored";
        diag(Severity::Info, DiagnosticCode::BadPrefix, read.firstForeignLine, std::move(msg));
    }
    if (read.traceHeaderLines)
        diag(Severity::Warning, DiagnosticCode::Other, 0,
            count(read.traceHeaderLines, "line is a TORCH_TRACE record",
                "lines are TORCH_TRACE records")
                + " inside TORCH_LOGS text; open the TORCH_TRACE file itself to read them");
    if (read.wrapColumns)
        diag(Severity::Info, DiagnosticCode::Other, 0,
            "the text is wrapped at " + std::to_string(read.wrapColumns)
                + " columns (a terminal paste): "
                + count(read.joinedLines, "wrapped part", "wrapped parts")
                + " joined to the lines they continue");
    if (read.cutColumns)
        diag(Severity::Warning, DiagnosticCode::TruncatedRecord, 0,
            count(read.cutLines, "log line ends", "log lines end") + " at column "
                + std::to_string(read.cutColumns)
                + ": the paste cut them there, and what they lost is not in the text");
    if (read.endsMidLine && !read.cutColumns)
        diag(Severity::Warning, DiagnosticCode::TruncatedRecord, read.lines,
            "the text ends in the middle of a line (cut while writing or copying)");
}

} // namespace

std::unique_ptr<Trace> buildTorchLogs(const FileBuildInput& input)
{
    ReadResult read = readStatements(input.buffer->view(), input.stop);
    if (input.progress)
        input.progress(input.buffer->size() / 2);
    std::string error;
    // The statements' text is the file's buffer from here on (the input's bytes go).
    std::shared_ptr<const InputBuffer> text = InputBuffer::fromBytes(read.text, ~0ull, error);
    read.text = std::string();
    // One part per process: rank first (torch.distributed), then process id.
    std::map<std::pair<int64_t, uint64_t>, Group> groups;
    for (uint32_t i = 0; i < read.statements.size(); ++i) {
        const StatementInfo& st = read.statements[i];
        const auto l = parseLogLine(text->view().substr(st.offset, st.headerLength));
        const int64_t rank = l && l->rank ? *l->rank : -1;
        const uint64_t pid = l ? l->pid : 0;
        Group& g = groups[{ rank, pid }];
        g.rank = rank;
        g.pid = pid;
        g.statements.push_back(i);
    }
    const YearHint year = yearHint(input.path);
    auto trace = std::make_unique<Trace>();
    if (groups.empty()) {
        Group none;
        groups[{ -1, 0 }] = none;
    }
    bool first = true;
    for (auto& [key, group] : groups) {
        std::unique_ptr<Trace> part = PartBuilder(input, text, read, group, year).run();
        if (first) {
            part->files[0].badLines = read.foreignLines;
            addReadDiagnostics(*part, input.path, read);
            if (read.cancelled)
                part->diagnostics.push_back({ Severity::Warning, DiagnosticCode::Other, input.path,
                    0, "loading was cancelled; the text was read in part" });
        }
        first = false;
        appendTrace(*trace, std::move(*part));
    }
    if (input.progress)
        input.progress(input.buffer->size());
    return trace;
}

} // namespace dynascope::logs
