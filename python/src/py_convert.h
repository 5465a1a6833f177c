// Core facts as Python objects: a compile, a finding, a diagnostic as dicts, and the tables of
// Trace.to_pandas() as columns (dict of name -> list). The dicts' keys are the attribute names
// of the Python classes in python/dynascope/_model.py and the column names documented in
// docs/python.md; both are stable.
//
// Trace text is untrusted and need not be valid UTF-8: every string crosses into Python through
// str(), which replaces what does not decode, so no input raises UnicodeDecodeError.
// These functions build Python objects: call them with the GIL held.
#pragma once

#include "core/analysis/findings.h"
#include "core/model/diagnostic.h"
#include "core/model/trace.h"

#include <nanobind/nanobind.h>

#include <string_view>

namespace dynascope::py {

namespace nb = nanobind;

class TraceHandle;

// A Python str from bytes that should be UTF-8 (invalid sequences become U+FFFD).
nb::str str(std::string_view s);

nb::dict compileDict(const Trace& trace, uint32_t index);
nb::dict findingDict(const Trace& trace, const Finding& finding);
nb::dict diagnosticDict(const Diagnostic& d);
nb::list filesList(const Trace& trace);

// The table `name` ("compiles", "graph_breaks", "recompiles", "findings", "phases") as columns;
// raises ValueError for another name.
nb::dict tableColumns(TraceHandle& handle, std::string_view name);

} // namespace dynascope::py
