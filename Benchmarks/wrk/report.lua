-- Shared by every scenario: prints one JSON line with throughput and latency.
function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local bad = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('RESULT {"requests":%d,"rps":%.1f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000, bad))
end
