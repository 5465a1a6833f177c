#include "core/export/redactor.h"

#include <algorithm>
#include <regex>

namespace dynascope {

namespace {
bool identChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool pathChar(char c)
{
    return identChar(c) || c == '.' || c == '-' || c == '+' || c == '@' || c == '~' || c == '%'
        || c == '=' || c == '#' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}

std::string_view baseNameOf(std::string_view path)
{
    size_t slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string extensionOf(std::string_view path)
{
    std::string_view base = baseNameOf(path);
    size_t dot = base.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || base.size() - dot > 6)
        return {};
    std::string ext(base.substr(dot));
    bool plain = std::all_of(ext.begin() + 1, ext.end(), identChar);
    return plain ? ext : std::string();
}

bool isIdentifier(std::string_view s)
{
    return !s.empty() && !(s[0] >= '0' && s[0] <= '9')
        && std::all_of(s.begin(), s.end(), identChar);
}

constexpr std::string_view kResume = "torch_dynamo_resume_in_";
} // namespace

std::string Redactor::pathPlaceholder(std::string_view path)
{
    auto it = m_paths.find(path);
    if (it != m_paths.end())
        return it->second;
    std::string placeholder = "/redacted/file" + std::to_string(m_nextFile++) + extensionOf(path);
    m_paths.emplace(std::string(path), placeholder);
    std::string_view base = baseNameOf(path);
    // Base names are replaced on their own too ("train.py:38" in a message), when distinctive.
    if (base.size() >= 4 && base.find('.') != std::string_view::npos && !m_baseNames.contains(base))
        m_baseNames.emplace(std::string(base), std::string(baseNameOf(placeholder)));
    m_orderDirty = true;
    return placeholder;
}

void Redactor::addPath(std::string_view path)
{
    if (path.empty() || path.starts_with("/redacted/") || path.starts_with("(unknown file #"))
        return;
    pathPlaceholder(path);
}

std::string Redactor::functionPlaceholder(std::string_view name)
{
    auto it = m_functions.find(name);
    if (it != m_functions.end())
        return it->second;
    std::string placeholder;
    if (name.starts_with(kResume)) {
        std::string_view rest = name.substr(kResume.size());
        size_t at = rest.rfind("_at_");
        if (at != std::string_view::npos) {
            std::string inner = functionPlaceholder(rest.substr(0, at));
            placeholder = std::string(kResume) + inner + std::string(rest.substr(at));
        }
    }
    if (placeholder.empty())
        placeholder = "fn" + std::to_string(m_nextFunction++);
    m_functions.emplace(std::string(name), placeholder);
    return placeholder;
}

void Redactor::addFunction(std::string_view name)
{
    if (!isIdentifier(name) || (name.starts_with("__") && name.ends_with("__")))
        return; // <module>, <lambda>, dunders: not identifying
    if (name.size() > 2 && name[0] == 'f' && name[1] == 'n'
        && std::all_of(name.begin() + 2, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return; // already a placeholder
    functionPlaceholder(name);
}

void Redactor::learnFromText(std::string_view text)
{
    if (text.find("File \"") == std::string_view::npos)
        return;
    static const std::regex frame(R"re(File "([^"\n]+)", line \d+, in ([A-Za-z_][A-Za-z0-9_]*))re");
    std::string s(text);
    for (auto it = std::sregex_iterator(s.begin(), s.end(), frame); it != std::sregex_iterator();
         ++it) {
        addPath((*it)[1].str());
        addFunction((*it)[2].str());
    }
}

void Redactor::rebuildPathOrder()
{
    if (!m_orderDirty)
        return;
    m_pathOrder.clear();
    for (const auto& [p, _] : m_paths)
        m_pathOrder.push_back(p);
    std::stable_sort(m_pathOrder.begin(), m_pathOrder.end(),
        [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    m_orderDirty = false;
}

std::string Redactor::redactPaths(std::string_view input)
{
    rebuildPathOrder();
    std::string s(input);
    // Known paths, longest first, where they stand as a whole: not inside a longer name or
    // number (a trace may call a file "3"; the 3 in a glog prefix's date must stay).
    for (const std::string& p : m_pathOrder) {
        if (s.find(p) == std::string::npos)
            continue;
        const std::string& to = m_paths.at(p);
        if (p.find_first_of("/\\.") == std::string::npos) {
            // Not shaped like a path ("3", "x"): only a value that is exactly it is replaced, or
            // every line number and word in the text would be.
            if (s == p)
                s = to;
            continue;
        }
        std::string out;
        size_t pos = 0, from = 0;
        for (size_t hit; (hit = s.find(p, from)) != std::string::npos;) {
            const size_t end = hit + p.size();
            const bool whole = (hit == 0 || !pathChar(s[hit - 1]) || !pathChar(p.front()))
                && (end == s.size() || !pathChar(s[end]) || !pathChar(p.back()));
            if (!whole) {
                from = hit + 1;
                continue;
            }
            out.append(s, pos, hit - pos).append(to);
            pos = from = end;
        }
        out.append(s, pos);
        s = std::move(out);
    }
    // Any other absolute path: '/' at a boundary, then two or more components.
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        bool boundary = i == 0 || !(pathChar(s[i - 1]) || s[i - 1] == '/' || s[i - 1] == '\\');
        bool posix = s[i] == '/' && boundary;
        bool windows = boundary && i + 2 < s.size()
            && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')) && s[i + 1] == ':'
            && (s[i + 2] == '\\' || s[i + 2] == '/');
        if (posix || windows) {
            size_t j = windows ? i + 2 : i;
            int components = 0;
            while (j < s.size() && (s[j] == '/' || s[j] == '\\')) {
                size_t k = j + 1;
                while (k < s.size() && pathChar(s[k]))
                    ++k;
                if (k == j + 1)
                    break;
                ++components;
                j = k;
            }
            std::string_view candidate(s.data() + i, j - i);
            if (components >= 2 && !candidate.starts_with("/redacted/")) {
                out += pathPlaceholder(candidate);
                i = j;
                continue;
            }
            if (candidate.starts_with("/redacted/")) {
                out.append(candidate);
                i = j;
                continue;
            }
        }
        out += s[i++];
    }
    s = std::move(out);
    // Base names of known paths standing on their own.
    for (const auto& [base, to] : m_baseNames) {
        std::string next;
        size_t pos = 0;
        for (size_t hit; (hit = s.find(base, pos)) != std::string::npos;) {
            bool left = hit == 0 || !(pathChar(s[hit - 1]) || s[hit - 1] == '/');
            size_t end = hit + base.size();
            bool right = end >= s.size() || !(identChar(s[end]) || s[end] == '.' || s[end] == '-');
            next.append(s, pos, hit - pos);
            next.append(left && right ? to : base);
            pos = end;
        }
        next.append(s, pos);
        s = std::move(next);
    }
    return s;
}

std::string Redactor::redact(std::string_view input)
{
    std::string s = redactPaths(input);
    if (m_functions.empty())
        return s;
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (identChar(s[i]) && (i == 0 || !identChar(s[i - 1]))) {
            size_t j = i;
            while (j < s.size() && identChar(s[j]))
                ++j;
            std::string_view token(s.data() + i, j - i);
            auto it = m_functions.find(token);
            out.append(it != m_functions.end() ? std::string_view(it->second) : token);
            i = j;
            continue;
        }
        out += s[i++];
    }
    return out;
}

} // namespace dynascope
