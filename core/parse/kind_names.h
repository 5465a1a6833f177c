// KindNames: interns record kinds into Trace::kindNames with a hash map (one lookup per record,
// no std::string made for a kind already seen). Record::kind is 16 bits: the first
// kMaxDistinctKinds kinds get ids of their own and every later one shares the id after them,
// named kOtherKinds, so a file of millions of invented kinds is neither quadratic nor
// mislabelled as some real kind, and the table stays bounded.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dynascope {

inline constexpr size_t kMaxDistinctKinds = 0xfffe; // ids 0 .. 0xfffd
inline constexpr uint16_t kOtherKindsId = 0xfffe;
inline constexpr std::string_view kOtherKinds = "(other kinds)";

class KindNames {
public:
    // Indexes the names already in `names`, which must outlive this object.
    explicit KindNames(std::vector<std::string>& names);
    uint16_t intern(std::string_view kind);

private:
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    std::vector<std::string>& m_names;
    std::unordered_map<std::string, uint16_t, StringHash, std::equal_to<>> m_ids;
};

} // namespace dynascope
