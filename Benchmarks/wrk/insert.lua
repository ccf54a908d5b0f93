-- POST /tables/bench with a fresh id every request. With BENCH_TOKENS (comma-separated access
-- tokens), each request goes as the next of those accounts: writes of many accounts side by side.
-- The tag is a global: `thread:set` sets the thread's globals, and a `local` here hid it, so every
-- run sent the same ids and a second round's inserts all met 409. Seeded so each run draws anew.
math.randomseed(os.time() + math.floor(os.clock() * 1e6))
local counter = 0
local tokens = {}
for token in string.gmatch(os.getenv("BENCH_TOKENS") or "", "[^,]+") do tokens[#tokens + 1] = token end
thread_tag = "t"
function setup(thread)
  thread:set("thread_tag", tostring(math.random(1, 1e9)))
end
function request()
  counter = counter + 1
  local body = string.format('{"id":"ins-%s-%d","text":"inserted by wrk %d","complete":false}', thread_tag, counter, counter)
  local headers = {["ZUMO-API-VERSION"] = "2.0.0", ["Content-Type"] = "application/json"}
  if #tokens > 0 then headers["X-ZUMO-AUTH"] = tokens[(counter % #tokens) + 1] end
  return wrk.format("POST", "/tables/bench", headers, body)
end
dofile(os.getenv("WRK_SCRIPTS") .. "/report.lua")
