// SPDX-License-Identifier: Apache-2.0
// Building and signing X.509 certificates: the self-signed CA and the SAN-bearing serving leaf.
#include "certs/certs.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

#include "openssl_handles.hpp"

namespace kpw::certs {
namespace {

using namespace detail;

constexpr long clock_skew_seconds = 3600; // notBefore in the past: tolerate skewed node clocks

std::string check_key_spec(const key_spec& k)
{
    if (k.algorithm == key_algorithm::rsa && (k.rsa_bits < 2048 || k.rsa_bits > 8192))
        return "rsa key size must be between 2048 and 8192 bits";
    return {};
}

std::string check_days(int days)
{
    return days >= 1 && days <= 36500 ? std::string() : "validity must be between 1 and 36500 days";
}

// RFC 1123 labels, optionally a leading "*." wildcard; what Go's x509 accepts in a DNS SAN.
bool is_dns_name(std::string_view name)
{
    if (name.starts_with("*."))
        name.remove_prefix(2);
    if (name.empty() || name.size() > 253 || name.front() == '.' || name.back() == '.')
        return false;
    std::size_t label = 0;
    for (char c : name) {
        if (c == '.') {
            if (label == 0)
                return false;
            label = 0;
            continue;
        }
        const auto u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '-') || ++label > 63)
            return false;
    }
    return true;
}

bool is_ip_address(const std::string& text)
{
    unsigned char buf[16];
    return inet_pton(AF_INET, text.c_str(), buf) == 1 || inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

std::string check_serving(const serving_options& o)
{
    if (o.dns_names.empty() && o.ip_addresses.empty())
        return "a serving certificate needs at least one DNS name or IP address";
    for (const auto& n : o.dns_names)
        if (!is_dns_name(n))
            return "invalid DNS name \"" + n + "\"";
    for (const auto& ip : o.ip_addresses)
        if (!is_ip_address(ip))
            return "invalid IP address \"" + ip + "\"";
    if (auto e = check_days(o.validity_days); !e.empty())
        return e;
    return check_key_spec(o.key);
}

// Version 3, random 127-bit serial, validity window, subject CN, public key.
result<x509_ptr> new_certificate(const std::string& cn, int days, EVP_PKEY* key)
{
    x509_ptr cert(X509_new());
    bignum_ptr serial(BN_new());
    if (!cert || !serial || X509_set_version(cert.get(), X509_VERSION_3) != 1 ||
        BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
        !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) ||
        !X509_gmtime_adj(X509_getm_notBefore(cert.get()), -clock_skew_seconds) ||
        !X509_time_adj_ex(X509_getm_notAfter(cert.get()), days, 0, nullptr) ||
        X509_set_pubkey(cert.get(), key) != 1)
        return failure{openssl_error("creating a certificate"), {}};
    X509_NAME* name = X509_get_subject_name(cert.get());
    if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()),
                                   -1, -1, 0) != 1)
        return failure{openssl_error("setting the subject common name"), {}};
    return cert;
}

// A new key of `spec` and a certificate for it: the part of a CA and a leaf that is the same.
struct keyed_certificate {
    pkey_ptr key;
    x509_ptr cert;
};

result<keyed_certificate> new_keyed_certificate(const std::string& cn, int days, const key_spec& spec)
{
    auto key = make_key(spec.algorithm == key_algorithm::rsa, spec.rsa_bits);
    if (!key)
        return key.error();
    auto cert = new_certificate(cn, days, key->get());
    if (!cert)
        return cert.error();
    return keyed_certificate{std::move(*key), std::move(*cert)};
}

// Adds extensions given in openssl.cnf syntax (constant strings only; SANs are built directly).
bool add_extensions(X509* cert, X509* issuer, std::initializer_list<std::pair<int, const char*>> exts)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    for (const auto& [nid, text] : exts) {
        extension_ptr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, text));
        if (!ext || X509_add_ext(cert, ext.get(), -1) != 1)
            return false;
    }
    return true;
}

bool push_name(GENERAL_NAMES* names, int type, ASN1_STRING* value)
{
    general_name_ptr gn(GENERAL_NAME_new());
    if (!gn || !value) {
        ASN1_STRING_free(value);
        return false;
    }
    GENERAL_NAME_set0_value(gn.get(), type, value);
    if (sk_GENERAL_NAME_push(names, gn.get()) == 0)
        return false;
    gn.release(); // now owned by the stack
    return true;
}

ASN1_STRING* ia5(const std::string& s)
{
    ASN1_IA5STRING* str = ASN1_IA5STRING_new();
    if (str && ASN1_STRING_set(str, s.data(), static_cast<int>(s.size())) != 1) {
        ASN1_IA5STRING_free(str);
        return nullptr;
    }
    return str;
}

bool add_subject_alt_names(X509* cert, const serving_options& o)
{
    general_names_ptr names(sk_GENERAL_NAME_new_null());
    if (!names)
        return false;
    for (const auto& n : o.dns_names)
        if (!push_name(names.get(), GEN_DNS, ia5(n)))
            return false;
    for (const auto& ip : o.ip_addresses)
        if (!push_name(names.get(), GEN_IPADD, a2i_IPADDRESS(ip.c_str())))
            return false;
    return X509_add1_ext_i2d(cert, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) == 1;
}

result<key_pair> finish(X509* cert, EVP_PKEY* signer, EVP_PKEY* key, const char* what)
{
    if (X509_sign(cert, signer, EVP_sha256()) <= 0)
        return failure{openssl_error(std::string("signing the ") + what), {}};
    key_pair out{cert_pem(cert), key_pem(key)};
    if (out.crt.empty() || out.key.empty())
        return failure{openssl_error(std::string("encoding the ") + what), {}};
    return out;
}

} // namespace

result<key_pair> make_authority(const authority_options& o)
{
    if (auto e = check_days(o.validity_days); !e.empty())
        return failure{std::move(e), {}};
    if (auto e = check_key_spec(o.key); !e.empty())
        return failure{std::move(e), {}};
    auto made = new_keyed_certificate(o.common_name, o.validity_days, o.key);
    if (!made)
        return made.error();
    X509* x = made->cert.get();
    if (X509_set_issuer_name(x, X509_get_subject_name(x)) != 1 ||
        !add_extensions(x, x,
                        {{NID_basic_constraints, "critical,CA:TRUE,pathlen:0"},
                         {NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"},
                         {NID_subject_key_identifier, "hash"},
                         {NID_authority_key_identifier, "keyid:always"}}))
        return failure{openssl_error("adding the CA extensions"), {}};
    return finish(x, made->key.get(), made->key.get(), "CA certificate");
}

result<key_pair> issue_serving(const key_pair& authority, const serving_options& o)
{
    if (auto e = check_serving(o); !e.empty())
        return failure{std::move(e), {}};
    auto ca_cert = read_cert(authority.crt);
    if (!ca_cert)
        return ca_cert.error();
    auto ca_key = read_key(authority.key);
    if (!ca_key)
        return ca_key.error();
    if (X509_check_private_key(ca_cert->get(), ca_key->get()) != 1)
        return failure{openssl_error("the CA key does not match the CA certificate"), {}};
    auto made = new_keyed_certificate(o.common_name, o.validity_days, o.key);
    if (!made)
        return made.error();
    X509* x = made->cert.get();
    // RSA key exchange (TLS 1.2 RSA suites) needs keyEncipherment; ECDSA only signs.
    const char* usage = o.key.algorithm == key_algorithm::rsa ? "critical,digitalSignature,keyEncipherment"
                                                              : "critical,digitalSignature";
    if (X509_set_issuer_name(x, X509_get_subject_name(ca_cert->get())) != 1 ||
        !add_extensions(x, ca_cert->get(),
                        {{NID_basic_constraints, "critical,CA:FALSE"},
                         {NID_key_usage, usage},
                         {NID_ext_key_usage, "serverAuth"},
                         {NID_subject_key_identifier, "hash"},
                         {NID_authority_key_identifier, "keyid:always"}}) ||
        !add_subject_alt_names(x, o))
        return failure{openssl_error("adding the serving certificate extensions"), {}};
    return finish(x, ca_key->get(), made->key.get(), "serving certificate");
}

result<bundle> generate(const authority_options& authority, const serving_options& serving)
{
    if (auto e = check_serving(serving); !e.empty())
        return failure{std::move(e), {}};
    auto ca = make_authority(authority);
    if (!ca)
        return ca.error();
    auto leaf = issue_serving(*ca, serving);
    if (!leaf)
        return leaf.error();
    return bundle{std::move(ca->crt), std::move(ca->key), std::move(leaf->crt), std::move(leaf->key)};
}

std::vector<std::string> service_dns_names(std::string_view service, std::string_view ns,
                                           std::string_view cluster_domain)
{
    const std::string base = std::string(service) + "." + std::string(ns);
    std::vector<std::string> out{std::string(service), base, base + ".svc"};
    if (!cluster_domain.empty())
        out.push_back(base + ".svc." + std::string(cluster_domain));
    return out;
}

} // namespace kpw::certs
