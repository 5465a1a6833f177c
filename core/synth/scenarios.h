// Synthetic TORCH_TRACE scenarios written with TraceWriter: the bundled example (one story told
// through graph breaks, recompiles, dynamic shapes and a backend failure) and small focused
// fixtures for the tests. All output is deterministic: pid 4242, clock starting at
// 2026-03-14 10:41:02 UTC (1773484862000000 us), UTC glog prefix, unless said otherwise.
#pragma once

#include <ostream>

namespace dynascope {

// The bundled example (resources/examples/example.log); see resources/examples/README.md.
void writeExampleTrace(std::ostream& out);

// Modern graph break: [0/0] with a dynamo_graph_break_reason artifact, [0/0_1] finishing the
// graph before the break, and the resume frame torch_dynamo_resume_in_step_at_19 as [1/0].
void writeGraphBreakFixture(std::ostream& out);
// Static recompile chain on frame 0 over 32, 64, 128, 256, 512 rows: [0/0]..[0/4], each
// recompile preceded by recompile_reasons naming the TENSOR_MATCH size guard.
void writeRecompileChainFixture(std::ostream& out);
// One compile [0/0] with size=[None, 128]: create_symbol s0, guard_added_fast shape guards with
// user stacks, one symbolic_shape_specialization.
void writeDynamicShapeFixture(std::ostream& out);
// A custom backend that raises: fail_type BackendCompilerFailed plus a dynamo_error artifact.
void writeBackendFailureFixture(std::ostream& out);
// Compiled autograd: a forward compile [0/0], then [!0/0/0] and [!0/1/0] under compiled autograd
// 0, each with a compiled_autograd_graph record (the graph compiled autograd captured).
void writeCompiledAutogradFixture(std::ostream& out);
// Ids that repeat after torch._dynamo.reset(): 3 rounds of [0/0] and [1/0] (6 dynamo_start).
void writeResetFixture(std::ostream& out);
// The 2024 form: thread id in the prefix, frames without loc, dynamo_guards JSON, chromium
// events without cat/tid/compile id and "args": null, "<class '...'>" fail_type, graph breaks only
// as restart_reasons with attempt 1 ([0/0_1]) and a resume frame [1/0], then a failing [2/0].
void writeLegacy2024Fixture(std::ostream& out);
// A small compile [0/0] for one rank of a distributed job, "rank" in every envelope.
void writeRankFixture(std::ostream& out, int rank);

} // namespace dynascope
