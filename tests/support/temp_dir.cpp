// SPDX-License-Identifier: Apache-2.0
#include "support/temp_dir.hpp"

#include <stdexcept>
#include <unistd.h>

#include <fstream>

namespace kpw::test {

temp_dir::temp_dir()
{
    std::string tmpl = (std::filesystem::temp_directory_path() / "kpw-test-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
        throw std::runtime_error("mkdtemp failed for " + tmpl);
    path = tmpl;
}

temp_dir::~temp_dir()
{
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

std::filesystem::path temp_dir::write(const std::string& name, const std::string& text) const
{
    const auto file = path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
}

} // namespace kpw::test
