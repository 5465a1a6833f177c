#include "core/analysis/guard_lab_tensor.h"

#include "core/analysis/tensor_model.h"

#include <algorithm>

namespace dynascope {

namespace {

std::optional<std::vector<std::optional<int64_t>>> optionalInts(const GuardExpr& e, int node)
{
    if (node < 0 || e.nodes[node].op != GuardExprNode::Op::List)
        return std::nullopt;
    std::vector<std::optional<int64_t>> out;
    for (int k : e.nodes[node].kids) {
        const auto& n = e.nodes[k];
        if (n.op == GuardExprNode::Op::Int)
            out.push_back(n.i);
        else if (n.op == GuardExprNode::Op::Name && n.text == "None")
            out.push_back(std::nullopt);
        else
            return std::nullopt;
    }
    return out;
}

bool hasKey(const std::vector<std::string>& keys, std::string_view prefix)
{
    return std::any_of(
        keys.begin(), keys.end(), [&](const std::string& k) { return k.starts_with(prefix); });
}

std::string deviceType(const std::string& d)
{
    return d.substr(0, d.find(':'));
}

// The state that decides a tensor's dispatch key set besides its device: whether the call runs
// under inference mode, whether the tensor was made under it, and autocast on its device type.
struct KeyState {
    bool inferenceMode = false, inferenceTensor = false;
    std::string autocast; // the device type autocast is on for, "" when off
};

// The call's state as the recorded call had it, read off the key set Dynamo recorded for the
// tensor. A described tensor is an ordinary one unless it says "inference", so what is read here
// is whether the call ran under inference mode: no Autograd key and no ADInplaceOrView means an
// inference tensor under inference mode (an ordinary tensor never loses ADInplaceOrView); no
// Autograd key with ADInplaceOrView is an ordinary tensor under inference mode or an inference
// tensor outside it, told apart only by grad mode (which inference mode turns off): nullopt.
std::optional<bool> recordedInferenceMode(const RecordedTensor& r, const TensorCallContext& call)
{
    const auto keys = dispatchKeyNames(r.keySet);
    if (hasKey(keys, "Autograd"))
        return false;
    if (!hasKey(keys, "ADInplaceOrView"))
        return true;
    if (call.recordedGradMode == true)
        return false;
    return std::nullopt;
}

std::string recordedAutocast(const RecordedTensor& r, const TensorCallContext& call)
{
    if (call.recordedAutocast)
        return *call.recordedAutocast;
    const auto keys = dispatchKeyNames(r.keySet);
    return hasKey(keys, "AutocastCPU") ? "cpu" : hasKey(keys, "AutocastCUDA") ? "cuda" : "";
}

// For a build without libtorch: what decides the key set of an ordinary strided tensor on a
// device type, read off a recorded key set or from the call's state: autograd keys (absent under
// inference mode and on inference tensors), ADInplaceOrView (absent only on an inference tensor
// under inference mode), and the autocast key of the tensor's device type. "" for a key set with
// other keys (sparse, quantized, a Python subclass, ...): those need c10.
std::string keySetClassOf(const std::vector<std::string>& keys)
{
    for (const auto& k : keys)
        if (!(k == "BackendSelect" || k == "ADInplaceOrView" || k.starts_with("Autograd")
                || k.starts_with("Autocast") || k == "CPU" || k == "CUDA" || k == "XPU"
                || k == "MPS" || k == "Meta"))
            return {};
    return std::string("dense") + (hasKey(keys, "Autograd") ? "+autograd" : "")
        + (hasKey(keys, "ADInplaceOrView") ? "+inplace" : "")
        + (hasKey(keys, "Autocast") ? "+autocast" : "");
}

std::string keySetClassOf(const KeyState& s, const std::string& deviceType)
{
    const bool autograd = !s.inferenceMode && !s.inferenceTensor;
    const bool inplace = !(s.inferenceMode && s.inferenceTensor);
    return std::string("dense") + (autograd ? "+autograd" : "") + (inplace ? "+inplace" : "")
        + (s.autocast == deviceType && (deviceType == "cpu" || deviceType == "cuda") ? "+autocast"
                                                                                     : "");
}

std::string describe(const KeyState& s, const std::string& deviceType)
{
    return std::string(s.inferenceTensor ? "an inference tensor" : "an ordinary tensor") + " on "
        + deviceType + (s.inferenceMode ? " under inference mode" : "")
        + (s.autocast == deviceType ? " under autocast" : "");
}

} // namespace

std::optional<RecordedTensor> parseCheckTensor(const GuardExpr& e)
{
    if (!e.ok())
        return std::nullopt;
    const auto& call = e.nodes[e.root];
    if (call.op != GuardExprNode::Op::Call || e.nodes[call.kids[0]].text != "check_tensor")
        return std::nullopt;
    RecordedTensor t;
    std::vector<int> positional;
    bool haveSize = false, haveStride = false;
    for (size_t k = 1; k < call.kids.size(); ++k) {
        const auto& a = e.nodes[call.kids[k]];
        if (a.op != GuardExprNode::Op::Keyword) {
            positional.push_back(call.kids[k]);
            continue;
        }
        const int v = a.kids[0];
        const auto& vn = e.nodes[v];
        if (a.text == "device")
            t.device = vn.op == GuardExprNode::Op::Int ? "cuda:" + std::to_string(vn.i) : "";
        else if (a.text == "requires_grad")
            t.requiresGrad = vn.op == GuardExprNode::Op::Name && vn.text == "True";
        else if (a.text == "size" || a.text == "stride") {
            auto list = optionalInts(e, v);
            if (!list)
                return std::nullopt;
            (a.text == "size" ? t.sizes : t.strides) = *list;
            (a.text == "size" ? haveSize : haveStride) = true;
        }
    }
    if (positional.size() < 4 || !haveSize || !haveStride)
        return std::nullopt;
    t.source = e.sourcePath(positional[0]);
    t.type = std::string(e.spanText(positional[1]));
    t.keySet = std::string(e.spanText(positional[2]));
    t.dtype = canonicalDtype(e.spanText(positional[3]));
    if (t.source.empty() || t.dtype.empty())
        return std::nullopt;
    if (t.device.empty()) // device=None: the key set says which backend
        t.device = t.keySet.find("CUDA") != std::string::npos ? "cuda:0"
            : t.keySet.find("XPU") != std::string::npos       ? "xpu:0"
            : t.keySet.find("MPS") != std::string::npos       ? "mps"
                                                              : "cpu";
    return t;
}

GuardCheck checkTensorMatch(const RecordedTensor& want, TensorDescription have,
    const GuardInput& in, const TensorCallContext& call)
{
    GuardCheck c;
    const RecordedTensor* rec = call.recorded;
    // Prefill what the description leaves out from the recorded call's tensor.
    if (!have.device && rec)
        have.device = rec->device;
    if (!have.requiresGrad && rec)
        have.requiresGrad = rec->requiresGrad;

    // Dynamo checks every part; the first that fails is the reason. A part not known leaves the
    // guard not known only when no later part fails.
    std::vector<std::string> needs;
    auto fail = [&](std::string what, std::string expected, std::string actual) {
        c.outcome = GuardOutcome::Fail;
        c.what = std::move(what);
        c.expected = std::move(expected);
        c.actual = std::move(actual);
        c.needs.clear();
        return c;
    };
    if (have.type && *have.type != want.type)
        return fail("type", want.type, *have.type);
    if (!have.device) {
        c.outcome = GuardOutcome::Unknown;
        c.needs.push_back("the device of " + want.source);
        return c;
    }

    // The call's state: the description's, else the recorded call's.
    KeyState state;
    std::optional<bool> mode = rec ? recordedInferenceMode(*rec, call) : std::optional(false);
    state.inferenceMode = mode.value_or(false);
    state.autocast = rec ? recordedAutocast(*rec, call) : "";
    state.inferenceTensor = have.inference.value_or(false);
    if (in.inferenceMode)
        mode = state.inferenceMode = *in.inferenceMode;
    if (in.autocast)
        state.autocast = in.autocast->enabled ? in.autocast->device : "";
    if (!mode)
        needs.push_back("whether the call runs under torch.inference_mode() (inference_mode: on "
                        "or off)");

    std::optional<std::vector<int64_t>> strides = have.effectiveStrides();
    if (needs.empty()) {
        std::string error;
        TensorModelQuery q;
        q.dtype = *have.dtype;
        q.device = *have.device;
        q.sizes = *have.sizes;
        q.strides = have.strides;
        q.channelsLast = have.channelsLast;
        q.inferenceTensor = state.inferenceTensor;
        q.inferenceMode = state.inferenceMode;
        if (!state.autocast.empty())
            q.autocastDevice = state.autocast;
        if (const auto m = modelTensor(q, error)) {
            // c10's key set against the one this entry recorded.
            auto got = m->keys, expected = dispatchKeyNames(want.keySet);
            std::sort(got.begin(), got.end());
            std::sort(expected.begin(), expected.end());
            if (got != expected)
                return fail("dispatch key set mismatch", want.keySet, m->keySet);
            strides = m->strides;
        } else if (!tensorModelLibrary()[0]) {
            // Without c10 (a build without libtorch): another device type has another key set;
            // on the same one, the call's state decides, and the entry's own key set says which
            // states it was recorded under (keysetClassOf).
            if (deviceType(*have.device) != deviceType(want.device))
                return fail("dispatch key set mismatch (device " + deviceType(*have.device) + ")",
                    want.keySet, "the key set of a " + deviceType(*have.device) + " tensor");
            const std::string wantClass = keySetClassOf(dispatchKeyNames(want.keySet));
            const std::string haveClass = keySetClassOf(state, deviceType(*have.device));
            if (wantClass.empty())
                needs.push_back("the dispatch key set of " + want.source
                    + " (a key set this build reads only with libtorch's c10)");
            else if (haveClass != wantClass)
                return fail("dispatch key set mismatch", want.keySet,
                    "the key set of " + describe(state, deviceType(*have.device)));
        } else
            needs.push_back("the dispatch key set of " + want.source + " (" + error + ")");
    }
    if (*have.dtype != want.dtype)
        return fail("dtype mismatch", "torch." + want.dtype, "torch." + *have.dtype);
    if (*have.device != want.device)
        return fail("device mismatch", want.device, *have.device);
    if (!have.requiresGrad)
        needs.push_back("requires_grad of " + want.source);
    else if (*have.requiresGrad != want.requiresGrad)
        return fail("requires_grad mismatch", want.requiresGrad ? "True" : "False",
            *have.requiresGrad ? "True" : "False");
    const auto& sizes = *have.sizes;
    if (sizes.size() != want.sizes.size())
        return fail("rank mismatch", std::to_string(want.sizes.size()) + " dimensions",
            std::to_string(sizes.size()));
    for (size_t k = 0; k < sizes.size(); ++k)
        if (want.sizes[k] && *want.sizes[k] != sizes[k])
            return fail("size mismatch at index " + std::to_string(k),
                std::to_string(*want.sizes[k]), std::to_string(sizes[k]));
    for (size_t k = 0; strides && k < strides->size() && k < want.strides.size(); ++k)
        if (want.strides[k] && *want.strides[k] != (*strides)[k])
            return fail("stride mismatch at index " + std::to_string(k),
                std::to_string(*want.strides[k]), std::to_string((*strides)[k]));
    c.outcome = needs.empty() ? GuardOutcome::Pass : GuardOutcome::Unknown;
    c.needs = std::move(needs);
    return c;
}

} // namespace dynascope
