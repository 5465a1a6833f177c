// tensor_model.h computed by c10, the core library of the libtorch this build found (CMake's
// DYNASCOPE_LIBTORCH). Only this file includes libtorch's headers.
#include "core/analysis/tensor_model.h"

#include <c10/core/DispatchKeySet.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorImpl.h>
#include <c10/core/TensorOptions.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <exception>
#include <utility>

#ifndef DYNASCOPE_LIBTORCH_VERSION
#define DYNASCOPE_LIBTORCH_VERSION "?"
#endif

namespace dynascope {

namespace {

// The canonical dtype names (guard_input.cpp's canonicalDtype) as c10 scalar types.
std::optional<c10::ScalarType> scalarType(const std::string& dtype)
{
    static const std::pair<const char*, c10::ScalarType> types[] = {
        { "float32", c10::ScalarType::Float },
        { "float64", c10::ScalarType::Double },
        { "float16", c10::ScalarType::Half },
        { "bfloat16", c10::ScalarType::BFloat16 },
        { "int64", c10::ScalarType::Long },
        { "int32", c10::ScalarType::Int },
        { "int16", c10::ScalarType::Short },
        { "int8", c10::ScalarType::Char },
        { "uint8", c10::ScalarType::Byte },
        { "bool", c10::ScalarType::Bool },
        { "complex64", c10::ScalarType::ComplexFloat },
        { "complex128", c10::ScalarType::ComplexDouble },
#ifdef AT_FORALL_FLOAT8_TYPES // since 2.1; not in Debian 12's libtorch 1.13
        { "float8_e4m3fn", c10::ScalarType::Float8_e4m3fn },
        { "float8_e5m2", c10::ScalarType::Float8_e5m2 },
#endif
    };
    for (const auto& [name, type] : types)
        if (dtype == name)
            return type;
    return std::nullopt;
}

// Restores the thread's dispatch state however the model ends.
struct SavedDispatchState {
    c10::impl::LocalDispatchKeySet saved = c10::impl::tls_local_dispatch_key_set();
    ~SavedDispatchState() { c10::impl::_force_tls_local_dispatch_key_set(saved); }
};

TensorModel model(const TensorModelQuery& q, c10::ScalarType type)
{
    const c10::Device device(q.device);
    const c10::DispatchKeySet backend(c10::computeDispatchKey(type, c10::kStrided, device));
    c10::intrusive_ptr<c10::TensorImpl> impl;
    {
        std::optional<c10::InferenceMode> made;
        if (q.inferenceTensor)
            made.emplace();
        // The constructor adds the autograd and autocast keys of the backend (none for an
        // inference tensor), as every tensor PyTorch makes gets them.
        impl = c10::make_intrusive<c10::TensorImpl>(backend, c10::scalarTypeToTypeMeta(type),
            device); // std::optional<Device> in 2.x, c10::optional<Device> in 1.13
    }
    if (q.strides)
        impl->set_sizes_and_strides(q.sizes, *q.strides);
    else {
        impl->set_sizes_contiguous(q.sizes);
        if (q.channelsLast)
            impl->empty_tensor_restride(q.sizes.size() == 5 ? c10::MemoryFormat::ChannelsLast3d
                                                            : c10::MemoryFormat::ChannelsLast);
    }

    // The call's state, as torch.inference_mode() and torch.autocast() set it on the thread.
    SavedDispatchState restore;
    std::optional<c10::InferenceMode> inference;
    if (q.inferenceMode)
        inference.emplace();
    if (q.autocastDevice == "cpu")
        c10::impl::tls_set_dispatch_key_excluded(c10::DispatchKey::AutocastCPU, false);
    else if (q.autocastDevice == "cuda")
        c10::impl::tls_set_dispatch_key_excluded(c10::DispatchKey::AutocastCUDA, false);
    // What Dynamo's TENSOR_MATCH records and checks (torch/csrc/dynamo/guards.cpp, LocalState).
    const c10::impl::LocalDispatchKeySet tls = c10::impl::tls_local_dispatch_key_set();
    const c10::DispatchKeySet keys = (impl->key_set() | tls.included_) - tls.excluded_;

    TensorModel m;
    m.keySet = c10::toString(keys);
    for (c10::DispatchKey k : keys)
        m.keys.emplace_back(c10::toString(k));
    const auto strides = impl->strides();
    m.strides.assign(strides.begin(), strides.end());
    m.contiguous = impl->is_contiguous(c10::MemoryFormat::Contiguous);
    m.channelsLastContiguous = q.sizes.size() == 5
        ? impl->is_contiguous(c10::MemoryFormat::ChannelsLast3d)
        : q.sizes.size() == 4 && impl->is_contiguous(c10::MemoryFormat::ChannelsLast);
    return m;
}

} // namespace

const char* tensorModelLibrary()
{
    return "c10 of libtorch " DYNASCOPE_LIBTORCH_VERSION;
}

std::optional<TensorModel> modelTensor(const TensorModelQuery& query, std::string& error)
{
    const auto type = scalarType(query.dtype);
    if (!type) {
        error = "c10: no scalar type for dtype '" + query.dtype + "'";
        return std::nullopt;
    }
    if (query.strides && query.strides->size() != query.sizes.size()) {
        error = "c10: " + std::to_string(query.strides->size()) + " strides for "
            + std::to_string(query.sizes.size()) + " sizes";
        return std::nullopt;
    }
    try {
        return model(query, *type);
    } catch (const std::exception& e) {
        // c10::Error's what() carries a C++ stack; its first line is the message.
        const std::string what = e.what();
        error = "c10: " + what.substr(0, what.find('\n'));
        return std::nullopt;
    }
}

} // namespace dynascope
