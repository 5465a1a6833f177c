// TENSOR_MATCH in the guard lab: the check_tensor(...) a compile recorded, and a described tensor
// checked against it in the order Dynamo checks (torch/csrc/dynamo/guards.cpp, TensorCheck):
// dispatch key set, dtype, device, requires_grad, sizes, strides. The key set comes from c10
// where this build has a libtorch (tensor_model.h).
#pragma once

#include "core/analysis/guard_expr.h"
#include "core/analysis/guard_input.h"
#include "core/analysis/guard_lab.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

// check_tensor(SOURCE, TYPE, DispatchKeySet(...), DTYPE, device=, requires_grad=, size=, stride=)
struct RecordedTensor {
    std::string source, type, keySet, dtype, device; // dtype "float32", device "cpu"/"cuda:0"
    bool requiresGrad = false;
    std::vector<std::optional<int64_t>> sizes, strides;
};

std::optional<RecordedTensor> parseCheckTensor(const GuardExpr& e);

// What the call a description is asked about inherits from the recorded call (the newest cache
// entry's guards), where the description does not say.
struct TensorCallContext {
    const RecordedTensor* recorded = nullptr; // the same source in the recorded call
    std::optional<std::string> recordedAutocast; // "cpu", "cuda", "" (off); nullopt: not known
    std::optional<bool> recordedGradMode;
};

GuardCheck checkTensorMatch(const RecordedTensor& want, TensorDescription have,
    const GuardInput& in, const TensorCallContext& call);

} // namespace dynascope
