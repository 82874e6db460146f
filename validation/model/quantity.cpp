// SPDX-License-Identifier: Apache-2.0
// Kubernetes quantity parsing and the rounding rules karmada's resource arithmetic relies on.
#include "model/quantity.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace kpw::model {

namespace {

constexpr std::size_t max_significant_digits = 36;

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

// strconv.ParseInt(s, 10, 64): an optional sign and decimal digits within int64.
std::optional<std::int64_t> parse_int64(std::string_view s)
{
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty())
        return std::nullopt;
    nano_int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
        if (v > nano_int(std::numeric_limits<std::int64_t>::max()) + 1)
            return std::nullopt;
    }
    v = negative ? -v : v;
    if (v > std::numeric_limits<std::int64_t>::max())
        return std::nullopt;
    return static_cast<std::int64_t>(v);
}

// suffixHandler.interpret: the decimal and binary tables, else "e"/"E" and an int64 exponent, which
// apimachinery then narrows with int32(parsed): "1e4294967296" is 1e0.
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
        if (auto e = parse_int64(s.substr(1)))
            return multiplier{static_cast<std::int32_t>(static_cast<std::uint32_t>(*e)), 0,
                              model::notation::decimal_exponent};
    }
    return std::nullopt;
}

// parseQuantityString's split of a quantity: sign, integer digits (leading zeros dropped), an optional
// '.' and fraction digits, then letters from "eEinumkKMGTP", an optional sign and digits, to the end.
struct quantity_text {
    bool negative = false;
    std::string_view integer, fraction, suffix;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<quantity_text> split_quantity(std::string_view s)
{
    quantity_text q;
    std::size_t pos = 0;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        q.negative = s[0] == '-';
        ++pos;
    }
    while (pos < s.size() && s[pos] == '0')
        ++pos;
    if (pos == s.size()) // "+", "-", "000": zero, whatever the sign
        return q;
    std::size_t start = pos;
    while (pos < s.size() && is_digit(s[pos]))
        ++pos;
    q.integer = s.substr(start, pos - start);
    if (pos < s.size() && s[pos] == '.') {
        start = ++pos;
        while (pos < s.size() && is_digit(s[pos]))
            ++pos;
        q.fraction = s.substr(start, pos - start);
    }
    start = pos;
    while (pos < s.size() && std::string_view("eEinumkKMGTP").find(s[pos]) != std::string_view::npos)
        ++pos;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-'))
        ++pos;
    while (pos < s.size() && is_digit(s[pos]))
        ++pos;
    if (pos != s.size())
        return std::nullopt;
    q.suffix = s.substr(start);
    return q;
}

// Scales digits * 10^-fraction_digits by the multiplier into nano-units, rounding a finer amount up
// (inf.RoundUp, as ParseQuantity); nullopt past max_nanos or past max_significant_digits.
std::optional<nano_int> to_nanos(std::string_view integer, std::string_view fraction, multiplier m)
{
    std::string digits = std::string(integer) + std::string(fraction);
    std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos)
        return 0;
    digits.erase(0, first);
    long long ten = 9 - static_cast<long long>(fraction.size()) + m.decimal_exponent;
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
        ++ten;
    }
    if (digits.size() > max_significant_digits)
        return std::nullopt;
    nano_int value = 0;
    for (char c : digits)
        value = value * 10 + (c - '0');
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
    for (; ten < 0 && divisor <= value; ++ten)
        divisor *= 10;
    if (ten < 0) // below one nano-unit: rounds up to it
        return 1;
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

quantity_parse parse_quantity_checked(std::string_view text)
{
    if (text.empty())
        return {std::nullopt, quantity_error::format};
    auto parts = split_quantity(text);
    if (!parts)
        return {std::nullopt, quantity_error::format};
    auto m = parse_suffix(parts->suffix);
    if (!m)
        return {std::nullopt, quantity_error::suffix};
    auto nanos = to_nanos(parts->integer, parts->fraction, *m);
    if (!nanos)
        return {std::nullopt, quantity_error::beyond_range};
    auto written = m->written;
    if (written == notation::binary_si) {
        // ParseQuantity caps a binary amount at MaxInt64 units, and one strictly between 0 and 1 is DecimalSI.
        constexpr nano_int cap = nano_int(std::numeric_limits<std::int64_t>::max()) * quantity::nanos_per_unit;
        *nanos = std::min(*nanos, cap);
        if (*nanos > 0 && *nanos < quantity::nanos_per_unit)
            written = notation::decimal_si;
    }
    return {quantity::from_nanos(parts->negative ? -*nanos : *nanos).with_notation(written), quantity_error::none};
}

std::optional<quantity> parse_quantity(std::string_view text) { return parse_quantity_checked(text).value; }

std::string_view to_string(quantity_error e)
{
    switch (e) {
    case quantity_error::none:
        return "";
    case quantity_error::format: // resource.ErrFormatWrong
        return "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    case quantity_error::suffix: // resource.ErrSuffix
        return "unable to parse quantity's suffix";
    case quantity_error::beyond_range:
        return "Karmada reads this quantity, but lint computes with at most 36 significant digits and 1e26 "
               "units; write a smaller amount";
    }
    return "";
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
