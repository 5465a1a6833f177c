// dynascope._core: the Qt-free core as a Python extension (nanobind). A thin layer: the same
// loader, analyses and renderers as dynascope-cli, so the two always agree. The Python package
// (python/dynascope/) wraps these in documented classes; the stubs are python/dynascope/_core.pyi.
//
// Loading and every analysis run with the GIL released: other Python threads go on meanwhile,
// and two threads load two traces at once on two cores. C++ exceptions become Python exceptions
// (nanobind's translation), so no input ends the interpreter.
#include "core/analysis/torch_version.h"
#include "core/analysis/trace_diff.h"
#include "core/export/chrome_trace.h"
#include "core/export/timeline_svg.h"
#include "core/export/trace_subset.h"
#include "core/report/bug_report.h"
#include "core/report/diff_render.h"
#include "core/report/findings_render.h"
#include "core/report/guard_lab_render.h"
#include "core/report/report_render.h"
#include "core/report/why_render.h"
#include "core/writer/summary_json.h"
#include "python/src/py_convert.h"
#include "python/src/py_kernels.h"
#include "python/src/py_trace.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <sstream>

namespace nb = nanobind;
using namespace nb::literals;

namespace dynascope::py {
namespace {

FindingSeverity minSeverity(const std::string& name)
{
    const auto s = severityNamed(name);
    if (!s)
        throw nb::value_error("min_severity takes 'note', 'warning' or 'error'");
    return *s;
}

std::vector<Finding> findingsFrom(TraceHandle& h, FindingSeverity min)
{
    std::vector<Finding> out;
    for (const Finding& f : h.findings())
        if (f.severity >= min)
            out.push_back(f);
    return out;
}

ReportFormat formatNamed(const std::string& name)
{
    auto f = parseReportFormat(name);
    if (!f)
        throw nb::value_error("format takes 'md', 'html' or 'json'");
    return *f;
}

nb::tuple loadInputs(const std::vector<std::string>& paths,
    const std::vector<std::pair<std::string, nb::bytes>>& buffers, const std::string& run,
    bool latest, bool verify, uint64_t maxDecompressed, unsigned threads)
{
    LoadRequest request;
    request.paths = paths;
    for (const auto& [name, bytes] : buffers)
        request.buffers.emplace_back(name, std::string(bytes.c_str(), bytes.size()));
    request.run = run;
    request.latest = latest;
    request.verify = verify;
    request.maxDecompressed = maxDecompressed;
    request.threads = threads;
    LoadOutcome outcome;
    {
        nb::gil_scoped_release release;
        outcome = loadRequest(request);
    }
    nb::list errors;
    for (const Diagnostic& d : outcome.errors)
        errors.append(diagnosticDict(d));
    return nb::make_tuple(outcome.trace ? nb::cast(outcome.trace) : nb::none(), errors);
}

std::string summaryJsonOf(TraceHandle& h, bool verify, int indent)
{
    SummaryOptions options;
    options.verifyPayloads = verify;
    options.indent = indent;
    if (verify)
        options.check = &h.payloadCheck();
    return summaryJson(h.trace(), options);
}

std::string summaryTextOf(TraceHandle& h, bool verify)
{
    SummaryOptions options;
    options.verifyPayloads = verify;
    if (verify)
        options.check = &h.payloadCheck();
    return summaryText(h.trace(), options);
}

std::string reportOf(TraceHandle& h, const std::string& format, bool verify)
{
    const ReportFormat f = formatNamed(format);
    nb::gil_scoped_release release;
    ReportOptions options;
    options.verifyPayloads = verify;
    if (verify)
        options.check = &h.payloadCheck();
    return renderReport(buildReport(h.trace(), h.findings(), options), f);
}

std::string chromeOf(TraceHandle& h, bool phases)
{
    std::ostringstream out;
    ChromeTraceOptions options;
    options.phases = phases;
    writeChromeTrace(h.trace(), out, options);
    return out.str();
}

nb::bytes subsetOf(TraceHandle& h, const std::string& compiles, bool redact)
{
    std::string error, data;
    {
        nb::gil_scoped_release release;
        auto selection = selectCompiles(h.trace(), compiles);
        if (selection.error.empty()) {
            SubsetOptions options;
            options.compiles = selection.compiles;
            options.redact = redact;
            std::ostringstream out;
            auto result = writeSubset(h.trace(), options, out);
            error = result.error;
            data = out.str();
        } else {
            error = selection.error;
        }
    }
    if (!error.empty())
        throw nb::value_error(error.c_str());
    return nb::bytes(data.data(), data.size());
}

std::vector<uint32_t> selectOf(TraceHandle& h, const std::string& ids)
{
    auto selection = selectCompiles(h.trace(), ids);
    if (!selection.error.empty())
        throw nb::value_error(selection.error.c_str());
    return selection.compiles;
}

// A diff of two traces, kept as facts and rendered on request.
struct DiffHandle {
    TraceDiff diff;
    DiffInputs inputs;
};

std::shared_ptr<DiffHandle> diffOf(TraceHandle& a, TraceHandle& b)
{
    auto d = std::make_shared<DiffHandle>();
    {
        nb::gil_scoped_release release;
        d->diff = diffTraces({ a.trace(), a.findings() }, { b.trace(), b.findings() });
    }
    d->inputs = { a.inputs(), b.inputs() };
    return d;
}

std::vector<std::string> failsOn(const DiffHandle& d, const std::string& list)
{
    std::string error;
    auto failOn = parseFailOn(list, error);
    if (!failOn)
        throw nb::value_error(error.c_str());
    return regressions(d.diff, *failOn);
}

std::string diffRendered(const DiffHandle& d, const std::string& format)
{
    switch (formatNamed(format)) {
    case ReportFormat::Json:
        return diffJson(d.diff, d.inputs);
    case ReportFormat::Html:
        return diffHtml(d.diff, d.inputs);
    case ReportFormat::Markdown:
        break;
    }
    return diffMarkdown(d.diff, d.inputs);
}

void checkIndex(const TraceHandle& h, uint32_t i)
{
    if (i >= h.trace().compiles.size())
        throw nb::index_error("no compile at that index");
}

} // namespace
} // namespace dynascope::py

NB_MODULE(_core, m)
{
    using namespace dynascope;
    using namespace dynascope::py;
    m.doc() = "Dynascope's core: load TORCH_TRACE and TORCH_LOGS files and analyse them.";
    m.attr("__version__") = DYNASCOPE_VERSION;

    nb::class_<TraceHandle>(m, "TraceHandle")
        .def_prop_ro("inputs", &TraceHandle::inputs)
        .def_prop_ro("verify", &TraceHandle::verified)
        .def_prop_ro("torch_version", [](TraceHandle& h) { return torchVersion(h.trace()); })
        .def_prop_ro(
            "torch_version_from", [](TraceHandle& h) { return torchVersionOf(h.trace()).from; })
        .def_prop_ro("compile_count", [](TraceHandle& h) { return h.trace().compiles.size(); })
        .def("summary_json", &summaryJsonOf, "verify"_a = true, "indent"_a = 2,
            nb::call_guard<nb::gil_scoped_release>())
        .def("summary_text", &summaryTextOf, "verify"_a = true,
            nb::call_guard<nb::gil_scoped_release>())
        .def(
            "findings_json",
            [](TraceHandle& h, const std::string& min) {
                const FindingSeverity s = minSeverity(min);
                nb::gil_scoped_release release;
                return findingsJson(h.trace(), findingsFrom(h, s));
            },
            "min_severity"_a = "note")
        .def(
            "findings",
            [](TraceHandle& h, const std::string& min) {
                const FindingSeverity s = minSeverity(min);
                std::vector<Finding> found;
                {
                    nb::gil_scoped_release release;
                    found = findingsFrom(h, s);
                }
                nb::list out;
                for (const Finding& f : found)
                    out.append(findingDict(h.trace(), f));
                return out;
            },
            "min_severity"_a = "note")
        .def(
            "findings_text",
            [](TraceHandle& h, const std::string& min) {
                const FindingSeverity s = minSeverity(min);
                nb::gil_scoped_release release;
                return findingsText(findingsFrom(h, s));
            },
            "min_severity"_a = "note")
        .def(
            "finding_markdown",
            [](TraceHandle& h, size_t i) {
                const auto& all = h.findings();
                if (i >= all.size())
                    throw nb::index_error("no finding at that index");
                return findingMarkdown(all[i]);
            },
            "index"_a)
        .def(
            "guards",
            [](TraceHandle& h, const std::string& frame, const std::vector<std::string>& inputs,
                bool json) {
                std::string error;
                std::optional<std::string> answer;
                {
                    nb::gil_scoped_release release;
                    answer = askGuardLab(h.trace(), frame, inputs, json, error);
                }
                if (!answer)
                    throw nb::value_error(error.c_str());
                return *answer;
            },
            "frame"_a, "inputs"_a, "json"_a = true)
        .def("report", &reportOf, "format"_a = "md", "verify"_a = true)
        .def("chrome_trace", &chromeOf, "phases"_a = true, nb::call_guard<nb::gil_scoped_release>())
        .def("subset", &subsetOf, "compiles"_a, "redact"_a = false)
        .def("select", &selectOf, "ids"_a)
        .def(
            "timeline_svg",
            [](TraceHandle& h, int width, int maxLanes, std::vector<uint32_t> highlight,
                const std::string& title) {
                TimelineSvgOptions options;
                options.width = width;
                options.maxLanes = maxLanes;
                options.highlight = std::move(highlight);
                options.title = title;
                nb::gil_scoped_release release;
                return timelineSvg(h.trace(), options);
            },
            "width"_a = 720, "max_lanes"_a = 12, "highlight"_a = std::vector<uint32_t> {},
            "title"_a = "")
        .def(
            "compile",
            [](TraceHandle& h, uint32_t i) {
                checkIndex(h, i);
                return compileDict(h.trace(), i);
            },
            "index"_a)
        .def(
            "kernels",
            [](TraceHandle& h, uint32_t i) {
                checkIndex(h, i);
                CompileKernels kernels;
                {
                    nb::gil_scoped_release release;
                    kernels = compileKernels(h.trace(), h.trace().compiles[i]);
                }
                return compileKernelsDict(kernels);
            },
            "index"_a)
        .def(
            "bug_report",
            [](TraceHandle& h, uint32_t i) {
                checkIndex(h, i);
                nb::gil_scoped_release release;
                return bugReportMarkdown(h.trace(), i, h.findings());
            },
            "index"_a)
        .def(
            "why",
            [](TraceHandle& h, uint32_t i, const std::string& format, bool allRejections) {
                checkIndex(h, i);
                if (format != "text" && format != "md")
                    throw nb::value_error("format takes 'text' or 'md'");
                nb::gil_scoped_release release;
                WhyOptions options;
                options.showAllRejections = allRejections;
                const WhyDocument doc = whyDocument(h.trace(), i, options);
                return format == "md" ? whyMarkdown(doc) : whyText(doc);
            },
            "index"_a, "format"_a = "text", "all_rejections"_a = true)
        .def("files", [](TraceHandle& h) { return filesList(h.trace()); })
        .def("diagnostics",
            [](TraceHandle& h) {
                std::vector<Diagnostic> all;
                {
                    nb::gil_scoped_release release;
                    all = h.diagnostics();
                }
                nb::list out;
                for (const Diagnostic& d : all)
                    out.append(diagnosticDict(d));
                return out;
            })
        .def("table", &tableColumns, "name"_a);

    nb::class_<DiffHandle>(m, "DiffHandle")
        .def("render", &diffRendered, "format"_a = "md")
        .def("fails_on", &failsOn, "checks"_a)
        .def_prop_ro("changed_frames", [](const DiffHandle& d) { return d.diff.changedFrames(); });

    m.def("load", &loadInputs, "paths"_a, "buffers"_a, "run"_a = "newest", "latest"_a = false,
        "verify"_a = true, "max_decompressed"_a = uint64_t(64) << 30, "threads"_a = 0u);
    m.def("diff", &diffOf, "a"_a, "b"_a);
}
