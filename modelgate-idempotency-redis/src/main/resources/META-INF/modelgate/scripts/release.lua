-- Deletes the in-progress record held by the given token, so that a retry runs again.
-- KEYS[1]: the record. ARGV[1]: token.
-- Answers 1 when deleted, 0 when the record is gone, completed or held by another token.
local record = redis.call('HMGET', KEYS[1], 'state', 'token')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] then
	return 0
end
redis.call('DEL', KEYS[1])
return 1
