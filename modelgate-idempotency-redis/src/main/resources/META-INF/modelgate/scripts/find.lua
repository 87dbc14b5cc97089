-- Reads what an operator may see of a record, for the Actuator endpoint and the health check: never
-- the fingerprint, the token or the stored outcome (only its kind and length).
-- KEYS[1]: the record, KEYS[2]: its spent-key marker (a spent key reads as a completed record whose
-- result is not kept).
-- Answers {} when there is no record, else {state, created or '', kind or '', outcome length,
-- milliseconds to expiry (-1: none), Redis clock seconds, Redis clock microseconds}.
if redis.call('EXISTS', KEYS[1]) == 0 then
	local marker = redis.call('HMGET', KEYS[2], 'fp', 'created')
	if not marker[1] then
		return {}
	end
	local now = redis.call('TIME')
	return { 'completed', marker[2] or '', '', 0, redis.call('PTTL', KEYS[2]), now[1], now[2] }
end
local record = redis.call('HMGET', KEYS[1], 'state', 'created', 'kind')
if record[1] ~= 'in_progress' and record[1] ~= 'completed' then
	return redis.error_reply('unreadable idempotency record')
end
local now = redis.call('TIME')
return { record[1], record[2] or '', record[3] or '', redis.call('HSTRLEN', KEYS[1], 'outcome'),
	redis.call('PTTL', KEYS[1]), now[1], now[2] }
