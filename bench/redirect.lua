-- wrk script for bench/redirect.ts: GET /l/<code> over the seeded broadcast's short links in turn, each request from
-- a new address (X-Forwarded-For; Nearcast trusts it in this bench), as a phone's browser: every request is a click
-- that counts (Nearcast counts a code once a day per address, so one address would turn most requests into reads).
-- Kept cheap so the generator is not what limits the faster server: the codes are read once, the requests are two
-- precomputed halves around the code and the address, and no per-response callback (wrk counts non-2xx/3xx itself).
--   wrk -t1 -c64 -d3s -s bench/redirect.lua http://127.0.0.1:PORT -- <codes file> <first address number>
-- done() prints ONE JSON line: {"requests","durationUs","sent","ok","non2xx","errors","p50","p99"}.

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

local codes = {}
local head, ua
local i, n, first = 0, 0, 0
sent = 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(codes, line) end
  end
  first = tonumber(args[2])
  n = first
  head = "GET /l/"
  ua = " HTTP/1.1\r\nHost: " .. wrk.host .. ":" .. wrk.port .. "\r\n" ..
    "User-Agent: Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36\r\n" ..
    "X-Forwarded-For: 10."
end

function request()
  i = i % #codes + 1
  n = n + 1
  sent = n - first
  return head .. codes[i] .. ua .. string.format("%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256) .. "\r\n\r\n"
end

-- The JSON line runWrk reads, from bench/lib/wrk-report.lua (found beside this script, wherever wrk runs from).
local report = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib/wrk-report.lua")
function done(summary, latency)
  report(threads, summary, latency)
end
