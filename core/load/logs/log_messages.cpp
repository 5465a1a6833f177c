#include "core/load/logs/log_messages.h"

#include "core/load/finish/graph_break_text.h"
#include "core/util/trim.h"

#include <charconv>

namespace dynascope::logs {

namespace {
std::string_view trim(std::string_view s)
{
    return trimBlanks(s);
}

std::string_view firstLine(std::string_view s)
{
    return s.substr(0, s.find('\n'));
}

// Calls fn(line) for every line of s.
template <class Fn> void eachLine(std::string_view s, Fn&& fn)
{
    size_t pos = 0;
    while (pos <= s.size()) {
        const size_t nl = s.find('\n', pos);
        fn(s.substr(pos, nl == std::string_view::npos ? s.npos : nl - pos));
        if (nl == std::string_view::npos)
            break;
        pos = nl + 1;
    }
}

bool toInt(std::string_view s, int64_t& out)
{
    if (s.empty())
        return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// "FILE:LINE" at the end of `s` -> file, line.
bool splitFileLine(std::string_view s, std::string& file, int64_t& line)
{
    const size_t colon = s.rfind(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    if (!toInt(s.substr(colon + 1), line))
        return false;
    file = std::string(s.substr(0, colon));
    return true;
}
} // namespace

std::optional<CodeRef> parseCodeRef(std::string_view text)
{
    text = trim(firstLine(text));
    const size_t sp = text.find(' ');
    if (sp == std::string_view::npos || sp == 0)
        return std::nullopt;
    CodeRef ref;
    ref.name = std::string(text.substr(0, sp));
    std::string_view rest = text.substr(sp + 1);
    // "FILE:LINE" up to ", stack ..." or the end; the file may hold spaces.
    if (const size_t comma = rest.find(", stack"); comma != std::string_view::npos)
        rest = rest.substr(0, comma);
    rest = trim(rest);
    if (!splitFileLine(rest, ref.file, ref.line))
        return std::nullopt;
    return ref;
}

std::optional<Recompiling> parseRecompiling(std::string_view message)
{
    constexpr std::string_view kHead = "Recompiling function ";
    std::string_view head = trim(firstLine(message));
    if (!head.starts_with(kHead))
        return std::nullopt;
    head.remove_prefix(kHead.size());
    Recompiling r;
    // "NAME in FILE:LINE"
    const size_t in = head.find(" in ");
    if (in == std::string_view::npos)
        return std::nullopt;
    r.function.name = std::string(head.substr(0, in));
    if (!splitFileLine(trim(head.substr(in + 4)), r.function.file, r.function.line))
        r.function.file = std::string(trim(head.substr(in + 4)));
    bool first = true;
    eachLine(message, [&](std::string_view line) {
        if (first) {
            first = false;
            return;
        }
        std::string_view t = line;
        while (!t.empty() && t.front() == ' ')
            t.remove_prefix(1);
        if (!t.starts_with("- ") && t != "-")
            return; // "triggered by ...", "guard 0 failures:", blank separators
        std::string_view item = t.size() > 2 ? t.substr(2) : std::string_view();
        // A reason starts a new item unless it goes on with a user stack.
        const bool goesOn = !r.reasons.empty()
            && (item.empty() || item.front() == ' ' || item.starts_with("User stack trace:"));
        if (goesOn) {
            r.reasons.back() += '\n';
            r.reasons.back() += item;
        } else if (!item.empty()) {
            r.reasons.emplace_back(item);
        }
    });
    for (auto& reason : r.reasons)
        while (!reason.empty() && (reason.back() == ' ' || reason.back() == '\n'))
            reason.pop_back();
    return r;
}

std::optional<RecompileLimit> parseRecompileLimit(std::string_view message)
{
    constexpr std::string_view kHit = "torch._dynamo hit config.";
    std::string_view head = trim(firstLine(message));
    if (!head.starts_with(kHit))
        return std::nullopt;
    RecompileLimit out;
    out.limit = std::string(head.substr(kHit.size()));
    bool inReason = false;
    eachLine(message.substr(message.find('\n') == std::string_view::npos ? message.size()
                                                                         : message.find('\n') + 1),
        [&](std::string_view line) {
            std::string_view t = trim(line);
            if (t.starts_with("function: '")) {
                // function: 'shift' (recompile_limit.py:16)
                const size_t q = t.find('\'', 11);
                if (q == std::string_view::npos)
                    return;
                out.function.name = std::string(t.substr(11, q - 11));
                const size_t open = t.find('(', q);
                const size_t close = t.rfind(')');
                if (open != std::string_view::npos && close != std::string_view::npos
                    && close > open)
                    splitFileLine(
                        t.substr(open + 1, close - open - 1), out.function.file, out.function.line);
                inReason = false;
            } else if (t.starts_with("last reason: ")) {
                out.lastReason = std::string(t.substr(13));
                inReason = true;
            } else if (t.starts_with("To log all recompilation reasons")
                || t.starts_with("To diagnose recompilation issues")) {
                inReason = false;
            } else if (inReason) {
                out.lastReason += '\n';
                out.lastReason += line;
            }
        });
    return out;
}

std::optional<DynamoStart> parseDynamoStart(std::string_view message, StringPool& pool)
{
    constexpr std::string_view kCompiling = "torchdynamo start compiling ";
    constexpr std::string_view kTracing = "Step 1: torchdynamo start tracing ";
    std::string_view head = trim(firstLine(message));
    DynamoStart out;
    if (head.starts_with(kCompiling)) {
        out.compiling = true;
        head.remove_prefix(kCompiling.size());
    } else if (head.starts_with(kTracing)) {
        head.remove_prefix(kTracing.size());
    } else {
        return std::nullopt;
    }
    auto ref = parseCodeRef(head);
    if (!ref)
        return std::nullopt;
    out.function = *ref;
    if (out.compiling) {
        const size_t nl = message.find('\n');
        if (nl != std::string_view::npos)
            out.stack = parsePythonTraceback(message.substr(nl + 1), pool);
        StackFrame self;
        self.name = pool.intern(out.function.name);
        self.file = pool.intern(out.function.file);
        self.line = out.function.line;
        out.stack.push_back(std::move(self));
    }
    return out;
}

Stack parseUserLocation(std::string_view sloc, StringPool& pool)
{
    Stack out;
    sloc = trim(sloc);
    // "CODE  # FILE:LINE in FN (FRAMEWORK)"; the code may hold "  # " itself, so the last one.
    const size_t hash = sloc.rfind("  # ");
    if (hash == std::string_view::npos)
        return out;
    std::string_view where = sloc.substr(hash + 4);
    // Drop " (FRAMEWORK)" at the end.
    if (!where.empty() && where.back() == ')') {
        const size_t open = where.rfind(" (");
        if (open != std::string_view::npos)
            where = where.substr(0, open);
    }
    const size_t in = where.find(" in ");
    if (in == std::string_view::npos)
        return out;
    StackFrame f;
    std::string file;
    if (!splitFileLine(where.substr(0, in), file, f.line))
        return out;
    f.name = pool.intern(trim(where.substr(in + 4)));
    f.file = pool.intern(file);
    f.loc = pool.intern(trim(sloc.substr(0, hash)));
    out.push_back(std::move(f));
    return out;
}

namespace {
// The SLoc part of a dynamic message: from `start` to ", for more info run with" (or the end).
std::string_view slocPart(std::string_view line, size_t start)
{
    if (start >= line.size())
        return {};
    std::string_view s = line.substr(start);
    if (const size_t more = s.find(", for more info run with"); more != std::string_view::npos)
        s = s.substr(0, more);
    return s;
}

std::optional<ShapeEvent> shapeEventOf(std::string_view line, StringPool& pool)
{
    line = trim(line);
    ShapeEvent ev;
    if (line.starts_with("create_symbol ")) {
        // create_symbol SYM = VAL for SOURCE [LO, HI] SLOC
        std::string_view rest = line.substr(14);
        const size_t eq = rest.find(" = ");
        const size_t forAt = rest.find(" for ");
        if (eq == std::string_view::npos || forAt == std::string_view::npos || forAt < eq)
            return std::nullopt; // "create_symbol s0 duck sized L['x'].size()[1]"
        ev.kind = "create_symbol";
        ev.expr = std::string(rest.substr(0, eq));
        ev.value = std::string(rest.substr(eq + 3, forAt - eq - 3));
        std::string_view after = rest.substr(forAt + 5);
        // The source ends at " [" of the value range.
        const size_t range = after.find(" [");
        ev.sources = std::string(after.substr(0, range));
        if (range != std::string_view::npos) {
            const size_t rangeEnd = after.find(']', range);
            if (rangeEnd != std::string_view::npos)
                ev.userStack = parseUserLocation(slocPart(after, rangeEnd + 1), pool);
        }
        return ev;
    }
    if (line.starts_with("create_unbacked_sym")) {
        // create_unbacked_symbol u0 [-int_oo, int_oo] SLOC
        const size_t sp = line.find(' ');
        std::string_view rest = sp == std::string_view::npos ? "" : line.substr(sp + 1);
        ev.kind = "create_unbacked_symbol";
        ev.expr = std::string(rest.substr(0, rest.find(' ')));
        const size_t rangeEnd = rest.find(']');
        if (rangeEnd != std::string_view::npos)
            ev.userStack = parseUserLocation(slocPart(rest, rangeEnd + 1), pool);
        return ev;
    }
    constexpr std::string_view kAdded = " [guard added]";
    if (const size_t added = line.find(kAdded); added != std::string_view::npos
        && (line.starts_with("eval ") || line.starts_with("runtime_assert "))) {
        // eval EXPR [guard added] SLOC; "eval (forcing_spec) EXPR ..."
        std::string_view expr = line.substr(line.find(' ') + 1, added - line.find(' ') - 1);
        if (expr.starts_with("(forcing_spec) "))
            expr.remove_prefix(15);
        ev.kind = "guard_added";
        ev.expr = std::string(trim(expr));
        ev.userStack = parseUserLocation(slocPart(line, added + kAdded.size()), pool);
        return ev;
    }
    if (line.starts_with("set_replacement ")) {
        // set_replacement SYM = TGT (MSG) VR[...]: a specialisation when TGT is a number.
        std::string_view rest = line.substr(16);
        const size_t eq = rest.find(" = ");
        if (eq == std::string_view::npos)
            return std::nullopt;
        std::string_view target = rest.substr(eq + 3);
        const size_t open = target.find(" (");
        std::string_view value = target.substr(0, open);
        const bool number
            = !value.empty() && value.find_first_not_of("-+.0123456789e") == std::string_view::npos;
        if (!number)
            return std::nullopt;
        ev.kind = "symbolic_shape_specialization";
        ev.expr = std::string(rest.substr(0, eq));
        ev.value = std::string(value);
        if (open != std::string_view::npos) {
            const size_t close = target.find(')', open);
            if (close != std::string_view::npos)
                ev.reason = std::string(target.substr(open + 2, close - open - 2));
        }
        return ev;
    }
    return std::nullopt;
}
} // namespace

std::vector<ShapeEvent> parseShapeEvents(std::string_view message, StringPool& pool)
{
    std::vector<ShapeEvent> out;
    eachLine(message, [&](std::string_view line) {
        if (auto ev = shapeEventOf(line, pool))
            out.push_back(std::move(*ev));
    });
    return out;
}

std::vector<std::string_view> splitGraphBreaks(std::string_view message)
{
    std::vector<std::string_view> out;
    size_t start = 0, pos = 0;
    bool any = false;
    while (pos <= message.size()) {
        const size_t nl = message.find('\n', pos);
        const std::string_view line
            = message.substr(pos, nl == std::string_view::npos ? message.npos : nl - pos);
        if (line.starts_with("Graph break")) {
            if (any && pos > start)
                out.push_back(message.substr(start, pos - 1 - start));
            start = pos;
            any = true;
        }
        if (nl == std::string_view::npos)
            break;
        pos = nl + 1;
    }
    if (start < message.size() || !any)
        out.push_back(message.substr(start));
    return out;
}

} // namespace dynascope::logs
