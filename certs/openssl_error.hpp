// SPDX-License-Identifier: Apache-2.0
// OpenSSL's thread-local error queue as one message, for the certs library and serve's TLS setup.
#pragma once

#include <string>
#include <string_view>

namespace kpw::certs {

// "<what>: <first queued OpenSSL error>" (just `what` when the queue is empty); clears the queue so
// a later failure does not report this one's cause.
std::string openssl_error(std::string_view what);

} // namespace kpw::certs
