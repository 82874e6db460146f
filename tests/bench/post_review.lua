-- SPDX-License-Identifier: Apache-2.0
-- wrk script shared by serve_bench.sh and soak.sh: POSTs the AdmissionReview file named after `--`
--   wrk ... -s tests/bench/post_review.lua URL -- REVIEW.json
-- and ends with one line the scripts parse:
--   RESULT requests=N rps=N p50_us=N p99_us=N max_us=N errors=N connect=N read=N write=N status=N timeout=N
function init(args)
  local f = assert(io.open(args[1], "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = "application/json"
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d rps=%.0f p50_us=%d p99_us=%d max_us=%d errors=%d connect=%d read=%d write=%d status=%d timeout=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99),
    latency.max, e.connect + e.read + e.write + e.status + e.timeout, e.connect, e.read, e.write, e.status, e.timeout))
end
