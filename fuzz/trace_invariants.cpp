// See trace_invariants.h. Each check names the invariant in its message so that a fuzzer crash
// says which promise of the model broke, not just where.
#include "fuzz/trace_invariants.h"

#include "core/analysis/findings.h"
#include "core/analysis/trace_diff.h"
#include "core/export/chrome_trace.h"
#include "core/export/trace_subset.h"
#include "core/io/input_buffer.h"
#include "core/io/trace_source.h"
#include "core/load/finish/append_trace.h"
#include "core/load/logs/torch_logs.h"
#include "core/load/trace/file_builder.h"
#include "core/parse/content_kind.h"
#include "core/report/bug_report.h"
#include "core/report/diff_render.h"
#include "core/report/findings_render.h"
#include "core/report/report.h"
#include "core/report/report_render.h"
#include "core/writer/summary_json.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dynascope::fuzz {

namespace {

class Checker {
public:
    explicit Checker(const Trace& t)
        : m_t(t)
    {
    }

    std::string run(bool exercise);

private:
    template <typename... Args> void fail(const Args&... args)
    {
        if (++m_failures > 20)
            return;
        std::ostringstream s;
        (s << ... << args);
        m_out += s.str() + "\n";
    }
    bool recordOk(uint32_t r) const { return r < m_t.records.size(); }
    bool recordOf(uint32_t r, uint32_t compile) const
    {
        return recordOk(r) && m_t.records[r].compile == compile;
    }
    void checkFiles();
    void checkRecords();
    void checkCompile(const Compile& c, uint32_t i);
    void checkFrames();
    void checkCounts();
    void exerciseAccessors();
    void exerciseWriters();

    const Trace& m_t;
    std::string m_out;
    int m_failures = 0;
};

void Checker::checkFiles()
{
    uint64_t next = 0;
    for (size_t fi = 0; fi < m_t.files.size(); ++fi) {
        const TraceFile& f = m_t.files[fi];
        if (f.firstRecord != next)
            fail("file ", fi, ": firstRecord ", f.firstRecord, " but the previous file ends at ",
                next);
        next = uint64_t(f.firstRecord) + f.recordCount;
        if (!f.source && f.recordCount > 0)
            fail("file ", fi, ": records but no buffer");
        // TORCH_LOGS text: the buffer is its statements' text, never longer than the input (and
        // the newline its last line may lack).
        const bool text = f.format == TraceFormat::TorchLogs;
        if (f.source && !text && f.decodedBytes != f.source->size())
            fail("file ", fi, ": decodedBytes ", f.decodedBytes, " != buffer size ",
                f.source->size());
        if (f.source && text && f.source->size() > f.decodedBytes + 1)
            fail("file ", fi, ": statements' text ", f.source->size(), " > the input's ",
                f.decodedBytes);
    }
    if (next != m_t.records.size())
        fail("files cover ", next, " records of ", m_t.records.size());
}

void Checker::checkRecords()
{
    for (size_t fi = 0; fi < m_t.files.size(); ++fi) {
        const TraceFile& f = m_t.files[fi];
        const uint64_t size = f.source ? f.source->size() : 0;
        uint64_t lastLine = 0, lastOffset = 0;
        for (uint32_t r = f.firstRecord;
             r < f.firstRecord + f.recordCount && r < m_t.records.size(); ++r) {
            const Record& rec = m_t.records[r];
            if (rec.kind >= m_t.kindNames.size())
                fail("record ", r, ": kind ", rec.kind, " out of range");
            if (rec.offset + rec.headerLength > size)
                fail("record ", r, ": header [", rec.offset, ", +", rec.headerLength,
                    ") past the buffer (", size, ")");
            if (rec.payloadLength > 0 && rec.payloadOffset() + rec.payloadLength > size)
                fail("record ", r, ": payload [", rec.payloadOffset(), ", +", rec.payloadLength,
                    ") past the buffer (", size, ")");
            if (rec.line == 0 || (r > f.firstRecord && rec.line <= lastLine))
                fail("record ", r, ": line ", rec.line, " not after ", lastLine);
            if (r > f.firstRecord && rec.offset <= lastOffset)
                fail("record ", r, ": offset ", rec.offset, " not after ", lastOffset);
            lastLine = rec.line;
            lastOffset = rec.offset;
            if (m_t.fileOf(r) != fi)
                fail("record ", r, ": fileOf ", m_t.fileOf(r), " != ", fi);
            if (rec.compile != kNone) {
                if (rec.compile >= m_t.compiles.size()) {
                    fail("record ", r, ": compile ", rec.compile, " out of range");
                    continue;
                }
                const Compile& c = m_t.compiles[rec.compile];
                if (!std::binary_search(c.records.begin(), c.records.end(), r))
                    fail("record ", r, ": names compile ", rec.compile,
                        " but is not in its records");
                if (c.file != fi)
                    fail("record ", r, " of file ", fi, " belongs to compile ", rec.compile,
                        " of file ", c.file);
            }
        }
    }
}

void Checker::checkCompile(const Compile& c, uint32_t i)
{
    if (c.index != i)
        fail("compile ", i, ": index ", c.index);
    if (c.file >= m_t.files.size())
        fail("compile ", i, ": file ", c.file, " out of range");
    if (c.frame >= m_t.frames.size())
        fail("compile ", i, ": frame ", c.frame, " out of range");
    else if (std::find(m_t.frames[c.frame].compiles.begin(), m_t.frames[c.frame].compiles.end(), i)
        == m_t.frames[c.frame].compiles.end())
        fail("compile ", i, ": not in its frame's compiles");
    size_t listed = 0;
    for (auto it = c.records.begin(), prev = it; it != c.records.end(); prev = it++, ++listed) {
        if (!recordOf(*it, i))
            fail("compile ", i, ": record ", *it, " does not link back");
        if (listed > 0 && *it <= *prev)
            fail("compile ", i, ": records not sorted and unique");
    }
    if (listed != c.records.size())
        fail("compile ", i, ": ", listed, " records listed, size() says ", c.records.size());
    const bool text
        = c.file < m_t.files.size() && m_t.files[c.file].format == TraceFormat::TorchLogs;
    if (c.startRecord != kNone && !text
        && (!recordOf(c.startRecord, i) || m_t.kindName(c.startRecord) != "dynamo_start"))
        fail("compile ", i, ": startRecord ", c.startRecord, " is not its dynamo_start");
    // TORCH_LOGS text: a compile starts at its first statement; there are no metrics.
    if (c.startRecord != kNone && text
        && (!recordOf(c.startRecord, i) || c.records.empty() || c.records.front() != c.startRecord))
        fail("compile ", i, ": startRecord ", c.startRecord, " is not its first statement");
    if (text && c.metricsRecord != kNone)
        fail("compile ", i, ": metrics in TORCH_LOGS text");
    if (c.metricsRecord != kNone
        && (!recordOf(c.metricsRecord, i)
            || m_t.kindName(c.metricsRecord) != "compilation_metrics"))
        fail("compile ", i, ": metricsRecord ", c.metricsRecord, " is not its metrics");
    if (c.guardsRecord != kNone && !recordOf(c.guardsRecord, i))
        fail("compile ", i, ": guardsRecord ", c.guardsRecord, " is not its record");
    if (!text && (c.metricsRecord == kNone) != (c.status == CompileStatus::Missing) && !c.failure)
        fail("compile ", i, ": status ", toString(c.status), " disagrees with metrics");
    if (text
        && (c.status == CompileStatus::Missing)
            != (!c.failure && c.graphBreaks.empty() && c.guardsRecord == kNone))
        fail("compile ", i, ": status ", toString(c.status), " disagrees with the text");
    for (size_t k = 0; k < c.attempts.size(); ++k) {
        if (!recordOf(c.attempts[k].firstRecord, i))
            fail("compile ", i, ": attempt ", k, " firstRecord out of range");
        if (k > 0 && c.attempts[k].attempt <= c.attempts[k - 1].attempt)
            fail("compile ", i, ": attempts not sorted and unique");
    }
    if (std::isnan(c.startUs) || std::isnan(c.endUs))
        fail("compile ", i, ": NaN time");
    if (c.timeSource != TimeSource::None && c.endUs < c.startUs)
        fail("compile ", i, ": ends (", c.endUs, ") before it starts (", c.startUs, ")");
    for (const PhaseSpan& p : c.phases) {
        if (p.beginRecord == kNone && p.endRecord == kNone)
            fail("compile ", i, ": span ", p.name(), " has neither B nor E record");
        if (p.beginRecord != kNone && !recordOf(p.beginRecord, i))
            fail("compile ", i, ": span ", p.name(), " beginRecord not in the compile");
        if (p.endRecord != kNone && !recordOf(p.endRecord, i))
            fail("compile ", i, ": span ", p.name(), " endRecord not in the compile");
        if (p.openEnd != (p.endRecord == kNone) || p.openStart != (p.beginRecord == kNone))
            fail("compile ", i, ": span ", p.name(), " open flags disagree with its records");
        if (!(p.startUs <= p.endUs))
            fail("compile ", i, ": span ", p.name(), " ends before it starts");
        if (p.depth < 0)
            fail("compile ", i, ": span ", p.name(), " negative depth");
        // Every span lies inside its compile's time range or is flagged (open, or outside).
        const bool outside = p.startUs < c.startUs || p.endUs > c.endUs;
        if (outside != p.outsideCompile)
            fail("compile ", i, ": span ", p.name(), " [", p.startUs, ", ", p.endUs,
                "] vs compile [", c.startUs, ", ", c.endUs, "]: outsideCompile is ",
                p.outsideCompile);
    }
    for (const auto& e : c.instants)
        if (!recordOf(e.record, i))
            fail("compile ", i, ": instant ", e.name, " record not in the compile");
    for (const GraphBreak& gb : c.graphBreaks) {
        if (gb.record != kNone && !recordOf(gb.record, i))
            fail("compile ", i, ": graph break record not in the compile");
        if (gb.resumeFrame != kNone) {
            if (gb.resumeFrame >= m_t.frames.size())
                fail("compile ", i, ": resumeFrame out of range");
            else if (m_t.frames[gb.resumeFrame].breakOrigin != i)
                fail("compile ", i, ": resume frame's breakOrigin does not point back");
        }
        if (gb.resumeCompile != kNone
            && (gb.resumeCompile >= m_t.compiles.size() || gb.resumeCompile <= i
                || m_t.compiles[gb.resumeCompile].frame != gb.resumeFrame))
            fail("compile ", i, ": resumeCompile ", gb.resumeCompile, " inconsistent");
        if ((gb.resumeFrame == kNone) != (gb.resumeCompile == kNone))
            fail("compile ", i, ": resume frame and compile disagree");
    }
    for (const RecompileReason& r : c.recompileReasons) {
        if (r.earlierCompile != kNone && r.earlierCompile >= i)
            fail("compile ", i, ": recompile reason names a compile not earlier (",
                r.earlierCompile, ")");
        // A guard tree is parsed from the file when first used: a file that changed since it
        // was loaded gives none (the trace says so), and the link points nowhere.
        if (r.guardNode >= 0 && m_t.sourceProblems().empty()) {
            if (r.earlierCompile == kNone || r.earlierCompile >= m_t.compiles.size()
                || !m_t.compiles[r.earlierCompile].guards
                || static_cast<size_t>(r.guardNode)
                    >= m_t.compiles[r.earlierCompile].guards->nodes.size())
                fail("compile ", i, ": guard node ", r.guardNode, " out of range");
        }
    }
    if (c.failure && c.failure->record != kNone && !recordOf(c.failure->record, i))
        fail("compile ", i, ": failure record not in the compile");
    for (const auto& e : c.cacheEvents)
        if (!recordOf(e.record, i))
            fail("compile ", i, ": cache event record not in the compile");
    for (const auto& e : c.shapeEvents)
        if (!recordOf(e.record, i))
            fail("compile ", i, ": shape event record not in the compile");
    if (c.guards) {
        const auto& nodes = c.guards->nodes;
        for (size_t n = 0; n < nodes.size(); ++n) {
            if (nodes[n].parent >= static_cast<int>(n) || nodes[n].parent < -1)
                fail("compile ", i, ": guard node ", n, " parent ", nodes[n].parent);
            if (nodes[n].depth < 0)
                fail("compile ", i, ": guard node ", n, " negative depth");
            (void)c.guards->sourceOf(static_cast<int>(n));
        }
        (void)c.guards->guardCount();
    }
}

void Checker::checkFrames()
{
    size_t members = 0;
    for (uint32_t fi = 0; fi < m_t.frames.size(); ++fi) {
        const Frame& f = m_t.frames[fi];
        if (f.index != fi)
            fail("frame ", fi, ": index ", f.index);
        if (f.file >= m_t.files.size())
            fail("frame ", fi, ": file out of range");
        if (f.compiles.empty())
            fail("frame ", fi, ": no compiles");
        members += f.compiles.size();
        for (size_t k = 0; k < f.compiles.size(); ++k) {
            uint32_t c = f.compiles[k];
            if (c >= m_t.compiles.size() || m_t.compiles[c].frame != fi)
                fail("frame ", fi, ": compile ", c, " does not link back");
            if (k > 0 && c <= f.compiles[k - 1])
                fail("frame ", fi, ": compiles not in file order");
        }
        if (f.breakOrigin != kNone
            && (f.breakOrigin >= m_t.compiles.size()
                || (!f.compiles.empty() && f.breakOrigin >= f.compiles.front())))
            fail("frame ", fi, ": breakOrigin ", f.breakOrigin, " inconsistent");
    }
    if (members != m_t.compiles.size())
        fail("frames hold ", members, " compiles of ", m_t.compiles.size());
}

void Checker::checkCounts()
{
    uint64_t kinds = 0;
    for (const auto& [k, n] : m_t.kindCounts)
        kinds += n;
    if (kinds != m_t.records.size())
        fail("kindCounts sum to ", kinds, ", records ", m_t.records.size());
    const uint64_t compiles = m_t.compileCount();
    if (compiles > m_t.compiles.size())
        fail("compileCount ", compiles, " > compiles ", m_t.compiles.size());
    // Compiles of TORCH_TRACE files start at their dynamo_start (text has no such records).
    uint64_t traced = 0, starts = 0;
    for (const Compile& c : m_t.compiles)
        traced += c.startRecord != kNone && c.file < m_t.files.size()
            && m_t.files[c.file].format == TraceFormat::TorchTrace;
    for (uint32_t r = 0; r < m_t.records.size(); ++r)
        starts += m_t.kindName(r) == "dynamo_start";
    if (traced != starts)
        fail("compileCount ", traced, " of TORCH_TRACE files != dynamo_start records");
    if (m_t.recompileCount() > compiles)
        fail("recompileCount ", m_t.recompileCount(), " > compileCount ", compiles);
    if (m_t.failureCount() > m_t.compiles.size())
        fail("failureCount > compiles");
    uint64_t breaks = 0;
    for (const auto& c : m_t.compiles)
        breaks += c.graphBreaks.size();
    if (m_t.graphBreakCount() != breaks)
        fail("graphBreakCount ", m_t.graphBreakCount(), " != sum ", breaks);
    for (const auto& d : m_t.diagnostics)
        if (d.message.empty())
            fail("diagnostic without a message");
}

void Checker::exerciseAccessors()
{
    for (uint32_t r = 0; r < m_t.records.size(); ++r) {
        std::string p = m_t.payload(r);
        if (p.size() > m_t.records[r].payloadLength)
            fail("record ", r, ": payload() longer than its bytes");
        (void)m_t.header(r);
        (void)m_t.headerJson(r);
        (void)m_t.kindName(r);
        (void)m_t.payloadHashMatches(r);
    }
    for (const auto& d : m_t.diagnostics)
        (void)d.format();
    SummaryOptions o;
    o.verifyPayloads = false; // payloadHashMatches above did the same work without threads
    if (summaryJson(m_t, o).empty() || summaryText(m_t, o).empty())
        fail("empty summary");
}

// Everything else that writes what a trace holds: the report in its three formats, the bug
// report of each compile (the first few), the Chrome trace, and the TORCH_TRACE subset of every
// compile, plain and redacted, which must load again as the same compiles.
void Checker::exerciseWriters()
{
    // Findings (their compiles in range, the documents written) and a diff of the trace with
    // itself, which must find nothing.
    const auto found = findFindings(m_t);
    ReportOptions ro;
    ro.verifyPayloads = false;
    const Report report = buildReport(m_t, found, ro);
    for (auto format : { ReportFormat::Markdown, ReportFormat::Html, ReportFormat::Json })
        if (renderReport(report, format).empty())
            fail("empty report");
    for (uint32_t c = 0; c < m_t.compiles.size() && c < 4; ++c)
        (void)bugReportMarkdown(m_t, c, found);
    for (const auto& f : found)
        for (uint32_t c : f.compiles)
            if (c >= m_t.compiles.size())
                fail("a finding names compile " + std::to_string(c) + ", out of range");
    if (findingsJson(m_t, found).empty() || findingsText(found).empty())
        fail("empty findings document");
    const TraceDiff self = diffTraces({ m_t, found }, { m_t, found });
    if (self.changedFrames() != 0 || !self.runChanges.empty())
        fail("a trace differs from itself: " + diffMarkdown(self, { { "a" }, { "a" } }));
    std::ostringstream chrome;
    writeChromeTrace(m_t, chrome);
    if (m_t.compiles.empty() || m_t.files.size() != 1)
        return;
    for (bool redact : { false, true }) {
        SubsetOptions so;
        so.redact = redact;
        for (uint32_t c = 0; c < m_t.compiles.size(); ++c)
            so.compiles.push_back(c);
        std::ostringstream out;
        const SubsetResult r = writeSubset(m_t, so, out);
        if (!r.error.empty())
            continue;
        std::string error;
        auto buffer = InputBuffer::fromBytes(out.str(), 1u << 30, error);
        if (!buffer) {
            fail("subset does not load: ", error);
            continue;
        }
        auto again = buildFile({ "subset.log", buffer, {}, {} });
        std::string v = checkTrace(*again, false);
        if (!v.empty())
            fail("subset", redact ? " (redacted)" : "", " breaks invariants:\n", v);
        // Every compile comes back, except those whose dynamo_start header the writer could not
        // re-read (it leaves such records out and counts them).
        if (again->compileCount() + r.skipped < m_t.compileCount())
            fail("subset", redact ? " (redacted)" : "", " has ", again->compileCount(),
                " compiles with a dynamo_start, the trace ", m_t.compileCount(), " (", r.skipped,
                " records skipped)");
    }
}

std::string Checker::run(bool exercise)
{
    checkFiles();
    if (m_failures == 0) // the rest indexes through the file table
        checkRecords();
    for (uint32_t i = 0; i < m_t.compiles.size(); ++i)
        checkCompile(m_t.compiles[i], i);
    checkFrames();
    checkCounts();
    if (exercise && m_failures == 0)
        exerciseAccessors();
    if (exercise && m_failures == 0)
        exerciseWriters();
    return m_out;
}

} // namespace

std::string checkTrace(const Trace& trace, bool exercise)
{
    return Checker(trace).run(exercise);
}

std::string runOne(std::string_view bytes, uint64_t maxDecompressed)
{
    std::string error;
    auto buffer = InputBuffer::fromBytes(bytes, maxDecompressed, error);
    if (!buffer) {
        if (error.empty())
            return "fromBytes failed without saying why\n";
        return {};
    }
    FileBuildInput in { "fuzz.log", buffer, {}, {} };
    // As the loader does: the content judged from the head (every input is built all the same,
    // to fuzz the builder on what the loader would refuse), TORCH_LOGS text to core/logs.
    const ContentGuess guess
        = classifyContent(buffer->view().substr(0, std::min<size_t>(buffer->size(), 1u << 20)));
    if (!isLoadable(guess.kind)
        && notATraceMessage(guess).find("TORCH_TRACE=") == std::string::npos)
        return "a refusal without the TORCH_TRACE advice\n";
    const bool text = guess.kind == ContentKind::TorchLogs;
    auto build = [&] { return text ? logs::buildTorchLogs(in) : buildFile(in); };
    auto trace = build();
    if (!trace)
        return "buildFile returned null\n";
    std::string out = checkTrace(*trace);
    for (const auto& d : trace->diagnostics)
        if (d.file != "fuzz.log")
            out += "diagnostic names another file: " + d.file + "\n";
    if (!out.empty())
        return out;
    // The merge the loader does for several ranks: two copies, every index shifted.
    Trace merged;
    appendTrace(merged, std::move(*build()));
    appendTrace(merged, std::move(*trace));
    out = checkTrace(merged, false);
    if (!out.empty())
        return "after appendTrace of two copies:\n" + out;
    return {};
}

} // namespace dynascope::fuzz
