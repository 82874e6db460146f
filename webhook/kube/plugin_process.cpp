// SPDX-License-Identifier: Apache-2.0
// plugin_process: posix_spawnp with the child's descriptors reduced to 0, 1 and 2. Under `serve` a plugin
// (and whatever it leaves running) would otherwise hold the listening sockets and open connections: a
// restarted serve could not bind its port while the plugin lived, and closed connections would stay open.
#include "kube/plugin_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace kpw::kube {
namespace {

using steady = std::chrono::steady_clock;

std::vector<char*> c_strings(std::vector<std::string>& v)
{
    std::vector<char*> out;
    for (std::string& s : v)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// The file actions and attributes of one spawn, released however it ends.
struct spawn_setup {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    int error = 0;

    explicit spawn_setup(int stdout_fd)
    {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
        const auto step = [this](int rc) {
            if (error == 0)
                error = rc;
        };
        step(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0));
        step(posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1));
        // After the dup2: everything from 3 up, whether or not it is close-on-exec (glibc 2.34+ runs
        // close_range in the child, or walks /proc/self/fd where the kernel has no close_range).
        step(posix_spawn_file_actions_addclosefrom_np(&actions, 3));
        // Its own process group (killed whole on timeout); default signal dispositions and an empty mask.
        step(posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
        step(posix_spawnattr_setpgroup(&attr, 0));
        sigset_t none, defaults;
        sigemptyset(&none);
        sigfillset(&defaults);
        step(posix_spawnattr_setsigmask(&attr, &none));
        step(posix_spawnattr_setsigdefault(&attr, &defaults));
    }
    ~spawn_setup()
    {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    spawn_setup(const spawn_setup&) = delete;
    spawn_setup& operator=(const spawn_setup&) = delete;
};

// Starts the plugin with its stdout into a pipe; returns the errno of the spawn on failure.
int spawn(const std::vector<std::string>& argv, std::vector<std::string> env, pid_t& pid, int& out_fd)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return errno;
    int rc = 0;
    {
        spawn_setup setup(fds[1]);
        std::vector<std::string> args = argv;
        auto c_argv = c_strings(args);
        auto c_env = c_strings(env);
        rc = setup.error != 0 ? setup.error
                              : posix_spawnp(&pid, argv.front().c_str(), &setup.actions, &setup.attr, c_argv.data(), c_env.data());
    }
    close(fds[1]);
    if (rc != 0)
        close(fds[0]);
    else
        out_fd = fds[0];
    return rc;
}

plugin_run::ending read_output(int fd, std::string& out, std::size_t cap, steady::time_point deadline)
{
    char buf[16384];
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - steady::now()).count();
        if (left <= 0)
            return plugin_run::ending::timed_out;
        pollfd p{fd, POLLIN, 0};
        const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, 60'000)));
        if (r < 0 && errno != EINTR)
            return plugin_run::ending::read_failed;
        if (r <= 0)
            continue;
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0)
            return plugin_run::ending::read_failed;
        if (n == 0)
            return plugin_run::ending::exited;
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > cap)
            return plugin_run::ending::too_large;
    }
}

// Without a pidfd (a kernel before 5.3, a seccomp profile refusing pidfd_open) nothing signals the exit to
// poll for: ask waitpid at growing intervals (1 ms to 50 ms) until the deadline. A plugin usually exits as
// it closes its stdout, so the first ask mostly answers.
bool wait_child_polling(pid_t pid, int& status, steady::time_point deadline)
{
    for (int pause_ms = 1;; pause_ms = std::min(pause_ms * 2, 50)) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return true;
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - steady::now()).count();
        if (left <= 0)
            return false;
        poll(nullptr, 0, static_cast<int>(std::min<long long>(left, pause_ms)));
    }
}

// Waits for the child until the deadline; false on timeout.
bool wait_child(pid_t pid, int& status, steady::time_point deadline)
{
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    if (pidfd < 0)
        return wait_child_polling(pid, status, deadline);
    bool exited = false;
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - steady::now()).count();
        if (left <= 0)
            break;
        pollfd p{pidfd, POLLIN, 0};
        const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, 60'000)));
        if (r > 0) {
            exited = true;
            break;
        }
        if (r < 0 && errno != EINTR)
            break;
    }
    close(pidfd);
    if (!exited)
        return false;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return true;
}

// Kills the plugin's whole process group and waits for it. Where orphans come to this process (serve as a
// container's PID 1, or a child subreaper), the group's other members are its children once their parents
// die: they are waited for too, else each would stay a zombie for good. Elsewhere they are not ours, and
// waitpid says so at once (ECHILD).
void kill_child(pid_t pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    for (;;) {
        const pid_t r = waitpid(-pid, &status, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
    }
}

} // namespace

plugin_run run_plugin_process(const std::vector<std::string>& argv, std::vector<std::string> env,
                              std::chrono::milliseconds timeout, std::size_t max_output)
{
    plugin_run run;
    pid_t pid = -1;
    int fd = -1;
    if (argv.empty()) {
        run.spawn_error = ENOENT;
        return run;
    }
    if (const int err = spawn(argv, std::move(env), pid, fd); err != 0) {
        run.spawn_error = err;
        return run;
    }
    const auto deadline = steady::now() + timeout;
    run.end = read_output(fd, run.out, max_output, deadline);
    close(fd);
    if (run.end == plugin_run::ending::exited && !wait_child(pid, run.wait_status, deadline))
        run.end = plugin_run::ending::timed_out;
    if (run.end != plugin_run::ending::exited)
        kill_child(pid);
    return run;
}

} // namespace kpw::kube
