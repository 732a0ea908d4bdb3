-- wrk script: POST /api/v1/usage/storage with batches of BATCH (default 1000) new samples of PROJECT,
-- authenticated by TOKEN; every sample id is new, so every sample is inserted (the expensive path)
local token = os.getenv("TOKEN")
local project = os.getenv("PROJECT")
local batch = tonumber(os.getenv("BATCH") or "1000")
local counter = 0
local thread_tag = tostring(math.random(1, 1e9))

wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. token
wrk.headers["Content-Type"] = "application/json"

local at = os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() - 3600)

request = function()
  counter = counter + 1
  local parts = {}
  for i = 1, batch do
    parts[i] = string.format('{"id":"b-%s-%d-%d","project_id":"%s","bytes":%d,"at":"%s"}',
      thread_tag, counter, i, project, i * 1024, at)
  end
  return wrk.format(nil, nil, nil, '{"samples":[' .. table.concat(parts, ",") .. ']}')
end

init = function(args)
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)"), 16) % 100000)
  thread_tag = tostring(math.random(1, 1e9))
end
