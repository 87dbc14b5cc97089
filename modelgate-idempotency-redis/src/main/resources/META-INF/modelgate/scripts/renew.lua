-- Extends the lease of an in-progress record held by the given token.
-- KEYS[1]: the record. ARGV[1]: token, ARGV[2]: lease in milliseconds.
-- Answers 1 when renewed, 0 when the record is gone, completed or held by another token.
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] then
	return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
