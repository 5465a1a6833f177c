// TORCH_LOGS text: what `TORCH_LOGS="graph_breaks,recompiles,guards,dynamic" python train.py`
// (or "+dynamo", "recompiles_verbose", ...) prints to stderr, often mixed into a job's stdout,
// with "[rank0]:" prefixes from distributed runs, pasted from a terminal with wrapped or cut
// lines. Read into the same Trace model as a TORCH_TRACE, as far as the text allows:
//
//   - a record per log statement (statement_reader.h): the first line with its prefix is the
//     header, the other lines of the message, without their prefixes, the payload; the text of
//     those records is a new buffer (TraceFile::buffer), Record::line the input line;
//   - one TraceFile per process (rank and pid), all naming the input's path;
//   - compiles from the "[0/1]" prefixes (a compile id that comes back after its compile
//     finished, after torch._dynamo.reset(), is a new compile), attempts from "[0/1_2]";
//   - graph breaks, recompile reasons (linked to the failed guard of the earlier compile when the
//     text has that compile's guard dump), guard trees, shape events, the recompile limit, and
//     code object names and stacks where the text says them (recompiles, +dynamo);
//   - times from the prefixes: a compile lasts from its first statement to the one that logs
//     its guards, else its last (TimeSource::Glog; none when all share one time). Statements
//     under its id after its guards are later work (the backward graph compiled at the first
//     backward call), kept in the compile but not in its time.
//
// What the text does not carry stays absent: no metrics (guard and op counts, cache events),
// no phases, no generated code, and failures only where PyTorch logged them.
#pragma once

#include "core/load/finish/file_build_input.h"

#include <memory>
#include <string>
#include <string_view>

namespace dynascope::logs {

// The trace model of TORCH_LOGS text (input.buffer); never throws for bad content.
std::unique_ptr<Trace> buildTorchLogs(const FileBuildInput& input);

} // namespace dynascope::logs
