// SPDX-License-Identifier: Apache-2.0
// RAII owners for the OpenSSL objects the certs library builds.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "base/result.hpp"
#include "certs/openssl_error.hpp"

namespace kpw::certs::detail {

template <auto Free>
struct free_with {
    template <class T>
    void operator()(T* p) const noexcept
    {
        Free(p);
    }
};

using bio_ptr = std::unique_ptr<BIO, free_with<BIO_free_all>>;
using bignum_ptr = std::unique_ptr<BIGNUM, free_with<BN_free>>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, free_with<EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, free_with<X509_free>>;
using extension_ptr = std::unique_ptr<X509_EXTENSION, free_with<X509_EXTENSION_free>>;
using general_names_ptr = std::unique_ptr<GENERAL_NAMES, free_with<GENERAL_NAMES_free>>;
using general_name_ptr = std::unique_ptr<GENERAL_NAME, free_with<GENERAL_NAME_free>>;

using certs::openssl_error;

// The BIO's memory contents as a string.
std::string bio_text(BIO* bio);

// A fresh EC P-256 or RSA key.
result<pkey_ptr> make_key(bool rsa, int rsa_bits);

// PEM encodings (key as unencrypted PKCS#8).
std::string key_pem(EVP_PKEY* key);
std::string cert_pem(X509* cert);

// PEM decoding; failures say which input was bad.
result<x509_ptr> read_cert(std::string_view pem);
result<pkey_ptr> read_key(std::string_view pem);

} // namespace kpw::certs::detail
