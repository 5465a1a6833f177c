#include "core/util/md5.h"

#include <openssl/evp.h>

namespace dynascope {

namespace {
void toHex(const unsigned char* digest, unsigned int length, char* out)
{
    static const char hex[] = "0123456789abcdef";
    for (unsigned int i = 0; i < length; ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
}
} // namespace

std::string md5Hex(std::string_view data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_md5(), nullptr) != 1)
        return {};
    std::string out(length * 2, '0');
    toHex(digest, length, out.data());
    return out;
}

struct Md5Hasher::State {
    EVP_MD* md = EVP_MD_fetch(nullptr, "MD5", nullptr);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~State()
    {
        EVP_MD_CTX_free(ctx);
        EVP_MD_free(md);
    }
};

Md5Hasher::Md5Hasher()
    : m_state(std::make_unique<State>())
{
}

Md5Hasher::~Md5Hasher() = default;

bool Md5Hasher::hex(std::string_view data, char (&out)[32])
{
    State& s = *m_state;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!s.md || !s.ctx || EVP_DigestInit_ex(s.ctx, s.md, nullptr) != 1
        || EVP_DigestUpdate(s.ctx, data.data(), data.size()) != 1
        || EVP_DigestFinal_ex(s.ctx, digest, &length) != 1 || length != 16)
        return false;
    toHex(digest, length, out);
    return true;
}

} // namespace dynascope
