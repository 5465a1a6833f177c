// StatementReader: TORCH_LOGS text -> log statements, in one streaming pass (plus one pass of
// line statistics first), linear in the input and holding at most a few open statements.
//
// A statement is one call of a PyTorch logger: consecutive lines with the same prefix (rank,
// level, time, process, emitter, compile id, artifact; see log_line.h) from one process. Lines
// of several processes may interleave (two ranks writing to one terminal); each process has its
// own open statement. Lines that are no log line (the program's own output, tracebacks, blank
// lines, TORCH_TRACE records) are counted, never kept.
//
// Terminal pastes: when many lines are exactly N characters long and are followed by a line
// without a prefix, the text was hard-wrapped at N columns (copied from tmux, screen or a
// fixed-width log view) and such lines are joined again. When many different lines end at
// exactly N characters and no wrap follows, the paste cut them at N columns: those lines are
// flagged (what they lost is not in the text).
//
// The statements are written into a new text, each contiguous: its first line as logged
// (prefix included), then every further message line as a payload line (a tab and the message,
// no prefix), like a TORCH_TRACE record, so the trace model's records, payload() and the views
// work on it unchanged.
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope::logs {

struct StatementInfo {
    uint64_t offset = 0; // of the header line in ReadResult::text
    uint32_t headerLength = 0; // the first line (prefix and first message line)
    uint32_t payloadLength = 0; // the payload lines ("\t" + message line each), '\n'-separated
    uint32_t line = 0; // first line in the input, 1-based
    uint32_t lastLine = 0; // last input line it takes (wrapped parts included)
    bool cut = false; // a line of it ends at the paste's cut column
};

struct ReadResult {
    std::string text;
    std::vector<StatementInfo> statements; // by first line
    uint64_t lines = 0; // input lines
    uint64_t foreignLines = 0; // lines that are not PyTorch log lines (blank ones included)
    uint64_t firstForeignLine = 0, lastForeignLine = 0; // 1-based; 0 when none
    uint64_t traceHeaderLines = 0; // of those, TORCH_TRACE record headers
    uint64_t otherLoggerLines = 0; // of those, glog-style lines of another logger (not torch)
    size_t wrapColumns = 0; // the text was hard-wrapped at this width (0: not wrapped)
    uint64_t joinedLines = 0; // wrapped parts joined to the line before them
    size_t cutColumns = 0; // the paste cut long lines at this width (0: not cut)
    uint64_t cutLines = 0;
    bool endsMidLine = false; // the last line has no newline
    bool cancelled = false;
};

ReadResult readStatements(std::string_view input, std::stop_token stop = {});

} // namespace dynascope::logs
