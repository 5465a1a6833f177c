#include "core/parse/envelope.h"

#include <simdjson.h>

namespace dynascope {

struct EnvelopeParser::Impl {
    simdjson::ondemand::parser parser;
};

EnvelopeParser::EnvelopeParser()
    : m_impl(new Impl)
{
}

EnvelopeParser::~EnvelopeParser()
{
    delete m_impl;
}

namespace {
// Raw JSON text of any value (objects and arrays are consumed to find their end).
simdjson::error_code rawJson(simdjson::ondemand::value v, std::string_view& out)
{
    simdjson::ondemand::json_type type;
    if (auto e = v.type().get(type); e)
        return e;
    if (type == simdjson::ondemand::json_type::object) {
        simdjson::ondemand::object o;
        if (auto e = v.get_object().get(o); e)
            return e;
        return o.raw_json().get(out);
    }
    if (type == simdjson::ondemand::json_type::array) {
        simdjson::ondemand::array a;
        if (auto e = v.get_array().get(a); e)
            return e;
        return a.raw_json().get(out);
    }
    out = v.raw_json_token();
    while (!out.empty()
        && (out.back() == ' ' || out.back() == '\t' || out.back() == '\r' || out.back() == '\n'))
        out.remove_suffix(1);
    return simdjson::SUCCESS;
}

std::optional<int64_t> optionalInt(simdjson::ondemand::value v)
{
    // is_null() returns a result: testing it as a bool converts it, which throws on an error.
    bool isNull = false;
    if (v.is_null().get(isNull) || isNull)
        return std::nullopt;
    int64_t i = 0;
    if (!v.get_int64().get(i))
        return i;
    return std::nullopt;
}
} // namespace

bool EnvelopeParser::parse(std::string_view json, Envelope& out, std::string& error)
{
    using namespace simdjson;
    out = Envelope {};
    padded_string_view view(json.data(), json.size(), json.size() + SIMDJSON_PADDING);
    ondemand::document doc;
    if (auto e = m_impl->parser.iterate(view).get(doc); e) {
        error = error_message(e);
        return false;
    }
    ondemand::object obj;
    if (auto e = doc.get_object().get(obj); e) {
        error = std::string("header is not a JSON object: ") + error_message(e);
        return false;
    }
    for (auto field : obj) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key); e) {
            error = error_message(e);
            return false;
        }
        ondemand::value v;
        if (auto e = field.value().get(v); e) {
            error = error_message(e);
            return false;
        }
        if (key == "frame_id")
            out.frameId = optionalInt(v);
        else if (key == "frame_compile_id")
            out.frameCompileId = optionalInt(v);
        else if (key == "attempt")
            out.attempt = optionalInt(v);
        else if (key == "compiled_autograd_id")
            out.compiledAutograd = optionalInt(v);
        else if (key == "rank")
            out.rank = optionalInt(v);
        else if (key == "has_payload") {
            std::string_view s;
            if (!v.get_string().get(s))
                out.hasPayload = s; // md5 hex has no escapes: the view is the buffer text
            else
                out.hasPayload = "?"; // has_payload present but not a string
        } else if (key == "stack" || key == "subgraph_name") {
            // An error here is the header's error: On-Demand parses lazily, so a line cut inside
            // its stack array ("stack": [{...}, {...}) was taken for a complete header when
            // this error was dropped (tst_cutfiles::cutCompressedStreams, example.gz).
            std::string_view raw;
            if (auto e = rawJson(v, raw); e) {
                error = error_message(e);
                return false;
            }
            if (key == "stack")
                out.stack = raw;
        } else {
            std::string_view raw;
            if (auto e = rawJson(v, raw); e) {
                error = error_message(e);
                return false;
            }
            if (out.kind.empty()) {
                out.kind = key;
                out.metadata = raw;
            } else {
                ++out.extraKinds;
            }
        }
    }
    if (out.kind.empty()) {
        if (!out.stack.empty()) {
            out.kind = "stack";
            out.metadata = out.stack;
            return true;
        }
        error = "header has no kind key";
        return false;
    }
    return true;
}

} // namespace dynascope
