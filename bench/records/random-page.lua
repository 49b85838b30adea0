-- wrk script of bench/records/cpu.ts: each request asks for a random page (1 to RECORDS_PAGES) of the URL's list,
-- so concurrent requests rarely ask the same question (the cost of a list request when no read is shared).
dofile(os.getenv("WRK_REPORT"))
local pages = tonumber(os.getenv("RECORDS_PAGES"))
local base = os.getenv("RECORDS_PATH")
init = function(args)
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
end
request = function()
  return wrk.format("GET", string.format("%s%d", base, math.random(1, pages)))
end
