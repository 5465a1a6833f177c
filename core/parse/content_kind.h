// What a file holds, told from its first megabyte before the rest is read: people open the
// wrong file (a job's stdout, a Chrome trace, tlparse's output, a checkpoint), and a 10 GB file
// that is not a trace must get a plain answer at once, not a load of millions of bad lines.
#pragma once

#include <string>
#include <string_view>

namespace dynascope {

enum class ContentKind {
    Empty,
    TorchTrace, // TORCH_TRACE records (a damaged start still counts: any header line does)
    TorchLogs, // TORCH_LOGS text (core/load/logs reads it)
    ChromeTrace, // JSON with traceEvents (torch.profiler, Perfetto, or our own export)
    TlparseHtml, // tlparse's index.html (or a page of its output)
    TlparseJson, // tlparse's compile_directory.json or raw.jsonl
    Json, // other JSON
    Html, // other HTML
    Binary, // NUL bytes or mostly non-text: an image, an archive, a checkpoint
    Text, // text with no trace records: a program's output, another log
};

struct ContentGuess {
    ContentKind kind = ContentKind::Empty;
    std::string what; // "a PNG image", "a zip archive (a torch.save checkpoint?)", ...
};

// Classifies the first bytes of a file (decompressed; up to a megabyte, a last partial line is
// ignored). Cheap: one pass over `head`.
ContentGuess classifyContent(std::string_view head);

// Whether a file of that kind is opened as a trace (TorchTrace, TorchLogs, Empty).
bool isLoadable(ContentKind kind);

// The message for a file that is not a trace: what it looks like, and what to open instead,
// with the TORCH_TRACE line to record one.
std::string notATraceMessage(const ContentGuess& guess);

} // namespace dynascope
