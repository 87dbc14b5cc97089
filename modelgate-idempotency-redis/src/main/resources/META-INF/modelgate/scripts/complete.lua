-- Records the outcome of the in-progress attempt held by the given token and keeps it for the
-- retention time. The token is removed, so a completed record is final, even for its holder.
-- KEYS[1]: the record. ARGV[1]: token, ARGV[2]: retention in milliseconds, then either
-- ARGV[3]: the outcome's kind and ARGV[4]: its bytes, or nothing when the result is not kept; or, to
-- keep the key spent after the retention (a spent-key marker), ARGV[3]: kind ('' when the result is
-- not kept), ARGV[4]: bytes, ARGV[5]: the marker's retention in milliseconds, ARGV[6]: the final
-- status, ARGV[7]: the resource reference ('' for none).
-- The marker's fields: 'spent_at' (when the answer expires), 'status', 'completed' (both epoch
-- milliseconds on the Redis clock) and 'resource'; the key then lives until the marker's end, and
-- begin.lua drops the answer once it has expired.
-- Answers 1 when recorded, 0 when the record is gone, completed or held by another token.
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] then
	return 0
end
if #ARGV >= 4 and ARGV[3] ~= '' then
	redis.call('HSET', KEYS[1], 'state', 'completed', 'kind', ARGV[3], 'outcome', ARGV[4])
else
	redis.call('HSET', KEYS[1], 'state', 'completed')
end
redis.call('HDEL', KEYS[1], 'token')
if #ARGV >= 7 then
	local now = redis.call('TIME')
	local completed = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
	redis.call('HSET', KEYS[1], 'spent_at', string.format('%d', completed + tonumber(ARGV[2])), 'status', ARGV[6],
		'completed', string.format('%d', completed))
	if ARGV[7] ~= '' then
		redis.call('HSET', KEYS[1], 'resource', ARGV[7])
	end
	redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[5]))
else
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
