// dynascope-cli record and probe: run the user's program under the tracer (core/run).
#pragma once

#include <string>
#include <vector>

namespace dynascope::cli {

extern const char* kRecordHelp;
extern const char* kProbeHelp;

// Both return the exit status (record: the program's; see docs/recording.md).
int record(const std::vector<std::string>& args);
int probe(const std::vector<std::string>& args);

} // namespace dynascope::cli
