#include "core/run/run_folder.h"

#include "core/load/loader.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace dynascope::run {

int64_t nowUs()
{
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::string defaultRunFolder(const std::string& base, const std::string& prefix)
{
    const std::time_t t = std::time(nullptr);
    std::tm local {};
    localtime_r(&t, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H-%M-%S", &local);
    const fs::path parent = (base.empty() ? fs::path(".") : fs::path(base)) / "dynascope-runs";
    const std::string name = prefix + stamp;
    fs::path candidate = parent / name;
    std::error_code ec;
    for (int n = 2; fs::exists(candidate, ec) || fs::is_symlink(candidate, ec); ++n)
        candidate = parent / (name + "-" + std::to_string(n));
    return candidate.lexically_normal().string();
}

bool prepareRunFolder(const std::string& path, std::string* error)
{
    auto fail = [&](const std::string& why) {
        if (error)
            *error = why;
        return false;
    };
    if (path.empty())
        return fail("no folder given");
    std::error_code ec;
    const auto st = fs::symlink_status(path, ec);
    if (!ec && fs::exists(st)) {
        if (!fs::is_directory(fs::status(path, ec)))
            return fail(path + " exists and is not a folder");
        if (!fs::is_empty(path, ec) || ec)
            return fail(path
                + " is not empty: a run goes into a new or empty folder (its trace files would mix "
                  "with what is there)");
        return true;
    }
    fs::create_directories(path, ec);
    if (ec)
        return fail("cannot create " + path + ": " + ec.message());
    return true;
}

std::string runRecordJson(const RunRecord& r)
{
    ordered_json j;
    j["format"] = "dynascope-run";
    j["version"] = 1;
    j["command"] = r.command;
    j["working_directory"] = r.workingDirectory;
    j["trace_folder"] = r.traceFolder;
    j["started_us"] = r.startedUs;
    j["seconds"] = std::round(r.seconds * 1000) / 1000;
    if (r.exit) {
        ordered_json e;
        e["signaled"] = r.exit->signaled;
        e["code"] = r.exit->signaled ? ordered_json(nullptr) : ordered_json(r.exit->code);
        e["signal"]
            = r.exit->signaled ? ordered_json(signalName(r.exit->signal)) : ordered_json(nullptr);
        e["signal_number"]
            = r.exit->signaled ? ordered_json(r.exit->signal) : ordered_json(nullptr);
        e["shell_status"] = r.exit->shellStatus();
        e["core_dumped"] = r.exit->coreDumped;
        j["exit"] = e;
    } else {
        j["exit"] = nullptr;
    }
    j["spawn_error"] = r.spawnError.empty() ? ordered_json(nullptr) : ordered_json(r.spawnError);
    j["probe_config"] = r.probeConfig.empty() ? ordered_json(nullptr) : ordered_json(r.probeConfig);
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<RunRecord> parseRunRecord(const std::string& text, std::string* error)
{
    auto fail = [&](const std::string& why) -> std::optional<RunRecord> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return fail("not JSON");
    if (j.value("format", "") != "dynascope-run")
        return fail("not a dynascope-run record");
    if (!j["version"].is_number_integer() || j["version"].get<int>() != 1)
        return fail("unsupported dynascope-run version");
    RunRecord r;
    try {
        if (j["command"].is_array())
            for (const auto& a : j["command"])
                if (a.is_string())
                    r.command.push_back(a.get<std::string>());
        r.workingDirectory = j.value("working_directory", "");
        r.traceFolder = j.value("trace_folder", "");
        r.startedUs = j.value("started_us", int64_t { 0 });
        r.seconds = j.value("seconds", 0.0);
        if (j["exit"].is_object()) {
            const auto& e = j["exit"];
            ExitStatus s;
            s.signaled = e.value("signaled", false);
            if (s.signaled)
                s.signal
                    = e["signal_number"].is_number_integer() ? e["signal_number"].get<int>() : 0;
            else
                s.code = e["code"].is_number_integer() ? e["code"].get<int>() : 0;
            s.coreDumped = e.value("core_dumped", false);
            r.exit = s;
        }
        if (j["spawn_error"].is_string())
            r.spawnError = j["spawn_error"].get<std::string>();
        if (j["probe_config"].is_string())
            r.probeConfig = j["probe_config"].get<std::string>();
    } catch (const std::exception& e) {
        return fail(std::string("unexpected value: ") + e.what());
    }
    return r;
}

bool writeRunRecord(const std::string& folder, const RunRecord& record, std::string* error)
{
    const fs::path path = fs::path(folder) / kRunRecordFile;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << runRecordJson(record);
    out.close();
    if (!out) {
        if (error)
            *error = "cannot write " + path.string();
        return false;
    }
    return true;
}

std::optional<RunRecord> readRunRecord(const std::string& folder, std::string* error)
{
    const fs::path path = fs::path(folder) / kRunRecordFile;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error)
            *error = "no " + path.string();
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::string why;
    auto r = parseRunRecord(text.str(), &why);
    if (!r && error)
        *error = path.string() + ": " + why;
    return r;
}

std::vector<std::string> runTraceFiles(const std::string& folder)
{
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        return {};
    std::vector<Diagnostic> errors;
    return expandInputs({ folder }, LoadOptions {}, errors);
}

} // namespace dynascope::run
