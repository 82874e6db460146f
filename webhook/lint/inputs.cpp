// SPDX-License-Identifier: Apache-2.0
#include "lint/inputs.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "doc/locate.hpp"
#include "schema/object_meta.hpp"

namespace kpw::lint {
namespace {

namespace fs = std::filesystem;

bool has_manifest_extension(const fs::path& p)
{
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

void read_stream(std::istream& in, const std::string& name, input_set& out, bool is_stdin = false)
{
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_input_bytes) {
            out.errors.push_back({name, {}, "larger than " + std::to_string(max_input_bytes >> 20) + " MiB; not linted"});
            return;
        }
    }
    if (in.bad()) {
        out.errors.push_back({name, {}, "read error"});
        return;
    }
    out.files.push_back({name, std::move(text), is_stdin});
}

void read_file(const fs::path& p, input_set& out)
{
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        out.errors.push_back({p.string(), {}, std::string("cannot open: ") + std::strerror(errno)});
        return;
    }
    read_stream(in, p.string(), out);
}

void walk_directory(const fs::path& dir, input_set& out)
{
    std::vector<fs::path> found;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code type_ec;
        // is_regular_file follows symlinks: a symlinked file counts, a dangling or looping one fails below.
        const bool regular = it->is_regular_file(type_ec);
        if (has_manifest_extension(it->path()) && (regular || it->is_symlink()))
            found.push_back(it->path());
    }
    if (ec)
        out.errors.push_back({dir.string(), {}, "cannot walk directory: " + ec.message()});
    std::sort(found.begin(), found.end());
    for (const auto& p : found)
        read_file(p, out);
}

} // namespace

std::string file_error::str() const
{
    std::ostringstream s;
    s << file;
    if (where.known())
        s << ':' << where.line << ':' << where.column;
    s << ": " << message;
    return s.str();
}

input_set collect_inputs(const std::vector<std::string>& paths)
{
    input_set out;
    for (const auto& arg : paths) {
        if (arg == "-") {
            read_stream(std::cin, "<stdin>", out, true);
            continue;
        }
        std::error_code ec;
        const fs::file_status st = fs::status(arg, ec);
        if (ec || !fs::exists(st)) {
            out.errors.push_back({arg, {}, ec ? "cannot access: " + ec.message() : "no such file or directory"});
            continue;
        }
        if (fs::is_directory(st))
            walk_directory(arg, out);
        else
            read_file(arg, out);
    }
    return out;
}

} // namespace kpw::lint
