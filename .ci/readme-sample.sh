#!/usr/bin/env bash
# The README's command that runs the sample gateway, run as a user runs it from the root of a
# checkout: it must start, answer a keyed request and replay it. (Maven looks a goal prefix such as
# "spring-boot:" up in the first project of the build; nothing else in CI runs the command.)
set -euo pipefail
cd "$(dirname "$0")/.."

command=$(grep -m1 '# the sample gateway' README.md | sed 's/ *#.*//')
[ -n "$command" ] || { echo "README: the sample gateway's command was not found" >&2; exit 1; }
url=http://127.0.0.1:8080
up() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/" || true)" != 000 ]
}
if up; then
  echo "README sample: port 8080 is taken before the sample starts" >&2
  exit 1
fi

log=$(mktemp)
setsid bash -c "$command" >"$log" 2>&1 &
pid=$!
stop() {
  kill -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
trap stop EXIT

fail() {
  echo "README sample ($command): $1" >&2
  tail -n 60 "$log" >&2
  exit 1
}

for _ in $(seq 1 300); do
  up && break
  kill -0 "$pid" 2>/dev/null || fail "stopped before it answered"
  sleep 1
done
up || fail "did not answer within 300 s"

key="ci-readme-$(date +%s%N)"
request() {
  curl -sS -i "$url/v1/chat/completions" -H 'Content-Type: application/json' -H 'Authorization: Bearer demo' \
    -H "Idempotency-Key: $key" -d '{"model":"mock-1","messages":[{"role":"user","content":"Hello"}]}'
}
first=$(request)
second=$(request)
grep -q '^HTTP/1.1 200' <<<"$first" || fail "the first request was not answered 200: $first"
grep -qi '^Idempotent-Replayed: true' <<<"$second" || fail "the retry was not a replay: $second"
[ "${first#*$'\r\n\r\n'}" = "${second#*$'\r\n\r\n'}" ] || fail "the replay's body differs: $first / $second"
echo "README sample: '$command' started, answered 200 and replayed the same bytes"
