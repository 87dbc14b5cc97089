-- Reads what an operator may see of a record, for the Actuator endpoint and the health check: never
-- the fingerprint, the token or the stored outcome (only its kind and length).
-- KEYS[1]: the record.
-- Answers {} when there is no record, else {state, created or '', kind or '', outcome length,
-- milliseconds to expiry (-1: none), Redis clock seconds, Redis clock microseconds}.
if redis.call('EXISTS', KEYS[1]) == 0 then
	return {}
end
local record = redis.call('HMGET', KEYS[1], 'state', 'created', 'kind', 'spent_at')
if record[1] ~= 'in_progress' and record[1] ~= 'completed' then
	return redis.error_reply('unreadable idempotency record')
end
local now = redis.call('TIME')
-- A spent key's answer has expired: only its marker counts, even before begin.lua drops the answer.
if record[4] and tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) >= tonumber(record[4]) then
	return { record[1], record[2] or '', '', 0, redis.call('PTTL', KEYS[1]), now[1], now[2] }
end
return { record[1], record[2] or '', record[3] or '', redis.call('HSTRLEN', KEYS[1], 'outcome'),
	redis.call('PTTL', KEYS[1]), now[1], now[2] }
