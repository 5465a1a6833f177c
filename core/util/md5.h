// MD5 of payload text, as PyTorch writes it in `has_payload` (lowercase hex). OpenSSL does the
// hashing.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace dynascope {

std::string md5Hex(std::string_view data);

// The same digest for repeated use on one thread. OpenSSL 3 looks the algorithm up (a fetch,
// under a lock shared by all threads) and allocates a context on every md5Hex call; a hasher
// does both once, which matters to the loader's scanners, which hash every payload of a file.
class Md5Hasher {
public:
    Md5Hasher();
    ~Md5Hasher();
    Md5Hasher(const Md5Hasher&) = delete;
    Md5Hasher& operator=(const Md5Hasher&) = delete;

    // Lowercase hex of the MD5 of `data` into out[0..32); false when OpenSSL fails.
    bool hex(std::string_view data, char (&out)[32]);

private:
    struct State; // OpenSSL's types stay out of this header
    std::unique_ptr<State> m_state;
};

} // namespace dynascope
