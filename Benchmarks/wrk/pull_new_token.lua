-- The incremental-pull page of get.lua, but each request carries its own token (one of 1,000
-- milliseconds in the middle of the seeded rows), so no request repeats the previous query.
wrk.headers["ZUMO-API-VERSION"] = "2.0.0"
local counter = 0

function request()
  counter = counter + 1
  local ms = 50000 + counter % 1000
  local token = string.format("2026-01-01T00:00:%02d.%03dZ", math.floor(ms / 1000), ms % 1000)
  local path = "/tables/bench?%24filter=%28updatedAt%20ge%20datetimeoffset%27" .. token:gsub(":", "%%3A") ..
    "%27%29&%24orderby=updatedAt%20asc&%24top=50&%24skip=0&__includeDeleted=true"
  return wrk.format("GET", path)
end

dofile(os.getenv("WRK_SCRIPTS") .. "/report.lua")
