// Inputs of pathological shape, for the robustness tests (tests/robustness/tst_shapes.cpp: heap
// per input byte at two sizes) and dynascope-bench --shapes (throughput per shape). Each is built
// to about `bytes` bytes of text; deterministic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope::synth {

struct PathologicalShape {
    const char* name; // "bad_lines"
    const char* what; // one line for the bench's output and test names
};

// bad_lines, blank_lines, payload_then_blanks, tab_lines, glog_text, tiny_records,
// string_table_flood, unknown_kinds, compiles_of_one_frame, deep_span_nesting, md5_mismatches.
const std::vector<PathologicalShape>& pathologicalShapes();

// The text of shape `name` at about `bytes` bytes (empty for an unknown name).
std::string makePathological(std::string_view name, size_t bytes);

} // namespace dynascope::synth
