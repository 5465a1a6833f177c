#include "core/analysis/kernels.h"

#include "core/util/json_dom.h"
#include "core/util/text_format.h"
#include "core/util/trim.h"

#include <algorithm>

namespace dynascope {

namespace {

using json::Element;

constexpr std::string_view kTritonInfo = "\"triton_kernel_info\"";

std::string_view trimLeft(std::string_view s)
{
    const size_t i = s.find_first_not_of(" \t");
    return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

bool isIdentChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "aten.addmm, aten.gelu" from a line holding "Original ATen: [aten.addmm, aten.gelu]".
std::vector<std::string> atenOps(std::string_view line)
{
    const size_t at = line.find("Original ATen: [");
    if (at == std::string_view::npos)
        return {};
    const std::string_view list = line.substr(at + 16);
    return splitTrimmed(list.substr(0, list.find(']')));
}

// The fused part of a generated kernel's name: "addmm_gelu" of "triton_poi_fused_addmm_gelu_0".
std::string opsOfName(std::string_view name)
{
    const size_t fused = name.find("fused_");
    if (fused != std::string_view::npos)
        name.remove_prefix(fused + 6);
    const size_t last = name.rfind('_');
    if (last != std::string_view::npos && last + 1 < name.size()
        && std::all_of(name.begin() + static_cast<long>(last) + 1, name.end(),
            [](char c) { return c >= '0' && c <= '9'; }))
        name = name.substr(0, last);
    while (!name.empty() && name.front() == '_')
        name.remove_prefix(1);
    return std::string(name);
}

void opsFromNameIfNone(Kernel& k)
{
    if (!k.fusedOps.empty())
        return;
    if (std::string ops = opsOfName(k.name); !ops.empty())
        k.fusedOps.push_back(std::move(ops));
    k.opsFromName = true;
}

// A definition "NAME = async_compile.triton('NAME', '''" or "... = async_compile.cpp_pybinding(":
// the kernel's name, and whether it is Triton or C++.
struct Definition {
    std::string name;
    bool triton = false;
};

std::optional<Definition> definitionOf(std::string_view line)
{
    if (line.empty() || !isIdentChar(line.front()))
        return std::nullopt;
    size_t i = 0;
    while (i < line.size() && isIdentChar(line[i]))
        ++i;
    const std::string_view var = line.substr(0, i);
    constexpr std::string_view kCall = " = async_compile.";
    if (line.substr(i, kCall.size()) != kCall)
        return std::nullopt;
    const std::string_view call = line.substr(i + kCall.size());
    Definition d;
    d.name = std::string(var);
    if (call.starts_with("triton(")) {
        d.triton = true;
        // The kernel's own name, which triton_kernel_info uses, is the first argument.
        std::string_view arg = call.substr(7);
        if (!arg.empty() && (arg.front() == '\'' || arg.front() == '"')) {
            const size_t end = arg.find(arg.front(), 1);
            if (end != std::string_view::npos && end > 1)
                d.name = std::string(arg.substr(1, end - 1));
        }
    } else if (!call.starts_with("cpp")) {
        return std::nullopt; // async_compile.wait(...), multi_kernel, ...
    }
    return d;
}

// "inference", "forward", "backward" from "# AOT ID: ['0_forward']".
std::string graphOf(std::string_view line)
{
    const size_t at = line.find("# AOT ID: ['");
    if (at == std::string_view::npos)
        return {};
    std::string_view id = line.substr(at + 12);
    id = id.substr(0, id.find('\''));
    const size_t us = id.rfind('_');
    return us == std::string_view::npos ? std::string() : std::string(id.substr(us + 1));
}

void readOutputCode(const std::string& code, uint32_t record, std::vector<Kernel>& generated,
    std::vector<Kernel>& externs)
{
    std::string graph;
    std::vector<std::string> commentOps; // of the comment block above the current line
    uint32_t atenLine = 0; // line of the latest "Original ATen" comment
    std::vector<std::string> atenOfLine;
    uint32_t lineNo = 0;
    size_t pos = 0;
    const size_t firstExtern = externs.size();
    while (pos <= code.size()) {
        const size_t nl = code.find('\n', pos);
        const std::string_view line(
            code.data() + pos, (nl == std::string::npos ? code.size() : nl) - pos);
        pos = nl == std::string::npos ? code.size() + 1 : nl + 1;
        ++lineNo;
        if (lineNo == 1)
            graph = graphOf(line);
        const std::string_view t = trimLeft(line);
        if (t.starts_with("#")) {
            if (auto ops = atenOps(t); !ops.empty()) {
                atenOfLine = ops;
                atenLine = lineNo;
                if (line.front() == '#')
                    commentOps = std::move(ops);
            }
            continue;
        }
        if (auto d = definitionOf(line)) {
            Kernel k;
            k.name = std::move(d->name);
            k.kind = d->triton ? kernelKindOf(k.name) : KernelKind::Cpp;
            if (d->triton && !isTriton(k.kind))
                k.kind = KernelKind::Triton;
            k.fusedOps = std::move(commentOps);
            opsFromNameIfNone(k);
            k.codeRecord = record;
            k.codeLine = lineNo;
            k.graph = graph;
            generated.push_back(std::move(k));
        } else if (const size_t at = line.find("extern_kernels.");
                   at != std::string_view::npos && (at == 0 || !isIdentChar(line[at - 1]))) {
            size_t end = at + 15;
            while (end < line.size() && isIdentChar(line[end]))
                ++end;
            if (end < line.size() && line[end] == '(' && end > at + 15) {
                std::string name(line.substr(at, end - at));
                auto it = std::find_if(externs.begin() + static_cast<long>(firstExtern),
                    externs.end(), [&](const Kernel& e) { return e.name == name; });
                if (it == externs.end()) {
                    Kernel k;
                    k.name = std::move(name);
                    k.kind = KernelKind::Extern;
                    k.codeRecord = record;
                    k.codeLine = lineNo;
                    k.graph = graph;
                    externs.push_back(std::move(k));
                    it = externs.end() - 1;
                }
                ++it->calls;
                // The comment over the call names the ATen ops it runs.
                if (atenLine + 4 >= lineNo)
                    for (const std::string& op : atenOfLine)
                        if (std::find(it->fusedOps.begin(), it->fusedOps.end(), op)
                            == it->fusedOps.end())
                            it->fusedOps.push_back(op);
            }
        }
        if (!t.empty() && line.front() != ' ')
            commentOps.clear();
    }
}

std::string configText(Element e)
{
    simdjson::dom::array pairs;
    if (e.get_array().get(pairs))
        return json::text(e);
    std::string out;
    for (Element p : pairs) {
        simdjson::dom::array kv;
        if (p.get_array().get(kv) || kv.size() != 2)
            return json::text(e);
        if (!out.empty())
            out += ", ";
        out += json::text(kv.at(0).value_unsafe()) + "=" + json::text(kv.at(1).value_unsafe());
    }
    return out;
}

Diagnostic payloadProblem(const Trace& t, uint32_t record, const std::string& what)
{
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = DiagnosticCode::BadPayload;
    d.file = t.files[t.fileOf(record)].path;
    d.line = t.records[record].line;
    d.message = "triton_kernel_info: " + what;
    return d;
}

void readKernelInfo(const Trace& t, uint32_t record, std::vector<Kernel>& generated,
    std::vector<Diagnostic>& diagnostics)
{
    const std::string text = t.payload(record);
    simdjson::dom::parser parser;
    Element root;
    if (auto err = parser.parse(text).get(root)) {
        diagnostics.push_back(payloadProblem(
            t, record, std::string("the payload is not JSON: ") + simdjson::error_message(err)));
        return;
    }
    simdjson::dom::object kernels;
    if (root.get_object().get(kernels)) {
        diagnostics.push_back(payloadProblem(t, record, "the payload is not a JSON object"));
        return;
    }
    uint32_t odd = 0;
    std::string firstOdd;
    for (auto field : kernels) {
        const std::string name(field.key);
        Element info = field.value;
        if (!info.is_object()) {
            if (!odd++)
                firstOdd = name;
            continue;
        }
        auto it = std::find_if(generated.rbegin(), generated.rend(),
            [&](const Kernel& k) { return k.name == name && !k.hasInfo; });
        Kernel* k = nullptr;
        if (it != generated.rend()) {
            k = &*it;
        } else {
            // No output code defines it (not logged, or cut): the info alone.
            generated.emplace_back();
            k = &generated.back();
            k->name = name;
            k->kind = kernelKindOf(name);
            if (!isTriton(k->kind))
                k->kind = KernelKind::Triton;
            opsFromNameIfNone(*k);
        }
        k->hasInfo = true;
        k->infoRecord = record;
        k->compileTimeUs = json::integer(info, "compile_time_us");
        if (auto s = json::str(info, "autotune_cache_state"))
            k->autotuneState = std::string(*s);
        k->numConfigs = json::integer(info, "num_configs");
        Element config;
        if (!info["only_config"].get(config) || !info["best_config"].get(config))
            k->config = configText(config);
    }
    if (odd)
        diagnostics.push_back(payloadProblem(t, record,
            std::to_string(odd) + " kernel entr" + (odd == 1 ? "y is" : "ies are")
                + " not an object (first: " + firstOdd + ")"));
}

} // namespace

const char* toString(KernelKind k)
{
    switch (k) {
    case KernelKind::Pointwise:
        return "pointwise";
    case KernelKind::Reduction:
        return "reduction";
    case KernelKind::PersistentReduction:
        return "persistent_reduction";
    case KernelKind::Template:
        return "template";
    case KernelKind::Triton:
        return "triton";
    case KernelKind::Cpp:
        return "cpp";
    case KernelKind::Extern:
        return "extern";
    }
    return "triton";
}

KernelKind kernelKindOf(std::string_view name)
{
    if (name.starts_with("triton_poi_"))
        return KernelKind::Pointwise;
    if (name.starts_with("triton_red_"))
        return KernelKind::Reduction;
    if (name.starts_with("triton_per_"))
        return KernelKind::PersistentReduction;
    if (name.starts_with("triton_tem_"))
        return KernelKind::Template;
    if (name.starts_with("cpp_"))
        return KernelKind::Cpp;
    if (name.starts_with("extern_kernels."))
        return KernelKind::Extern;
    return KernelKind::Triton;
}

bool isTriton(KernelKind k)
{
    return k != KernelKind::Cpp && k != KernelKind::Extern;
}

CompileKernels compileKernels(const Trace& t, const Compile& c)
{
    CompileKernels out;
    std::vector<Kernel> externs;
    for (uint32_t r : c.records) {
        const std::string& kind = t.kindName(r);
        if (kind == "inductor_output_code") {
            if (!t.records[r].hasPayload())
                continue;
            ++out.outputCodes;
            readOutputCode(t.payload(r), r, out.kernels, externs);
        } else if (kind == "artifact" && t.records[r].hasPayload()
            && t.header(r).find(kTritonInfo) != std::string::npos) {
            readKernelInfo(t, r, out.kernels, out.diagnostics);
        }
    }
    for (Kernel& k : externs)
        out.kernels.push_back(std::move(k));
    out.fxGraphCacheHit
        = std::any_of(c.cacheEvents.begin(), c.cacheEvents.end(), [](const CacheEvent& e) {
              return e.kind == CacheKind::Hit && e.cache.starts_with("fx_graph");
          });
    return out;
}

void KernelCounts::add(const std::vector<Kernel>& kernels)
{
    for (const Kernel& k : kernels) {
        ++byKind[static_cast<size_t>(k.kind)];
        if (k.kind == KernelKind::Extern)
            ++externCalls;
        else
            ++generated;
        if (k.compileTimeUs && *k.compileTimeUs > 0)
            compileTimeUs += *k.compileTimeUs;
        if (k.autotuneState == "miss" && k.numConfigs.value_or(0) > 1)
            ++autotuneMisses;
    }
}

void KernelCounts::add(const KernelCounts& o)
{
    for (size_t i = 0; i < kKernelKindCount; ++i)
        byKind[i] += o.byKind[i];
    generated += o.generated;
    externCalls += o.externCalls;
    compileTimeUs += o.compileTimeUs;
    autotuneMisses += o.autotuneMisses;
}

TraceKernelCounts countTraceKernels(const Trace& t)
{
    TraceKernelCounts out;
    out.perCompile.resize(t.compiles.size());
    for (const Compile& c : t.compiles) {
        CompileKernels ks = compileKernels(t, c);
        out.perCompile[c.index].add(ks.kernels);
        for (Diagnostic& d : ks.diagnostics)
            out.diagnostics.push_back(std::move(d));
    }
    return out;
}

std::string describeKernelCounts(const KernelCounts& n)
{
    std::string out;
    for (size_t i = 0; i < kKernelKindCount; ++i) {
        if (!n.byKind[i])
            continue;
        std::string kind = toString(static_cast<KernelKind>(i));
        std::replace(kind.begin(), kind.end(), '_', ' ');
        out += (out.empty() ? "" : ", ") + std::to_string(n.byKind[i]) + " " + kind;
    }
    return out;
}

std::string kernelSentence(const KernelCounts& n)
{
    if (!n.any())
        return {};
    std::string out = describeKernelCounts(n);
    if (n.compileTimeUs > 0)
        out += "; " + text::duration(static_cast<double>(n.compileTimeUs))
            + " compiling Triton kernels";
    if (n.autotuneMisses)
        out += "; " + std::to_string(n.autotuneMisses) + " autotuned after a cache miss";
    return out;
}

} // namespace dynascope
