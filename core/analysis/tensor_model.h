// The tensor side of the guard lab: what a described tensor looks like to Dynamo's TENSOR_MATCH.
// Dynamo compares the tensor's dispatch key set as the thread sees it, (the tensor's own keys |
// the thread's included keys) - its excluded keys, so the answer depends on the tensor (device,
// dtype, whether it was made under inference mode) and on the call's state (inference mode,
// autocast). Built with a libtorch (docs/architecture.md, "The guard lab's tensor model"), c10
// computes it: it makes the TensorImpl (no storage, so a cuda tensor needs no GPU) and reads its
// key set, strides and contiguity, under the thread-local dispatch state the call would have.
// Built without one, modelTensor() answers nothing and the lab compares device types only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

struct TensorModelQuery {
    std::string dtype; // canonical: "float32", "bfloat16" (canonicalDtype)
    std::string device; // "cpu", "cuda:0", "mps"
    std::vector<int64_t> sizes;
    std::optional<std::vector<int64_t>> strides; // explicit; else contiguous or channels_last
    bool channelsLast = false;
    bool inferenceTensor = false; // made under torch.inference_mode()
    bool inferenceMode = false; // the call runs under torch.inference_mode()
    std::optional<std::string> autocastDevice; // "cpu" / "cuda": autocast enabled there
};

struct TensorModel {
    std::string keySet; // as PyTorch prints it: "DispatchKeySet(CPU, BackendSelect, ...)"
    std::vector<std::string> keys; // the same, one key name each
    std::vector<int64_t> strides;
    bool contiguous = false;
    bool channelsLastContiguous = false;
};

// "c10 of libtorch 2.13.0" when this build computes tensors with c10, "" when it was built
// without a libtorch.
const char* tensorModelLibrary();

// The tensor as c10 makes it. nullopt with `error` when this build has no libtorch, or c10
// refuses the description (a dtype or device it does not know), naming what it refused.
std::optional<TensorModel> modelTensor(const TensorModelQuery& query, std::string& error);

// "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView)" -> {"CPU", "BackendSelect", ...}.
std::vector<std::string> dispatchKeyNames(const std::string& keySet);

} // namespace dynascope
