// SPDX-License-Identifier: Apache-2.0
// A line-by-line scan that tracks only what decides whether a tab is indentation: flow depth, quoted
// scalars that span lines and block scalars' content (go.yaml.in/yaml/v2 scannerc.go
// yaml_parser_scan_to_next_token skips a tab only in flow context or where no simple key may start).
#include "doc/yaml_tabs.hpp"

namespace kpw::doc {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_break(char c) { return c == '\n' || c == '\r'; }

class tab_scanner {
public:
    explicit tab_scanner(std::string_view text) : t_(text) {}

    std::optional<std::size_t> run()
    {
        while (i_ < t_.size()) {
            if (auto bad = line())
                return bad;
        }
        return std::nullopt;
    }

private:
    bool at_end_of_line() const { return i_ >= t_.size() || is_break(t_[i_]); }

    void next_line()
    {
        while (!at_end_of_line())
            ++i_;
        while (i_ < t_.size() && is_break(t_[i_]))
            ++i_;
    }

    // One line, from its first byte; returns the offset of a refused tab.
    std::optional<std::size_t> line()
    {
        std::size_t indent = 0;
        while (i_ < t_.size() && t_[i_] == ' ')
            ++i_, ++indent;
        if (block_parent_ >= 0) {
            // A block scalar's content: blank lines and lines indented past its parent's line. A tab
            // before that indentation is refused ("found a tab character where an indentation space is
            // expected").
            if (i_ < t_.size() && t_[i_] == '\t' && static_cast<int>(indent) <= block_parent_)
                return i_;
            if (at_end_of_line() || static_cast<int>(indent) > block_parent_) {
                next_line();
                return std::nullopt;
            }
            block_parent_ = -1;
        }
        if (quote_ || flow_ > 0)
            return rest(indent);
        while (i_ < t_.size() && is_blank(t_[i_])) {
            if (t_[i_] == '\t')
                return i_; // a tab among the leading blanks, or on a line of blanks only
            ++i_;
        }
        return rest(indent);
    }

    // After a block indicator (`-`, `?`) followed by blanks, a tab is refused too.
    std::optional<std::size_t> indicators()
    {
        while (i_ < t_.size() && (t_[i_] == '-' || t_[i_] == '?') &&
               (i_ + 1 >= t_.size() || is_blank(t_[i_ + 1]) || is_break(t_[i_ + 1]))) {
            ++i_;
            while (i_ < t_.size() && is_blank(t_[i_])) {
                if (t_[i_] == '\t')
                    return i_;
                ++i_;
            }
        }
        return std::nullopt;
    }

    // The rest of a line: quotes, flow brackets, comments and block scalar headers.
    std::optional<std::size_t> rest(std::size_t indent)
    {
        bool token_start = true;
        if (!quote_ && flow_ == 0)
            if (auto bad = indicators())
                return bad;
        while (!at_end_of_line()) {
            const char c = t_[i_];
            if (quote_) {
                if (quote_ == '\'' && c == '\'' && i_ + 1 < t_.size() && t_[i_ + 1] == '\'')
                    i_ += 2; // '' inside a single-quoted scalar
                else if (quote_ == '"' && c == '\\')
                    i_ += 2;
                else {
                    if (c == quote_)
                        quote_ = 0;
                    ++i_;
                }
                token_start = false;
                continue;
            }
            if (c == '#' && (token_start || (i_ > 0 && is_blank(t_[i_ - 1]))))
                break; // a comment to the end of the line
            if (is_blank(c)) {
                ++i_;
                continue;
            }
            if (token_start && (c == '\'' || c == '"')) {
                quote_ = c;
                ++i_;
                token_start = false;
                continue;
            }
            if (token_start && flow_ == 0 && (c == '|' || c == '>')) {
                block_parent_ = static_cast<int>(indent); // the header; content starts on the next line
                break;
            }
            if ((token_start || flow_ > 0) && (c == '[' || c == '{')) {
                ++flow_;
                ++i_;
                continue; // token_start stays: a flow collection's first entry starts here
            }
            if (flow_ > 0 && (c == ']' || c == '}')) {
                --flow_;
                ++i_;
                token_start = false;
                continue;
            }
            if (flow_ > 0 && c == ',') {
                ++i_;
                token_start = true;
                continue;
            }
            if (c == ':' && (i_ + 1 >= t_.size() || is_blank(t_[i_ + 1]) || is_break(t_[i_ + 1]) ||
                             (flow_ > 0 && (t_[i_ + 1] == ',' || t_[i_ + 1] == ']' || t_[i_ + 1] == '}')))) {
                ++i_;
                token_start = true; // a value starts after "key: "
                continue;
            }
            if ((c == '&' || c == '!') && token_start) {
                while (!at_end_of_line() && !is_blank(t_[i_]))
                    ++i_; // an anchor or tag: the value's token starts after it
                continue;
            }
            token_start = false;
            ++i_;
        }
        next_line();
        return std::nullopt;
    }

    std::string_view t_;
    std::size_t i_ = 0;
    int flow_ = 0;
    char quote_ = 0;         // the open quote of a scalar spanning lines, or 0
    int block_parent_ = -1;  // a block scalar's parent line indentation, while in its content
};

} // namespace

std::optional<std::size_t> tab_go_yaml_refuses(std::string_view text)
{
    return tab_scanner(text).run();
}

} // namespace kpw::doc
