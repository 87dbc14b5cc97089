-- Ends the open stream of the record held by the given token normally: the record is completed with
-- the outcome kind 'stream' and the head as its outcome (begin.lua answers it like any outcome), and
-- kept, events included, for the retention time. The token is removed, so the stream is final.
-- KEYS[1]: the record. ARGV[1]: token, ARGV[2]: retention in milliseconds.
-- Answers 1 when completed, 0 when the record is gone, completed, held by another token or not a stream.
local record = redis.call('HMGET', KEYS[1], 'state', 'token', 'seq', 'head')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] or not record[3] then
	return 0
end
redis.call('HSET', KEYS[1], 'state', 'completed', 'kind', 'stream', 'outcome', record[4])
redis.call('HDEL', KEYS[1], 'token')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
