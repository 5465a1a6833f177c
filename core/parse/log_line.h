// One line of TORCH_LOGS text, as torch._logging's TorchLogsFormatter writes it:
//
//   [rank0]:V1201 22:28:22.271000 30442 torch/_dynamo/guards.py:4786] [0/0] [__guards] GUARDS:
//
// an optional "[rankN]:" (torch.distributed is initialised), the glog level letter, MMDD
// HH:MM:SS.ffffff (local wall time, no year, no zone), the process id, the emitting module
// relative to sys.path and its line, "]", an optional " [compile id]", an optional
// " [__artifact]" (the TORCH_LOGS artifact that logged it), then one space and one line of the
// message. Every line of a multi-line message carries the same prefix. A line of a TORCH_TRACE
// file has the same prefix followed by a JSON object.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dynascope::logs {

struct LogLine {
    std::optional<int64_t> rank; // "[rank3]:"
    char level = 'V';
    int month = 0, day = 0;
    uint32_t msOfDay = 0; // milliseconds since local midnight
    uint64_t pid = 0;
    std::string_view emitter; // "torch/_dynamo/guards.py:4786"
    std::string_view compileId; // "0/0", "0/1_1", "!0/3/0" (inside the brackets); empty if none
    std::string_view artifact; // "guards" for " [__guards]"; empty if none
    size_t prefixEnd = 0; // bytes of the prefix, without the space that separates the message
    size_t prefixLength = 0; // bytes before the message (that space included when present)
    std::string_view message; // the rest of the line (no newline, no CR)
};

// Parses a line without its newline (a trailing CR is ignored). Leading spaces or tabs are
// allowed (pastes indented as code). Returns nullopt for anything else.
std::optional<LogLine> parseLogLine(std::string_view line);

// Whether an emitter is one of PyTorch's modules ("torch/_dynamo/guards.py:4786"; an absolute
// ".../site-packages/torch/..." path when sys.path did not contain its folder).
bool isTorchEmitter(std::string_view emitter);

// Whether the start of a file (its first megabyte, or less) is TORCH_LOGS text: it holds log
// lines of PyTorch's (a prefix from torch's modules, or one with a compile id or an artifact)
// and more of them than TORCH_TRACE records. Program output around them does not matter.
bool looksLikeTorchLogs(std::string_view firstMegabyte);

// Length of a line in characters (UTF-8 sequences count once; invalid bytes count one each).
size_t characterCount(std::string_view s);

} // namespace dynascope::logs
