// Runs: which of a folder's trace files were written by the same job. A TORCH_TRACE folder
// collects every run that pointed at it (PyTorch names each file with a random suffix), and
// people copy files around, so a folder holds several runs and duplicates. Files are grouped by
// time (a file joins a run that was still being written when it started, give or take
// kRunSlackUs) and by the ranks they claim (a run has one file per rank: a second file of the
// same rank at the same time is another job). Files with the same bytes as an earlier one are
// duplicates: grouped with nothing and never loaded.
//
// Cost: a sort of the files by start time; duplicates compared only between files of the same
// decoded size (memcmp), so n files take O(n log n) plus the bytes of same-size files.
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

class TraceSource;

// How far apart (epoch µs) a file's start may be from the end of a run it joins.
constexpr double kRunSlackUs = 120e6;

struct RunCandidate {
    std::string path;
    std::optional<int64_t> rank;
    double startUs = 0, endUs = 0; // first and last record's glog time (0: none)
    uint64_t bytes = 0; // on disk
    // The file's bytes (compared for duplicates; null: never a duplicate).
    std::shared_ptr<const TraceSource> content;
};

struct RunGrouping {
    std::vector<TraceRun> runs; // oldest first, numbered from 1; files in candidate order
    std::vector<uint32_t> runOf; // per candidate: its run's number (0: a duplicate)
    std::vector<int64_t> duplicateOf; // per candidate: the candidate it copies, or -1
};

RunGrouping groupRuns(const std::vector<RunCandidate>& candidates);

// The first and last glog time of a file's records (0, 0 when none carry one), read in `year`
// and zone (the file's own, or the other files' when it had no epoch field to tell its year).
std::pair<double, double> fileTimeSpan(const Trace& singleFile, int year, int tzOffsetMinutes);

// Fills TraceFile::label for every file: unique labels when ranks repeat.
void labelFiles(Trace& trace);

// "run 1 (2025-08-04 12:34 UTC, ranks 0-4, 5 files)".
std::string describeRun(const TraceRun& run);

} // namespace dynascope
