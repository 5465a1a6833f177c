#include "core/synth/pathological.h"

#include <string>

namespace dynascope::synth {

namespace {
const std::string kPrefix = "V0314 10:41:02.000000 4242 torch/_dynamo/convert_frame.py:1] ";

std::string rec(const std::string& json)
{
    return kPrefix + json + "\n";
}

// Repeats `next(i)` until `bytes` are reached.
template <typename F> std::string fill(size_t bytes, F next)
{
    std::string s;
    s.reserve(bytes + 256);
    for (size_t i = 0; s.size() < bytes; ++i)
        s += next(i);
    return s;
}
} // namespace

const std::vector<PathologicalShape>& pathologicalShapes()
{
    static const std::vector<PathologicalShape> shapes {
        { "bad_lines", "lines that are not records ('x')" },
        { "blank_lines", "newlines only" },
        { "payload_then_blanks", "one record with a payload, then newlines" },
        { "tab_lines", "stray payload lines (a tab alone)" },
        { "glog_text", "glog-prefixed text lines without JSON" },
        { "tiny_records", "the smallest records ({\"x\": {}})" },
        { "string_table_flood", "string-table entries, each a new string" },
        { "unknown_kinds", "records of ever new kinds" },
        { "compiles_of_one_frame", "one frame compiled again and again, each a recompile" },
        { "deep_span_nesting", "chromium B events nested ever deeper, then their E events" },
        { "md5_mismatches", "payloads that do not match their MD5" },
    };
    return shapes;
}

std::string makePathological(std::string_view name, size_t bytes)
{
    if (name == "bad_lines")
        return fill(bytes, [](size_t) { return std::string("x\n"); });
    if (name == "blank_lines")
        return std::string(bytes, '\n');
    if (name == "payload_then_blanks") {
        std::string s = kPrefix
            + "{\"artifact\": {\"name\": \"a\", \"encoding\": \"string\"}, "
              "\"has_payload\": \"0\"}\n\tpayload\n";
        s.append(bytes > s.size() ? bytes - s.size() : 0, '\n');
        return s;
    }
    if (name == "tab_lines")
        return fill(bytes, [](size_t) { return std::string("\t\n"); });
    if (name == "glog_text")
        return fill(bytes, [](size_t i) {
            return "I0314 10:41:02.000000 4242 train.py:88] step " + std::to_string(i)
                + " loss 0.25\n";
        });
    if (name == "tiny_records")
        return fill(bytes, [](size_t) { return rec("{\"x\": {}}"); });
    if (name == "string_table_flood")
        return fill(bytes, [](size_t i) {
            return rec("{\"str\": [\"/home/alice/proj/module_" + std::to_string(i) + ".py\", "
                + std::to_string(i) + "]}");
        });
    if (name == "unknown_kinds")
        return fill(
            bytes, [](size_t i) { return rec("{\"kind_" + std::to_string(i) + "\": {}}"); });
    if (name == "compiles_of_one_frame")
        return fill(bytes, [](size_t i) {
            const std::string id = "\"frame_id\": 0, \"frame_compile_id\": " + std::to_string(i)
                + ", \"attempt\": 0";
            // Each against the one before: a size that changed (a recompile reason to link).
            std::string reason;
            if (i > 0)
                reason = rec("{\"artifact\": {\"name\": \"recompile_reasons\", "
                             "\"encoding\": \"json\"}, "
                             + id + ", \"has_payload\": \"0\"}")
                    + "\t[\"0/" + std::to_string(i - 1)
                    + ": tensor 'x' size mismatch at index 0. expected " + std::to_string(i + 1)
                    + ", actual " + std::to_string(i + 2) + "\"]\n";
            return rec("{\"dynamo_start\": {\"stack\": [{\"line\": 5, \"name\": \"f\", "
                       "\"filename\": 0}]}, "
                       + id + "}")
                + reason
                + rec("{\"compilation_metrics\": {\"co_name\": \"f\", \"co_filename\": "
                      "\"train.py\", \"co_firstlineno\": 5}, "
                    + id + "}");
        });
    if (name == "deep_span_nesting") {
        // Half B events, each one deeper, then as many E events closing them.
        std::string begins;
        std::vector<std::string> ends;
        const auto event = [](const char* ph, size_t i) {
            return rec("{\"chromium_event\": {}, \"frame_id\": 0, \"frame_compile_id\": 0, "
                       "\"attempt\": 0, \"has_payload\": \"0\"}")
                + "\t{\"name\": \"span_" + std::to_string(i)
                + "\", \"ts\": " + std::to_string(1773484862000000 + i) + ", \"ph\": \"" + ph
                + "\", \"cat\": \"dynamo_timed\", \"tid\": 0, \"pid\": 0}\n";
        };
        for (size_t i = 0; begins.size() * 2 < bytes; ++i) {
            begins += event("B", i);
            ends.push_back(event("E", i));
        }
        for (auto it = ends.rbegin(); it != ends.rend(); ++it)
            begins += *it;
        return begins;
    }
    if (name == "md5_mismatches")
        return fill(bytes, [](size_t i) {
            return rec("{\"artifact\": {\"name\": \"a\", \"encoding\": \"string\"}, "
                       "\"has_payload\": \"00000000000000000000000000000000\"}")
                + "\tpayload " + std::to_string(i) + "\n";
        });
    return {};
}

} // namespace dynascope::synth
