// SPDX-License-Identifier: Apache-2.0
#include "live/dry_run_inputs.hpp"

#include "live/reader.hpp"
#include "live/workload_queries.hpp"

namespace kpw::live {

result<live_dry_run_inputs> read_live_inputs(kube::client& client, const live_wants& wants,
                                             const lint::input_set& policies, const std::string& default_namespace)
{
    live_dry_run_inputs out;
    reader from_server(client);
    if (wants.clusters) {
        auto read = from_server.clusters();
        if (!read)
            return read.error();
        out.clusters = std::move(*read);
    }
    if (wants.bindings) {
        auto read = from_server.bindings();
        if (!read)
            return read.error();
        out.bindings = std::move(*read);
    }
    if (wants.workloads) {
        auto read = from_server.workloads(workload_queries(policies, default_namespace), out.notes);
        if (!read)
            return read.error();
        out.workloads = std::move(*read);
    }
    return out;
}

} // namespace kpw::live
