#include "core/model/string_pool.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace dynascope {

std::string_view StringPool::intern(std::string_view s)
{
    if (s.empty())
        return {};
    if (auto it = m_strings.find(s); it != m_strings.end())
        return *it;
    return *m_strings.emplace(s).first; // node-based: the string never moves
}

namespace {
uint32_t lengthAt(const char* p)
{
    uint32_t n;
    std::memcpy(&n, p, sizeof n);
    return n;
}
} // namespace

std::string_view PooledPair::first() const
{
    return m_data ? std::string_view(m_data + 8, lengthAt(m_data)) : std::string_view();
}

std::string_view PooledPair::second() const
{
    return m_data ? std::string_view(m_data + 8 + lengthAt(m_data), lengthAt(m_data + 4))
                  : std::string_view();
}

PooledPair StringPool::internPair(std::string_view first, std::string_view second)
{
    const auto a = static_cast<uint32_t>(std::min<size_t>(first.size(), UINT32_MAX));
    const auto b = static_cast<uint32_t>(std::min<size_t>(second.size(), UINT32_MAX));
    std::string key(8 + size_t { a } + b, '\0');
    std::memcpy(key.data(), &a, 4);
    std::memcpy(key.data() + 4, &b, 4);
    std::memcpy(key.data() + 8, first.data(), a);
    std::memcpy(key.data() + 8 + a, second.data(), b);
    auto it = m_strings.find(key);
    if (it == m_strings.end())
        it = m_strings.emplace(std::move(key)).first; // node-based: the string never moves
    return PooledPair(it->data());
}

size_t StringPool::bytes() const
{
    size_t n = 0;
    for (const std::string& s : m_strings)
        n += s.capacity() > 15 ? s.capacity() + 1 : 0;
    return n;
}

} // namespace dynascope
