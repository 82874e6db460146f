// SPDX-License-Identifier: Apache-2.0
#include "support/process.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kpw::test {
namespace {

void close_fd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

[[noreturn]] void exec_child(const std::vector<std::string>& argv, int in, int out, int err)
{
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
}

} // namespace

process_result run_process(const std::vector<std::string>& argv, const std::string& stdin_text,
                           std::chrono::milliseconds timeout)
{
    process_result r;
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC))
        return r;
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0)
        exec_child(argv, in[0], out[1], err[1]);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    ::signal(SIGPIPE, SIG_IGN);
    int to_child = in[1], from_out = out[0], from_err = err[0];
    std::size_t written = 0;
    if (stdin_text.empty())
        close_fd(to_child);
    else
        ::fcntl(to_child, F_SETFL, O_NONBLOCK);

    while (from_out >= 0 || from_err >= 0) {
        const auto left = timeout - (std::chrono::steady_clock::now() - start);
        if (left <= std::chrono::milliseconds(0)) {
            ::kill(pid, SIGKILL);
            r.timed_out = true;
            break;
        }
        pollfd fds[3] = {{from_out, POLLIN, 0}, {from_err, POLLIN, 0}, {to_child, POLLOUT, 0}};
        if (::poll(fds, 3, static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count())) < 0 &&
            errno != EINTR)
            break;
        char buf[65536];
        for (int k = 0; k < 2; ++k) {
            int& fd = k == 0 ? from_out : from_err;
            if (fd >= 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
                const ssize_t n = ::read(fd, buf, sizeof buf);
                if (n > 0)
                    (k == 0 ? r.out : r.err).append(buf, static_cast<std::size_t>(n));
                else
                    close_fd(fd);
            }
        }
        if (to_child >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            const ssize_t n = ::write(to_child, stdin_text.data() + written, stdin_text.size() - written);
            if (n > 0)
                written += static_cast<std::size_t>(n);
            if (n < 0 || written == stdin_text.size())
                close_fd(to_child);
        }
    }
    close_fd(to_child);
    close_fd(from_out);
    close_fd(from_err);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    return r;
}

} // namespace kpw::test
