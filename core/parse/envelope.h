// Envelope: the JSON object of a header line. The kind is the one key that is not a context key
// (rank, compiled_autograd_id, frame_id, frame_compile_id, attempt, has_payload, stack,
// subgraph_name); its value is kept as raw JSON text (a view into the buffer).
#pragma once

#include "core/model/compile_id.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dynascope {

struct Envelope {
    std::string_view kind; // the kind key (valid until the next parse)
    std::string_view metadata; // raw JSON of the kind's value
    std::optional<int64_t> rank;
    std::optional<int64_t> compiledAutograd;
    std::optional<int64_t> frameId;
    std::optional<int64_t> frameCompileId;
    std::optional<int64_t> attempt;
    std::string_view hasPayload; // md5 hex, empty when absent
    std::string_view stack; // raw JSON of a top-level "stack", empty when absent
    int extraKinds = 0; // further non-context keys (kept in the raw header)

    bool hasCompileId() const { return frameId || frameCompileId || compiledAutograd; }
    CompileId compileId() const
    {
        CompileId id;
        id.compiledAutograd = compiledAutograd;
        id.frame = frameId;
        id.frameCompile = frameCompileId;
        id.attempt = attempt.value_or(0);
        return id;
    }
};

class EnvelopeParser {
public:
    EnvelopeParser();
    ~EnvelopeParser();
    EnvelopeParser(const EnvelopeParser&) = delete;
    EnvelopeParser& operator=(const EnvelopeParser&) = delete;

    // json must be followed by at least 64 readable bytes (simdjson padding). Returns false and
    // sets error when the text is not a JSON object.
    bool parse(std::string_view json, Envelope& out, std::string& error);

private:
    struct Impl;
    Impl* m_impl;
};

} // namespace dynascope
