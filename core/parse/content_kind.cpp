#include "core/parse/content_kind.h"

#include "core/parse/glog_prefix.h"
#include "core/parse/log_line.h"

#include <algorithm>
#include <cstring>

namespace dynascope {

namespace {
bool startsWith(std::string_view s, std::string_view p)
{
    return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

bool containsNoCase(std::string_view s, std::string_view needle)
{
    return std::search(s.begin(), s.end(), needle.begin(), needle.end(), [](char a, char b) {
        return (a >= 'A' && a <= 'Z' ? a + 32 : a) == (b >= 'A' && b <= 'Z' ? b + 32 : b);
    }) != s.end();
}

// Formats recognised by their first bytes (after decompression: a .gz of a PNG is a PNG).
const char* magicName(std::string_view h)
{
    if (startsWith(h, "\x89PNG"))
        return "a PNG image";
    if (startsWith(h, "\xff\xd8\xff"))
        return "a JPEG image";
    if (startsWith(h, "%PDF"))
        return "a PDF document";
    if (startsWith(h, "PK\x03\x04"))
        return "a zip archive (torch.save checkpoints are zip archives)";
    if (startsWith(h,
            "\x7f"
            "ELF"))
        return "an executable or shared library (ELF)";
    if (h.size() >= 2 && static_cast<unsigned char>(h[0]) == 0x80 && h[1] >= 2 && h[1] <= 5)
        return "a Python pickle";
    if (startsWith(h, "SQLite format 3"))
        return "an SQLite database";
    if (h.size() > 262 && h.substr(257, 5) == "ustar")
        return "a tar archive";
    return nullptr;
}

// NUL bytes, or more than one byte in 20 a control character that text does not hold.
bool looksBinary(std::string_view h)
{
    const std::string_view sample = h.substr(0, 64 * 1024);
    size_t control = 0;
    for (unsigned char c : sample) {
        if (c == 0)
            return true;
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b)
            ++control;
    }
    return control * 20 > sample.size();
}

ContentGuess classifyJson(std::string_view h)
{
    const std::string_view start = h.substr(0, 64 * 1024);
    if (start.find("\"traceEvents\"") != std::string_view::npos
        || (h.front() == '[' && start.find("\"ph\"") != std::string_view::npos))
        return { ContentKind::ChromeTrace,
            "a Chrome trace (JSON events, as torch.profiler's export_chrome_trace, Perfetto or "
            "dynascope-cli export chrome write)" };
    if (startsWith(h, "{\"string_table\"")
        || (start.find("\"payload_filename\"") != std::string_view::npos))
        return { ContentKind::TlparseJson,
            "tlparse's raw.jsonl (JSON made from a TORCH_TRACE log)" };
    if (start.find("\"artifacts\"") != std::string_view::npos
        && start.find("\"[0/0]\"") != std::string_view::npos)
        return { ContentKind::TlparseJson, "tlparse's compile_directory.json" };
    return { ContentKind::Json, "JSON that is not a TORCH_TRACE log" };
}
} // namespace

ContentGuess classifyContent(std::string_view head)
{
    if (startsWith(head, "\xef\xbb\xbf"))
        head.remove_prefix(3);
    const size_t first = head.find_first_not_of(" \t\r\n\f\v");
    if (first == std::string_view::npos)
        return { ContentKind::Empty, "empty" };
    if (const char* name = magicName(head))
        return { ContentKind::Binary, name };
    // A NUL or other control bytes make binary data, unless TORCH_TRACE header lines are among
    // them: a trace with a damaged stretch (a zero-filled block left by a crash, a line of
    // garbage) still loads, with the bad lines said.
    const bool binary = looksBinary(head);
    if (!binary && logs::looksLikeTorchLogs(head))
        return { ContentKind::TorchLogs, "TORCH_LOGS text" };

    // Any header line makes a trace, wherever it is: a trace whose start was damaged or cut
    // (payload lines first) still loads, with the bad lines said.
    size_t payloadLines = 0, otherLines = 0;
    for (size_t pos = 0; pos < head.size();) {
        size_t end = head.find('\n', pos);
        if (end == std::string_view::npos)
            end = head.size();
        std::string_view line = head.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        if (line.front() == '\t')
            ++payloadLines;
        else if (parseGlogPrefix(line) && (!binary || line.find("] {") != std::string_view::npos))
            return { ContentKind::TorchTrace, "a TORCH_TRACE log" };
        else
            ++otherLines;
    }
    if (binary)
        return { ContentKind::Binary, "binary data, not text" };
    if (payloadLines > 0 && payloadLines >= otherLines)
        return { ContentKind::TorchTrace, "payload lines of a TORCH_TRACE log" };

    const std::string_view text = head.substr(first);
    if (text.front() == '{' || text.front() == '[')
        return classifyJson(text);
    if (text.front() == '<') {
        const std::string_view start = text.substr(0, 64 * 1024);
        if (startsWith(start, "<?xml") && !containsNoCase(start, "<html"))
            return { ContentKind::Text, "an XML document" };
        if (containsNoCase(start, "<html") || containsNoCase(start, "<!doctype")) {
            if (containsNoCase(start, "stack-trie") || containsNoCase(start, "tlparse")
                || containsNoCase(start, "compile_directory"))
                return { ContentKind::TlparseHtml,
                    "a page of tlparse's output (HTML made from a TORCH_TRACE log)" };
            return { ContentKind::Html, "an HTML page" };
        }
    }
    if (text.find("Traceback (most recent call last)") != std::string_view::npos)
        return { ContentKind::Text,
            "text with no TORCH_TRACE records: a program's output (it holds a Python traceback)" };
    return { ContentKind::Text,
        "text with no TORCH_TRACE records (a program's output or another log)" };
}

bool isLoadable(ContentKind kind)
{
    return kind == ContentKind::Empty || kind == ContentKind::TorchTrace
        || kind == ContentKind::TorchLogs;
}

std::string notATraceMessage(const ContentGuess& guess)
{
    std::string m = "not a trace: this looks like " + guess.what + ". ";
    switch (guess.kind) {
    case ContentKind::ChromeTrace:
        m += "Open it in Perfetto (ui.perfetto.dev) or chrome://tracing. ";
        break;
    case ContentKind::TlparseHtml:
    case ContentKind::TlparseJson:
        m += "tlparse copies the log it read into its output folder as raw.log: open that "
             "file, or the TORCH_TRACE folder it came from. ";
        break;
    case ContentKind::Text:
        m += "If it is a job's stderr with TORCH_LOGS output, its compiler lines were not found "
             "in the first megabyte. ";
        break;
    default:
        break;
    }
    m += "Dynascope opens the logs PyTorch writes when TORCH_TRACE is set: run "
         "`TORCH_TRACE=/tmp/trace python train.py`, then open the folder /tmp/trace (or "
         "TORCH_LOGS text, e.g. TORCH_LOGS=graph_breaks,recompiles python train.py 2> log.txt).";
    return m;
}

} // namespace dynascope
