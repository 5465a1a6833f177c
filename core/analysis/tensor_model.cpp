#include "core/analysis/tensor_model.h"

#include "core/util/trim.h"

#include <string_view>

namespace dynascope {

std::vector<std::string> dispatchKeyNames(const std::string& keySet)
{
    std::string_view s = keySet;
    const size_t open = s.find('(');
    const size_t close = s.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return {};
    return splitTrimmed(s.substr(open + 1, close - open - 1));
}

} // namespace dynascope
