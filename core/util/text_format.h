// Small text helpers shared by the report renderers, the bug-report Markdown and the exports:
// escaping untrusted trace text for HTML and Markdown, replacing invalid UTF-8, and formatting
// durations and epoch times the way the app does ("812 µs", "2.41 s", 10:41:02.123 UTC).
//
// Trace text is untrusted: everything that came from a log goes through htmlEscape() before it
// reaches HTML, and through mdCode()/mdFence() before it reaches Markdown (GitHub renders raw
// HTML in Markdown outside code spans).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dynascope::text {

// Replaces invalid UTF-8 sequences with U+FFFD and control characters other than \n and \t
// with U+FFFD, so the output is always valid UTF-8 text.
std::string cleanUtf8(std::string_view s);

// Escapes & < > " ' (after cleanUtf8), safe in element content and quoted attribute values.
std::string htmlEscape(std::string_view s);

// An inline Markdown code span holding s verbatim: newlines become spaces, the backtick fence
// is longer than any backtick run inside, and `|` is escaped when inTable is true.
std::string mdCode(std::string_view s, bool inTable = false);
// A fenced Markdown code block (``` or longer when s contains backtick runs), ending in "\n".
std::string mdFence(std::string_view s, std::string_view language = "");
// Plain Markdown text with the characters that could start markup escaped (for short labels).
std::string mdText(std::string_view s);

// "812 µs", "41.2 ms", "2.41 s", "3 min 12 s".
std::string duration(double us);
// The app's compact form, three significant digits: "8.5 µs", "812 µs", "41.2 ms", "2.41 s",
// "3 min 12 s", "2 h 05 min"; "–" for a negative or infinite value.
std::string compactDuration(double us);
// Epoch microseconds as "2026-03-14 10:41:02.123 UTC" ("" when us <= 0).
std::string utcTime(double epochUs);
// The first line of s.
std::string_view firstLine(std::string_view s);
// s cut to at most maxLines lines (with a "… (N more lines)" line when cut).
std::string headLines(std::string_view s, size_t maxLines);
// A percentage with one decimal ("87.5%").
std::string percent(double fraction);
// The base name of a path ("train.py" from "/home/alice/proj/train.py").
std::string_view baseName(std::string_view path);
// Where code is, as far as the trace says: "train.py:25", "train.py" when the line is not known
// (0), "" when the file is not. A place never reads ":0".
std::string codePlace(std::string_view file, int64_t line);

} // namespace dynascope::text
