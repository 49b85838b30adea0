-- wrk prints this one JSON line when a run ends: latency percentiles in microseconds and the error counts.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"socketErrors":%d,"non2xx":%d,"p50":%d,"p99":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
