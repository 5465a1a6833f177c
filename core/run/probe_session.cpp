#include "core/run/probe_session.h"

#include "core/load/loader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace dynascope {

namespace {

bool plainName(const std::string& s)
{
    if (s.empty() || s.size() > 64)
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '_';
    });
}

} // namespace

std::string ProbeConfig::label() const
{
    std::string s;
    if (backend == "none")
        s = "eager, no torch.compile";
    else if (backend == "program")
        s = "as written";
    else
        s = "backend=" + backend;
    if (dynamic)
        s += ", dynamic=True";
    return s;
}

std::optional<std::vector<ProbeConfig>> probeConfigs(
    const std::vector<std::string>& backends, bool dynamic, std::string* error)
{
    std::vector<ProbeConfig> out { { "no_compile", "none", false } };
    std::set<std::string> seen;
    for (const auto& b : backends) {
        if (!plainName(b) || b == "none") {
            if (error)
                *error = "'" + b
                    + "' is not a backend name (a registered backend such as eager, aot_eager, "
                      "inductor, or 'program' for the program's own torch.compile arguments)";
            return std::nullopt;
        }
        if (!seen.insert(b).second) {
            if (error)
                *error = "backend '" + b + "' is listed twice";
            return std::nullopt;
        }
        out.push_back({ b, b, false });
    }
    if (backends.empty()) {
        if (error)
            *error = "no backend to probe";
        return std::nullopt;
    }
    if (dynamic)
        out.push_back({ backends.back() + "_dynamic", backends.back(), true });
    return out;
}

std::string probeManifestJson(const ProbeOptions& o)
{
    ordered_json j;
    j["format"] = "dynascope-probe-runs";
    j["version"] = 1;
    j["command"] = o.command;
    j["working_directory"] = o.workingDirectory;
    j["started_us"] = o.startedUs;
    j["check"] = o.check;
    j["steps"] = o.steps;
    ordered_json runs = ordered_json::array();
    for (const auto& c : o.configs) {
        ordered_json r;
        r["name"] = c.name;
        r["backend"] = c.backend;
        r["dynamic"] = c.dynamic;
        r["folder"] = c.name;
        runs.push_back(r);
    }
    j["runs"] = runs;
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<ProbeOptions> parseProbeManifest(const std::string& text, std::string* error)
{
    auto fail = [&](const std::string& why) -> std::optional<ProbeOptions> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return fail("not JSON");
    if (j.value("format", "") != "dynascope-probe-runs")
        return fail("not a dynascope-probe-runs manifest");
    if (!j["version"].is_number_integer() || j["version"].get<int>() != 1)
        return fail("unsupported manifest version");
    ProbeOptions o;
    try {
        if (j["command"].is_array())
            for (const auto& a : j["command"])
                if (a.is_string())
                    o.command.push_back(a.get<std::string>());
        o.workingDirectory = j.value("working_directory", "");
        o.startedUs = j.value("started_us", int64_t { 0 });
        o.check = j.value("check", false);
        o.steps = j.value("steps", int64_t { 10 });
        if (!j["runs"].is_array())
            return fail("the manifest lists no runs");
        for (const auto& r : j["runs"]) {
            if (!r.is_object())
                continue;
            ProbeConfig c;
            c.name = r.value("name", "");
            c.backend = r.value("backend", "");
            c.dynamic = r.value("dynamic", false);
            // Folders are the run names, plain names inside the session folder.
            if (!plainName(c.name) || r.value("folder", "") != c.name
                || !(c.backend == "none" || plainName(c.backend)))
                return fail(
                    "run '" + c.name + "' has a folder or backend that is not a plain name");
            o.configs.push_back(c);
        }
    } catch (const std::exception& e) {
        return fail(std::string("unexpected value: ") + e.what());
    }
    return o;
}

bool isProbeSessionFolder(const std::string& folder)
{
    std::error_code ec;
    return fs::is_regular_file(fs::path(folder) / kProbeManifestFile, ec);
}

std::optional<ProbeSession> loadProbeSession(
    const std::string& folder, std::string* error, std::stop_token stop)
{
    const fs::path manifest = fs::path(folder) / kProbeManifestFile;
    std::ifstream in(manifest, std::ios::binary);
    if (!in) {
        if (error)
            *error = folder + ": no " + kProbeManifestFile + " (not a probe folder)";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::string why;
    auto options = parseProbeManifest(text.str(), &why);
    if (!options) {
        if (error)
            *error = manifest.string() + ": " + why;
        return std::nullopt;
    }
    ProbeSession session;
    std::error_code ec;
    session.folder = fs::absolute(folder, ec).lexically_normal().string();
    session.options = *options;
    for (const ProbeConfig& c : options->configs) {
        if (stop.stop_requested())
            break;
        ProbeRunData run;
        run.config = c;
        run.folder = (fs::path(session.folder) / c.name).string();
        std::string recordError;
        run.record = run::readRunRecord(run.folder, &recordError);
        const auto files = run::runTraceFiles(run.folder);
        if (!files.empty()) {
            auto loaded = load(files, LoadOptions {}, {}, stop);
            for (const auto& e : loaded.errors)
                run.loadErrors.push_back(e.format());
            run.trace = loaded.trace;
            if (run.trace)
                run.artifacts = readProbeArtifacts(*run.trace);
        }
        session.runs.push_back(std::move(run));
    }
    return session;
}

} // namespace dynascope
