// SHA-256 from OpenSSL's libcrypto (EVP interface, the one OpenSSL 3 keeps un-deprecated).
#include "ond/corpus_sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace ond::corpus {

std::string sha256_hex(std::string_view bytes) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1 || len != 32)
        throw std::runtime_error("SHA-256: OpenSSL's EVP_Digest failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(2 * len, '\0');
    for (unsigned int i = 0; i < len; ++i) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 0xF];
    }
    return out;
}

}  // namespace ond::corpus
