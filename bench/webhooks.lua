-- wrk script for bench/webhooks.ts: signed Twilio status callbacks (POST /api/webhooks/twilio/status?delivery=<id>,
-- form-encoded). The bench signs every callback itself (HMAC-SHA1 over the public URL + path + query + the sorted form
-- fields, checked against twilio's own getExpectedTwilioSignature) and writes one slice's callbacks to a pool file,
-- one per line: "<path>\t<X-Twilio-Signature>\t<form body>", in order (delivery i: `sent`, then `delivered`).
-- init() frames them as raw HTTP requests before wrk starts its clock; request() hands them out in order, so the
-- generator does no work per request beyond a table look-up (no wrk.format, no response() callback: wrk counts the
-- answers that are not 2xx/3xx itself). Past the end of the pool it starts over (then they are duplicates, which
-- change nothing): done() reports it as "wrapped", and the bench sizes pools so that it does not happen.
--   wrk -t1 -c50 -d3s -s bench/webhooks.lua http://127.0.0.1:PORT -- <pool file>
-- done() prints ONE JSON line: {"requests","durationUs","sent","pool","ok","non2xx","errors","p50","p99"}.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local reqs = {}
local count = 0
local i = 0
sent = 0
pool = 0

function init(args)
  local f = assert(io.open(args[1], "rb"))
  local head = "Host: " .. wrk.host .. ":" .. wrk.port .. "\r\n" ..
    "Content-Type: application/x-www-form-urlencoded\r\n" ..
    "User-Agent: TwilioProxy/1.1\r\n" ..
    "X-Twilio-Signature: "
  for line in f:lines() do
    local path, signature, body = line:match("^([^\t]+)\t([^\t]+)\t(.*)$")
    if path then
      count = count + 1
      reqs[count] = "POST " .. path .. " HTTP/1.1\r\n" .. head .. signature .. "\r\n" ..
        "Content-Length: " .. #body .. "\r\n\r\n" .. body
    end
  end
  f:close()
  assert(count > 0, "empty pool file " .. args[1])
  pool = count
end

function request()
  local r = reqs[i % count + 1]
  i = i + 1
  sent = i
  return r
end

function done(summary, latency, requests)
  local tsent, tpool = 0, 0
  for _, t in ipairs(threads) do
    tsent = tsent + t:get("sent")
    tpool = tpool + t:get("pool")
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"sent":%d,"pool":%d,"ok":%d,"non2xx":%d,"errors":%d,"p50":%.3f,"p99":%.3f}\n',
    summary.requests, summary.duration, tsent, tpool, summary.requests - e.status, e.status,
    e.connect + e.read + e.write + e.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
