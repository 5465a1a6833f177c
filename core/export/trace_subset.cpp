#include "core/export/trace_subset.h"

#include "core/export/redactor.h"
#include "core/model/record_payload.h"
#include "core/model/row_range.h"
#include "core/util/md5.h"
#include "core/writer/trace_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

namespace dynascope {

using nlohmann::ordered_json;

namespace {

std::string trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return std::string(s);
}

// True when arrays and objects in `text` nest deeper than `limit`. nlohmann_json builds, copies
// and dumps values recursively, so a hostile header nested a million levels deep would overflow
// the stack; such a header is treated as one that does not parse (left out, and counted).
bool nestsDeeperThan(std::string_view text, int limit)
{
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit)
                return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

std::optional<ordered_json> parseJson(std::string_view text)
{
    if (nestsDeeperThan(text, 256))
        return std::nullopt;
    try {
        return ordered_json::parse(text.begin(), text.end());
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string dumpPython(const ordered_json& j)
{
    return TraceWriter::pythonJson(
        j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Calls f(frameObject) for every stack frame ({"line", "name", "filename"}) in j.
template <typename F> void forEachFrame(ordered_json& j, F&& f)
{
    if (j.is_object()) {
        if (j.contains("filename") && j.contains("line"))
            f(j);
        for (auto& [k, v] : j.items())
            forEachFrame(v, f);
    } else if (j.is_array()) {
        for (auto& v : j)
            forEachFrame(v, f);
    }
}

// Redacts every string value of j. Values that name PyTorch's own things (chromium span names
// and categories, artifact names, encodings, compile ids) only get their paths redacted, so a user
// function that happens to be called `dynamo` or `backend_compile` cannot rename a span.
void redactJson(ordered_json& j, Redactor& r, bool protectedValue = false)
{
    if (j.is_string()) {
        const std::string& s = j.get_ref<const std::string&>();
        j = protectedValue ? r.redactPaths(s) : r.redact(s);
    } else if (j.is_object()) {
        bool frame = j.contains("filename") && j.contains("line");
        for (auto& [k, v] : j.items()) {
            bool keep = k == "ph" || k == "cat" || k == "encoding" || k == "compile_id"
                || (k == "name" && !frame);
            redactJson(v, r, keep);
        }
    } else if (j.is_array()) {
        for (auto& v : j)
            redactJson(v, r, protectedValue);
    }
}

void learnStrings(const ordered_json& j, Redactor& r)
{
    if (j.is_string()) {
        r.learnFromText(j.get_ref<const std::string&>());
    } else if (j.is_object()) {
        for (const auto& [k, v] : j.items()) {
            if (v.is_string()) {
                const std::string& s = v.get_ref<const std::string&>();
                if (k == "co_name" || (k == "name" && j.contains("line") && j.contains("filename")))
                    r.addFunction(s);
                else if (k == "co_filename" || k == "fail_user_frame_filename"
                    || (k == "filename" && j.contains("line")))
                    r.addPath(s);
            }
            learnStrings(v, r);
        }
    } else if (j.is_array()) {
        for (const auto& v : j)
            learnStrings(v, r);
    }
}

struct Prepared {
    uint32_t record;
    std::string prefix; // glog prefix, up to the JSON
    std::optional<ordered_json> json; // nullopt: header JSON does not parse
};

} // namespace

CompileSelection selectCompiles(const Trace& t, std::string_view list)
{
    CompileSelection sel;
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t comma = list.find(',', pos);
        std::string token
            = trim(list.substr(pos, comma == std::string_view::npos ? list.npos : comma - pos));
        pos = comma == std::string_view::npos ? list.size() + 1 : comma + 1;
        if (token.empty())
            continue;
        if (token[0] == '#') {
            uint64_t index = 0;
            auto [p, ec] = std::from_chars(token.data() + 1, token.data() + token.size(), index);
            if (ec != std::errc() || p != token.data() + token.size() || token.size() == 1) {
                sel.error = "bad compile index '" + token + "' (expected #N)";
                return sel;
            }
            if (index >= t.compiles.size()) {
                sel.error = "unknown compile '" + token + "': the trace has "
                    + std::to_string(t.compiles.size()) + " compiles (#0 to #"
                    + std::to_string(t.compiles.empty() ? 0 : t.compiles.size() - 1) + ")";
                return sel;
            }
            sel.compiles.push_back(static_cast<uint32_t>(index));
            continue;
        }
        auto id = CompileId::parse(token);
        if (!id || id->empty()) {
            sel.error = "bad compile id '" + token + "' (expected [0/1], 0/1 or #index)";
            return sel;
        }
        std::vector<uint32_t> matches;
        for (const auto& c : t.compiles)
            if (c.id.sameCompile(*id))
                matches.push_back(c.index);
        if (matches.empty()) {
            sel.error = "unknown compile id '" + token + "': no compile " + id->display()
                + " in the trace";
            return sel;
        }
        if (matches.size() > 1) {
            std::string which;
            for (uint32_t m : matches) {
                which += (which.empty() ? "#" : ", #") + std::to_string(m);
                if (t.files[t.compiles[m].file].rank)
                    which += " (rank " + std::to_string(*t.files[t.compiles[m].file].rank) + ")";
            }
            sel.error = "compile id '" + token + "' is ambiguous: it names compiles " + which
                + " (ids repeat after torch._dynamo.reset() and across ranks); select one by "
                  "#index";
            return sel;
        }
        sel.compiles.push_back(matches.front());
    }
    if (sel.compiles.empty() && sel.error.empty())
        sel.error = "no compile ids given";
    std::sort(sel.compiles.begin(), sel.compiles.end());
    sel.compiles.erase(std::unique(sel.compiles.begin(), sel.compiles.end()), sel.compiles.end());
    return sel;
}

SubsetResult writeSubset(const Trace& t, const SubsetOptions& options, std::ostream& out)
{
    SubsetResult res;
    if (options.compiles.empty()) {
        res.error = "no compiles selected";
        return res;
    }
    uint32_t file = kNone;
    for (uint32_t ci : options.compiles) {
        if (ci >= t.compiles.size()) {
            res.error = "compile #" + std::to_string(ci) + " does not exist";
            return res;
        }
        uint32_t f = t.compiles[ci].file;
        if (file != kNone && f != file) {
            res.error = "the selected compiles come from several files (ranks); a TORCH_TRACE file "
                        "holds one process, so export each rank on its own";
            return res;
        }
        file = f;
    }
    const TraceFile& tf = t.files[file];
    if (tf.format == TraceFormat::TorchLogs) {
        res.error = "the input is TORCH_LOGS text, which has no TORCH_TRACE records to copy; "
                    "record the run with TORCH_TRACE=<dir> to export a subset";
        return res;
    }

    // The records to write, in file order.
    std::vector<uint32_t> records;
    for (uint32_t ci : options.compiles) {
        const auto& r = t.compiles[ci].records;
        records.insert(records.end(), r.begin(), r.end());
    }
    std::map<int64_t, std::string> strPrefix; // original string index -> prefix of its record
    for (uint32_t r : recordsOf(tf)) {
        const std::string& kind = t.kindName(r);
        if (kind == "str") {
            const std::string h = t.header(r);
            const std::string_view json = headerJsonOf(h);
            auto j = parseJson(json);
            if (j && (*j)["str"].is_array() && (*j)["str"].size() == 2
                && (*j)["str"][1].is_number_integer())
                strPrefix[(*j)["str"][1].get<int64_t>()] = h.substr(0, h.size() - json.size());
        } else if (!options.redact && kind == "artifact" && t.records[r].compile == kNone
            && t.headerJson(r).find("\"torch_version\"") != std::string_view::npos) {
            records.push_back(r); // context for a bug report: which PyTorch wrote this
        }
    }
    std::sort(records.begin(), records.end());
    records.erase(std::unique(records.begin(), records.end()), records.end());

    // Parse the headers once; with redaction, learn every name first so placeholders are
    // consistent whatever order the names appear in.
    std::vector<Prepared> prepared;
    prepared.reserve(records.size());
    for (uint32_t r : records) {
        const std::string h = t.header(r);
        const std::string_view json = headerJsonOf(h);
        Prepared p { r, h.substr(0, h.size() - json.size()), std::nullopt };
        if (!(t.records[r].flags & kBadJson))
            p.json = parseJson(json);
        prepared.push_back(std::move(p));
    }
    Redactor redactor;
    if (options.redact) {
        // String-table paths first, in index order, then the names of each record.
        std::map<int64_t, bool> used;
        for (auto& p : prepared)
            if (p.json)
                forEachFrame(*p.json, [&](ordered_json& f) {
                    if (f["filename"].is_number_integer())
                        used[f["filename"].get<int64_t>()] = true;
                });
        for (const auto& [idx, _] : used)
            if (idx >= 0 && static_cast<size_t>(idx) < tf.strings.size())
                redactor.addPath(tf.strings[static_cast<size_t>(idx)]);
        for (uint32_t ci : options.compiles) {
            const Compile& c = t.compiles[ci];
            redactor.addPath(c.coFilename);
            redactor.addFunction(c.coName);
            for (const auto& f : c.stack) {
                redactor.addPath(f.file);
                redactor.addFunction(f.name);
            }
        }
        for (auto& p : prepared)
            if (p.json)
                learnStrings(*p.json, redactor);
    }

    std::map<int64_t, int64_t> newIndex; // original string index -> written index
    int64_t nextIndex = 0;
    for (auto& p : prepared) {
        const Record& rec = t.records[p.record];
        if (!p.json) {
            if (options.redact) {
                ++res.skipped; // cannot be redacted without parsing
                continue;
            }
            // Kept byte for byte: the loader reports it again, as it did for the input.
            out << t.header(p.record) << "\n";
            ++res.records;
            continue;
        }
        ordered_json& j = *p.json;
        bool changed = false;
        std::string strRecords;
        forEachFrame(j, [&](ordered_json& f) {
            if (!f["filename"].is_number_integer())
                return;
            int64_t old = f["filename"].get<int64_t>();
            auto [it, added] = newIndex.try_emplace(old, nextIndex);
            if (added) {
                ++nextIndex;
                if (old >= 0 && static_cast<size_t>(old) < tf.strings.size()
                    && !tf.strings[static_cast<size_t>(old)].empty()) {
                    std::string path = tf.strings[static_cast<size_t>(old)];
                    if (options.redact)
                        path = redactor.redact(path);
                    auto sp = strPrefix.find(old);
                    std::string prefix = sp != strPrefix.end() ? sp->second : p.prefix;
                    if (options.redact)
                        prefix = redactor.redactPaths(prefix);
                    strRecords += prefix
                        + dumpPython(ordered_json { { "str", { path, it->second } } }) + "\n";
                    ++res.strings;
                    ++res.records;
                }
            }
            if (it->second != old) {
                f["filename"] = it->second;
                changed = true;
            }
        });
        out << strRecords;

        std::optional<std::string> payload;
        if (rec.payloadLength > 0)
            payload = t.payload(p.record);
        std::string prefix = p.prefix;
        if (options.redact) {
            prefix = redactor.redactPaths(prefix);
            redactJson(j, redactor);
            changed = true;
            std::optional<ordered_json> event;
            if (payload && t.kindName(p.record) == "chromium_event")
                event = parseJson(*payload);
            if (event && event->is_object()) {
                // Timing only: the args of chromium events carry anything PyTorch attached
                // (cache key components with graph code, a copy of the metrics), so only the
                // compile id stays.
                ordered_json pj = ordered_json::object();
                for (auto& [k, v] : event->items()) {
                    if (k == "args") {
                        ordered_json args = ordered_json::object();
                        if (v.is_object() && v.contains("compile_id"))
                            args["compile_id"] = v["compile_id"];
                        pj["args"] = v.is_null() ? ordered_json(nullptr) : std::move(args);
                    } else if (k == "name" || k == "ph" || k == "ts" || k == "dur" || k == "cat"
                        || k == "tid" || k == "pid" || k == "s" || k == "id") {
                        pj[k] = v;
                    }
                }
                redactJson(pj, redactor);
                payload = dumpPython(pj);
                if (j.contains("has_payload"))
                    j["has_payload"] = md5Hex(*payload);
            } else if (payload && t.kindName(p.record) == "dynamo_guards") {
                // The guard list's code names user variables: dropped, but readers parse this
                // payload as JSON (tlparse --strict fails on an empty one), so an empty list.
                ++res.payloadsDropped;
                payload = "[]";
                j["has_payload"] = md5Hex(*payload);
            } else {
                if (payload)
                    ++res.payloadsDropped;
                payload.reset();
                j.erase("has_payload");
            }
        }
        if (changed) {
            out << prefix << dumpPython(j) << "\n";
            ++res.rewrittenHeaders;
        } else {
            out << t.header(p.record) << "\n";
        }
        ++res.records;
        if (payload) {
            std::string_view rest = *payload;
            std::string lines;
            lines.reserve(rest.size() + rest.size() / 16 + 2);
            while (true) {
                size_t nl = rest.find('\n');
                lines += '\t';
                lines.append(rest.substr(0, nl));
                lines += '\n';
                if (nl == std::string_view::npos)
                    break;
                rest.remove_prefix(nl + 1);
            }
            out << lines;
        }
    }
    if (!out)
        res.error = "write failed";
    // Records are read again from their file: one that changed since it was loaded gave empty
    // text, and what was written is not the records that were loaded.
    if (const auto problems = t.sourceProblems(); res.error.empty() && !problems.empty())
        res.error = problems.front();
    return res;
}

} // namespace dynascope
