-- Marks the in-progress record held by the given token as a stream and keeps its head. The events
-- follow as fields of the same hash ('e:1', 'e:2', ...), 'seq' being the last one appended, so the
-- stream lives and expires with its record on one key (one key per script: Redis Cluster works).
-- 'attempt' keeps the token that opened the stream, which completing removes: readers tell attempts
-- apart by it (stream_read.lua).
-- KEYS[1]: the record. ARGV[1]: token, ARGV[2]: the head's bytes.
-- Answers 1 when opened, 0 when the record is gone, completed, held by another token or already a stream.
local record = redis.call('HMGET', KEYS[1], 'state', 'token', 'seq')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] or record[3] then
	return 0
end
redis.call('HSET', KEYS[1], 'head', ARGV[2], 'seq', 0, 'attempt', ARGV[1])
return 1
