// The guard tree text of a compile as PyTorch's C++ guard manager prints it
// (dynamo_cpp_guards_str): ambient root guards, shape-env guards, one GuardManager per input
// (nested under L['self']._modules for module parameters) with TENSOR_MATCH and
// NO_HASATTR / DYNAMIC_INDICES leaves, and the trailing "Guard latency" line.
#include "core/synth/synth_helpers.h"

#include <cstdio>

namespace dynascope::synth {

namespace {

std::string localName(const std::string& source)
{
    // L['x'] -> x; L['self']._modules... -> self
    auto a = source.find("['");
    auto b = source.find("']");
    if (a == std::string::npos || b == std::string::npos)
        return source;
    return source.substr(a + 2, b - a - 2);
}

} // namespace

std::string sizeText(const TensorInput& t, bool forTensorMatch)
{
    std::string s;
    for (size_t i = 0; i < t.size.size(); ++i) {
        bool dyn = i < t.dynamicDims.size() && t.dynamicDims[i];
        if (i)
            s += ", ";
        if (dyn)
            s += forTensorMatch ? "None" : "s" + std::to_string(i == 0 ? 0 : i);
        else
            s += std::to_string(t.size[i]);
    }
    return s;
}

std::string checkTensorText(const TensorInput& t)
{
    std::string stride;
    for (size_t i = 0; i < t.stride.size(); ++i) {
        // A stride that depends on a dynamic dimension is None too.
        bool dyn = false;
        for (size_t j = i + 1; j < t.size.size(); ++j)
            dyn = dyn || (j < t.dynamicDims.size() && t.dynamicDims[j]);
        stride += (i ? ", " : "") + (dyn ? std::string("None") : std::to_string(t.stride[i]));
    }
    return "check_tensor(" + t.source + ", " + (t.parameter ? "Parameter" : "Tensor")
        + ", DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), " + t.dtype
        + ", device=None, requires_grad=" + (t.requiresGrad ? "True" : "False") + ", size=["
        + sizeText(t, true) + "], stride=[" + stride + "])";
}

std::string cppGuardTree(const CompileSpec& spec)
{
    std::string s = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n";
    s += "| +- LAMBDA_GUARD: torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == "
         "None  # _dynamo/output_graph.py:643 in init_ambient_guards\n";
    s += "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           "
         "# _dynamo/output_graph.py:631 in init_ambient_guards\n";
    s += "| +- GLOBAL_STATE: ___check_global_state()\n";
    s += "| +- TORCH_FUNCTION_MODE_STACK: ___check_torch_function_mode_stack()\n";
    for (const auto& g : spec.shapeGuards) {
        std::string rel = g.userFrame.file;
        if (!rel.empty() && rel.front() == '/')
            rel.erase(0, 1);
        s += "| +- LAMBDA_GUARD: " + g.treeExpr + "  # " + g.userFrame.loc + "  # " + rel + ":"
            + std::to_string(g.userFrame.line) + " in " + g.userFrame.name + "\n";
    }
    for (const auto& extra : spec.extraRootGuards)
        s += "| +- " + extra + "\n";

    // Locals in order of first appearance get framelocals indices.
    std::vector<std::string> locals;
    auto localIndex = [&locals](const std::string& name) {
        for (size_t i = 0; i < locals.size(); ++i)
            if (locals[i] == name)
                return int64_t(i);
        locals.push_back(name);
        return int64_t(locals.size() - 1);
    };
    auto tensorLeaves = [](const TensorInput& t, const std::string& bar) {
        std::string r = bar + "+- TENSOR_MATCH: " + checkTensorText(t) + "\n";
        if (t.markedDynamic) {
            std::string idx;
            for (size_t i = 0; i < t.dynamicDims.size(); ++i)
                if (t.dynamicDims[i])
                    idx += (idx.empty() ? "" : ", ") + std::to_string(i);
            r += bar + "+- DYNAMIC_INDICES: ((" + t.source + "._dynamo_dynamic_indices.issubset({"
                + idx + "})) if hasattr(" + t.source + ", '_dynamo_dynamic_indices') else True)\n";
        } else {
            r += bar + "+- NO_HASATTR: hasattr(" + t.source
                + ", '_dynamo_dynamic_indices') == False         \n";
        }
        return r;
    };

    for (const auto& t : spec.inputs)
        if (t.source.rfind("L['self']", 0) == 0)
            localIndex("self"); // self is the first argument of a method

    std::string openModule; // current module under L['self']._modules
    bool selfOpen = false;
    for (const auto& t : spec.inputs) {
        const std::string prefixSelf = "L['self']._modules['";
        if (t.source.rfind(prefixSelf, 0) == 0) {
            auto endMod = t.source.find("']", prefixSelf.size());
            std::string mod = t.source.substr(prefixSelf.size(), endMod - prefixSelf.size());
            auto pstart = t.source.find("._parameters['", endMod);
            std::string param = t.source.substr(pstart + 14, t.source.size() - pstart - 16);
            std::string self = "L['self']";
            std::string modSrc = self + "._modules['" + mod + "']";
            if (!selfOpen) {
                selfOpen = true;
                s += "| +- GuardManager: source=L['self'], "
                     "accessed_by=FrameLocalsGuardAccessor(key="
                     "'self', framelocals_idx="
                    + std::to_string(localIndex("self")) + ")\n";
                s += "| | +- TYPE_MATCH: ___check_type_id(L['self'], 94358425138208)\n";
                s += "| | +- GuardManager: source=L['self'].__dict__, accessed_by="
                     "GetGenericDictGuardAccessor\n";
                s += "| | | +- GuardManager: source=L['self']._modules, accessed_by="
                     "DictGetItemGuardAccessor('_modules')\n";
            }
            if (mod != openModule) {
                openModule = mod;
                s += "| | | | +- GuardManager: source=" + modSrc
                    + ", accessed_by=DictGetItemGuardAccessor('" + mod + "')\n";
                s += "| | | | | +- TYPE_MATCH: ___check_type_id(" + modSrc + ", 94358391540512)\n";
                s += "| | | | | +- GuardManager: source=" + modSrc
                    + ".__dict__, accessed_by=GetGenericDictGuardAccessor\n";
                s += "| | | | | | +- GuardManager: source=" + modSrc
                    + "._parameters, accessed_by=DictGetItemGuardAccessor('_parameters')\n";
            }
            s += "| | | | | | | +- GuardManager: source=" + t.source
                + ", accessed_by=DictGetItemGuardAccessor('" + param + "')\n";
            s += tensorLeaves(t, "| | | | | | | | ");
            continue;
        }
        std::string name = localName(t.source);
        s += "| +- GuardManager: source=" + t.source
            + ", accessed_by=FrameLocalsGuardAccessor(key='" + name
            + "', framelocals_idx=" + std::to_string(localIndex(name)) + ")\n";
        s += tensorLeaves(t, "| | ");
    }
    char lat[64];
    std::snprintf(lat, sizeof lat, "%.2f", spec.guardLatencyUs);
    s += "\nGuard latency = " + std::string(lat) + " us";
    return s;
}

} // namespace dynascope::synth
