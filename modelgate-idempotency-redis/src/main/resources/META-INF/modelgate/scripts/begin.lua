-- Acquires the record for a new attempt, or reports what holds it. A record that is not there
-- (never written, released, or its lease or retention expired) is acquired.
-- KEYS[1]: the record, KEYS[2]: its spent-key marker. ARGV[1]: fingerprint, ARGV[2]: token, ARGV[3]:
-- lease in milliseconds.
-- Answers {'acquired'}, {'mismatch'}, {'in_progress'}, {'completed'} when the result was not kept,
-- {'completed', kind, outcome}, or {'spent', status, completed, resource or ''} when the record has
-- expired and its marker (complete.lua) still holds the key.
if redis.call('EXISTS', KEYS[1]) == 0 then
	local marker = redis.call('HMGET', KEYS[2], 'fp', 'status', 'completed', 'resource')
	if marker[1] then
		if marker[1] ~= ARGV[1] then
			return { 'mismatch' }
		end
		return { 'spent', marker[2], marker[3], marker[4] or '' }
	end
	-- 'created' (epoch milliseconds) is taken from the Redis clock, the one the expiry runs on, so
	-- that an operator reading the record measures its age and its expiry on the same clock. Writing
	-- after TIME needs effects replication, the default since Redis 5.
	local now = redis.call('TIME')
	local created = now[1] .. string.format('%03d', math.floor(tonumber(now[2]) / 1000))
	redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'in_progress', 'token', ARGV[2], 'created', created)
	redis.call('PEXPIRE', KEYS[1], ARGV[3])
	return { 'acquired' }
end
local record = redis.call('HMGET', KEYS[1], 'fp', 'state')
-- Something else wrote this key: answering from it would be a guess, so report it as a failure.
if not record[1] or (record[2] ~= 'in_progress' and record[2] ~= 'completed') then
	return redis.error_reply('unreadable idempotency record')
end
-- The fingerprint comes first: a reused key is an error whatever state its request is in.
if record[1] ~= ARGV[1] then
	return { 'mismatch' }
end
if record[2] == 'in_progress' then
	return { 'in_progress' }
end
local outcome = redis.call('HMGET', KEYS[1], 'kind', 'outcome')
if not outcome[1] then
	return { 'completed' }
end
return { 'completed', outcome[1], outcome[2] }
