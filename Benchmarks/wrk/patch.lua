-- PATCH one item per thread (one connection each) with If-Match set to the last ETag seen.
local threads = {}
-- `id` is a global so that setup() can give each thread its own item via thread:set.
id = "row-0"
local etag = "*"
local counter = 0
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", string.format("row-%d", #threads * 1000))
end
function request()
  counter = counter + 1
  local body = string.format('{"text":"patched %d"}', counter)
  return wrk.format("PATCH", "/tables/bench/" .. id,
    {["ZUMO-API-VERSION"] = "2.0.0", ["Content-Type"] = "application/json", ["If-Match"] = etag}, body)
end
function response(status, headers, body)
  if headers["ETag"] then etag = headers["ETag"] end
end
dofile(os.getenv("WRK_SCRIPTS") .. "/report.lua")
