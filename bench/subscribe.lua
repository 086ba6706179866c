-- wrk script for bench/subscribe.ts: POST /api/subscription/Subscribe with a new valid US phone number per request
-- and the XSRF double-submit pair (cookie + header). Kept cheap on purpose, so that the generator (one core of a small
-- box) is not what limits the faster server: each request is two precomputed halves around the phone number (a fixed
-- width, so Content-Length is fixed), no per-request wrk.format, and no per-response Lua callback (wrk itself counts
-- responses that are not 2xx/3xx: summary.errors.status).
--   wrk -t1 -c50 -d3s -s bench/subscribe.lua http://127.0.0.1:PORT -- <businessId> <xsrfToken> <firstPhone> <stride>
-- Thread i (0-based) numbers its phones from firstPhone + i * stride: 415-200-0000 + n, so "(415) 2xx-xxxx".
-- done() prints ONE JSON line: {"requests","durationUs","sent","ok","non2xx","errors","p50","p99"}.

local threads = {}
local nextId = 0

function setup(thread)
  thread:set("id", nextId)
  nextId = nextId + 1
  table.insert(threads, thread)
end

local n, first
local heads, tails = {}, {}
sent = 0

function init(args)
  local businessId = tonumber(args[1])
  local token = args[2]
  first = tonumber(args[3]) + id * tonumber(args[4])
  n = first
  -- Two templates (SMS / WhatsApp); the phone "(415) ddd-dddd" is always 14 characters. WhatsApp takes Toronto's
  -- (416): a US number cannot subscribe by WhatsApp (issue 23 item 7).
  for i, pref in ipairs({ "SMS", "WhatsApp" }) do
    local area = pref == "SMS" and "415" or "416"
    local before = string.format('{"businessId":%d,"phone":"(%s) ', businessId, area)
    local after = string.format('","contactPreference":"%s","source":"qr"}', pref)
    local length = #before + 8 + #after
    heads[i] = "POST /api/subscription/Subscribe HTTP/1.1\r\n" ..
      "Host: " .. wrk.host .. ":" .. wrk.port .. "\r\n" ..
      "Content-Type: application/json\r\n" ..
      "Cookie: XSRF-TOKEN=" .. token .. "\r\n" ..
      "X-XSRF-TOKEN: " .. token .. "\r\n" ..
      "User-Agent: wrk (nearcast bench)\r\n" ..
      "Content-Length: " .. length .. "\r\n\r\n" .. before
    tails[i] = after
  end
end

function request()
  local x = 2000000 + n
  n = n + 1
  sent = n - first
  local i = n % 2 + 1
  return heads[i] .. string.format("%03d-%04d", math.floor(x / 10000), x % 10000) .. tails[i]
end

-- The JSON line runWrk reads, from bench/lib/wrk-report.lua (found beside this script, wherever wrk runs from).
local report = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib/wrk-report.lua")
function done(summary, latency)
  report(threads, summary, latency)
end
