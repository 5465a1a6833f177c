// dynascope-cli: summaries (and later reports and exports) of TORCH_TRACE logs, from the same
// core as the app. Exit status: 0 success, 1 usage error, 2 an input could not be read.
#include "core/load/loader.h"
#include "core/writer/summary_json.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

const char* kUsage = R"(Usage: dynascope-cli COMMAND [OPTIONS] PATH...

Commands:
  summary [--json] [--latest] [--no-verify] PATH...
      Per file, per compile and total counts of a trace (a file, a folder of per-rank files,
      or .zst/.gz). --json prints the JSON document described in README.md.
      --latest takes only the newest trace file of a folder; --no-verify skips the payload
      MD5 check.

Options:
  -h, --help      Show this help
  --version       Show the version

Exit status: 0 on success, 1 on a usage error, 2 when an input cannot be read.
Diagnostics go to stderr as file:line: message.
)";

int usageError(const std::string& message)
{
    std::cerr << "dynascope-cli: " << message << "\nTry 'dynascope-cli --help'.\n";
    return 1;
}

int summary(const std::vector<std::string>& args)
{
    bool json = false;
    dynascope::LoadOptions options;
    dynascope::SummaryOptions summaryOptions;
    std::vector<std::string> paths;
    for (const auto& a : args) {
        if (a == "--json")
            json = true;
        else if (a == "--latest")
            options.newestOnly = true;
        else if (a == "--no-verify")
            summaryOptions.verifyPayloads = false;
        else if (a.starts_with("-") && a != "-")
            return usageError("unknown option '" + a + "' for summary");
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usageError("summary needs at least one PATH");
    auto result = dynascope::load(paths, options);
    if (!result.errors.empty()) {
        for (const auto& e : result.errors)
            std::cerr << e.format() << "\n";
        return 2;
    }
    const auto& trace = *result.trace;
    for (const auto& d : trace.diagnostics)
        std::cerr << d.format() << "\n";
    dynascope::Trace::PayloadCheck check;
    if (summaryOptions.verifyPayloads) {
        check = trace.verifyPayloads();
        summaryOptions.check = &check;
        for (const auto& d : check.diagnostics)
            std::cerr << d.format() << "\n";
    }
    std::string out = json ? dynascope::summaryJson(trace, summaryOptions)
                           : dynascope::summaryText(trace, summaryOptions);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return usageError("missing command");
    const std::string cmd = args.front();
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (cmd == "--version") {
        std::cout << "dynascope-cli " << DYNASCOPE_VERSION << "\n";
        return 0;
    }
    args.erase(args.begin());
    if (cmd == "summary")
        return summary(args);
    return usageError("unknown command '" + cmd + "'");
}
