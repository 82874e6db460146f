// SPDX-License-Identifier: Apache-2.0
// Key generation and PEM encoding/decoding for the certs library.
#include "openssl_handles.hpp"

#include <cstddef>

#include <openssl/pem.h>

namespace kpw::certs::detail {

std::string bio_text(BIO* bio)
{
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

result<pkey_ptr> make_key(bool rsa, int rsa_bits)
{
    pkey_ptr key(rsa ? EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(rsa_bits))
                     : EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    if (!key)
        return failure{openssl_error(rsa ? "generating an RSA key" : "generating an EC P-256 key"), {}};
    return key;
}

std::string key_pem(EVP_PKEY* key)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    return bio_text(bio.get());
}

std::string cert_pem(X509* cert)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1)
        return {};
    return bio_text(bio.get());
}

result<x509_ptr> read_cert(std::string_view pem)
{
    bio_ptr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    x509_ptr cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!cert)
        return failure{openssl_error("reading the CA certificate PEM"), {}};
    return cert;
}

result<pkey_ptr> read_key(std::string_view pem)
{
    bio_ptr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    pkey_ptr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!key)
        return failure{openssl_error("reading the CA private key PEM"), {}};
    return key;
}

} // namespace kpw::certs::detail
