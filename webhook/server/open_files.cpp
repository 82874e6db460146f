// SPDX-License-Identifier: Apache-2.0
#include "server/open_files.hpp"

#include <sys/resource.h>

namespace kpw::server {

open_file_limit raise_open_file_limit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return {};
    open_file_limit result{limit.rlim_cur, limit.rlim_cur};
    if (limit.rlim_cur >= limit.rlim_max)
        return result;
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
        result.now = raised.rlim_cur;
    return result;
}

} // namespace kpw::server
