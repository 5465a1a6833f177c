#include "core/model/compile_id.h"

#include <charconv>

namespace dynascope {

std::string CompileId::key() const
{
    std::string s;
    if (compiledAutograd)
        s += "!" + std::to_string(*compiledAutograd) + "/";
    s += frame ? std::to_string(*frame) : std::string("-");
    s += "/";
    s += frameCompile ? std::to_string(*frameCompile) : std::string("-");
    return s;
}

std::string CompileId::display() const
{
    if (empty())
        return "[-]";
    std::string s = "[" + key();
    if (attempt != 0)
        s += "_" + std::to_string(attempt);
    return s + "]";
}

namespace {
bool parseInt(std::string_view t, int64_t& out)
{
    if (t.empty())
        return false;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && p == t.data() + t.size();
}
} // namespace

std::optional<CompileId> CompileId::parse(std::string_view t)
{
    while (!t.empty() && (t.front() == ' ' || t.front() == '['))
        t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == ']'))
        t.remove_suffix(1);
    CompileId id;
    if (!t.empty() && t.front() == '!') {
        auto slash = t.find('/');
        if (slash == std::string_view::npos)
            return std::nullopt;
        int64_t ca = 0;
        if (!parseInt(t.substr(1, slash - 1), ca))
            return std::nullopt;
        id.compiledAutograd = ca;
        t.remove_prefix(slash + 1);
    }
    auto slash = t.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    std::string_view frame = t.substr(0, slash);
    std::string_view rest = t.substr(slash + 1);
    std::string_view fcid = rest;
    auto us = rest.find('_');
    if (us != std::string_view::npos) {
        fcid = rest.substr(0, us);
        if (!parseInt(rest.substr(us + 1), id.attempt))
            return std::nullopt;
    }
    int64_t v = 0;
    if (frame != "-") {
        if (!parseInt(frame, v))
            return std::nullopt;
        id.frame = v;
    }
    if (fcid != "-") {
        if (!parseInt(fcid, v))
            return std::nullopt;
        id.frameCompile = v;
    }
    return id;
}

} // namespace dynascope
