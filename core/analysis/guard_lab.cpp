#include "core/analysis/guard_lab.h"

#include "core/analysis/guard_lab_tensor.h"
#include "core/model/trace.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace dynascope {

const char* toString(GuardOutcome o)
{
    switch (o) {
    case GuardOutcome::Pass:
        return "pass";
    case GuardOutcome::Fail:
        return "fail";
    case GuardOutcome::Unknown:
        return "not known";
    }
    return "";
}

namespace {

// The root name of a source path: L['x'].size()[0] -> ("L", "x").
std::pair<std::string, std::string> rootOf(std::string_view path)
{
    if (path.size() > 4 && (path[0] == 'L' || path[0] == 'G') && path.substr(1, 2) == "['") {
        const size_t end = path.find("']", 3);
        if (end != std::string_view::npos)
            return { std::string(1, path[0]), std::string(path.substr(3, end - 3)) };
    }
    return {};
}

bool isLocalName(const std::string& name)
{
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]))
        && std::all_of(name.begin(), name.end(),
            [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
}

// Every L['..'] / G['..'] root in a text.
std::vector<std::string> rootsIn(std::string_view text)
{
    std::vector<std::string> out;
    for (size_t k = 0; k + 3 < text.size(); ++k) {
        if ((text[k] == 'L' || text[k] == 'G') && text.substr(k + 1, 2) == "['"
            && (k == 0 || !std::isalnum(static_cast<unsigned char>(text[k - 1])))) {
            const size_t end = text.find("']", k + 3);
            if (end == std::string_view::npos)
                break;
            std::string r(text.substr(k, end + 2 - k));
            if (std::find(out.begin(), out.end(), r) == out.end())
                out.push_back(std::move(r));
            k = end;
        }
    }
    return out;
}

std::string typeAnnotation(std::string_view expr)
{
    const size_t t = expr.rfind("type=<class '");
    if (t == std::string_view::npos)
        return {};
    const size_t end = expr.find('\'', t + 13);
    return end == std::string_view::npos ? "" : std::string(expr.substr(t + 13, end - t - 13));
}

const char* pythonType(const GuardValue& v)
{
    switch (v.kind) {
    case GuardValue::Kind::None:
        return "NoneType";
    case GuardValue::Kind::Bool:
        return "bool";
    case GuardValue::Kind::Int:
        return "int";
    case GuardValue::Kind::Float:
        return "float";
    case GuardValue::Kind::Str:
        return "str";
    default:
        return "";
    }
}

// GLOBAL_STATE's JSON, the parts the lab models.
struct GlobalState {
    std::optional<bool> gradMode;
    std::vector<bool> autocastEnabled; // per device type: 0 = cpu, 1 = cuda
    std::vector<int> autocastDtype; // ScalarType numbers: 5 = Half, 15 = BFloat16
    std::string rest; // the JSON without grad_mode and autocast_state
};

std::vector<std::string> jsonArray(std::string_view text, std::string_view key)
{
    std::vector<std::string> out;
    const size_t k = text.find("\"" + std::string(key) + "\":[");
    if (k == std::string_view::npos)
        return out;
    const size_t begin = k + key.size() + 4, end = text.find(']', begin);
    if (end == std::string_view::npos)
        return out;
    std::string_view items = text.substr(begin, end - begin);
    while (!items.empty()) {
        const size_t comma = items.find(',');
        out.emplace_back(items.substr(0, comma));
        if (comma == std::string_view::npos)
            break;
        items.remove_prefix(comma + 1);
    }
    return out;
}

GlobalState parseGlobalState(std::string_view expr)
{
    GlobalState g;
    const size_t json = expr.find('{');
    if (json == std::string_view::npos)
        return g;
    std::string_view text = expr.substr(json);
    if (text.find("\"grad_mode\":true") != std::string_view::npos)
        g.gradMode = true;
    else if (text.find("\"grad_mode\":false") != std::string_view::npos)
        g.gradMode = false;
    for (const auto& e : jsonArray(text, "enabled"))
        g.autocastEnabled.push_back(e == "true");
    for (const auto& d : jsonArray(text, "dtype")) {
        int v = -1;
        std::from_chars(d.data(), d.data() + d.size(), v);
        g.autocastDtype.push_back(v);
    }
    std::string rest(text);
    for (std::string_view key : { "\"grad_mode\":", "\"autocast_state\":" }) {
        const size_t k = rest.find(key);
        if (k == std::string::npos)
            continue;
        size_t end = k + key.size();
        int depth = 0;
        for (; end < rest.size(); ++end) {
            const char c = rest[end];
            if (c == '{' || c == '[')
                ++depth;
            else if (c == '}' || c == ']') {
                if (depth == 0)
                    break;
                --depth;
            } else if (c == ',' && depth == 0)
                break;
        }
        rest.erase(k, end - k);
    }
    g.rest = rest;
    return g;
}

int scalarTypeOf(const std::string& dtype)
{
    return dtype == "float16" ? 5 : dtype == "bfloat16" ? 15 : dtype == "float32" ? 6 : -1;
}

struct PreparedGuard {
    int node = -1;
    std::string kind;
    std::string expr; // without comments and the type annotation
    std::string type; // type=<class '...'> of the guard or its manager
    std::string source; // the guard tree's source for it
    GuardExpr parsed;
    std::optional<RecordedTensor> tensor;
};

struct PreparedEntry {
    uint32_t compile = 0;
    std::string id;
    std::vector<PreparedGuard> guards;
    std::set<std::pair<std::string, std::string>> kindExpr; // for "as recorded"
    std::map<std::pair<std::string, std::string>, std::string> bySource; // (kind, source) -> expr
};

// torch._dynamo.config.recompile_limit (cache_size_limit before PyTorch 2.6) as the compile's
// metrics carry it: compilation_metrics.dynamo_config, a JSON text inside the JSON, where the
// key reads \"recompile_limit\": 4. nullopt when the compile does not say.
std::optional<int> recompileLimitOf(const Compile& c)
{
    if (c.metricsJson.empty())
        return std::nullopt;
    const std::string text = c.metricsJson.text();
    for (std::string_view key : { "\\\"recompile_limit\\\": ", "\\\"cache_size_limit\\\": " }) {
        const size_t at = text.find(key);
        if (at == std::string::npos)
            continue;
        int v = 0;
        const char* begin = text.data() + at + key.size();
        const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
        if (ec == std::errc() && end != begin && v > 0)
            return v;
    }
    return std::nullopt;
}

PreparedEntry prepare(const Compile& c)
{
    PreparedEntry p;
    p.compile = c.index;
    p.id = c.id.display();
    const GuardTree* tree = c.guards.get();
    if (!tree)
        return p;
    for (size_t k = 0; k < tree->nodes.size(); ++k) {
        const auto& n = tree->nodes[k];
        if (n.isManager || n.kind.empty() || n.kind.ends_with("Manager"))
            continue; // KeyManager, DictGuardManager, ...: accessors, not guards
        PreparedGuard g;
        g.node = int(k);
        g.kind = n.kind;
        g.expr = std::string(guardExprCore(n.expr));
        g.type = typeAnnotation(n.expr);
        if (g.type.empty() && n.parent >= 0)
            g.type = typeAnnotation(tree->nodes[n.parent].expr);
        g.source = tree->sourceOf(int(k));
        if (g.kind != "GLOBAL_STATE")
            g.parsed = GuardExpr::parse(g.expr);
        if (g.kind == "TENSOR_MATCH")
            g.tensor = parseCheckTensor(g.parsed);
        std::string src = g.tensor ? g.tensor->source : "";
        if (src.empty()) {
            auto roots = rootsIn(g.expr);
            src = roots.empty() ? g.source : roots.front();
        }
        p.kindExpr.insert({ g.kind, g.expr });
        p.bySource[{ g.kind, src }] = g.expr;
        p.guards.push_back(std::move(g));
    }
    return p;
}

struct Lab {
    const Trace& trace;
    std::vector<PreparedEntry> entries; // newest first
    std::map<std::string, GuardValue> recordedFacts; // path -> value, from the newest entry
    std::map<std::string, RecordedTensor> recordedTensors; // by source, newest entry
    std::optional<GlobalState> recordedGlobal;
    int recompileLimit = 8; // PyTorch's default, unless the newest entry's metrics say

    Lab(const Trace& t, uint32_t frame, size_t firstCompiles = SIZE_MAX)
        : trace(t)
    {
        const Frame& f = t.frames[frame];
        const size_t n = std::min(firstCompiles, f.compiles.size());
        for (auto it = f.compiles.rend() - std::ptrdiff_t(n); it != f.compiles.rend(); ++it) {
            const Compile& c = t.compiles[*it];
            if (c.guards.get() && c.guards->guardCount() > 0)
                entries.push_back(prepare(c));
        }
        if (entries.empty())
            return;
        if (const auto limit = recompileLimitOf(t.compiles[entries.front().compile]))
            recompileLimit = *limit;
        // The recorded call: what the newest entry's guards say its inputs were.
        for (const auto& g : entries.front().guards) {
            if (g.tensor)
                recordedTensors[g.tensor->source] = *g.tensor;
            if (g.kind == "GLOBAL_STATE")
                recordedGlobal = parseGlobalState(g.expr);
            if (!g.parsed.ok())
                continue;
            const auto& root = g.parsed.nodes[g.parsed.root];
            if (root.op != GuardExprNode::Op::Compare || root.text != "==" || root.kids.size() != 2)
                continue;
            // PATH == literal, len(PATH) == N, hasattr(PATH, 'a') == False
            const int lhs = root.kids[0], rhs = root.kids[1];
            GuardValue lit
                = g.parsed.evaluate(rhs, [](const std::string&) { return GuardValue::unknown(); });
            if (!lit.known())
                continue;
            std::string path = g.parsed.sourcePath(lhs);
            if (path.empty()) {
                const auto& ln = g.parsed.nodes[lhs];
                if (ln.op == GuardExprNode::Op::Call && !ln.kids.empty()
                    && (g.parsed.nodes[ln.kids[0]].text == "len"
                        || g.parsed.nodes[ln.kids[0]].text == "hasattr"))
                    path = std::string(g.parsed.spanText(lhs));
            }
            if (!path.empty() && path.find("___") == std::string::npos)
                recordedFacts[path] = lit;
        }
    }

    bool described(const GuardInput& in, const std::string& root) const
    {
        auto [scope, name] = rootOf(root);
        return !name.empty() && (in.tensors.count(name) || in.values.count(name));
    }

    // The value of a path, from the description, else from the recorded call.
    GuardValue resolve(const GuardInput& in, const std::string& path) const
    {
        auto [scope, name] = rootOf(path);
        if (path.starts_with("hasattr(") || path.starts_with("getattr(")) {
            const size_t comma = path.find(", '");
            const std::string src = path.substr(8, comma == std::string::npos ? 0 : comma - 8);
            const std::string attr
                = comma == std::string::npos ? "" : path.substr(comma + 3, path.size() - comma - 5);
            auto [s2, n2] = rootOf(src);
            if (auto t = in.tensors.find(n2); t != in.tensors.end() && src == "L['" + n2 + "']") {
                const bool marked = !t->second.dynamicDims.empty();
                if (path.starts_with("hasattr("))
                    return GuardValue::boolean(attr == "_dynamo_dynamic_indices" && marked);
                GuardValue dims;
                dims.kind = GuardValue::Kind::List;
                if (attr == "_dynamo_dynamic_indices")
                    for (int d : t->second.dynamicDims)
                        dims.items.push_back(GuardValue::integer(d));
                return dims;
            }
        } else if (path.starts_with("len(")) {
            const std::string src = path.substr(4, path.size() - 5);
            auto [s2, n2] = rootOf(src);
            if (auto t = in.tensors.find(n2); t != in.tensors.end() && src == "L['" + n2 + "']"
                && t->second.sizes && !t->second.sizes->empty())
                return GuardValue::integer((*t->second.sizes)[0]);
        } else if (auto t = in.tensors.find(name); t != in.tensors.end()) {
            const std::string base = scope + "['" + name + "']";
            std::string_view rest = std::string_view(path).substr(base.size());
            const auto& desc = t->second;
            auto indexed =
                [&](std::string_view method,
                    const std::optional<std::vector<int64_t>>& list) -> std::optional<GuardValue> {
                int64_t k = -1;
                std::string_view r = rest;
                if (!r.starts_with(method))
                    return std::nullopt;
                r.remove_prefix(method.size());
                if (r.starts_with("()[") && r.ends_with("]"))
                    r = r.substr(3, r.size() - 4);
                else if (r.starts_with("(") && r.ends_with(")"))
                    r = r.substr(1, r.size() - 2);
                else
                    return std::nullopt;
                auto [p, ec] = std::from_chars(r.data(), r.data() + r.size(), k);
                if (ec != std::errc() || p != r.data() + r.size() || !list)
                    return GuardValue::unknown(path);
                if (k < 0)
                    k += int64_t(list->size());
                if (k < 0 || k >= int64_t(list->size()))
                    return GuardValue::unknown(path);
                return GuardValue::integer((*list)[size_t(k)]);
            };
            if (auto v = indexed(".size", desc.sizes))
                return *v;
            if (auto v = indexed(".stride", desc.effectiveStrides()))
                return *v;
            if (rest == ".storage_offset()")
                return GuardValue::integer(0); // a described tensor is a fresh one
            if (rest == ".dim()" && desc.sizes)
                return GuardValue::integer(int64_t(desc.sizes->size()));
            return GuardValue::unknown(path);
        } else if (auto v = in.values.find(name);
                   v != in.values.end() && path == scope + "['" + name + "']") {
            return v->second;
        }
        // An attribute named in the description: "training: False" sets every .training.
        if (const size_t dot = path.rfind('.'); dot != std::string::npos) {
            if (auto v = in.values.find(path.substr(dot + 1));
                v != in.values.end() && name != v->first)
                return v->second;
        }
        if (auto f = recordedFacts.find(path); f != recordedFacts.end() && !described(in, path))
            return f->second;
        // Sizes of a tensor the description leaves out: its recorded static sizes.
        if (!described(in, path) && !name.empty()) {
            const std::string base = scope + "['" + name + "']";
            for (const auto& [src, rt] : recordedTensors) {
                if (!path.starts_with(src) || src.size() == path.size())
                    continue;
                std::string_view rest = std::string_view(path).substr(src.size());
                for (auto [method, list] : { std::pair { std::string_view(".size()["), &rt.sizes },
                         std::pair { std::string_view(".stride()["), &rt.strides } }) {
                    if (!rest.starts_with(method) || !rest.ends_with("]"))
                        continue;
                    std::string_view r
                        = rest.substr(method.size(), rest.size() - method.size() - 1);
                    int64_t k = -1;
                    auto [p, ec] = std::from_chars(r.data(), r.data() + r.size(), k);
                    if (ec == std::errc() && k >= 0 && k < int64_t(list->size())
                        && (*list)[size_t(k)])
                        return GuardValue::integer(*(*list)[size_t(k)]);
                }
            }
        }
        return GuardValue::unknown(path);
    }

    // A guard decided by comparing with the recorded call (opaque ids, ambient hooks, ...).
    GuardCheck asRecorded(const PreparedEntry& e, const PreparedGuard& g, GuardCheck check) const
    {
        const PreparedEntry& newest = entries.front();
        std::string src = g.tensor ? g.tensor->source : "";
        if (src.empty()) {
            auto roots = rootsIn(g.expr);
            src = roots.empty() ? g.source : roots.front();
        }
        if (&e == &newest || newest.kindExpr.count({ g.kind, g.expr })) {
            check.outcome = GuardOutcome::Pass;
            check.what = "as in the recorded call";
            return check;
        }
        if (auto it = newest.bySource.find({ g.kind, src }); it != newest.bySource.end()) {
            check.outcome = GuardOutcome::Fail;
            check.what = "differs from the recorded call " + newest.id;
            check.expected = g.expr;
            check.actual = it->second;
            return check;
        }
        check.outcome = GuardOutcome::Unknown;
        check.needs.push_back(src.empty() ? g.expr : src);
        return check;
    }

    GuardCheck checkTensor(
        const PreparedEntry& e, const PreparedGuard& g, const GuardInput& in) const
    {
        const RecordedTensor& want = *g.tensor;
        auto [scope, name] = rootOf(want.source);
        auto it = scope == "L" && want.source == "L['" + name + "']" ? in.tensors.find(name)
                                                                     : in.tensors.end();
        if (it == in.tensors.end())
            return asRecorded(e, g, GuardCheck {});
        TensorCallContext call;
        if (const auto rec = recordedTensors.find(want.source); rec != recordedTensors.end())
            call.recorded = &rec->second;
        if (recordedGlobal) {
            call.recordedAutocast = "";
            for (size_t k = 0; k < 2 && k < recordedGlobal->autocastEnabled.size(); ++k)
                if (recordedGlobal->autocastEnabled[k])
                    call.recordedAutocast = k == 0 ? "cpu" : "cuda";
            call.recordedGradMode = recordedGlobal->gradMode;
        }
        return checkTensorMatch(want, it->second, in, call);
    }

    GuardCheck checkGlobal(
        const PreparedEntry& e, const PreparedGuard& g, const GuardInput& in) const
    {
        GuardCheck c;
        const GlobalState want = parseGlobalState(g.expr);
        const std::optional<GlobalState>& rec = recordedGlobal;
        // torch.inference_mode() turns grad mode off with it.
        std::optional<bool> grad;
        if (in.gradMode)
            grad = *in.gradMode;
        else if (in.inferenceMode.value_or(false))
            grad = false;
        else if (rec)
            grad = rec->gradMode;
        if (want.gradMode && grad && *want.gradMode != *grad) {
            c.outcome = GuardOutcome::Fail;
            c.what = "grad mode";
            c.expected = *want.gradMode ? "on" : "off";
            c.actual = *grad ? "on" : "off";
            return c;
        }
        if (want.gradMode && !grad) {
            c.outcome = GuardOutcome::Unknown;
            c.needs.push_back("grad mode");
            return c;
        }
        // Autocast: index 0 is cpu, 1 cuda (the order of PyTorch's autocast device list).
        for (size_t k = 0; k < 2 && k < want.autocastEnabled.size(); ++k) {
            const std::string dev = k == 0 ? "cpu" : "cuda";
            bool on
                = rec && k < rec->autocastEnabled.size() ? bool(rec->autocastEnabled[k]) : false;
            int dtype = rec && k < rec->autocastDtype.size() ? rec->autocastDtype[k] : -1;
            if (in.autocast) {
                on = in.autocast->enabled && in.autocast->device == dev;
                if (on)
                    dtype = scalarTypeOf(in.autocast->dtype);
            } else if (!rec) {
                c.outcome = GuardOutcome::Unknown;
                c.needs.push_back("autocast state");
                return c;
            }
            const bool wantOn = want.autocastEnabled[k];
            const int wantDtype = k < want.autocastDtype.size() ? want.autocastDtype[k] : -1;
            if (wantOn != on || (on && dtype != wantDtype)) {
                auto name = [](int st) {
                    return st == 5 ? "float16" : st == 15 ? "bfloat16" : st == 6 ? "float32" : "?";
                };
                c.outcome = GuardOutcome::Fail;
                c.what = "autocast (" + dev + ")";
                c.expected = wantOn ? std::string("on, ") + name(wantDtype) : "off";
                c.actual = on ? std::string("on, ") + name(dtype) : "off";
                return c;
            }
        }
        if (rec && rec->rest != want.rest && &e != &entries.front()) {
            c.outcome = GuardOutcome::Fail;
            c.what
                = "global state other than grad mode and autocast differs from the recorded call "
                + entries.front().id;
            c.expected = want.rest;
            c.actual = rec->rest;
            return c;
        }
        c.outcome = GuardOutcome::Pass;
        return c;
    }

    GuardCheck check(const PreparedEntry& e, const PreparedGuard& g, const GuardInput& in) const
    {
        GuardCheck c;
        if (g.kind == "TENSOR_MATCH" && g.tensor)
            c = checkTensor(e, g, in);
        else if (g.kind == "GLOBAL_STATE")
            c = checkGlobal(e, g, in);
        else if (g.kind == "DEFAULT_DEVICE" && in.defaultDevice) {
            const bool none = g.expr.ends_with("== None");
            const bool isCpu = *in.defaultDevice == "cpu";
            c.outcome = none == isCpu ? GuardOutcome::Pass : GuardOutcome::Fail;
            c.what = "default device";
            c.expected = none ? "None (cpu)" : g.expr;
            c.actual = *in.defaultDevice;
        } else if ((g.kind == "TYPE_MATCH") && !rootsIn(g.expr).empty()
            && described(in, rootsIn(g.expr).front()) && !g.type.empty()) {
            auto [scope, name] = rootOf(rootsIn(g.expr).front());
            const std::string root = rootsIn(g.expr).front();
            std::string have;
            if (auto v = in.values.find(name); v != in.values.end() && g.source == root)
                have = pythonType(v->second);
            else if (in.tensors.count(name) && g.source == root)
                have = "torch.Tensor";
            if (have.empty()) {
                c.outcome = GuardOutcome::Unknown;
                c.needs.push_back("the type of " + g.source);
            } else if (have == g.type)
                c.outcome = GuardOutcome::Pass;
            else {
                c.outcome = GuardOutcome::Fail;
                c.what = "type mismatch";
                c.expected = g.type;
                c.actual = have;
            }
        } else if (!g.parsed.ok()) {
            // Ambient forms that are not Python ("... top_saved_tensors_hooks ids == None",
            // TORCH_FUNCTION_MODE_STACK, NO_TENSOR_ALIASING without arguments): as recorded.
            c = asRecorded(e, g, c);
            if (c.outcome == GuardOutcome::Unknown && g.kind != "LAMBDA_GUARD"
                && g.kind != "TORCH_FUNCTION_MODE_STACK")
                c.understood = g.expr.empty();
            if (g.kind == "LAMBDA_GUARD"
                && g.expr.find("top_saved_tensors_hooks") == std::string::npos)
                c.understood = false;
        } else {
            std::vector<std::pair<std::string, GuardValue>> seen;
            GuardValue v = g.parsed.evaluate([&](const std::string& path) {
                GuardValue r = resolve(in, path);
                if (r.known() && seen.size() < 8)
                    seen.emplace_back(path, r);
                return r;
            });
            if (v.kind == GuardValue::Kind::Bool || v.known()) {
                const int t = v.kind == GuardValue::Kind::Bool
                    ? int(v.b)
                    : (v.kind == GuardValue::Kind::None ? 0 : 1);
                c.outcome = t ? GuardOutcome::Pass : GuardOutcome::Fail;
                if (!t) {
                    c.what = "guard false";
                    c.expected = g.expr;
                    for (const auto& [p, val] : seen)
                        c.actual += (c.actual.empty() ? "" : ", ") + p + " = " + val.toString();
                }
            } else {
                // Not computable from the facts: opaque ids and types, or sources the
                // description leaves out; those are decided by the recorded call.
                bool anyDescribed = false;
                for (const auto& r : rootsIn(g.expr))
                    anyDescribed = anyDescribed || described(in, r);
                for (const auto& [name, value] : in.values)
                    anyDescribed
                        = anyDescribed || g.expr.find("." + name + " ") != std::string::npos;
                if (!anyDescribed)
                    c = asRecorded(e, g, c);
                else {
                    c.outcome = GuardOutcome::Unknown;
                    c.needs = v.needs;
                }
            }
        }
        c.node = g.node;
        c.kind = g.kind;
        c.expr = g.expr;
        return c;
    }

    EntryAnswer evaluate(const PreparedEntry& e, const GuardInput& in) const
    {
        EntryAnswer a;
        a.compile = e.compile;
        a.id = e.id;
        for (const auto& g : e.guards) {
            GuardCheck c = check(e, g, in);
            ++a.guards;
            if (!c.understood)
                ++a.notUnderstood;
            if (c.outcome == GuardOutcome::Pass)
                ++a.passed;
            else if (c.outcome == GuardOutcome::Fail) {
                a.outcome = GuardOutcome::Fail;
                a.failed = std::move(c);
                return a; // Dynamo stops at the first failing guard
            } else
                a.unknown.push_back(std::move(c));
        }
        a.outcome = a.unknown.empty() ? GuardOutcome::Pass : GuardOutcome::Unknown;
        return a;
    }

    GuardLabAnswer answer(const GuardInput& in) const
    {
        GuardLabAnswer out;
        std::vector<std::string> pendingUnknown;
        for (const auto& e : entries) {
            out.entries.push_back(evaluate(e, in));
            const EntryAnswer& a = out.entries.back();
            if (a.outcome == GuardOutcome::Unknown)
                pendingUnknown.push_back(a.id);
            if (a.outcome == GuardOutcome::Pass && !out.reused) {
                out.reused = out.entries.size() - 1;
                break;
            }
        }
        out.known = pendingUnknown.empty();
        out.recompiles = !out.reused && out.known;
        out.recompileLimit = recompileLimit;
        out.entriesLeft = std::max(0, out.recompileLimit - int(entries.size()));
        if (entries.empty())
            out.verdict = "no cache entries: the frame logged no guards";
        else if (out.reused && out.known)
            out.verdict = "reuses " + out.entries[*out.reused].id;
        else if (out.recompiles) {
            out.verdict = "recompiles: no entry matches";
            out.verdict += out.entriesLeft > 0 ? " (" + std::to_string(out.entriesLeft)
                    + " of the recompile limit " + std::to_string(out.recompileLimit) + " left)"
                                               : " and the frame is at its recompile limit ("
                    + std::to_string(out.recompileLimit) + "): it runs in eager";
        } else {
            out.verdict = "not known: ";
            for (size_t k = 0; k < pendingUnknown.size(); ++k)
                out.verdict += (k ? ", " : "") + pendingUnknown[k];
            std::vector<std::string> needs;
            for (const auto& a : out.entries)
                for (const auto& u : a.unknown)
                    for (const auto& n : u.needs)
                        if (std::find(needs.begin(), needs.end(), n) == needs.end())
                            needs.push_back(n);
            out.verdict += " cannot be decided without ";
            for (size_t k = 0; k < needs.size() && k < 6; ++k)
                out.verdict += (k ? ", " : "") + needs[k];
            if (out.reused)
                out.verdict += "; otherwise reuses " + out.entries[*out.reused].id;
        }
        // Automatic dynamic: a size that differs from a static entry becomes dynamic next time.
        if (out.recompiles) {
            for (const auto& [name, t] : in.tensors) {
                auto rec = recordedTensors.find("L['" + name + "']");
                if (rec == recordedTensors.end() || !t.sizes
                    || t.sizes->size() != rec->second.sizes.size())
                    continue;
                for (size_t k = 0; k < t.sizes->size(); ++k)
                    if (rec->second.sizes[k] && *rec->second.sizes[k] != (*t.sizes)[k]
                        && t.dynamicDims.empty())
                        out.automaticDynamic
                            += std::string(out.automaticDynamic.empty() ? "" : "; ")
                            + "the next compile makes " + rec->second.source + " dimension "
                            + std::to_string(k) + " dynamic (automatic dynamic shapes: it was "
                            + std::to_string(*rec->second.sizes[k]) + " in " + entries.front().id
                            + ")";
            }
        }
        return out;
    }
};

} // namespace

GuardLabAnswer evaluateGuards(
    const Trace& trace, uint32_t frame, const GuardInput& input, size_t firstCompiles)
{
    if (frame >= trace.frames.size())
        return {};
    Lab lab(trace, frame, firstCompiles);
    return lab.answer(input);
}

RangeAnswer evaluateRange(const Trace& trace, uint32_t frame, const GuardInput& input)
{
    RangeAnswer out;
    if (frame >= trace.frames.size() || !input.range)
        return out;
    Lab lab(trace, frame);
    const SizeRange& r = *input.range;
    GuardInput probe = input;
    probe.range.reset();
    auto t = probe.tensors.find(r.name);
    if (t == probe.tensors.end()) {
        // Prefill the tensor from the recorded call: its description, with a dynamic dimension
        // at the size its symbol was created with.
        GuardInput recorded;
        std::string error;
        const bool described = !lab.entries.empty()
            && parseGuardInput(
                recordedInputDescription(trace, lab.entries.front().compile), recorded, error);
        auto rec = recorded.tensors.find(r.name);
        if (!described || rec == recorded.tensors.end()) {
            out.advice = "'" + r.name + "' is not a tensor this frame guards";
            return out;
        }
        const TensorDescription d = rec->second;
        t = probe.tensors.emplace(r.name, d).first;
    }
    if (!t->second.sizes || r.dim >= int(t->second.sizes->size())) {
        out.advice = "'" + r.name + "' has no dimension " + std::to_string(r.dim);
        return out;
    }
    std::set<std::string> reusedIds;
    bool anyRecompile = false;
    for (int64_t s = r.lo; s <= r.hi; ++s) {
        (*t->second.sizes)[size_t(r.dim)] = s;
        const GuardLabAnswer a = lab.answer(probe);
        std::string v = a.verdict;
        if (a.reused && a.known)
            reusedIds.insert(a.entries[*a.reused].id);
        anyRecompile = anyRecompile || a.recompiles;
        if (!out.rows.empty() && out.rows.back().verdict == v && out.rows.back().hi == s - 1)
            out.rows.back().hi = s;
        else
            out.rows.push_back({ s, s, v });
    }
    const std::string call
        = "torch._dynamo.mark_dynamic(" + r.name + ", " + std::to_string(r.dim) + ")";
    if (!anyRecompile && reusedIds.size() == 1)
        out.advice = "every size reuses " + *reusedIds.begin() + ": nothing to mark";
    else
        out.advice = "one call, " + call
            + " before the first call (or torch.compile(dynamic=True)), compiles one graph for "
              "sizes "
            + std::to_string(std::max<int64_t>(r.lo, 2)) + ".." + std::to_string(r.hi)
            + (r.lo < 2 ? "; sizes 0 and 1 are specialized by Dynamo (0/1 specialization) and "
                          "compile on their own"
                        : "");
    return out;
}

std::string recordedInputDescription(const Trace& trace, uint32_t compile)
{
    if (compile >= trace.compiles.size() || !trace.compiles[compile].guards.get())
        return {};
    const Compile& c = trace.compiles[compile];
    // "float32" -> "f32", as people type it.
    static constexpr std::pair<std::string_view, std::string_view> kShort[] = {
        { "float32", "f32" },
        { "float64", "f64" },
        { "float16", "f16" },
        { "bfloat16", "bf16" },
        { "int64", "i64" },
        { "int32", "i32" },
        { "int16", "i16" },
        { "int8", "i8" },
        { "uint8", "u8" },
        { "complex64", "c64" },
    };
    // The sizes symbols were created with, in order, for the dimensions a guard leaves open.
    std::vector<std::string> symbolValues;
    for (const ShapeEvent& e : c.shapeEvents)
        if (e.kind == "create_symbol" && !e.value.empty())
            symbolValues.push_back(e.value);
    size_t nextSymbol = 0;
    std::string out, state;
    for (const PreparedGuard& g : prepare(c).guards) {
        // The ambient state where it is not the default: grad mode off, autocast on.
        if (g.kind == "GLOBAL_STATE") {
            const GlobalState gs = parseGlobalState(g.expr);
            if (gs.gradMode == false)
                state += "; grad: off";
            for (size_t k = 0; k < 2 && k < gs.autocastEnabled.size(); ++k) {
                if (!gs.autocastEnabled[k])
                    continue;
                const int dtype = k < gs.autocastDtype.size() ? gs.autocastDtype[k] : -1;
                state += std::string("; autocast: ") + (k == 0 ? "cpu" : "cuda")
                    + (dtype == 15       ? " bf16"
                            : dtype == 5 ? " f16"
                                         : "");
            }
        }
        const auto& t = g.tensor;
        // Only the frame's own tensor arguments: L['x'], not L['self']._modules['fc']...
        const auto [scope, local] = t ? rootOf(t->source) : std::pair<std::string, std::string> {};
        if (!t || scope != "L" || t->source != "L['" + local + "']" || !isLocalName(local))
            continue;
        std::string dtype = t->dtype;
        for (const auto& [name, shortName] : kShort)
            if (dtype == name)
                dtype = shortName;
        std::string sizes;
        for (const auto& d : t->sizes)
            sizes += (sizes.empty() ? "" : ", ")
                + (d                                       ? std::to_string(*d)
                        : nextSymbol < symbolValues.size() ? symbolValues[nextSymbol++]
                                                           : std::string("2"));
        out += (out.empty() ? "" : "; ") + local + ": " + dtype + "[" + sizes + "]"
            + (t->device != "cpu" ? " " + t->device : "")
            + (t->requiresGrad ? " requires_grad" : "");
    }
    return out.empty() ? out : out + state;
}

std::optional<uint32_t> findGuardFrame(
    const Trace& trace, const std::string& key, std::string& error)
{
    std::string k = key;
    if (k.size() > 2 && k.front() == '[' && k.back() == ']')
        k = k.substr(1, k.size() - 2);
    int64_t n = -1;
    const bool index = !k.empty() && k[0] == '#';
    const std::string digits = index ? k.substr(1) : k;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    const bool numeric = !digits.empty() && ec == std::errc() && p == digits.data() + digits.size();
    std::vector<uint32_t> found;
    for (const Frame& f : trace.frames) {
        if (index         ? (numeric && int64_t(f.index) == n)
                : numeric ? (f.frameId && *f.frameId == n && !f.compiledAutograd)
                          : f.coName == k)
            found.push_back(f.index);
    }
    if (found.empty()) {
        error = "no frame '" + key + "' (a code name, a frame id such as [0], or #INDEX)";
        return std::nullopt;
    }
    if (found.size() > 1) {
        // The same name in several frames: the one with most compiles, unless ids tell them apart.
        error = "'" + key + "' names " + std::to_string(found.size())
            + " frames; use the frame id ([N]) or #INDEX";
        return std::nullopt;
    }
    return found.front();
}

} // namespace dynascope
