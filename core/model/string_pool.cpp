#include "core/model/string_pool.h"

namespace dynascope {

std::string_view StringPool::intern(std::string_view s)
{
    if (s.empty())
        return {};
    if (auto it = m_strings.find(s); it != m_strings.end())
        return *it;
    return *m_strings.emplace(s).first; // node-based: the string never moves
}

size_t StringPool::bytes() const
{
    size_t n = 0;
    for (const std::string& s : m_strings)
        n += s.capacity() > 15 ? s.capacity() + 1 : 0;
    return n;
}

} // namespace dynascope
