// Run folders: where `record` and `probe` put a program's trace, and the small JSON record of how
// the program ran (dynascope-run.json, documented in docs/cli.md, "Run JSON"). The loader
// ignores these files: a run folder opens like any TORCH_TRACE folder.
#pragma once

#include "core/run/child_process.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope::run {

inline constexpr const char* kRunRecordFile = "dynascope-run.json";

// BASE/dynascope-runs/PREFIX<local date-time> ("2026-12-01T22-48-33"), with "-2", "-3", ...
// appended while that name exists (never an existing folder). BASE "" is the current folder.
std::string defaultRunFolder(const std::string& base = {}, const std::string& prefix = {});

// Makes `path` ready for a run: creates it (and its parents) or accepts an existing empty
// folder. False with *error when it exists and is not an empty folder, or cannot be created.
bool prepareRunFolder(const std::string& path, std::string* error);

// How a recorded program ran.
struct RunRecord {
    std::vector<std::string> command;
    std::string workingDirectory;
    std::string traceFolder; // absolute; TORCH_TRACE pointed here
    int64_t startedUs = 0; // epoch microseconds
    double seconds = 0; // wall time until it ended
    std::optional<ExitStatus> exit; // nullopt: it never started (spawnError says why)
    std::string spawnError;
    std::string probeConfig; // the probe configuration's name ("" for `record`)
};

// format "dynascope-run", version 1.
std::string runRecordJson(const RunRecord& record);
std::optional<RunRecord> parseRunRecord(const std::string& json, std::string* error);
// Writes FOLDER/dynascope-run.json; false with *error when it cannot.
bool writeRunRecord(const std::string& folder, const RunRecord& record, std::string* error);
std::optional<RunRecord> readRunRecord(const std::string& folder, std::string* error);

// The trace files a run wrote into its folder (dedicated_log_torch_trace*), sorted by name.
std::vector<std::string> runTraceFiles(const std::string& folder);

// Epoch microseconds now.
int64_t nowUs();

} // namespace dynascope::run
