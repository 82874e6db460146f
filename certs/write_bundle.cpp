// SPDX-License-Identifier: Apache-2.0
// Writing a certificate bundle into a directory: temp file + rename, restrictive modes for keys.
#include "certs/certs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace kpw::certs {
namespace {

std::string errno_text(const std::string& what, const std::filesystem::path& p)
{
    return what + " " + p.string() + ": " + std::strerror(errno);
}

// Creates `<dir>/.<name>.tmp` with `mode` (no window with a wider mode), writes, renames over `<name>`.
std::string write_file(const std::filesystem::path& target, std::string_view text, mode_t mode)
{
    std::string tmp_name(1, '.'); // appended, not "." + name: GCC 12 -Wrestrict false positive
    tmp_name.append(target.filename().string()).append(".tmp");
    const std::filesystem::path tmp = target.parent_path() / tmp_name;
    ::unlink(tmp.c_str());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        return errno_text("cannot create", tmp);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            std::string e = errno_text("cannot write", tmp);
            ::close(fd);
            ::unlink(tmp.c_str());
            return e;
        }
        done += static_cast<std::size_t>(n);
    }
    // fchmod: the umask may have narrowed `mode` (certificates should stay world-readable).
    if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0) {
        std::string e = errno_text("cannot finish", tmp);
        ::unlink(tmp.c_str());
        return e;
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        std::string e = errno_text("cannot rename into", target);
        ::unlink(tmp.c_str());
        return e;
    }
    return {};
}

} // namespace

result<written_files> write_bundle(const bundle& b, const std::filesystem::path& dir, const write_options& o)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return failure{"cannot create directory " + dir.string() + ": " + ec.message(), {}};
    written_files out{dir / o.ca_file_name, dir / o.cert_file_name, dir / o.key_file_name, {}};
    if (o.include_ca_key)
        out.ca_key = dir / "ca.key";
    struct step {
        const std::filesystem::path* path;
        const std::string* text;
        mode_t mode;
    };
    const step steps[] = {{&out.tls_key, &b.tls_key, 0600}, {&out.tls_crt, &b.tls_crt, 0644},
                          {&out.ca_key, &b.ca_key, 0600}, {&out.ca_crt, &b.ca_crt, 0644}};
    for (const auto& s : steps) {
        if (s.path->empty())
            continue;
        if (auto e = write_file(*s.path, *s.text, s.mode); !e.empty())
            return failure{std::move(e), {}};
    }
    return out;
}

} // namespace kpw::certs
