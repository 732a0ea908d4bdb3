-- wrk script: POST /api/v1/api-keys/verify with keys from the file KEYS (one raw key a line), so that the requests
-- spread over a working set. ORDER=random (default) draws a key at random for each request; ORDER=seq walks the
-- file, each thread from its own offset (one pass presents every key: a warm-up). BALLAST (a file of lines) is
-- loaded and kept but never sent: cases over 10 k and over 1 M keys then run with the same Lua heap in wrk, whose
-- collector would otherwise stall the client longer in the large case and count that as the server's latency.
local keys = {}
local ballast = {}
local next_index = 1
local threads = 0
local sequential = false
local limit = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  for line in io.lines(os.getenv("KEYS")) do
    keys[#keys + 1] = line
  end
  local extra = os.getenv("BALLAST")
  if extra and extra ~= "" and extra ~= os.getenv("KEYS") then
    for line in io.lines(extra) do
      ballast[#ballast + 1] = line
    end
  end
  sequential = os.getenv("ORDER") == "seq"
  -- LIMIT=n draws from the first n lines only (bench/tail.sh: wrk's work as for the whole file, fewer keys)
  limit = math.min(tonumber(os.getenv("LIMIT") or #keys), #keys)
  local id = tonumber(id) or 1
  local count = tonumber(os.getenv("THREADS") or "1")
  next_index = math.floor((id - 1) * #keys / count) + 1
  math.randomseed(os.time() + id * 7919)
end

function request()
  local key
  if sequential then
    key = keys[next_index]
    next_index = next_index % #keys + 1
  else
    key = keys[math.random(limit)]
  end
  return wrk.format("POST", "/api/v1/api-keys/verify", { ["Authorization"] = "Bearer " .. key })
end
