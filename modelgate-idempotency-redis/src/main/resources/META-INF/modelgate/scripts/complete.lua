-- Records the outcome of the in-progress attempt held by the given token and keeps it for the
-- retention time. The token is removed, so a completed record is final, even for its holder.
-- KEYS[1]: the record. ARGV[1]: token, ARGV[2]: retention in milliseconds, then either
-- ARGV[3]: the outcome's kind and ARGV[4]: its bytes, or nothing when the result is not kept.
-- Answers 1 when recorded, 0 when the record is gone, completed or held by another token.
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] then
	return 0
end
if #ARGV == 4 then
	redis.call('HSET', KEYS[1], 'state', 'completed', 'kind', ARGV[3], 'outcome', ARGV[4])
else
	redis.call('HSET', KEYS[1], 'state', 'completed')
end
redis.call('HDEL', KEYS[1], 'token')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
