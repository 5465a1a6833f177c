// CompileId: PyTorch's compile identifier `[!ca/frame/frame_compile_id_attempt]`.
// Every part is optional in the log; the attempt defaults to 0. Ids are NOT unique in a file
// (they repeat after torch._dynamo.reset()), so the model identifies compiles by position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dynascope {

struct CompileId {
    std::optional<int64_t> compiledAutograd; // `!N/` prefix
    std::optional<int64_t> frame; // frame_id
    std::optional<int64_t> frameCompile; // frame_compile_id
    int64_t attempt = 0;

    bool empty() const { return !compiledAutograd && !frame && !frameCompile; }
    // PyTorch's own display form: "[0/1]", "[0/0_1]", "[!0/3/0]". Empty id: "[-]".
    std::string display() const;
    // Without brackets and without the attempt: "0/1", "!0/3/0". Used in JSON and as the
    // key that recompile reasons name ("0/0: tensor 'x' size mismatch ...").
    std::string key() const;
    // Parses "0/1", "[0/1_2]", "!0/3/0", "0/1_2"; returns nullopt on malformed text.
    static std::optional<CompileId> parse(std::string_view text);

    bool sameCompile(const CompileId& o) const
    {
        return compiledAutograd == o.compiledAutograd && frame == o.frame
            && frameCompile == o.frameCompile;
    }
    bool operator==(const CompileId&) const = default;
};

} // namespace dynascope
