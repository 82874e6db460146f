// SPDX-License-Identifier: Apache-2.0
// credentials: client-go's transport order (transport/round_trippers.go, plugin/pkg/client/auth/exec):
// a token file's content wins over a static token while it is readable, basic auth, the client certificate,
// and the exec plugin only when none of those is configured (exec.go UpdateTransportConfig).
#include "kube/credentials.hpp"

#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <system_error>

namespace kpw::kube {
namespace {

constexpr std::uintmax_t max_token_file_bytes = 1u << 20;

std::string base64_encode(std::string_view data)
{
    std::string out(4 * ((data.size() + 2) / 3), '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::string trim(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    return std::string(s);
}

// transport/token_source.go fileTokenSource: the file's content, whitespace trimmed; empty is an error.
result<std::string> read_token_file(const std::string& path)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return failure{"token file " + path + ": " + ec.message(), {}};
    if (size > max_token_file_bytes)
        return failure{"token file " + path + ": larger than 1 MiB", {}};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return failure{"token file " + path + ": cannot be opened", {}};
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    std::string token = trim(text);
    if (token.empty())
        return failure{"token file " + path + ": empty", {}};
    return token;
}

} // namespace

struct credentials::impl {
    rest_config config;
    std::mutex mutex;
    std::optional<std::string> file_token; // the token file's content, until invalidate()

    bool has_token_auth() const { return !config.token.empty() || !config.token_file.empty(); }
    bool has_basic_auth() const { return !config.username.empty() || !config.password.empty(); }
    bool has_cert_auth() const { return !config.client_cert_pem.empty() && !config.client_key_pem.empty(); }

    // NewBearerAuthWithRefreshRoundTripper: the file's token when it can be read, else the static token;
    // a token file alone that cannot be read is an error.
    result<std::string> bearer()
    {
        if (!config.token_file.empty()) {
            if (!file_token) {
                auto t = read_token_file(config.token_file);
                if (t)
                    file_token = std::move(t.value());
                else if (config.token.empty())
                    return failure{t.error().message + " (" + config.identity() + ")", {}};
            }
            if (file_token)
                return "Bearer " + *file_token;
        }
        return "Bearer " + config.token;
    }
};

credentials::credentials(const rest_config& config) : impl_(std::make_unique<impl>())
{
    impl_->config = config;
}

credentials::~credentials() = default;

result<std::string> credentials::authorization()
{
    std::lock_guard lock(impl_->mutex);
    if (impl_->has_token_auth())
        return impl_->bearer();
    if (impl_->has_basic_auth())
        return "Basic " + base64_encode(impl_->config.username + ":" + impl_->config.password);
    return std::string();
}

result<std::optional<client_certificate>> credentials::certificate()
{
    std::lock_guard lock(impl_->mutex);
    if (impl_->has_cert_auth())
        return std::optional<client_certificate>(client_certificate{impl_->config.client_cert_pem, impl_->config.client_key_pem});
    return std::optional<client_certificate>();
}

bool credentials::invalidate()
{
    std::lock_guard lock(impl_->mutex);
    if (!impl_->config.token_file.empty()) {
        impl_->file_token.reset();
        return true;
    }
    return false;
}

} // namespace kpw::kube
