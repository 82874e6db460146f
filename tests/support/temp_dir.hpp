// SPDX-License-Identifier: Apache-2.0
// A fresh temporary directory for one test, removed with everything in it on destruction.
#pragma once

#include <filesystem>
#include <string>

namespace kpw::test {

struct temp_dir {
    temp_dir();
    ~temp_dir();
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;

    // Writes `text` to `name` (parent directories created) and returns the file's path.
    std::filesystem::path write(const std::string& name, const std::string& text) const;

    std::filesystem::path path;
};

} // namespace kpw::test
