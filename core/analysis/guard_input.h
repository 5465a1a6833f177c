// GuardInput: an input described in words for the guard lab, as people type it:
//   x: bf16[48, 128] cuda requires_grad      a tensor (dtype, sizes, device, requires_grad)
//   x: f32[32, 3, 224, 224] channels_last    its memory format, or explicit stride=[256, 1]
//   x: f32[48, 128] dynamic=0                torch._dynamo.mark_dynamic(x, 0)
//   k: 7        training: False       THRESHOLD: 0.5       Python values of locals/globals
//   x: f32[8, 4] inference                   a tensor made under torch.inference_mode()
//   grad: off   autocast: cuda bf16   default_device: cuda   the ambient state
//   inference_mode: on                       the call runs under torch.inference_mode()
//   x.size(0) in 1..512                      a range: one answer per size
// Several are separated by ";" (or given one by one: parseGuardInput appends).
#pragma once

#include "core/analysis/guard_expr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

struct TensorDescription {
    std::optional<std::string> dtype; // "float32" (torch.float32 without "torch.")
    std::optional<std::vector<int64_t>> sizes;
    std::optional<std::vector<int64_t>> strides; // explicit stride=[...]
    bool channelsLast = false; // channels_last (4-d) / channels_last_3d (5-d)
    std::optional<std::string> device; // "cpu", "cuda:0"
    std::optional<bool> requiresGrad;
    std::vector<int> dynamicDims; // mark_dynamic(x, d) for each
    std::optional<std::string> type; // "Tensor" or "Parameter"
    std::optional<bool> inference; // made under torch.inference_mode() (an inference tensor)

    // The strides the tensor has: explicit, channels_last or contiguous; none without sizes.
    std::optional<std::vector<int64_t>> effectiveStrides() const;
};

struct SizeRange {
    std::string name; // "x"
    int dim = 0;
    int64_t lo = 0, hi = 0;
};

struct GuardInput {
    std::map<std::string, TensorDescription> tensors; // by local name
    std::map<std::string, GuardValue> values; // by local or global name, or attribute name
    std::optional<bool> gradMode;
    std::optional<bool> inferenceMode; // on: grad mode is off too, unless given
    struct Autocast {
        bool enabled = false;
        std::string device; // "cpu", "cuda"
        std::string dtype; // "bfloat16", "float16"
    };
    std::optional<Autocast> autocast;
    std::optional<std::string> defaultDevice; // "cpu" / "cuda:0" (torch.set_default_device)
    std::optional<SizeRange> range;

    bool empty() const;
};

// Adds what `text` describes to `input`. False with `error` naming the bad part.
bool parseGuardInput(std::string_view text, GuardInput& input, std::string& error);

// "f32", "float32", "torch.float32", "bf16", "half", ... -> "float32"; "" if not a dtype.
std::string canonicalDtype(std::string_view word);

} // namespace dynascope
