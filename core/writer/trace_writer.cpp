// TraceWriter implementation: the glog prefix (local wall time computed from the epoch clock with
// std::chrono calendar types, no locale or time zone APIs), the JSON envelope in PyTorch's key
// order and spacing, the string table, payload lines with their MD5 (OpenSSL EVP), chromium events
// pretty-printed like Python's json.dumps(indent=0), and a Python-style JSON re-serialiser.
#include "core/writer/trace_writer.h"

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace dynascope {

namespace {

using OJson = nlohmann::ordered_json;

// Python's repr(float): shortest round-trip digits; fixed notation when the decimal
// exponent is in [-4, 16), scientific ("1e-05", "1.5e+16") otherwise; ".0" on integers.
std::string pythonFloat(double v)
{
    if (v != v)
        return "NaN";
    if (v == std::numeric_limits<double>::infinity())
        return "Infinity";
    if (v == -std::numeric_limits<double>::infinity())
        return "-Infinity";
    std::array<char, 64> buf {};
    auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific);
    std::string sci(buf.data(), res.ptr);
    bool negative = false;
    if (!sci.empty() && sci.front() == '-') {
        negative = true;
        sci.erase(0, 1);
    }
    auto epos = sci.find('e');
    std::string mantissa = sci.substr(0, epos);
    int exp = std::stoi(sci.substr(epos + 1));
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    std::string out;
    if (exp >= -4 && exp < 16) {
        if (exp >= 0) {
            std::string intPart, frac;
            if (static_cast<int>(digits.size()) <= exp + 1) {
                intPart = digits + std::string(static_cast<size_t>(exp + 1) - digits.size(), '0');
                frac = "0";
            } else {
                intPart = digits.substr(0, static_cast<size_t>(exp + 1));
                frac = digits.substr(static_cast<size_t>(exp + 1));
            }
            out = intPart + "." + frac;
        } else {
            out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        char eb[16];
        std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        out += eb;
    }
    return negative ? "-" + out : out;
}

void dumpPython(const OJson& j, bool pretty, std::string& out)
{
    const char* itemSep = pretty ? ",\n" : ", ";
    switch (j.type()) {
    case OJson::value_t::object: {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += pretty ? "{\n" : "{";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first)
                out += itemSep;
            first = false;
            out += OJson(it.key()).dump(-1, ' ', true);
            out += ": ";
            dumpPython(it.value(), pretty, out);
        }
        out += pretty ? "\n}" : "}";
        return;
    }
    case OJson::value_t::array: {
        if (j.empty()) {
            out += "[]";
            return;
        }
        out += pretty ? "[\n" : "[";
        bool first = true;
        for (const auto& v : j) {
            if (!first)
                out += itemSep;
            first = false;
            dumpPython(v, pretty, out);
        }
        out += pretty ? "\n]" : "]";
        return;
    }
    case OJson::value_t::number_float:
        out += pythonFloat(j.get<double>());
        return;
    default:
        out += j.dump(-1, ' ', true);
        return;
    }
}

// Days-from-epoch calendar conversion with the C++20 chrono calendar types.
struct LocalTime {
    unsigned month, day;
    int64_t hour, minute, second, milli;
};

LocalTime toLocal(int64_t epochUs, int tzOffsetMinutes)
{
    using namespace std::chrono;
    int64_t localMs = epochUs / 1000 + int64_t(tzOffsetMinutes) * 60'000;
    if (epochUs < 0 && epochUs % 1000 != 0)
        localMs -= 1;
    const int64_t msPerDay = 86'400'000;
    int64_t days = localMs / msPerDay;
    int64_t rem = localMs % msPerDay;
    if (rem < 0) {
        rem += msPerDay;
        days -= 1;
    }
    year_month_day ymd { sys_days { std::chrono::days { days } } };
    LocalTime t {};
    t.month = static_cast<unsigned>(ymd.month());
    t.day = static_cast<unsigned>(ymd.day());
    t.hour = rem / 3'600'000;
    t.minute = rem / 60'000 % 60;
    t.second = rem / 1000 % 60;
    t.milli = rem % 1000;
    return t;
}

// Emitting PyTorch source line for artifacts, by name (real logs use these).
std::string_view artifactEmitter(std::string_view name)
{
    if (name == "recompile_reasons")
        return "torch/_dynamo/guards.py:3564";
    if (name == "dynamo_graph_break_reason")
        return "torch/_dynamo/symbolic_convert.py:552";
    if (name == "dynamo_error")
        return "torch/_dynamo/convert_frame.py:1207";
    if (name == "fx_graph_cache_miss" || name == "fx_graph_cache_hit"
        || name == "fx_graph_cache_bypass")
        return "torch/_inductor/compile_fx.py:1006";
    if (name == "aotautograd_cache_miss" || name == "aotautograd_cache_hit"
        || name == "aotautograd_cache_bypass")
        return "torch/_functorch/_aot_autograd/autograd_cache.py:1176";
    if (name == "before_pre_grad_graph")
        return "torch/_inductor/compile_fx.py:2150";
    if (name == "after_pre_grad_graph")
        return "torch/_inductor/compile_fx.py:2174";
    if (name == "fx_graph_runnable")
        return "torch/_inductor/codecache.py:1168";
    if (name == "torch_version")
        return "torch/_dynamo/convert_frame.py:1062";
    return "torch/_dynamo/utils.py:1900";
}

} // namespace

WriteContext WriteContext::forCompile(const CompileId& id, std::optional<int64_t> rank)
{
    WriteContext c;
    c.rank = rank;
    c.compiledAutograd = id.compiledAutograd;
    c.frameId = id.frame;
    c.frameCompileId = id.frameCompile;
    if (id.frame || id.frameCompile)
        c.attempt = id.attempt;
    return c;
}

TraceWriter::TraceWriter(std::ostream& out, int64_t pid, int64_t startEpochUs, int tzOffsetMinutes)
    : m_out(out)
    , m_pid(pid)
    , m_clockUs(startEpochUs)
    , m_tzOffsetMinutes(tzOffsetMinutes)
{
}

std::string TraceWriter::md5Hex(std::string_view data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_md5(), nullptr) != 1)
        throw std::runtime_error("md5: EVP_Digest failed");
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xF];
    }
    return out;
}

std::string TraceWriter::pythonJson(std::string_view json, bool pretty)
{
    OJson j = OJson::parse(json.begin(), json.end());
    std::string out;
    dumpPython(j, pretty, out);
    return out;
}

std::string TraceWriter::compileIdString(const WriteContext& ctx)
{
    std::string s;
    if (ctx.compiledAutograd)
        s += "!" + std::to_string(*ctx.compiledAutograd) + "/";
    s += ctx.frameId ? std::to_string(*ctx.frameId) : std::string("-");
    s += "/";
    s += ctx.frameCompileId ? std::to_string(*ctx.frameCompileId) : std::string("-");
    if (ctx.attempt && *ctx.attempt != 0)
        s += "_" + std::to_string(*ctx.attempt);
    return s;
}

std::string TraceWriter::prefix(std::string_view emitter) const
{
    LocalTime t = toLocal(m_clockUs, m_tzOffsetMinutes);
    char buf[64];
    std::snprintf(buf, sizeof buf, "V%02u%02u %02lld:%02lld:%02lld.%03lld000 %lld ", t.month, t.day,
        static_cast<long long>(t.hour), static_cast<long long>(t.minute),
        static_cast<long long>(t.second), static_cast<long long>(t.milli),
        static_cast<long long>(m_pid));
    std::string s(buf);
    s += emitter;
    s += "] ";
    return s;
}

std::string TraceWriter::contextJson(const WriteContext& ctx) const
{
    std::string s;
    auto add = [&s](std::string_view key, int64_t v) {
        s += ", \"";
        s += key;
        s += "\": ";
        s += std::to_string(v);
    };
    if (ctx.rank)
        add("rank", *ctx.rank);
    if (ctx.compiledAutograd)
        add("compiled_autograd_id", *ctx.compiledAutograd);
    else if (ctx.compiledAutogradNull)
        s += ", \"compiled_autograd_id\": null";
    if (ctx.frameId)
        add("frame_id", *ctx.frameId);
    if (ctx.frameCompileId)
        add("frame_compile_id", *ctx.frameCompileId);
    if (ctx.attempt)
        add("attempt", *ctx.attempt);
    return s;
}

int64_t TraceWriter::internFile(const std::string& path)
{
    auto it = m_strings.find(path);
    if (it != m_strings.end())
        return it->second;
    int64_t idx = static_cast<int64_t>(m_strings.size());
    m_strings.emplace(path, idx);
    m_out << prefix("torch/_logging/structured.py:28") << "{\"str\": ["
          << OJson(path).dump(-1, ' ', true) << ", " << idx << "]}\n";
    return idx;
}

std::string TraceWriter::stackJson(const std::vector<WriteFrame>& stack)
{
    for (const auto& f : stack)
        internFile(f.file);
    std::string s = "[";
    bool first = true;
    for (const auto& f : stack) {
        if (!first)
            s += ", ";
        first = false;
        s += "{\"line\": " + std::to_string(f.line)
            + ", \"name\": " + OJson(f.name).dump(-1, ' ', true)
            + ", \"filename\": " + std::to_string(m_strings.at(f.file));
        if (!f.loc.empty())
            s += ", \"loc\": " + OJson(f.loc).dump(-1, ' ', true);
        s += "}";
    }
    return s + "]";
}

void TraceWriter::write(std::string_view kind, std::string_view metadataJson,
    const WriteContext& ctx, const std::optional<std::string>& payload, std::string_view emitter,
    const std::vector<WriteFrame>* stack)
{
    std::string stackText;
    if (stack)
        stackText = stackJson(*stack);
    std::string line = prefix(emitter);
    line += "{\"";
    line += kind;
    line += "\": ";
    line += metadataJson.empty() ? std::string_view("{}") : metadataJson;
    line += contextJson(ctx);
    if (stack) {
        line += ", \"stack\": ";
        line += stackText;
    }
    if (payload) {
        line += ", \"has_payload\": \"";
        line += md5Hex(*payload);
        line += "\"";
    }
    line += "}\n";
    if (payload) {
        std::string_view rest = *payload;
        while (true) {
            auto nl = rest.find('\n');
            line += '\t';
            line += rest.substr(0, nl);
            line += '\n';
            if (nl == std::string_view::npos)
                break;
            rest.remove_prefix(nl + 1);
        }
    }
    m_out << line;
}

void TraceWriter::dynamoStart(const WriteContext& ctx, const std::vector<WriteFrame>& stack)
{
    std::string meta = "{\"stack\": " + stackJson(stack) + "}";
    write("dynamo_start", meta, ctx, std::nullopt, "torch/_dynamo/convert_frame.py:1123");
}

void TraceWriter::chromiumEvent(const WriteContext& ctx, std::string_view name, std::string_view ph,
    std::string_view argsJson, double durUs)
{
    const bool legacy = argsJson == "null";
    const bool hasId = ctx.frameId || ctx.frameCompileId;
    OJson ev;
    ev["name"] = std::string(name);
    ev["ts"] = static_cast<double>(m_clockUs);
    if (legacy) {
        ev["args"] = nullptr;
    } else {
        OJson args
            = argsJson.empty() ? OJson::object() : OJson::parse(argsJson.begin(), argsJson.end());
        if (hasId && !args.contains("compile_id"))
            args["compile_id"] = compileIdString(ctx);
        ev["args"] = args;
    }
    ev["ph"] = std::string(ph);
    if (ph == "X")
        ev["dur"] = durUs;
    if (!legacy) {
        ev["cat"] = "dynamo_timed";
        ev["tid"] = 0;
    }
    ev["pid"] = 0;
    if (ph == "i")
        ev["s"] = "p";
    std::string payload;
    dumpPython(ev, true, payload);
    write("chromium_event", "{}", ctx, payload,
        ph == "i" ? "torch/_dynamo/utils.py:1939" : "torch/_dynamo/utils.py:1900");
}

void TraceWriter::artifact(const WriteContext& ctx, std::string_view name,
    std::string_view encoding, const std::string& payload)
{
    std::string meta = "{\"name\": " + OJson(std::string(name)).dump(-1, ' ', true)
        + ", \"encoding\": " + OJson(std::string(encoding)).dump(-1, ' ', true) + "}";
    write("artifact", meta, ctx, payload, artifactEmitter(name));
}

void TraceWriter::raw(std::string_view text)
{
    m_out << text;
}

} // namespace dynascope
