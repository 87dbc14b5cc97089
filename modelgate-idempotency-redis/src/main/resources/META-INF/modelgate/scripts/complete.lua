-- Records the outcome of the in-progress attempt held by the given token and keeps it for the
-- retention time. The token is removed, so a completed record is final, even for its holder.
-- KEYS[1]: the record, KEYS[2]: its spent-key marker. ARGV[1]: token, ARGV[2]: retention in
-- milliseconds, then either ARGV[3]: the outcome's kind and ARGV[4]: its bytes, or nothing when the
-- result is not kept; or, to keep the key spent after the retention, ARGV[3]: kind ('' when the
-- result is not kept), ARGV[4]: bytes, ARGV[5]: the marker's retention in milliseconds, ARGV[6]: the
-- final status, ARGV[7]: the resource reference ('' for none).
-- The marker is a small hash of its own ('fp', 'status', 'completed' and 'created' in epoch
-- milliseconds on the Redis clock, 'resource'), living for retention plus the marker's retention:
-- the record and its answer expire after the retention as always, the marker answers after that.
-- Answers 1 when recorded, 0 when the record is gone, completed or held by another token.
local record = redis.call('HMGET', KEYS[1], 'state', 'token', 'fp', 'created')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] then
	return 0
end
if #ARGV >= 4 and ARGV[3] ~= '' then
	redis.call('HSET', KEYS[1], 'state', 'completed', 'kind', ARGV[3], 'outcome', ARGV[4])
else
	redis.call('HSET', KEYS[1], 'state', 'completed')
end
redis.call('HDEL', KEYS[1], 'token')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if #ARGV >= 7 then
	local now = redis.call('TIME')
	local completed = string.format('%d', tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
	redis.call('DEL', KEYS[2])
	redis.call('HSET', KEYS[2], 'fp', record[3], 'status', ARGV[6], 'completed', completed, 'created', record[4] or '')
	if ARGV[7] ~= '' then
		redis.call('HSET', KEYS[2], 'resource', ARGV[7])
	end
	redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[5]))
end
return 1
