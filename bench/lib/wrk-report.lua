-- The one JSON line a wrk script's done() prints for bench/lib/harness.ts runWrk (bench/subscribe.lua, bench/redirect.lua):
-- {"requests","durationUs","sent","ok","non2xx","errors","p50","p99"}, `sent` summed over the threads' own counters.
--   local report = dofile(<this file>); function done(summary, latency) report(threads, summary, latency) end
return function(threads, summary, latency)
  local tsent = 0
  for _, t in ipairs(threads) do tsent = tsent + t:get("sent") end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"sent":%d,"ok":%d,"non2xx":%d,"errors":%d,"p50":%.3f,"p99":%.3f}\n',
    summary.requests, summary.duration, tsent, summary.requests - e.status, e.status,
    e.connect + e.read + e.write + e.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
