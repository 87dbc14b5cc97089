-- Reads a record's stream, whoever holds it, for replay and for followers.
-- KEYS[1]: the record. ARGV[1]: the last sequence already seen, ARGV[2]: the most events to read.
-- Answers {} when there is no record or it holds no stream; {'not_kept', head, attempt} when the
-- record completed without keeping its stream; else {'streaming' or 'completed', head, attempt, then
-- the events after ARGV[1] in order, at most ARGV[2] of them}. The attempt is the token that opened
-- the stream (stream_open.lua), so that a reader finds out when a retry took the record over.
local record = redis.call('HMGET', KEYS[1], 'state', 'seq', 'head', 'kind', 'attempt')
if not record[3] then
	return {}
end
-- A stream opened before 'attempt' was kept has none: '' names it, as it did nothing before.
record[5] = record[5] or ''
local state
if record[1] == 'in_progress' then
	state = 'streaming'
elseif record[1] == 'completed' and record[4] == 'stream' then
	state = 'completed'
elseif record[1] == 'completed' then
	return { 'not_kept', record[3], record[5] }
else
	return redis.error_reply('unreadable idempotency record')
end
local answer = { state, record[3], record[5] }
local after = tonumber(ARGV[1])
local last = math.min(tonumber(record[2]), after + tonumber(ARGV[2]))
-- HMGET, the command the other scripts use (the README's ACL line has no HGET), a thousand fields
-- at a time so that unpack stays within Lua's stack whatever ARGV[2] is.
local from = after + 1
while from <= last do
	local to = math.min(last, from + 999)
	local fields = {}
	for sequence = from, to do
		fields[#fields + 1] = 'e:' .. sequence
	end
	local events = redis.call('HMGET', KEYS[1], unpack(fields))
	for i = 1, #events do
		answer[#answer + 1] = events[i]
	end
	from = to + 1
end
return answer
