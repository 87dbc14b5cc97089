-- Appends a batch of events to the open stream of the record held by the given token, all or none.
-- KEYS[1]: the record. ARGV[1]: token, ARGV[2]: the sequence of the first event, then each event's bytes.
-- Answers 1 when appended; 0 when the record is gone, completed, held by another token, not a
-- stream, or when the first sequence does not follow the last appended event.
local record = redis.call('HMGET', KEYS[1], 'state', 'token', 'seq')
if record[1] ~= 'in_progress' or record[2] ~= ARGV[1] or not record[3] then
	return 0
end
local from = tonumber(ARGV[2])
if tonumber(record[3]) + 1 ~= from then
	return 0
end
-- One HSET per event rather than one with all of them: no unpack(), so no limit on the batch.
for i = 3, #ARGV do
	redis.call('HSET', KEYS[1], 'e:' .. (from + i - 3), ARGV[i])
end
redis.call('HSET', KEYS[1], 'seq', from + #ARGV - 3)
return 1
