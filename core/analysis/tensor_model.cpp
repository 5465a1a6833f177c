#include "core/analysis/tensor_model.h"

#include <string_view>

namespace dynascope {

std::vector<std::string> dispatchKeyNames(const std::string& keySet)
{
    std::string_view s = keySet;
    const size_t open = s.find('(');
    const size_t close = s.rfind(')');
    std::vector<std::string> out;
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return out;
    s = s.substr(open + 1, close - open - 1);
    while (!s.empty()) {
        const size_t comma = s.find(',');
        std::string_view k = s.substr(0, comma);
        while (!k.empty() && k.front() == ' ')
            k.remove_prefix(1);
        while (!k.empty() && k.back() == ' ')
            k.remove_suffix(1);
        if (!k.empty())
            out.emplace_back(k);
        if (comma == std::string_view::npos)
            break;
        s.remove_prefix(comma + 1);
    }
    return out;
}

} // namespace dynascope
