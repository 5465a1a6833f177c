// The probe report: the evidence table people keep by hand when they walk the compiler ladder
// (one row per configuration: eager without torch.compile, each backend, optionally
// dynamic=True, with first call, steady-state time per call, recompiles, graph breaks, peak
// memory and the outcome), the ladder's verdict ("fails with aot_eager but not eager: look at
// AOTAutograd; first failing compile [1/0] in `forward` (model.py:12): <reason>"), the compiled
// callables run by run, and whether compiling paid for itself (compile_payoff.h). Built from a
// ProbeSession (core/run/probe_session.h); rendered as Markdown and as JSON (format
// "dynascope-probe-report", format_version 1, documented in docs/cli.md, "Probe report JSON").
#pragma once

#include "core/analysis/compile_payoff.h"
#include "core/run/probe_session.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

enum class ProbeOutcome : uint8_t {
    Ok, // ran to the end; with --check every compared output matched eager
    WrongResult, // --check: a compiled output differs from eager's (assert_close failed)
    Failed, // a compile failed, a compiled call raised, or the process did not exit with 0
    NotRun, // the session was stopped before this configuration ran
    NoMeasurements, // it ran, but the probe helper measured nothing (no torch.compile call)
};
const char* toString(ProbeOutcome o); // "ok", "wrong_result", "failed", "not_run", ...

struct ProbeCallableRow {
    ProbeCallable callable;
    std::vector<uint32_t> compiles; // the compiles its calls made (Trace::compiles indices)
    std::vector<std::string> compileIds; // their ids ("[0/0]"), same order
    std::optional<CallablePayoff> payoff; // compiled runs only
};

struct EvidenceRow {
    ProbeConfig config;
    ProbeOutcome outcome = ProbeOutcome::NotRun;
    std::string outcomeText; // "ok", "wrong result", "failed at [1/0]", "failed (exit 1)"
    // Sums over the run's callables: the first call of each, and the steady-state median of
    // each (one step of a program that calls each callable once per step).
    std::optional<double> firstCallUs, steadyUs;
    uint64_t calls = 0;
    uint64_t compiles = 0, recompiles = 0, graphBreaks = 0, failures = 0;
    std::optional<double> peakMib;
    std::string peakSource; // "cuda" (allocator peak) or "rss" (process peak RSS)
    double seconds = 0;
    std::string exitText; // "exited with status 0"; "" when it never ran
    std::vector<std::string> traceFiles;

    // The first failing compile (not one that only hit the recompile limit).
    uint32_t failingCompile = kNone;
    std::string failingId, failingFunction, failingFile, failingType, failingReason, failingLayer;
    int64_t failingLine = 0;
    bool failingRanEagerly = false; // Dynamo caught it and ran the frame in eager
    // The first exception out of a compiled call, or the one that ended the program.
    std::string errorCallable, errorType, errorMessage;
    std::optional<uint64_t> errorCall;
    // --check: the first mismatch.
    std::string mismatchCallable, mismatchMessage;
    std::optional<uint64_t> mismatchCall;
    bool checked = false; // --check compared at least one output in this run

    std::vector<ProbeCallableRow> callables;
    std::vector<std::string> notes;
};

struct LadderVerdict {
    std::string text; // plain text
    std::string markdown; // the same, trace strings in code spans
    // "eager" (fails without compile), "dynamo", "aot_autograd", "inductor", "backend",
    // "program", "dynamic_shapes"; "" when no layer fails.
    std::string layer;
    int row = -1; // the row that first fails, -1 when none
    std::string payoff; // for a clean ladder: the last backend's compile-cost sentence
};

struct ProbeReport {
    std::string generator;
    std::string folder;
    std::vector<std::string> command;
    bool check = false;
    int64_t steps = 0;
    std::vector<EvidenceRow> rows;
    LadderVerdict verdict;
    std::vector<std::string> notes;
};

ProbeReport buildProbeReport(const ProbeSession& session);

std::string probeReportMarkdown(const ProbeReport& report);
std::string probeReportJson(const ProbeReport& report);

} // namespace dynascope
