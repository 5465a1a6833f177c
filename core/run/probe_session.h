// A probe session: one program run once per configuration of the compiler ladder by
// `dynascope-cli probe`, each run in its own folder with its own trace. The session folder holds
//
//   probe-runs.json        the manifest (format "dynascope-probe-runs", version 1): the command,
//                          the options, and the runs in ladder order with their folder names
//   <run>/                 one run folder per configuration (run_folder.h): its trace files and
//                          dynascope-run.json (how the process ended)
//   probe-report.md, .json the report (probe_report.h), written by the CLI
//
// loadProbeSession() reads it back (the CLI's `probe --report DIR`, the app's Probe view). The
// manifest is read as untrusted input: a run's folder must be a plain name inside the session
// folder.
#pragma once

#include "core/analysis/probe_artifact.h"
#include "core/model/trace.h"
#include "core/run/run_folder.h"

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace dynascope {

inline constexpr const char* kProbeManifestFile = "probe-runs.json";

// One configuration of the ladder.
struct ProbeConfig {
    std::string name; // folder and key: "no_compile", "eager", "aot_eager", "inductor",
                      // "inductor_dynamic", "program"
    std::string backend; // "none" (no torch.compile), "program" (as the program wrote it), or a
                         // backend name
    bool dynamic = false; // dynamic=True

    // "eager, no torch.compile", "backend=aot_eager", "inductor, dynamic=True", "as written".
    std::string label() const;
};

// The configurations for --backends LIST [--dynamic]: the eager run without compile first, then
// each backend in the order given ("program" keeps the program's own arguments), then with
// --dynamic the last backend again with dynamic=True. nullopt with *error for a backend name that
// is not a plain identifier, or a repeated one.
std::optional<std::vector<ProbeConfig>> probeConfigs(
    const std::vector<std::string>& backends, bool dynamic, std::string* error);

struct ProbeOptions {
    std::vector<std::string> command;
    std::string workingDirectory;
    int64_t startedUs = 0;
    bool check = false;
    int64_t steps = 10;
    std::vector<ProbeConfig> configs;
};

std::string probeManifestJson(const ProbeOptions& options);
std::optional<ProbeOptions> parseProbeManifest(const std::string& json, std::string* error);

// A configuration's run, read back.
struct ProbeRunData {
    ProbeConfig config;
    std::string folder; // absolute
    std::optional<run::RunRecord> record; // nullopt: it never ran (the session was stopped)
    std::shared_ptr<const Trace> trace; // null: the run wrote no trace
    std::vector<std::string> loadErrors;
    ProbeArtifacts artifacts;
};

struct ProbeSession {
    std::string folder;
    ProbeOptions options;
    std::vector<ProbeRunData> runs; // the manifest's order
};

// Whether `folder` holds a probe manifest.
bool isProbeSessionFolder(const std::string& folder);
// Reads the manifest and loads every run's trace (cancellable through stop). nullopt with
// *error when the manifest is missing or does not read.
std::optional<ProbeSession> loadProbeSession(
    const std::string& folder, std::string* error, std::stop_token stop = {});

} // namespace dynascope
