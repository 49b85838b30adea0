-- wrk script of bench/cluster: each request is one OsmAnd fix, `GET /?id=bench-N&lat=..&lon=..&timestamp=MS`, of a
-- random device at a random place in the bench's square (a jump, so a share of fixes enters a Positive zone and
-- raises an alert). The timestamp is the wall clock in ms when the request is made, so a showAlert's `timestamp`
-- (the fix's time) is its send time and the bench needs no table of sent fixes. Alert probes: PROBE_SHARE of the
-- requests move one of the first PROBES devices, whose prisoner has a Negative zone of its own around a home point,
-- in and out of that zone in turn, so every second probe fix leaves the zone and raises an alert.
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *out);
]]
local clock = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(0, clock) -- CLOCK_REALTIME, as Date.now() in the bench
  return tonumber(clock.tv_sec) * 1000 + math.floor(tonumber(clock.tv_nsec) / 1e6)
end

local devices = tonumber(os.getenv("BENCH_DEVICES"))
local probes = tonumber(os.getenv("BENCH_PROBES"))
local probe_share = tonumber(os.getenv("BENCH_PROBE_SHARE"))
local centre_lat = tonumber(os.getenv("BENCH_CENTRE_LAT"))
local centre_lng = tonumber(os.getenv("BENCH_CENTRE_LNG"))
local span = tonumber(os.getenv("BENCH_SPAN"))
local probe_step = tonumber(os.getenv("BENCH_PROBE_STEP"))
local probe_out = tonumber(os.getenv("BENCH_PROBE_OUT"))

-- A device's fixes must carry rising times: two in one millisecond would be one fix stored.
local last = {}
local probe_moves = {}

-- The home point of probe k, as bench/cluster/run.ts places its Negative zone.
local function probe_home(k)
  return centre_lat + span / 2 + probe_step * (1 + k % 10), centre_lng + probe_step * math.floor(k / 10)
end

init = function(args)
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
end

request = function()
  local i, lat, lng
  if math.random() < probe_share then
    i = math.random(0, probes - 1)
    local moves = (probe_moves[i] or 0) + 1
    probe_moves[i] = moves
    lat, lng = probe_home(i)
    if moves % 2 == 0 then lat = lat + probe_out end
  else
    i = math.random(probes, devices - 1)
    lat = centre_lat + (math.random() - 0.5) * span
    lng = centre_lng + (math.random() - 0.5) * span
  end
  local t = now_ms()
  if last[i] and t <= last[i] then t = last[i] + 1 end
  last[i] = t
  return wrk.format("GET", string.format("/?id=bench-%d&lat=%.6f&lon=%.6f&timestamp=%d", i, lat, lng, t))
end

-- One JSON line when the run ends: request counts and latency percentiles in microseconds.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"socketErrors":%d,"non2xx":%d,"p50":%d,"p99":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
