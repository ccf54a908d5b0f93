-- POST /tables/bench with a fresh id every request, each request as the next of the accounts whose
-- tokens BENCH_TOKENS lists (comma-separated): writes of many accounts side by side.
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
  local headers = {["ZUMO-API-VERSION"] = "2.0.0", ["Content-Type"] = "application/json", ["X-ZUMO-AUTH"] = tokens[(counter % #tokens) + 1]}
  return wrk.format("POST", "/tables/bench", headers, body)
end
dofile(os.getenv("WRK_SCRIPTS") .. "/report.lua")
