// SHA-256 from OpenSSL's libcrypto (EVP interface, the one OpenSSL 3 keeps un-deprecated).
#include "ond/corpus_sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

#include "ond/hex.hpp"

namespace ond::corpus {

std::string sha256_hex(std::string_view bytes) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1 || len != 32)
        throw std::runtime_error("SHA-256: OpenSSL's EVP_Digest failed");
    std::string out;
    hex::append_bytes(out, md, len);
    return out;
}

}  // namespace ond::corpus
