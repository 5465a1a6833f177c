// tensor_model.h for a build without a libtorch: no tensor is modelled, and the guard lab says so.
#include "core/analysis/tensor_model.h"

namespace dynascope {

const char* tensorModelLibrary()
{
    return "";
}

std::optional<TensorModel> modelTensor(const TensorModelQuery&, std::string& error)
{
    error = "this Dynascope was built without libtorch, so c10 cannot compute the tensor's "
            "dispatch key set (docs/architecture.md, \"The guard lab's tensor model\")";
    return std::nullopt;
}

} // namespace dynascope
