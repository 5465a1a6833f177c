// TraceWriter: writes valid TORCH_TRACE files (glog prefix, JSON envelope, string table, payload
// lines with their MD5). Used to make the project's fixtures, the bundled example and exports.
// Deterministic: the same calls give the same bytes.
#pragma once

#include "core/model/compile_id.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dynascope {

struct WriteFrame {
    int64_t line = 0;
    std::string name;
    std::string file; // interned into the string table by the writer
    std::string loc; // optional source text ("" = omitted)
};

struct WriteContext {
    std::optional<int64_t> rank;
    std::optional<int64_t> compiledAutograd;
    std::optional<int64_t> frameId;
    std::optional<int64_t> frameCompileId;
    std::optional<int64_t> attempt;
    bool compiledAutogradNull = false; // write "compiled_autograd_id": null (2024-12 logs do)

    static WriteContext forCompile(const CompileId& id, std::optional<int64_t> rank = {});
};

class TraceWriter {
public:
    // pid goes into the glog prefix; startEpochUs is the clock's initial value; tzOffsetMinutes is
    // the local zone of the glog prefix (local = UTC + offset).
    TraceWriter(std::ostream& out, int64_t pid, int64_t startEpochUs, int tzOffsetMinutes = 0);

    int64_t clockUs() const { return m_clockUs; }
    void setClockUs(int64_t epochUs) { m_clockUs = epochUs; }
    void advanceUs(int64_t us) { m_clockUs += us; }

    // Returns the string-table index of a file, writing {"str": [path, idx]} the first time.
    int64_t internFile(const std::string& path);

    // Writes one record. metadataJson is the JSON text of the kind's value ("{}" when empty).
    // Stack frames given in `stack` are written as a top-level "stack" key (records outside any
    // compile); files in them are interned first. payload, when given, gets has_payload = md5.
    void write(std::string_view kind, std::string_view metadataJson, const WriteContext& ctx,
        const std::optional<std::string>& payload = std::nullopt,
        std::string_view emitter = "torch/_dynamo/utils.py:1900",
        const std::vector<WriteFrame>* stack = nullptr);

    // dynamo_start with its stack (interns the frames' files).
    void dynamoStart(const WriteContext& ctx, const std::vector<WriteFrame>& stack);
    // A chromium_event payload; ph is "B", "E", "i" or "X" (X takes durUs). argsJson is the JSON
    // object of "args" ("" = compile_id only, "null" = 2024 form). Uses the current clock.
    void chromiumEvent(const WriteContext& ctx, std::string_view name, std::string_view ph,
        std::string_view argsJson = "", double durUs = 0);
    // artifact {"name":..., "encoding": "string"|"json"} with a payload.
    void artifact(const WriteContext& ctx, std::string_view name, std::string_view encoding,
        const std::string& payload);

    // Writes raw text as it is (for hand-broken fixtures).
    void raw(std::string_view text);

    // JSON frames for a "stack" metadata value, interning files (for dynamo_start-like kinds).
    std::string stackJson(const std::vector<WriteFrame>& stack);

    static std::string md5Hex(std::string_view data);
    // Re-serialises JSON text the way Python's json.dumps does: ", " and ": " separators
    // (pretty = false), or indent=0 (pretty = true: one item per line, no indentation), floats in
    // Python's repr form (1773484862000000.0, 1e-05), non-ASCII escaped. Throws on invalid JSON.
    static std::string pythonJson(std::string_view json, bool pretty = false);
    // The compile id as PyTorch writes it in JSON: "0/1", "!0/3/0", "0/0_1" (attempt > 0).
    static std::string compileIdString(const WriteContext& ctx);

private:
    std::string prefix(std::string_view emitter) const;
    std::string contextJson(const WriteContext& ctx) const;

    std::ostream& m_out;
    int64_t m_pid;
    int64_t m_clockUs;
    int m_tzOffsetMinutes;
    std::unordered_map<std::string, int64_t> m_strings;
};

} // namespace dynascope
