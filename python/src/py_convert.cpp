#include "python/src/py_convert.h"

#include "core/analysis/kernels.h"
#include "core/analysis/why_chain.h"
#include "core/util/text_format.h"
#include "python/src/py_trace.h"

#include <nanobind/stl/string.h>

#include <Python.h>

namespace dynascope::py {

nb::str str(std::string_view s)
{
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (!o)
        throw nb::python_error();
    return nb::steal<nb::str>(o);
}

namespace {

nb::object optional(const std::optional<int64_t>& v)
{
    return v ? nb::object(nb::int_(*v)) : nb::none();
}

nb::object index(uint32_t i)
{
    return i == kNone ? nb::none() : nb::object(nb::int_(i));
}

nb::object textOrNone(std::string_view s)
{
    return s.empty() ? nb::none() : nb::object(str(s));
}

nb::object compileIdOf(const Trace& t, uint32_t i)
{
    return i < t.compiles.size() ? nb::object(str(t.compiles[i].id.display())) : nb::none();
}

nb::list stackList(const Stack& stack)
{
    nb::list out;
    for (const StackFrame& f : stack) {
        nb::dict d;
        d["file"] = str(f.file);
        d["line"] = f.line;
        d["function"] = str(f.name);
        d["code"] = str(f.loc);
        out.append(d);
    }
    return out;
}

nb::list strings(const std::vector<std::string>& v)
{
    nb::list out;
    for (const auto& s : v)
        out.append(str(s));
    return out;
}

const char* cacheKindName(CacheKind k)
{
    return k == CacheKind::Hit ? "hit" : k == CacheKind::Miss ? "miss" : "bypass";
}

nb::dict breakDict(const Trace& t, const GraphBreak& gb)
{
    nb::dict d;
    d["reason"] = str(gb.reason);
    d["type"] = str(gb.details.empty() ? text::firstLine(gb.reason)
                                       : text::firstLine(gb.details.front().title));
    d["operation"] = str(gb.operation);
    d["file"] = str(gb.file);
    d["line"] = gb.line;
    const GraphBreakDetail* first = gb.details.empty() ? nullptr : &gb.details.front();
    d["gb_code"] = textOrNone(first ? first->gbCode : "");
    d["explanation"] = str(first ? first->explanation : "");
    d["hints"] = strings(first ? first->hints : std::vector<std::string> {});
    d["skips_frame"] = gb.skipsFrame;
    d["cannot_resume"] = gb.cannotResume;
    d["traceback"] = str(gb.traceback);
    d["user_frames"] = stackList(gb.userFrames);
    d["resume_frame"] = index(gb.resumeFrame);
    d["resume_compile"] = index(gb.resumeCompile);
    d["resume_id"] = compileIdOf(t, gb.resumeCompile);
    return d;
}

nb::dict reasonDict(const Trace& t, const Compile& c, const RecompileReason& r, bool primary)
{
    const Rejection rej = describeRejection(t, c, r);
    nb::dict d;
    d["text"] = str(r.text);
    d["primary"] = primary;
    d["earlier_compile"] = index(r.earlierCompile);
    d["earlier_id"] = compileIdOf(t, r.earlierCompile);
    d["mismatch"] = str(r.mismatch);
    d["source"] = str(rej.source.empty() ? r.source : rej.source);
    d["dim"] = optional(rej.dim);
    d["expected"] = str(rej.expected);
    d["actual"] = str(rej.actual);
    d["guard_kind"] = textOrNone(rej.guardKind);
    d["guard_expr"] = textOrNone(rej.guardExpr);
    d["guard_where"] = textOrNone(rej.guardWhere);
    d["fix"] = textOrNone(fixFor(rej).code);
    return d;
}

nb::object failureDict(const Compile& c)
{
    if (!c.failure)
        return nb::none();
    const Failure& f = *c.failure;
    nb::dict d;
    d["type"] = str(f.type);
    d["raw_type"] = str(f.rawType);
    d["reason"] = str(f.reason);
    d["file"] = str(f.file);
    d["line"] = f.line;
    d["layer"] = textOrNone(f.layer);
    d["frame_skipped"] = f.frameSkipped;
    d["recompile_limit"] = f.recompileLimit;
    d["traceback"] = str(f.traceback);
    return d;
}

} // namespace

nb::dict compileDict(const Trace& t, uint32_t i)
{
    const Compile& c = t.compiles.at(i);
    nb::dict d;
    d["index"] = c.index;
    d["id"] = str(c.id.display());
    d["key"] = str(c.id.key());
    d["frame_id"] = optional(c.id.frame);
    d["frame_compile_id"] = optional(c.id.frameCompile);
    d["attempt"] = c.id.attempt;
    d["compiled_autograd_id"] = optional(c.id.compiledAutograd);
    d["rank"] = optional(t.files[c.file].rank);
    d["file_index"] = c.file;
    d["frame"] = index(c.frame);
    d["function"] = str(c.coName);
    d["filename"] = str(c.coFilename);
    d["line"] = c.coFirstLineno;
    d["status"] = toString(c.status);
    d["is_recompile"] = c.isRecompile();
    d["has_dynamo_start"] = c.startRecord != kNone;
    d["start_us"] = c.startUs;
    d["duration_us"] = c.durationUs();
    d["time_source"] = toString(c.timeSource);
    d["attempts"] = c.attempts.size();
    d["guard_count"] = optional(c.guardCount);
    d["graph_op_count"] = optional(c.graphOpCount);
    d["graph_node_count"] = optional(c.graphNodeCount);
    d["cache_size"] = optional(c.cacheSize);
    d["stack"] = stackList(c.stack);
    nb::list phases;
    for (const PhaseSpan& p : c.phases) {
        nb::dict s;
        s["name"] = str(p.name());
        s["category"] = str(p.category());
        s["start_us"] = p.startUs;
        s["duration_us"] = p.endUs > p.startUs ? p.endUs - p.startUs : 0.0;
        s["depth"] = p.depth;
        s["open"] = p.openEnd || p.openStart;
        phases.append(s);
    }
    d["phases"] = phases;
    nb::list breaks;
    for (const GraphBreak& gb : c.graphBreaks)
        breaks.append(breakDict(t, gb));
    d["graph_breaks"] = breaks;
    nb::list reasons;
    const RecompileReason* primary = primaryReason(c);
    for (const RecompileReason& r : c.recompileReasons)
        reasons.append(reasonDict(t, c, r, &r == primary));
    d["recompile_reasons"] = reasons;
    d["restart_reasons"] = strings(c.restartReasons);
    d["failure"] = failureDict(c);
    nb::list cache;
    for (const CacheEvent& e : c.cacheEvents) {
        nb::dict ev;
        ev["cache"] = str(e.cache);
        ev["kind"] = cacheKindName(e.kind);
        ev["ts_us"] = e.tsUs;
        cache.append(ev);
    }
    d["cache_events"] = cache;
    return d;
}

nb::dict findingDict(const Trace& t, const Finding& f)
{
    nb::dict d;
    d["rule"] = str(toString(f.rule));
    d["severity"] = toString(f.severity);
    d["title"] = str(f.title);
    nb::list compiles;
    for (uint32_t c : f.compiles)
        compiles.append(c);
    d["compiles"] = compiles;
    d["frame"] = index(f.frame);
    d["frame_label"] = str(f.frameLabel);
    nb::list evidence;
    for (const auto& [label, value] : f.evidence)
        evidence.append(nb::make_tuple(str(label), str(value)));
    d["evidence"] = evidence;
    d["why"] = str(f.why);
    d["ladder_step"] = str(f.ladderStep);
    d["hint"] = str(f.hint);
    d["code"] = textOrNone(f.code);
    d["gb_code"] = textOrNone(f.gbCode);
    d["explanation"] = str(f.explanation);
    d["pytorch_hints"] = strings(f.pytorchHints);
    d["user_file"] = textOrNone(f.userFile);
    d["user_line"] = f.userFile.empty() ? nb::none() : nb::object(nb::int_(f.userLine));
    d["cost_us"] = f.costUs;
    d["count"] = f.count;
    nb::list files;
    for (uint32_t file : f.files)
        files.append(file);
    d["files"] = files;
    (void)t;
    return d;
}

nb::dict diagnosticDict(const Diagnostic& diag)
{
    nb::dict d;
    d["file"] = str(diag.file);
    d["line"] = diag.line;
    d["severity"] = toString(diag.severity);
    d["code"] = toString(diag.code);
    d["message"] = str(diag.message);
    return d;
}

nb::list filesList(const Trace& t)
{
    nb::list out;
    for (const TraceFile& f : t.files) {
        nb::dict d;
        d["path"] = str(f.path);
        d["format"] = toString(f.format);
        d["rank"] = optional(f.rank);
        d["bytes"] = f.bytes;
        d["decoded_bytes"] = f.decodedBytes;
        d["compression"] = textOrNone(f.compression);
        d["records"] = f.recordCount;
        d["bad_lines"] = f.badLines;
        d["run"] = f.run ? nb::object(nb::int_(f.run)) : nb::none();
        d["label"] = str(f.label);
        out.append(d);
    }
    return out;
}

namespace {

// Columns filled row by row: each column a list.
class Columns {
public:
    explicit Columns(std::initializer_list<const char*> names)
    {
        for (const char* n : names)
            m_columns[n] = nb::list();
    }
    nb::list operator[](const char* name) { return nb::borrow<nb::list>(m_columns[name]); }
    nb::dict take() { return m_columns; }

private:
    nb::dict m_columns;
};

nb::dict compilesTable(const Trace& t, const TraceKernelCounts& kernels)
{
    Columns cols { "index", "id", "rank", "frame", "function", "filename", "line", "status",
        "is_recompile", "has_dynamo_start", "start_us", "duration_us", "time_source",
        "graph_breaks", "recompile_reasons", "failure_type", "failure_layer", "guard_count",
        "graph_op_count", "cache_hits", "cache_misses", "cache_bypasses", "attempts", "kernels",
        "kernel_compile_time_us", "autotune_misses" };
    for (const Compile& c : t.compiles) {
        cols["index"].append(c.index);
        cols["id"].append(str(c.id.display()));
        cols["rank"].append(optional(t.files[c.file].rank));
        cols["frame"].append(index(c.frame));
        cols["function"].append(str(c.coName));
        cols["filename"].append(str(c.coFilename));
        cols["line"].append(c.coFirstLineno);
        cols["status"].append(toString(c.status));
        cols["is_recompile"].append(c.isRecompile());
        cols["has_dynamo_start"].append(c.startRecord != kNone);
        cols["start_us"].append(c.startUs);
        cols["duration_us"].append(c.durationUs());
        cols["time_source"].append(toString(c.timeSource));
        cols["graph_breaks"].append(c.graphBreaks.size());
        cols["recompile_reasons"].append(c.recompileReasons.size());
        cols["failure_type"].append(c.failure ? textOrNone(c.failure->type) : nb::none());
        cols["failure_layer"].append(c.failure ? textOrNone(c.failure->layer) : nb::none());
        cols["guard_count"].append(optional(c.guardCount));
        cols["graph_op_count"].append(optional(c.graphOpCount));
        int64_t hits = 0, misses = 0, bypasses = 0;
        for (const CacheEvent& e : c.cacheEvents)
            (e.kind == CacheKind::Hit ? hits : e.kind == CacheKind::Miss ? misses : bypasses)++;
        cols["cache_hits"].append(hits);
        cols["cache_misses"].append(misses);
        cols["cache_bypasses"].append(bypasses);
        cols["attempts"].append(c.attempts.size());
        const KernelCounts& k = kernels.perCompile[c.index];
        cols["kernels"].append(k.generated);
        cols["kernel_compile_time_us"].append(k.compileTimeUs);
        cols["autotune_misses"].append(k.autotuneMisses);
    }
    return cols.take();
}

nb::dict breaksTable(const Trace& t)
{
    Columns cols { "compile", "id", "rank", "function", "type", "reason", "gb_code", "file", "line",
        "operation", "skips_frame", "cannot_resume", "resume_compile", "resume_id" };
    for (const Compile& c : t.compiles) {
        for (const GraphBreak& gb : c.graphBreaks) {
            cols["compile"].append(c.index);
            cols["id"].append(str(c.id.display()));
            cols["rank"].append(optional(t.files[c.file].rank));
            cols["function"].append(str(c.coName));
            cols["type"].append(str(gb.details.empty() ? text::firstLine(gb.reason)
                                                       : text::firstLine(gb.details[0].title)));
            cols["reason"].append(str(gb.reason));
            cols["gb_code"].append(textOrNone(gb.details.empty() ? "" : gb.details[0].gbCode));
            cols["file"].append(str(gb.file));
            cols["line"].append(gb.line);
            cols["operation"].append(str(gb.operation));
            cols["skips_frame"].append(gb.skipsFrame);
            cols["cannot_resume"].append(gb.cannotResume);
            cols["resume_compile"].append(index(gb.resumeCompile));
            cols["resume_id"].append(compileIdOf(t, gb.resumeCompile));
        }
    }
    return cols.take();
}

nb::dict recompilesTable(const Trace& t)
{
    Columns cols { "compile", "id", "rank", "function", "filename", "line", "primary", "text",
        "mismatch", "source", "dim", "expected", "actual", "guard_kind", "guard_expr",
        "earlier_compile", "earlier_id" };
    for (const Compile& c : t.compiles) {
        const RecompileReason* primary = primaryReason(c);
        for (const RecompileReason& r : c.recompileReasons) {
            const Rejection rej = describeRejection(t, c, r);
            cols["compile"].append(c.index);
            cols["id"].append(str(c.id.display()));
            cols["rank"].append(optional(t.files[c.file].rank));
            cols["function"].append(str(c.coName));
            cols["filename"].append(str(c.coFilename));
            cols["line"].append(c.coFirstLineno);
            cols["primary"].append(&r == primary);
            cols["text"].append(str(r.text));
            cols["mismatch"].append(str(r.mismatch));
            cols["source"].append(str(rej.source.empty() ? r.source : rej.source));
            cols["dim"].append(optional(rej.dim));
            cols["expected"].append(str(rej.expected));
            cols["actual"].append(str(rej.actual));
            cols["guard_kind"].append(textOrNone(rej.guardKind));
            cols["guard_expr"].append(textOrNone(rej.guardExpr));
            cols["earlier_compile"].append(index(r.earlierCompile));
            cols["earlier_id"].append(compileIdOf(t, r.earlierCompile));
        }
    }
    return cols.take();
}

nb::dict findingsTable(const Trace& t, const std::vector<Finding>& findings)
{
    Columns cols { "rule", "severity", "title", "frame_label", "compiles", "first_compile",
        "first_id", "cost_us", "count", "ladder_step", "hint", "code", "gb_code", "user_file",
        "user_line" };
    for (const Finding& f : findings) {
        cols["rule"].append(str(toString(f.rule)));
        cols["severity"].append(toString(f.severity));
        cols["title"].append(str(f.title));
        cols["frame_label"].append(str(f.frameLabel));
        cols["compiles"].append(f.compiles.size());
        cols["first_compile"].append(index(f.compiles.empty() ? kNone : f.compiles.front()));
        cols["first_id"].append(compileIdOf(t, f.compiles.empty() ? kNone : f.compiles.front()));
        cols["cost_us"].append(f.costUs);
        cols["count"].append(f.count);
        cols["ladder_step"].append(str(f.ladderStep));
        cols["hint"].append(str(f.hint));
        cols["code"].append(textOrNone(f.code));
        cols["gb_code"].append(textOrNone(f.gbCode));
        cols["user_file"].append(textOrNone(f.userFile));
        cols["user_line"].append(
            f.userFile.empty() ? nb::none() : nb::object(nb::int_(f.userLine)));
    }
    return cols.take();
}

nb::dict phasesTable(const Trace& t)
{
    Columns cols { "compile", "id", "rank", "name", "category", "start_us", "duration_us",
        "depth" };
    for (const Compile& c : t.compiles) {
        for (const PhaseSpan& p : c.phases) {
            cols["compile"].append(c.index);
            cols["id"].append(str(c.id.display()));
            cols["rank"].append(optional(t.files[c.file].rank));
            cols["name"].append(str(p.name()));
            cols["category"].append(str(p.category()));
            cols["start_us"].append(p.startUs);
            cols["duration_us"].append(p.endUs > p.startUs ? p.endUs - p.startUs : 0.0);
            cols["depth"].append(p.depth);
        }
    }
    return cols.take();
}

} // namespace

nb::dict tableColumns(TraceHandle& handle, std::string_view name)
{
    const Trace& t = handle.trace();
    if (name == "compiles") {
        TraceKernelCounts kernels;
        {
            nb::gil_scoped_release release;
            kernels = countTraceKernels(t);
        }
        return compilesTable(t, kernels);
    }
    if (name == "graph_breaks")
        return breaksTable(t);
    if (name == "recompiles")
        return recompilesTable(t);
    if (name == "findings") {
        const std::vector<Finding>* findings = nullptr;
        {
            nb::gil_scoped_release release;
            findings = &handle.findings();
        }
        return findingsTable(t, *findings);
    }
    if (name == "phases")
        return phasesTable(t);
    throw nb::value_error(("no table named '" + std::string(name)
        + "': compiles, graph_breaks, recompiles, findings or phases")
                              .c_str());
}

} // namespace dynascope::py
