// SPDX-License-Identifier: Apache-2.0
// Kubernetes quantity parsing and the rounding rules karmada's resource arithmetic relies on.
#include "model/quantity.hpp"

#include <limits>

namespace kpw::model {

namespace {

constexpr int max_mantissa_digits = 30;

// Ceiling division for a positive divisor.
nano_int ceil_div(nano_int a, nano_int b)
{
    nano_int q = a / b;
    if (a % b != 0 && a > 0)
        ++q;
    return q;
}

std::int64_t clamp64(nano_int v)
{
    if (v > std::numeric_limits<std::int64_t>::max())
        return std::numeric_limits<std::int64_t>::max();
    if (v < std::numeric_limits<std::int64_t>::min())
        return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(v);
}

struct multiplier {
    int decimal_exponent = 0; // power of ten
    int binary_exponent = 0;  // power of two
    model::notation written = model::notation::decimal_si;
};

std::optional<int> parse_exponent(std::string_view s)
{
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty() || s.size() > 3)
        return std::nullopt;
    int e = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return std::nullopt;
        e = e * 10 + (c - '0');
    }
    return negative ? -e : e;
}

std::optional<multiplier> parse_suffix(std::string_view s)
{
    static constexpr std::pair<std::string_view, int> decimal[] = {
        {"", 0}, {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}};
    static constexpr std::pair<std::string_view, int> binary[] = {
        {"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
    for (const auto& [name, exp] : decimal)
        if (s == name)
            return multiplier{exp, 0, model::notation::decimal_si};
    for (const auto& [name, exp] : binary)
        if (s == name)
            return multiplier{0, exp, model::notation::binary_si};
    if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
        if (auto e = parse_exponent(s.substr(1)))
            return multiplier{*e, 0, model::notation::decimal_exponent};
    }
    return std::nullopt;
}

// Scales mantissa * 10^-fraction_digits by the multiplier into nano-units; nullopt on overflow.
std::optional<nano_int> to_nanos(nano_int mantissa, int fraction_digits, multiplier m)
{
    int ten = 9 - fraction_digits + m.decimal_exponent;
    nano_int value = mantissa;
    for (int i = 0; i < m.binary_exponent; ++i) {
        if (value > max_nanos / 2)
            return std::nullopt;
        value *= 2;
    }
    for (; ten > 0; --ten) {
        if (value > max_nanos / 10)
            return std::nullopt;
        value *= 10;
    }
    nano_int divisor = 1;
    for (; ten < 0 && divisor < max_nanos; ++ten)
        divisor *= 10;
    if (ten < 0)
        return value == 0 ? std::optional<nano_int>(0) : std::optional<nano_int>(1);
    return ceil_div(value, divisor);
}

std::string decimal_digits(nano_int v)
{
    std::string s;
    do {
        s.insert(s.begin(), char('0' + int(v % 10)));
        v /= 10;
    } while (v != 0);
    return s;
}

} // namespace

std::int64_t quantity::milli_ceil() const
{
    // Ceiling toward +inf for negatives too: apimachinery rounds with inf.RoundUp, away from zero for
    // positives; free capacity below zero is clamped by the callers anyway.
    nano_int q = nanos_ / 1'000'000;
    if (nanos_ % 1'000'000 != 0 && nanos_ > 0)
        ++q;
    return clamp64(q);
}

std::int64_t quantity::value_ceil() const
{
    return clamp64(ceil_div(nanos_, nanos_per_unit));
}

std::optional<quantity> parse_quantity(std::string_view text)
{
    bool negative = false;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    nano_int mantissa = 0;
    int digits = 0, fraction_digits = 0;
    bool seen_point = false;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c == '.' && !seen_point) {
            seen_point = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        if (++digits > max_mantissa_digits)
            return std::nullopt;
        mantissa = mantissa * 10 + (c - '0');
        fraction_digits += seen_point ? 1 : 0;
    }
    if (digits == 0)
        return std::nullopt;
    auto m = parse_suffix(text.substr(i));
    if (!m)
        return std::nullopt;
    auto nanos = to_nanos(mantissa, fraction_digits, *m);
    if (!nanos)
        return std::nullopt;
    // apimachinery ParseQuantity: a binary amount strictly between 0 and 1 is DecimalSI.
    auto written = m->written;
    if (written == notation::binary_si && *nanos > 0 && *nanos < quantity::nanos_per_unit)
        written = notation::decimal_si;
    return quantity::from_nanos(negative ? -*nanos : *nanos).with_notation(written);
}

notation stored_notation(const quantity& q)
{
    // apimachinery Quantity.CanonicalizeBytes: BinarySI falls back to DecimalSI for |q| < 1024 and for
    // fractions; AsCanonicalBase1024Bytes writes no suffix (read back as DecimalSI) when q % 1024 != 0.
    nano_int n = q.nanos() < 0 ? -q.nanos() : q.nanos();
    if (q.is_zero())
        return notation::decimal_si;
    if (q.notation() != notation::binary_si)
        return q.notation();
    constexpr nano_int kibi = nano_int(1024) * quantity::nanos_per_unit;
    if (n < kibi || n % kibi != 0)
        return notation::decimal_si;
    return notation::binary_si;
}

std::string canonical_text(const quantity& q)
{
    if (q.is_zero())
        return "0";
    nano_int n = q.nanos() < 0 ? -q.nanos() : q.nanos();
    std::string sign = q.nanos() < 0 ? "-" : "";
    auto format = stored_notation(q);
    if (format == notation::binary_si) {
        static constexpr std::string_view suffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        nano_int units = n / quantity::nanos_per_unit;
        int exponent = 0;
        while (exponent < 6 && units % 1024 == 0) {
            units /= 1024;
            ++exponent;
        }
        return sign + decimal_digits(units) + std::string(suffixes[exponent]);
    }
    // AsCanonicalBytes: factors of ten move into the exponent, which is then lowered to a multiple of 3.
    int exponent = -9;
    while (n % 10 == 0 && exponent < 18) {
        n /= 10;
        ++exponent;
    }
    while ((exponent % 3 + 3) % 3 != 0) {
        n *= 10;
        --exponent;
    }
    std::string digits = decimal_digits(n);
    if (format == notation::decimal_exponent) {
        std::string out = sign + digits;
        if (exponent != 0)
            out.append(1, 'e').append(std::to_string(exponent));
        return out;
    }
    static constexpr std::string_view decimal[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    return sign + digits + std::string(decimal[(exponent + 9) / 3]);
}

std::string to_string(const quantity& q)
{
    nano_int n = q.nanos();
    std::string sign = n < 0 ? "-" : "";
    if (n < 0)
        n = -n;
    auto digits = decimal_digits;
    if (n % quantity::nanos_per_unit == 0)
        return sign + digits(n / quantity::nanos_per_unit);
    if (n % 1'000'000 == 0)
        return sign + digits(n / 1'000'000) + "m";
    std::string frac = digits(n % quantity::nanos_per_unit);
    frac.insert(0, 9 - frac.size(), '0');
    while (frac.back() == '0')
        frac.pop_back();
    return sign + digits(n / quantity::nanos_per_unit) + "." + frac;
}

} // namespace kpw::model
