-- wrk script for the load benchmark: POSTs a chat-completion body, with or without an
-- Idempotency-Key, and prints one machine-readable RESULT line when done (status_errors: answers
-- of 400 and above; socket_errors: connect, read, write errors and time-outs).
-- Arguments (after --): body file, key mode (none | new | fixed:<key>), run id.
--   none      no Idempotency-Key header
--   new       a key never sent before on every request: <run id>-<thread>-<counter>
--   fixed:K   the key K on every request (replays, once K has completed)

local threads = {}
local thread_count = 0

function setup(thread)
	thread_count = thread_count + 1
	thread:set("thread_number", thread_count)
	table.insert(threads, thread)
end

function init(args)
	local file = assert(io.open(args[1], "rb"))
	wrk.body = file:read("*a")
	file:close()
	wrk.method = "POST"
	wrk.headers["Content-Type"] = "application/json"
	wrk.headers["Authorization"] = "Bearer sk-benchmark"
	mode = args[2]
	prefix = args[3] .. "-" .. tostring(thread_number) .. "-"
	counter = 0
	if mode:sub(1, 6) == "fixed:" then
		wrk.headers["Idempotency-Key"] = mode:sub(7)
	end
	fixed_request = wrk.format()
end

function request()
	if mode ~= "new" then
		return fixed_request
	end
	counter = counter + 1
	wrk.headers["Idempotency-Key"] = prefix .. counter
	return wrk.format()
end

function done(summary, latency, requests)
	local seconds = summary.duration / 1e6
	local errors = summary.errors
	io.write(string.format(
		"RESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f status_errors=%d socket_errors=%d\n",
		summary.requests, seconds, summary.requests / seconds,
		latency:percentile(50) / 1000, latency:percentile(99) / 1000,
		errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
