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

// The largest magnitude parse_quantity reads, 1e35 nano-units (1e26 units): sums of a few such stay far
// inside 128 bits, and arithmetic that could pass it (a request times a replica count) saturates here.
inline constexpr nano_int max_nanos = nano_int(1'000'000'000'000'000'000) * 100'000'000'000'000'000;

// resource.Quantity's Format: how the quantity is written, hence how karmada's general estimator
// converts it for multi-component jobs (binary → whole units, decimal → thousandths; day2 §6.3).
enum class notation { decimal_si, binary_si, decimal_exponent };

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
    // The notation parse_quantity read (decimal_si for quantities built in memory).
    model::notation notation() const { return notation_; }
    quantity with_notation(model::notation n) const
    {
        quantity q = *this;
        q.notation_ = n;
        return q;
    }

    // apimachinery Quantity.Add/Sub: the result keeps the left operand's format unless it is zero.
    friend quantity operator+(quantity a, quantity b) { return quantity(a.nanos_ + b.nanos_, a.keep(b)); }
    friend quantity operator-(quantity a, quantity b) { return quantity(a.nanos_ - b.nanos_, a.keep(b)); }
    // Equality and order are by amount only, as Quantity.Cmp.
    friend bool operator==(const quantity& a, const quantity& b) { return a.nanos_ == b.nanos_; }
    friend auto operator<=>(const quantity& a, const quantity& b) { return a.nanos_ <=> b.nanos_; }

    static constexpr nano_int nanos_per_unit = 1'000'000'000;

private:
    explicit quantity(nano_int n, model::notation f = model::notation::decimal_si) : nanos_(n), notation_(f) {}
    model::notation keep(const quantity& other) const { return nanos_ == 0 ? other.notation_ : notation_; }
    nano_int nanos_ = 0;
    model::notation notation_ = model::notation::decimal_si;
};

// Why a text is not a quantity: apimachinery's ErrFormatWrong or ErrSuffix, or an amount Karmada reads
// but lint does not compute with (more than 36 significant digits, or beyond max_nanos).
enum class quantity_error { none, format, suffix, beyond_range };

struct quantity_parse {
    std::optional<quantity> value;
    quantity_error error = quantity_error::none;
};

// apimachinery's ParseQuantity, grammar and all: optional sign, digits with an optional fraction, then a
// decimal suffix (n u m "" k M G T P E), a binary suffix (Ki Mi Gi Ti Pi Ei) or an exponent (e3, E-2).
// Its leniencies are Karmada's too: "+", "-", "." and a bare suffix ("Mi", "e3") are zero.
// Amounts finer than a nano-unit round up, as the API server would never round a request down.
quantity_parse parse_quantity_checked(std::string_view text);
std::optional<quantity> parse_quantity(std::string_view text);

// The error's text: Go's own for format and suffix errors.
std::string_view to_string(quantity_error e);

// The notation the quantity has once the API server stored it and a client read it back
// (apimachinery CanonicalizeBytes, then ParseQuantity): zero, a binary amount below 1024, a fractional
// one or one not divisible by 1024 is written as a plain decimal number, so it reads back decimal_si.
model::notation stored_notation(const quantity& q);

// Quantity.String() as the API server writes it: "1500m", "2", "2G", "1953125Ki", "1536", "1e3".
std::string canonical_text(const quantity& q);

// Canonical-ish rendering for messages: "1500m", "2Gi"-free plain decimal ("2147483648"), "0.5".
std::string to_string(const quantity& q);

} // namespace kpw::model
