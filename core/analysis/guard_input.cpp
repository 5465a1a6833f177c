#include "core/analysis/guard_input.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace dynascope {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

bool toInt(std::string_view s, int64_t& out)
{
    s = trimmed(s);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// "[48, 128]" -> {48, 128}
bool intList(std::string_view s, std::vector<int64_t>& out)
{
    s = trimmed(s);
    if (s.size() < 2 || s.front() != '[' || s.back() != ']')
        return false;
    s = trimmed(s.substr(1, s.size() - 2));
    out.clear();
    if (s.empty())
        return true;
    while (true) {
        const size_t comma = s.find(',');
        int64_t v = 0;
        if (!toInt(s.substr(0, comma), v) || v < 0)
            return false;
        out.push_back(v);
        if (comma == std::string_view::npos)
            return true;
        s = s.substr(comma + 1);
    }
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
            return false;
    return true;
}

std::string canonicalDevice(std::string_view w)
{
    if (w == "cpu")
        return "cpu";
    if (w == "cuda" || w == "gpu")
        return "cuda:0";
    if (w.starts_with("cuda:")) {
        int64_t k = 0;
        if (toInt(w.substr(5), k) && k >= 0 && k < 1024)
            return "cuda:" + std::to_string(k);
    }
    return {};
}

// "7", "0.5", "True", "'none'", "None", "(64,)" is not supported: a scalar.
std::optional<GuardValue> scalar(std::string_view w)
{
    w = trimmed(w);
    if (w == "True" || w == "true")
        return GuardValue::boolean(true);
    if (w == "False" || w == "false")
        return GuardValue::boolean(false);
    if (w == "None")
        return GuardValue::none();
    int64_t i = 0;
    if (toInt(w, i))
        return GuardValue::integer(i);
    if (!w.empty()
        && (std::isdigit(static_cast<unsigned char>(w[0])) || w[0] == '-' || w[0] == '.')) {
        std::string t(w);
        char* end = nullptr;
        const double d = std::strtod(t.c_str(), &end);
        if (end && !*end)
            return GuardValue::real(d);
        return std::nullopt;
    }
    if (w.size() >= 2 && (w.front() == '\'' || w.front() == '"') && w.back() == w.front())
        return GuardValue::str(std::string(w.substr(1, w.size() - 2)));
    return std::nullopt;
}

bool parseTensor(
    std::string_view name, std::string_view spec, TensorDescription& t, std::string& error)
{
    // DTYPE[SIZES] then words; the sizes may hold spaces, so split after the ']'.
    const size_t open = spec.find('[');
    const size_t close = spec.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        error = "'" + std::string(spec) + "': a tensor is DTYPE[SIZES], e.g. f32[48, 128]";
        return false;
    }
    const std::string dtype = canonicalDtype(trimmed(spec.substr(0, open)));
    if (dtype.empty()) {
        error = "'" + std::string(trimmed(spec.substr(0, open))) + "' in '" + std::string(name)
            + ": ...' is not a dtype (f32, f64, f16, bf16, i64, i32, bool, ...)";
        return false;
    }
    t.dtype = dtype;
    std::vector<int64_t> sizes;
    if (!intList(spec.substr(open, close - open + 1), sizes)) {
        error = "'" + std::string(spec.substr(open, close - open + 1))
            + "': sizes are non-negative integers, e.g. [48, 128]";
        return false;
    }
    t.sizes = sizes;
    std::string_view rest = spec.substr(close + 1);
    while (!(rest = trimmed(rest)).empty()) {
        size_t end = rest.find(' ');
        if (rest.starts_with("stride=[")) // stride=[256, 1] holds spaces
            end = rest.find(']') == std::string_view::npos ? rest.size() : rest.find(']') + 1;
        const std::string_view w = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view {} : rest.substr(end);
        std::vector<int64_t> list;
        int64_t d = 0;
        if (w == "requires_grad" || w == "requires_grad=True")
            t.requiresGrad = true;
        else if (w == "requires_grad=False" || w == "no_requires_grad")
            t.requiresGrad = false;
        else if (w == "channels_last" || w == "channels_last_3d") {
            if (sizes.size() != (w == "channels_last" ? 4u : 5u)) {
                error = "'" + std::string(w) + "' needs a " + (w == "channels_last" ? "4" : "5")
                    + "-d tensor, '" + std::string(name) + "' has " + std::to_string(sizes.size())
                    + " sizes";
                return false;
            }
            t.channelsLast = true;
        } else if (w == "contiguous")
            t.channelsLast = false;
        else if (w.starts_with("stride=")) {
            if (!intList(w.substr(7), list) || list.size() != sizes.size()) {
                error = "'" + std::string(w) + "': stride=[...] needs one integer per size ("
                    + std::to_string(sizes.size()) + ")";
                return false;
            }
            t.strides = list;
        } else if (w.starts_with("dynamic=")) {
            if (!toInt(w.substr(8), d) || d < 0 || d >= int64_t(sizes.size())) {
                error = "'" + std::string(w) + "': dynamic=DIM names a dimension of '"
                    + std::string(name) + "' (0 to " + std::to_string(int(sizes.size()) - 1) + ")";
                return false;
            }
            t.dynamicDims.push_back(int(d));
        } else if (w == "inference")
            t.inference = true;
        else if (w == "Parameter" || w == "parameter")
            t.type = "Parameter";
        else if (!canonicalDevice(w).empty())
            t.device = canonicalDevice(w);
        else {
            error = "'" + std::string(w) + "' in the description of '" + std::string(name)
                + "' (expected a device such as cpu or cuda:0, requires_grad, channels_last, "
                  "stride=[...], dynamic=DIM or inference)";
            return false;
        }
    }
    return true;
}

bool parseOne(std::string_view part, GuardInput& input, std::string& error)
{
    // The range form: x.size(0) in 1..512
    if (const size_t in = part.find(" in ");
        in != std::string_view::npos && part.find(':') == std::string_view::npos) {
        const std::string_view lhs = trimmed(part.substr(0, in));
        const std::string_view rhs = trimmed(part.substr(in + 4));
        const size_t dot = lhs.find(".size(");
        const size_t dots = rhs.find("..");
        int64_t dim = 0, lo = 0, hi = 0;
        if (dot == std::string_view::npos || !lhs.ends_with(")")
            || !toInt(lhs.substr(dot + 6, lhs.size() - dot - 7), dim) || dim < 0 || dim > 64
            || dots == std::string_view::npos || !toInt(rhs.substr(0, dots), lo)
            || !toInt(rhs.substr(dots + 2), hi)) {
            error = "'" + std::string(part)
                + "': a range is NAME.size(DIM) in LO..HI, e.g. x.size(0) in 1..512";
            return false;
        }
        if (lo < 0 || hi < lo || hi - lo > 1'000'000) {
            error = "'" + std::string(rhs)
                + "': LO..HI needs 0 <= LO <= HI and at most 1,000,000 sizes";
            return false;
        }
        input.range = SizeRange { std::string(lhs.substr(0, dot)), int(dim), lo, hi };
        return true;
    }
    const size_t colon = part.find(':');
    if (colon == std::string_view::npos) {
        error = "'" + std::string(part) + "': expected NAME: VALUE (x: f32[8, 4], k: 7, grad: off)";
        return false;
    }
    const std::string_view name = trimmed(part.substr(0, colon));
    const std::string_view value = trimmed(part.substr(colon + 1));
    if (!isIdentifier(name)) {
        error = "'" + std::string(name) + "' is not a name";
        return false;
    }
    if (value.empty()) {
        error = "'" + std::string(name) + ":' has no value";
        return false;
    }
    if (name == "grad" || name == "grad_mode") {
        if (value == "on" || value == "True" || value == "enabled")
            input.gradMode = true;
        else if (value == "off" || value == "False" || value == "no_grad" || value == "disabled")
            input.gradMode = false;
        else {
            error = "'grad: " + std::string(value) + "': grad is on or off";
            return false;
        }
        return true;
    }
    if (name == "inference_mode" || name == "inference") {
        if (value == "on" || value == "True" || value == "enabled")
            input.inferenceMode = true;
        else if (value == "off" || value == "False" || value == "disabled")
            input.inferenceMode = false;
        else {
            error = "'" + std::string(name) + ": " + std::string(value)
                + "': inference_mode is on or off";
            return false;
        }
        return true;
    }
    if (name == "autocast") {
        GuardInput::Autocast a;
        if (value == "off" || value == "False") {
            input.autocast = a;
            return true;
        }
        const size_t sp = value.find(' ');
        const std::string_view dev = value.substr(0, sp);
        if (dev != "cpu" && dev != "cuda") {
            error = "'autocast: " + std::string(value)
                + "': autocast is off or DEVICE [DTYPE] (cuda bf16)";
            return false;
        }
        a.enabled = true;
        a.device = std::string(dev);
        a.dtype = dev == "cpu" ? "bfloat16" : "float16"; // autocast's own defaults
        if (sp != std::string_view::npos) {
            a.dtype = canonicalDtype(trimmed(value.substr(sp)));
            if (a.dtype.empty()) {
                error
                    = "'" + std::string(trimmed(value.substr(sp))) + "' in autocast is not a dtype";
                return false;
            }
        }
        input.autocast = a;
        return true;
    }
    if (name == "default_device") {
        const std::string d = value == "None" ? "cpu" : canonicalDevice(value);
        if (d.empty()) {
            error = "'" + std::string(value) + "' is not a device (cpu, cuda, cuda:1)";
            return false;
        }
        input.defaultDevice = d;
        return true;
    }
    if (value.find('[') != std::string_view::npos
        && !(value.front() == '\'' || value.front() == '"')) {
        TensorDescription t;
        if (!parseTensor(name, value, t, error))
            return false;
        input.tensors[std::string(name)] = std::move(t);
        return true;
    }
    auto v = scalar(value);
    if (!v) {
        error = "'" + std::string(value) + "' (for '" + std::string(name)
            + "') is neither a tensor (f32[8, 4]) nor a Python value (7, 0.5, True, None, 'text')";
        return false;
    }
    input.values[std::string(name)] = *v;
    return true;
}

} // namespace

std::string canonicalDtype(std::string_view w)
{
    if (w.starts_with("torch."))
        w.remove_prefix(6);
    static const std::pair<const char*, const char*> names[] = {
        { "f32", "float32" },
        { "float32", "float32" },
        { "float", "float32" },
        { "fp32", "float32" },
        { "f64", "float64" },
        { "float64", "float64" },
        { "double", "float64" },
        { "fp64", "float64" },
        { "f16", "float16" },
        { "float16", "float16" },
        { "half", "float16" },
        { "fp16", "float16" },
        { "bf16", "bfloat16" },
        { "bfloat16", "bfloat16" },
        { "i64", "int64" },
        { "int64", "int64" },
        { "long", "int64" },
        { "i32", "int32" },
        { "int32", "int32" },
        { "int", "int32" },
        { "i16", "int16" },
        { "int16", "int16" },
        { "i8", "int8" },
        { "int8", "int8" },
        { "u8", "uint8" },
        { "uint8", "uint8" },
        { "bool", "bool" },
        { "c64", "complex64" },
        { "complex64", "complex64" },
        { "c128", "complex128" },
        { "complex128", "complex128" },
        { "f8e4m3", "float8_e4m3fn" },
        { "float8_e4m3fn", "float8_e4m3fn" },
        { "float8_e5m2", "float8_e5m2" },
    };
    for (const auto& [k, v] : names)
        if (w == k)
            return v;
    return {};
}

std::optional<std::vector<int64_t>> TensorDescription::effectiveStrides() const
{
    if (strides)
        return strides;
    if (!sizes)
        return std::nullopt;
    const auto& s = *sizes;
    std::vector<int64_t> out(s.size(), 1);
    auto dim = [&](size_t k) { return std::max<int64_t>(s[k], 1); };
    if (channelsLast && (s.size() == 4 || s.size() == 5)) {
        // N, C, spatial...: C is innermost, then the spatial dims, then N.
        int64_t step = 1;
        out[1] = step;
        step *= dim(1);
        for (size_t k = s.size() - 1; k >= 2; --k) {
            out[k] = step;
            step *= dim(k);
        }
        out[0] = step;
        return out;
    }
    int64_t step = 1;
    for (size_t k = s.size(); k-- > 0;) {
        out[k] = step;
        step *= dim(k);
    }
    return out;
}

bool GuardInput::empty() const
{
    return tensors.empty() && values.empty() && !gradMode && !inferenceMode && !autocast
        && !defaultDevice && !range;
}

bool parseGuardInput(std::string_view text, GuardInput& input, std::string& error)
{
    if (text.size() > 100'000) {
        error = "the description is longer than 100,000 characters";
        return false;
    }
    // Split at ';' outside brackets.
    int depth = 0;
    size_t start = 0;
    for (size_t k = 0; k <= text.size(); ++k) {
        const char c = k < text.size() ? text[k] : ';';
        if (c == '[' || c == '(')
            ++depth;
        else if (c == ']' || c == ')')
            --depth;
        else if (c == ';' && depth <= 0) {
            const std::string_view part = trimmed(text.substr(start, k - start));
            start = k + 1;
            if (part.empty())
                continue;
            if (!parseOne(part, input, error))
                return false;
        }
    }
    return true;
}

} // namespace dynascope
