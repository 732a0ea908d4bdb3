-- wrk script: POST /api/v1/api-keys/verify with keys from the file KEYS (one raw key a line), so that the requests
-- spread over a working set. ORDER=random (default) draws a key at random for each request; ORDER=seq walks the
-- file, each thread from its own offset (one pass presents every key: a warm-up). LIMIT=n draws from the first n
-- lines only. FORWARDED_FOR=a.b.c.d sends X-Forwarded-For (believed from loopback), to play a client of that address.
--
-- Every request is built once, in init, and request() only picks one: a request built per call would be a new Lua
-- string each time over a million keys (LuaJIT interns every string, so its string table and its collector grow
-- with the distinct keys sent), and wrk's own stalls would be counted as the server's latency: up to 300 ms at
-- 1 M keys, none at 10 k (README, "Benchmarks"). BALLAST (a file of keys) is built the same way and kept but never
-- sent, so that the cases over 10 k and over 1 M keys run with a Lua heap of the same size and take as long in
-- init: wrk runs each thread's init before starting the next thread and its clock, so the first thread sends alone
-- while the others build, in both cases for the same time.
local requests = {}
local ballast = {}
local next_index = 1
local threads = 0
local sequential = false
local limit = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

local function headers(line)
  local forwarded = os.getenv("FORWARDED_FOR")
  if forwarded and forwarded ~= "" then
    return { ["Authorization"] = "Bearer " .. line, ["X-Forwarded-For"] = forwarded }
  end
  return { ["Authorization"] = "Bearer " .. line }
end

function init(args)
  for line in io.lines(os.getenv("KEYS")) do
    requests[#requests + 1] = wrk.format("POST", "/api/v1/api-keys/verify", headers(line))
  end
  local extra = os.getenv("BALLAST")
  if extra and extra ~= "" and extra ~= os.getenv("KEYS") then
    for line in io.lines(extra) do
      ballast[#ballast + 1] =
        wrk.format("POST", "/api/v1/api-keys/verify", { ["Authorization"] = "Bearer " .. line })
    end
  end
  sequential = os.getenv("ORDER") == "seq"
  limit = math.min(tonumber(os.getenv("LIMIT") or #requests), #requests)
  local id = tonumber(id) or 1
  local count = tonumber(os.getenv("THREADS") or "1")
  next_index = math.floor((id - 1) * #requests / count) + 1
  math.randomseed(os.time() + id * 7919)
end

function request()
  if sequential then
    local built = requests[next_index]
    next_index = next_index % #requests + 1
    return built
  end
  return requests[math.random(limit)]
end
