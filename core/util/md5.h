// MD5 of payload text, as PyTorch writes it in `has_payload` (lowercase hex). OpenSSL does the
// hashing.
#pragma once

#include <string>
#include <string_view>

namespace dynascope {

std::string md5Hex(std::string_view data);

} // namespace dynascope
