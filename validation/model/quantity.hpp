// SPDX-License-Identifier: Apache-2.0
// model::quantity: a Kubernetes resource.Quantity held exactly enough for the scheduler's arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpw::model {

// 128-bit nano-units: "1Ei" (2^60) is 1.2e27 nanos, far inside the range, and every decimal suffix
// down to "n" is exact. The pedantic warning on __int128 is silenced by __extension__.
__extension__ using nano_int = __int128;

class quantity {
public:
    quantity() = default;
    static quantity from_nanos(nano_int n) { return quantity(n); }
    static quantity from_int(std::int64_t units) { return quantity(nano_int(units) * nanos_per_unit); }
    static quantity from_millis(std::int64_t millis) { return quantity(nano_int(millis) * 1'000'000); }

    // karmada/apimachinery: resource.Quantity MilliValue(), rounded up to a whole millicore.
    std::int64_t milli_ceil() const;
    // resource.Quantity Value(): rounded up to a whole unit.
    std::int64_t value_ceil() const;
    nano_int nanos() const { return nanos_; }
    bool is_zero() const { return nanos_ == 0; }

    friend quantity operator+(quantity a, quantity b) { return quantity(a.nanos_ + b.nanos_); }
    friend quantity operator-(quantity a, quantity b) { return quantity(a.nanos_ - b.nanos_); }
    friend bool operator==(const quantity&, const quantity&) = default;
    friend auto operator<=>(const quantity& a, const quantity& b) { return a.nanos_ <=> b.nanos_; }

    static constexpr nano_int nanos_per_unit = 1'000'000'000;

private:
    explicit quantity(nano_int n) : nanos_(n) {}
    nano_int nanos_ = 0;
};

// Parses the Kubernetes quantity grammar: optional sign, digits with an optional fraction, then a
// decimal suffix (n u m "" k M G T P E), a binary suffix (Ki Mi Gi Ti Pi Ei) or an exponent (e3, E-2).
// Amounts finer than a nano-unit round up, as the API server would never round a request down.
// nullopt for anything else or for magnitudes beyond ~1e29 units.
std::optional<quantity> parse_quantity(std::string_view text);

// Canonical-ish rendering for messages: "1500m", "2Gi"-free plain decimal ("2147483648"), "0.5".
std::string to_string(const quantity& q);

} // namespace kpw::model
