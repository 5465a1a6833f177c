#include "core/analysis/why_document.h"

#include "core/analysis/why_chain.h"
#include "core/load/finish/graph_break_text.h"
#include "core/util/text_format.h"

#include <algorithm>
#include <charconv>

namespace dynascope {

namespace {

std::string_view compileFunction(const Compile& c)
{
    return !c.coName.empty() ? std::string_view(c.coName)
        : !c.stack.empty()   ? c.stack.back().name
                             : std::string_view();
}

std::string_view compileFile(const Compile& c)
{
    return !c.coFilename.empty() ? std::string_view(c.coFilename)
        : !c.stack.empty()       ? c.stack.back().file
                                 : std::string_view();
}

int64_t compileLine(const Compile& c)
{
    return !c.coFilename.empty() ? c.coFirstLineno : !c.stack.empty() ? c.stack.back().line : 0;
}

std::string statusLabel(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok:
        return "✓ ok";
    case CompileStatus::GraphBreak:
        return "⚡ graph break";
    case CompileStatus::Empty:
        return "∅ empty";
    case CompileStatus::Error:
        return "✕ error";
    case CompileStatus::Missing:
        break;
    }
    return "? missing";
}

std::string plural(uint64_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string fileLine(std::string_view path, int64_t line)
{
    if (path.empty())
        return {};
    std::string s(text::baseName(path));
    if (line > 0)
        s += ":" + std::to_string(line);
    return s;
}

// Without the white space around it (QString::trimmed's set: space, \t, \n, \v, \f, \r).
std::string trimmed(std::string_view s)
{
    constexpr std::string_view space = " \t\n\v\f\r";
    const size_t first = s.find_first_not_of(space);
    if (first == std::string_view::npos)
        return {};
    return std::string(s.substr(first, s.find_last_not_of(space) - first + 1));
}

std::string firstLineOf(std::string_view s)
{
    return trimmed(text::firstLine(s));
}

// Writes the document: runs of styled text and links, paragraph by paragraph, the way the app's
// QTextCursor did (a heading is its own block between a 10 px and a 2 px gap).
class Writer {
public:
    Writer(const Trace& trace, WhyDocument& doc)
        : m_trace(trace)
        , m_doc(doc)
    {
        m_doc.blocks.push_back({ WhyBlock::Kind::Title, 0, 0, {} });
    }

    void span(std::string_view s, WhyStyle style, WhyLink link = {})
    {
        if (s.empty())
            return;
        auto& spans = m_doc.blocks.back().spans;
        if (!spans.empty() && spans.back().style == style && link.kind == WhyLink::Kind::None
            && spans.back().link.kind == WhyLink::Kind::None)
            spans.back().text += s;
        else
            spans.push_back({ std::string(s), style, std::move(link) });
        m_written = true;
    }
    void text(std::string_view s) { span(s, WhyStyle::Plain); }
    void bold(std::string_view s) { span(s, WhyStyle::Bold); }
    void dim(std::string_view s) { span(s, WhyStyle::Dim); }
    void mono(std::string_view s) { span(s, WhyStyle::Mono); }
    void link(std::string_view s, WhyLink l, bool monospace = false)
    {
        span(s, monospace ? WhyStyle::Mono : WhyStyle::Plain, std::move(l));
    }
    void heading(std::string_view s)
    {
        m_doc.blocks.push_back({ WhyBlock::Kind::Heading, 0, m_written ? 10 : 0, {} });
        span(s, WhyStyle::Bold);
        paragraph(2);
    }
    void paragraph(int space = 2, int indent = 0)
    {
        m_doc.blocks.push_back({ WhyBlock::Kind::Paragraph, indent, space, {} });
    }
    void compileLink(uint32_t ci)
    {
        if (ci >= m_trace.compiles.size())
            return;
        WhyLink l;
        l.kind = WhyLink::Kind::Compile;
        l.compile = ci;
        link(m_trace.compiles[ci].id.display(), std::move(l), true);
    }
    void sourceLink(std::string_view file, int64_t line, std::string_view label = {})
    {
        if (file.empty()) {
            text(label);
            return;
        }
        WhyLink l;
        l.kind = WhyLink::Kind::Source;
        l.file = std::string(file);
        l.line = line;
        link(label.empty() ? fileLine(file, line) : std::string(label), std::move(l), true);
    }
    void recordLink(uint32_t record, std::string_view label)
    {
        if (record == kNone)
            return;
        WhyLink l;
        l.kind = WhyLink::Kind::Record;
        l.record = record;
        link(label, std::move(l));
    }
    // Multi-line text as indented paragraphs.
    void lines(std::string_view s, int indent, bool monospace = false)
    {
        size_t start = 0;
        while (true) {
            const size_t nl = s.find('\n', start);
            paragraph(0, indent);
            const std::string_view l
                = s.substr(start, nl == std::string_view::npos ? nl : nl - start);
            monospace ? mono(l) : text(l);
            if (nl == std::string_view::npos)
                break;
            start = nl + 1;
        }
    }

private:
    const Trace& m_trace;
    WhyDocument& m_doc;
    bool m_written = false;
};

// `  File "x.py", line 12, in f` read as (indent, file, line, rest); false when it is not one.
bool tracebackFrame(std::string_view l, std::string_view& indent, std::string_view& file,
    int64_t& line, std::string_view& rest)
{
    const size_t lead = l.find_first_not_of(" \t");
    if (lead == std::string_view::npos || l.substr(lead, 6) != "File \"")
        return false;
    const size_t fileStart = lead + 6;
    const std::string_view marker = "\", line ";
    const size_t close = l.rfind(marker);
    if (close == std::string_view::npos || close <= fileStart)
        return false;
    const size_t digits = close + marker.size();
    size_t end = digits;
    while (end < l.size() && l[end] >= '0' && l[end] <= '9')
        ++end;
    if (end == digits || std::from_chars(l.data() + digits, l.data() + end, line).ec != std::errc())
        return false;
    indent = l.substr(0, lead);
    file = l.substr(fileStart, close - fileStart);
    rest = l.substr(end);
    return true;
}

// A Python traceback with every `File "...", line N, in fn` line a link.
void writeTraceback(Writer& w, std::string_view traceback, int indent)
{
    size_t start = 0;
    while (true) {
        const size_t nl = traceback.find('\n', start);
        const std::string_view l
            = traceback.substr(start, nl == std::string_view::npos ? nl : nl - start);
        w.paragraph(0, indent);
        std::string_view lead, file, rest;
        int64_t line = 0;
        if (tracebackFrame(l, lead, file, line, rest)) {
            w.mono(std::string(lead) + "File \"");
            w.sourceLink(file, line, file);
            w.mono("\", line " + std::to_string(line) + std::string(rest));
        } else {
            w.mono(l);
        }
        if (nl == std::string_view::npos)
            break;
        start = nl + 1;
    }
}

// "x.size(0)" for a size mismatch at dimension 0 of x, "x.dtype", "factor.value": what the value
// chain is the values of.
std::string valueLabel(const Rejection& r)
{
    std::string src = r.loggedSource;
    if (src.starts_with("L['") && src.ends_with("']") && src.size() > 5)
        src = src.substr(3, src.size() - 5);
    if (src.empty())
        return {};
    std::string label = src + "." + toString(r.mismatch);
    if (isShapeChange(r.mismatch) && r.dim)
        label += "(" + std::to_string(*r.dim) + ")";
    return label;
}

// What to do about it, in a sentence.
std::string fixText(const Fix& fix, Mismatch mismatch)
{
    switch (fix.kind) {
    case FixKind::MarkDynamic:
        return fix.code.empty()
            ? "Sizes change between calls: marking the dimension dynamic "
              "(torch._dynamo.mark_dynamic) or compiling with dynamic=True avoids one compile "
              "per size."
            : "Sizes change between calls: " + fix.code
                + " before the call, or compiling with dynamic=True, avoids one compile per size.";
    case FixKind::StableObject:
        return "An object the function reads (a global, a closure, a module) is a new object on "
               "each call: keep one object, or pass it as an argument.";
    case FixKind::OneCompilePerValue: {
        const std::string what = toString(mismatch);
        return "The input's " + what + " differs between calls: each " + what
            + " gets its own compile.";
    }
    case FixKind::None:
        break;
    }
    return {};
}

// "2 → 3 → 4 → … → 15 → 16": the first three and the last two values of a long chain.
std::string valueChainText(const std::vector<std::string>& chain)
{
    const std::string arrow = " → ";
    std::string out;
    auto join = [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i)
            out += (i > from ? arrow : "") + chain[i];
    };
    if (chain.size() <= 8) {
        join(0, chain.size());
        return out;
    }
    join(0, 3);
    out += arrow + "…" + arrow;
    join(chain.size() - 2, chain.size());
    return out + "  (" + std::to_string(chain.size()) + " values)";
}

// PyTorch's structured break text: the type in bold with its GB code, the explanation, the
// hints, chained breaks; the documentation link as plain text (never opened from here).
void writeBreakDetails(
    Writer& w, const std::vector<GraphBreakDetail>& details, std::string_view operation)
{
    for (size_t i = 0; i < details.size(); ++i) {
        const GraphBreakDetail& d = details[i];
        if (i > 0) {
            w.paragraph(6, 1);
            w.text("While handling it, another graph break occurred: ");
        }
        w.bold(d.title.substr(0, d.title.find('\n')));
        if (!d.gbCode.empty())
            w.dim("  (" + d.gbCode + ")");
        if (i == 0 && !operation.empty()) {
            w.paragraph(2, 1);
            w.dim("while tracing " + std::string(operation));
        }
        if (!d.explanation.empty())
            w.lines(trimmed(d.explanation), 1);
        for (const std::string& h : d.hints) {
            w.paragraph(2, 1);
            w.text("Hint: ");
            w.text(h);
        }
        if (!d.link.empty()) {
            w.paragraph(2, 1);
            w.dim("More: ");
            w.mono(d.link);
        }
    }
}

// One rejection: "[0/13] rejected it: <reason>", the guard that failed and where it was made.
void writeRejection(Writer& w, const Rejection& r, int indent)
{
    w.paragraph(6, indent);
    w.text("• ");
    if (r.earlierCompile != kNone)
        w.compileLink(r.earlierCompile);
    else if (!r.earlierKey.empty())
        w.mono("[" + r.earlierKey + "] ");
    w.text(r.earlierCompile != kNone || !r.earlierKey.empty() ? " rejected it: " : "");
    w.bold(trimmed(r.detail));
    if ((!r.expected.empty() || !r.actual.empty())
        && r.detail.find("expected") == std::string::npos) {
        w.paragraph(2, indent + 1);
        if (!r.expected.empty()) {
            w.text("expected ");
            w.mono(r.expected);
        }
        if (!r.actual.empty()) {
            w.text(r.expected.empty() ? "actual " : ", actual ");
            w.mono(r.actual);
        }
        if (r.mismatch != Mismatch::None)
            w.dim("  (" + std::string(toString(r.mismatch)) + " mismatch)");
    }
    if (r.guardFound()) {
        w.paragraph(2, indent + 1);
        w.text("failed guard: ");
        WhyLink l;
        l.kind = WhyLink::Kind::Guard;
        l.compile = r.earlierCompile;
        l.guardNode = r.guardNode;
        w.link(r.guardKind + (r.guardSource.empty() ? "" : " on " + r.guardSource), std::move(l),
            true);
        w.text(" in the guards of ");
        w.compileLink(r.earlierCompile);
        w.paragraph(0, indent + 2);
        w.mono(r.guardExpr);
        if (!r.guardWhere.empty()) {
            w.paragraph(2, indent + 1);
            w.text("guard made at ");
            if (r.guardMadeAt.known())
                w.sourceLink(r.guardMadeAt.file, r.guardMadeAt.line, r.guardWhere);
            else
                w.mono(r.guardWhere);
        }
        if (!r.guardUserStack.empty()) {
            w.paragraph(2, indent + 1);
            w.text("user stack: ");
            w.mono(r.guardUserStack);
        }
    } else if (r.earlierCompile != kNone) {
        w.paragraph(2, indent + 1);
        w.dim(r.loggedSource.empty()
                ? "(the guard that failed was not found in the earlier compile's guards)"
                : "guarded source " + r.loggedSource
                    + " (its guard was not found in the earlier compile's guards)");
    }
    if (r.userLine.known()) {
        w.paragraph(2, indent + 1);
        w.text("user code that made the guard: ");
        w.sourceLink(r.userLine.file, r.userLine.line);
        if (!r.userLine.function.empty())
            w.text(" in " + r.userLine.function);
        if (!r.userLine.code.empty()) {
            w.text("   ");
            w.mono(r.userLine.code);
        }
    }
}

void writeRecompile(Writer& w, const RecompileWhy& r, const WhyOptions& options, WhyDocument& doc)
{
    w.heading("↻ Why it recompiled");
    // Lead with what changed and what to do; then the guard that failed, then the rest.
    if (r.primary) {
        w.text(r.earlierCompiles > 1
                ? "The call matched none of the frame's " + std::to_string(r.earlierCompiles)
                    + " earlier compiles (a guard of each failed), so Dynamo compiled again."
                : "A guard of the frame's earlier compile failed, so Dynamo compiled again.");
    } else if (!r.metricReason.empty()) {
        w.paragraph(4, 1);
        w.bold(trimmed(r.metricReason));
    } else {
        w.paragraph(4, 1);
        w.text("This is a recompile of the frame, but the trace logged no reason (PyTorch before "
               "2.5 does not log recompile_reasons).");
    }
    if (r.primary && r.values.size() >= 2) {
        w.paragraph(8, 1);
        w.bold(valueLabel(*r.primary));
        w.text(" across the frame's compiles: ");
        w.mono(valueChainText(r.values));
    }
    const std::string fix = r.primary ? fixText(r.fix, r.primary->mismatch) : std::string();
    if (!fix.empty()) {
        w.paragraph(6, 1);
        w.bold("Hint: ");
        w.text(fix);
    }
    if (r.primary) {
        w.paragraph(8, 1);
        w.text(r.others.empty() ? "The guard that failed:"
                                : "The newest cache entry's guard that failed:");
        writeRejection(w, *r.primary, 1);
    }
    if (!r.others.empty()) {
        w.paragraph(8, 1);
        const std::string what = plural(r.others.size(), "other rejection", "other rejections");
        WhyLink toggle;
        toggle.kind = WhyLink::Kind::ToggleRejections;
        w.link(options.showAllRejections ? "▾ Hide the " + what : "▸ Show the " + what,
            std::move(toggle));
        w.dim("  (the older cache entries the call was checked against)");
        if (options.showAllRejections) {
            for (const Rejection& other : r.others)
                writeRejection(w, other, 2);
        } else {
            doc.hiddenRejections = r.others.size();
        }
    }
}

void writeBreak(Writer& w, const Trace& t, const Compile& c, const BreakWhy& g, size_t count)
{
    w.heading(count > 1
            ? "⚡ Graph break " + std::to_string(g.index + 1) + " of " + std::to_string(count)
            : std::string("⚡ Graph break"));
    w.text(c.id.display() + " broke the graph");
    if (g.userLine.known()) {
        w.text(" at ");
        w.sourceLink(g.userLine.file, g.userLine.line);
    }
    if (!g.library.empty()) {
        w.text(", in library code (" + g.library + ")");
        if (g.calledFrom.known()) {
            w.text(" that your code calls at ");
            w.sourceLink(g.calledFrom.file, g.calledFrom.line);
            if (!g.calledFrom.function.empty())
                w.text(" in " + g.calledFrom.function);
        }
    }
    const std::string reason(withoutReasonLead(trimmed(g.reason)));
    const size_t nl = reason.find('\n');
    w.text(": ");
    if (reason.empty() && g.record < t.records.size()
        && t.files[t.fileOf(g.record)].format == TraceFormat::TorchLogs)
        w.dim("(its reason is not in the text: the paste starts inside this message) ");
    if (!g.details.empty()) {
        writeBreakDetails(w, g.details, g.operation);
        if (g.skipsFrame) {
            w.paragraph(4, 1);
            w.bold("Dynamo skipped the whole frame: it runs in eager, nothing of it is compiled "
                   "(no resume function).");
        } else if (g.cannotResume) {
            w.paragraph(4, 1);
            w.bold("Dynamo could not resume after this break: the rest of the function runs in "
                   "eager.");
        }
    } else {
        w.bold(nl == std::string::npos ? reason : reason.substr(0, nl));
        if (nl != std::string::npos)
            w.lines(trimmed(std::string_view(reason).substr(nl + 1)), 1);
    }
    if (!g.userFrames.empty()) {
        w.paragraph(6);
        w.text("User code traceback (innermost last):");
        for (const StackFrame& f : g.userFrames) {
            w.paragraph(2, 1);
            w.sourceLink(f.file, f.line);
            if (!f.name.empty())
                w.text(" in " + std::string(f.name));
            if (!f.loc.empty()) {
                w.paragraph(0, 2);
                w.mono(f.loc);
            }
        }
    }
    w.paragraph(6);
    if (g.resumeCompile < t.compiles.size()) {
        w.text("The code after the break resumes in ");
        w.compileLink(g.resumeCompile);
        w.text(" (");
        w.mono(compileFunction(t.compiles[g.resumeCompile]));
        w.text(").");
    } else {
        w.dim("No compile of the code after the break was found in the trace.");
    }
    if (g.record != kNone) {
        w.text("  ");
        w.recordLink(g.record, "raw record");
    }
}

void writeFailure(Writer& w, const FailureWhy& f)
{
    w.heading(f.frameSkipped   ? "✕ Frame skipped (runs in eager)"
            : f.recompileLimit ? "✕ Recompile limit reached"
                               : "✕ Compile failed");
    w.bold(f.type);
    if (!f.layer.empty())
        w.dim("  in " + f.layer);
    if (f.userFrame.known()) {
        w.text(" at user frame ");
        w.sourceLink(f.userFrame.file, f.userFrame.line);
    }
    if (f.frameSkipped) {
        w.paragraph(4, 1);
        w.text("Not a crash: Dynamo could not handle a graph break in this frame, so it skipped "
               "the frame and the program ran it in eager.");
    } else if (f.recompileLimit) {
        w.paragraph(4, 1);
        w.text("The frame's cache is full: this and later calls that miss its guards run in "
               "eager. The reasons above say what kept changing.");
    }
    if (!f.details.empty()) {
        w.paragraph(4, 1);
        writeBreakDetails(w, f.details, {});
    } else if (!f.reason.empty()) {
        w.lines(trimmed(f.reason), 1, true);
    }
    if (!f.traceback.empty()) {
        w.paragraph(6);
        w.text("Traceback:");
        if (f.record != kNone) {
            w.text("  ");
            w.recordLink(f.record, "raw record");
        }
        writeTraceback(w, f.traceback, 1);
    }
}

void writeShapes(Writer& w, const Compile& c)
{
    w.heading("Dynamic shapes");
    w.text(plural(c.shapeEvents.size(), "shape event", "shape events")
        + ": symbols, shape guards and specialisations (all in the Guards tab).");
    size_t shown = 0;
    for (const ShapeEvent& e : c.shapeEvents) {
        if (++shown > 12) {
            w.paragraph(2, 1);
            w.dim("…");
            break;
        }
        w.paragraph(2, 1);
        w.text("• " + e.kind + " ");
        w.mono(e.expr);
        if (!e.value.empty())
            w.mono(" = " + e.value);
        const Stack& us = e.userStack.empty() ? e.stack : e.userStack;
        if (!us.empty()) {
            w.text(" at ");
            w.sourceLink(us.back().file, us.back().line);
            if (!us.back().loc.empty()) {
                w.text("  ");
                w.mono(us.back().loc);
            }
        }
    }
}

// Nothing went wrong: say so plainly, and name the frame's later compiles.
void writeNoSurprises(Writer& w, const Trace& t, const Compile& c, const WhyChain& why)
{
    const std::string label = statusLabel(c.status);
    w.heading(label.substr(0, label.find(' ')) + " No surprises");
    const bool only = why.frameCompiles.size() <= 1;
    const bool text = c.file < t.files.size() && t.files[c.file].format == TraceFormat::TorchLogs;
    if (c.status == CompileStatus::Missing && text)
        w.text("The text does not say how this compile ended: it logged no guards, graph break or "
               "failure for it (TORCH_LOGS without \"guards\", a failure PyTorch did not log, or "
               "the text is cut).");
    else if (c.status == CompileStatus::Missing)
        w.text("The compile did not finish: no compilation_metrics were logged (the process died "
               "mid-compile or the log is cut).");
    else if (c.status == CompileStatus::Empty)
        w.text("Compiled once; the graph was empty (no ops), so there was nothing to run.");
    else if (only)
        w.text("Compiled once, no recompiles.");
    if (!only) {
        if (c.status == CompileStatus::Empty || c.status == CompileStatus::Missing)
            w.paragraph(4);
        w.text("First compile of this frame, no recompile of its own; the frame was recompiled "
               "later ("
            + plural(why.frameCompiles.size() - 1, "time", "times") + "): ");
        bool firstLink = true;
        for (uint32_t other : why.frameCompiles) {
            if (other == c.index)
                continue;
            if (!firstLink)
                w.text(", ");
            firstLink = false;
            w.compileLink(other);
        }
        w.text(".");
    }
}

// Restarts of the analysis: Dynamo threw away an attempt and traced the frame again. One that is
// no graph break says so, with its class and what it means; the attempts' cost when logged.
void writeRestarts(Writer& w, const WhyChain& why)
{
    const bool anyBreak = std::any_of(why.restarts.begin(), why.restarts.end(),
        [](const RestartWhy& r) { return r.kind.empty(); });
    w.heading(anyBreak ? "⚡ Restarted analysis" : "⚡ Restarted analysis (no graph break)");
    w.text(why.restarts.size() == 1
            ? "Dynamo threw away attempt " + std::to_string(why.restarts.front().attempt)
                + " of this compile and traced the frame again:"
            : "Dynamo threw away " + std::to_string(why.restarts.size())
                + " attempts of this compile and traced the frame again each time:");
    for (const RestartWhy& r : why.restarts) {
        w.paragraph(2, 1);
        if (r.kind.empty()) {
            w.text("• attempt " + std::to_string(r.attempt) + ": " + r.reason);
            continue;
        }
        w.text("• attempt " + std::to_string(r.attempt) + ": ");
        w.mono(r.kind);
        w.text(r.meaning.empty() ? std::string(" (not a graph break)")
                                 : " (not a graph break): " + r.meaning + ".");
    }
    if (why.restartCostS) {
        w.paragraph(2, 1);
        w.text("The attempts thrown away took " + text::duration(*why.restartCostS * 1e6)
            + " (dynamo_time_before_restart_s), paid again on every cold start.");
    }
}

} // namespace

WhyDocument whyDocument(const Trace& t, uint32_t ci, const WhyOptions& options)
{
    WhyDocument doc;
    if (ci >= t.compiles.size())
        return doc;
    doc.compile = ci;
    const Compile& c = t.compiles[ci];
    Writer w(t, doc);

    // Title: "[3/2] scale (train.py:25)  ↻ recompile · ✓ ok · 66 ms"
    w.compileLink(ci);
    w.text("  ");
    w.bold(compileFunction(c));
    const std::string_view file = compileFile(c);
    if (!file.empty()) {
        w.text(" (");
        w.sourceLink(file, compileLine(c));
        w.text(")");
    }
    w.text("   ");
    if (c.isRecompile())
        w.text("↻ recompile · ");
    w.text(statusLabel(c.status));
    if (c.timeSource != TimeSource::None)
        w.dim(" · " + text::compactDuration(c.durationUs()));

    const WhyChain why = explainCompile(t, ci);
    bool said = false;

    if (why.resumesAfter) {
        const ResumeOrigin& o = *why.resumesAfter;
        w.heading("Resumes after a graph break");
        w.text(c.id.display() + " resumes after the graph break in ");
        w.compileLink(o.compile);
        if (o.breakLine.known()) {
            w.text(" at ");
            w.sourceLink(o.breakLine.file, o.breakLine.line);
        }
        if (!o.reason.empty()) {
            w.text(": ");
            w.text(firstLineOf(o.reason));
        }
        w.text(".");
        said = true;
    }
    if (why.recompile) {
        writeRecompile(w, *why.recompile, options, doc);
        said = true;
    }
    for (const BreakWhy& g : why.graphBreaks) {
        writeBreak(w, t, c, g, why.graphBreaks.size());
        said = true;
    }
    if (!why.restarts.empty()) {
        writeRestarts(w, why);
        said = true;
    }
    if (why.failure) {
        writeFailure(w, *why.failure);
        said = true;
    }
    if (!c.shapeEvents.empty())
        writeShapes(w, c);
    if (!said)
        writeNoSurprises(w, t, c, why);
    if (!why.callers.empty()) {
        w.heading("Called from");
        for (const SourceLine& f : why.callers) {
            w.paragraph(0, 1);
            w.sourceLink(f.file, f.line);
            w.text(" in " + f.function);
            if (!f.code.empty()) {
                w.text("   ");
                w.mono(f.code);
            }
        }
    }
    return doc;
}

} // namespace dynascope
