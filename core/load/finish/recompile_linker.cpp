#include "core/load/finish/recompile_linker.h"

#include "core/load/finish/graph_break_text.h"

#include <regex>

namespace dynascope {

namespace {
std::string trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t'))
        s.remove_prefix(1);
    while (
        !s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return std::string(s);
}

bool sameSource(std::string_view a, std::string_view b)
{
    if (a == b)
        return true;
    // "x" names the local L['x']; newer logs already say L['x'].
    auto local = [](std::string_view n) { return "L['" + std::string(n) + "']"; };
    return local(a) == b || local(b) == a;
}
} // namespace

RecompileReason parseRecompileReason(std::string_view text, StringPool& pool)
{
    RecompileReason r;
    r.text = trimmed(text);
    std::string_view t = r.text;
    // PyTorch 2.11+: "<reason>\nUser stack trace:\n  File \"...\", line N, in f\n    code".
    constexpr std::string_view kUserStack = "\nUser stack trace:";
    if (size_t us = t.find(kUserStack); us != std::string_view::npos) {
        r.userStack = parsePythonTraceback(t.substr(us + kUserStack.size()), pool);
        t = t.substr(0, us);
    }
    // "<id>: detail" where id is like 0/0 or !0/3/0 (optionally bracketed).
    static const std::regex idPrefix(R"(^\[?(!?\d+/\d+(?:/\d+)?(?:_\d+)?)\]?:\s*)");
    std::cmatch m;
    if (std::regex_search(t.data(), t.data() + t.size(), m, idPrefix)) {
        r.earlierKey = m[1].str();
        if (auto us = r.earlierKey.find('_'); us != std::string::npos)
            r.earlierKey.resize(us);
        r.detail = std::string(t.substr(static_cast<size_t>(m.length(0))));
    } else {
        r.detail = std::string(t);
    }
    static const std::regex tensor(
        R"(tensor '(.+?)' (size|stride|dtype|device|requires_grad|rank|dispatch key set|memory format|layout)[ \w]*mismatch(?: at index (\d+))?\.?\s*(?:expected\s+(.+?)(?:,\s*actual\s+(.+?))?)?\s*$)");
    std::smatch tm;
    // Since PyTorch 2.10 a failed guard's code is followed by its comments, the user line and
    // where it was made: "factor == 2      # return x * factor + 1  # proj/f.py:11 in scale".
    std::string firstLine = r.detail.substr(0, r.detail.find('\n'));
    if (size_t c = firstLine.find("  # "); c != std::string::npos) {
        firstLine.resize(c);
        while (!firstLine.empty() && firstLine.back() == ' ')
            firstLine.pop_back();
    }
    if (std::regex_search(firstLine, tm, tensor)) {
        r.source = tm[1].str();
        r.mismatch = tm[2].str();
        if (r.mismatch == "dispatch key set")
            r.mismatch = "dispatch_keys";
        r.expected = tm[4].str();
        r.actual = tm[5].str();
        return r;
    }
    if (firstLine.find("___check_obj_id") != std::string::npos)
        r.mismatch = "id";
    else if (firstLine.find("___check_type_id") != std::string::npos)
        r.mismatch = "type";
    else if (firstLine.find("size()") != std::string::npos
        || firstLine.find("Eq(") != std::string::npos)
        r.mismatch = "shape";
    else if (size_t eq = firstLine.find(" == "); eq != std::string::npos) {
        r.mismatch = "value";
        r.expected = firstLine.substr(eq + 4); // the value the earlier compile was made for
    } else
        r.mismatch = "guard";
    static const std::regex sourceRe(
        R"(((?:L|G)\[[^\]]+\](?:\.[A-Za-z_][A-Za-z_0-9]*|\[[^\]]+\])*))");
    std::smatch sm;
    if (std::regex_search(firstLine, sm, sourceRe))
        r.source = sm[1].str();
    return r;
}

namespace {
// PyTorch strips the frame-local scope from reasons (strip_local_scope: L['x'] -> x) but not from
// the guard tree; compare both without it.
std::string withoutLocalScope(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 3, "L['") == 0) {
            size_t end = s.find("']", i + 3);
            if (end != std::string_view::npos) {
                out.append(s.substr(i + 3, end - i - 3));
                i = end + 2;
                continue;
            }
        }
        out += s[i++];
    }
    return out;
}
} // namespace

int matchGuard(const RecompileReason& reason, const GuardTree& tree)
{
    const auto& nodes = tree.nodes;
    std::string detail = reason.detail.substr(0, reason.detail.find('\n'));
    if (size_t c = detail.find("  # "); c != std::string::npos) {
        detail.resize(c);
        while (!detail.empty() && detail.back() == ' ')
            detail.pop_back();
    }
    if ((!reason.expected.empty() && reason.mismatch != "value") || reason.mismatch == "size"
        || reason.mismatch == "stride" || reason.mismatch == "dtype" || reason.mismatch == "device"
        || reason.mismatch == "requires_grad" || reason.mismatch == "rank"
        || reason.mismatch == "dispatch_keys") {
        // TENSOR_MATCH under the manager of the named source.
        for (size_t i = 0; i < nodes.size(); ++i) {
            if (nodes[i].kind != "TENSOR_MATCH")
                continue;
            std::string src = tree.sourceOf(nodes[i].parent);
            if (sameSource(reason.source, src))
                return static_cast<int>(i);
        }
        for (size_t i = 0; i < nodes.size(); ++i) {
            if (nodes[i].kind == "TENSOR_MATCH"
                && (nodes[i].expr.find("(" + reason.source + ",") != std::string::npos
                    || nodes[i].expr.find("(L['" + reason.source + "'],") != std::string::npos))
                return static_cast<int>(i);
        }
        // Older trees and JSON lists: any guard that checks the tensor.
        for (size_t i = 0; i < nodes.size(); ++i) {
            const std::string& e = nodes[i].expr;
            if (!nodes[i].isManager && e.find("check_tensor(") != std::string::npos
                && (e.find("(" + reason.source + ",") != std::string::npos
                    || e.find("L['" + reason.source + "']") != std::string::npos))
                return static_cast<int>(i);
        }
        return -1;
    }
    // The detail is the failing guard's own code: exact, then containment either way.
    for (size_t i = 0; i < nodes.size(); ++i)
        if (!nodes[i].isManager && !nodes[i].expr.empty() && nodes[i].expr == detail)
            return static_cast<int>(i);
    for (size_t i = 0; i < nodes.size(); ++i) {
        const std::string& e = nodes[i].expr;
        if (nodes[i].isManager || e.size() < 4)
            continue;
        if (e.find(detail) != std::string::npos || detail.find(e) != std::string::npos)
            return static_cast<int>(i);
    }
    const std::string bare = withoutLocalScope(detail);
    for (size_t i = 0; i < nodes.size(); ++i)
        if (!nodes[i].isManager && !nodes[i].expr.empty()
            && withoutLocalScope(nodes[i].expr) == bare)
            return static_cast<int>(i);
    return -1;
}

} // namespace dynascope
