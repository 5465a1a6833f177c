#include "core/parse/kind_names.h"

namespace dynascope {

KindNames::KindNames(std::vector<std::string>& names)
    : m_names(names)
{
    m_ids.reserve(names.size());
    for (size_t i = 0; i < names.size() && i <= kOtherKindsId; ++i)
        m_ids.emplace(names[i], static_cast<uint16_t>(i));
}

uint16_t KindNames::intern(std::string_view kind)
{
    if (auto it = m_ids.find(kind); it != m_ids.end())
        return it->second;
    if (m_names.size() < kMaxDistinctKinds) {
        const auto id = static_cast<uint16_t>(m_names.size());
        m_names.emplace_back(kind);
        m_ids.emplace(std::string(kind), id);
        return id;
    }
    // Past the cap: the shared id, named once; the kind itself is not stored.
    if (m_names.size() == kMaxDistinctKinds) {
        m_names.emplace_back(kOtherKinds);
        m_ids.emplace(std::string(kOtherKinds), kOtherKindsId);
    }
    return kOtherKindsId;
}

} // namespace dynascope
