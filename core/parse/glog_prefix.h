// GlogPrefix: the `V0822 14:00:48.902000 2354971 torch/_dynamo/convert_frame.py:247] ` in front of
// every header line. Local wall time with no year and no zone; a thread id (2024) or a pid.
// An optional `[rank0]:` launcher prefix is accepted.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dynascope {

struct GlogPrefix {
    char level = 'V';
    int month = 0, day = 0;
    uint32_t msOfDay = 0; // milliseconds since local midnight
    uint64_t threadOrPid = 0;
    std::string_view emitter; // "torch/_dynamo/convert_frame.py:247"
    size_t jsonOffset = 0; // offset of the '{' that starts the JSON in the line
};

// Parses a header line (without its newline). Returns nullopt when the line is not a glog
// header followed by a JSON object.
std::optional<GlogPrefix> parseGlogPrefix(std::string_view line);

// The fields every glog prefix has, TORCH_TRACE header and TORCH_LOGS line alike (this one
// parser reads them for both, core/parse/log_line.h reads the rest of a TORCH_LOGS prefix):
// the level letter, MMDD HH:MM:SS[.ffffff], spaces, the thread or process id and one space.
struct GlogFields {
    char level = 'V';
    int month = 0, day = 0;
    uint32_t msOfDay = 0; // milliseconds since local midnight
    uint64_t threadOrPid = 0;
};
// Reads them from line[pos]; the position after the space that ends the id, or nullopt.
std::optional<size_t> parseGlogFields(std::string_view line, size_t pos, GlogFields& out);

} // namespace dynascope
