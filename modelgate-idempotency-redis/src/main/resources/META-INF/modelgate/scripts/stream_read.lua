-- Reads a record's stream, whoever holds it, for replay and for followers.
-- KEYS[1]: the record. ARGV[1]: the last sequence already seen, ARGV[2]: the most events to read.
-- Answers {} when there is no record or it holds no stream; {'not_kept', head} when the record
-- completed without keeping its stream; else {'streaming' or 'completed', head, then the events
-- after ARGV[1] in order, at most ARGV[2] of them}.
local record = redis.call('HMGET', KEYS[1], 'state', 'seq', 'head', 'kind')
if not record[3] then
	return {}
end
local state
if record[1] == 'in_progress' then
	state = 'streaming'
elseif record[1] == 'completed' and record[4] == 'stream' then
	state = 'completed'
elseif record[1] == 'completed' then
	return { 'not_kept', record[3] }
else
	return redis.error_reply('unreadable idempotency record')
end
local answer = { state, record[3] }
local after = tonumber(ARGV[1])
local last = math.min(tonumber(record[2]), after + tonumber(ARGV[2]))
for sequence = after + 1, last do
	answer[#answer + 1] = redis.call('HGET', KEYS[1], 'e:' .. sequence)
end
return answer
