// SPDX-License-Identifier: Apache-2.0
// result<T>: a value or a failure with an optional source position; used for parsing and I/O.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kpw {

// 1-based line and column; line 0 means "no position" (a defaulted or synthesised node).
struct position {
    int line = 0;
    int column = 0;
    bool known() const { return line > 0; }
    friend bool operator==(const position&, const position&) = default;
};

struct failure {
    std::string message;
    position where;
};

// Not std::expected: meson 1.0.1 stops at c++20 and clang 14 cannot use libstdc++ 12's <expected>.
template <class T>
class [[nodiscard]] result {
public:
    result(T value) : state_(std::move(value)) {}
    result(failure f) : state_(std::move(f)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const failure& error() const { return std::get<1>(state_); }

private:
    std::variant<T, failure> state_;
};

} // namespace kpw
