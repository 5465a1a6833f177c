#include "core/util/md5.h"

#include <openssl/evp.h>

namespace dynascope {

std::string md5Hex(std::string_view data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_md5(), nullptr) != 1)
        return {};
    static const char hex[] = "0123456789abcdef";
    std::string out(length * 2, '0');
    for (unsigned int i = 0; i < length; ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    return out;
}

} // namespace dynascope
