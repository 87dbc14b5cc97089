#!/usr/bin/env bash
# The Redis work a new key costs with spent-key markers off and on (issue 39): the sample gateway on
# its redis profile against a private Redis, N new keys sent one after the other with each setting,
# then INFO commandstats (the two EVALSHA round trips and the commands their scripts ran, per key) and
# used_memory per key while the records live. The counts do not depend on the machine's load; the
# microseconds do: read them only from a quiet machine.
#
#   benchmarks/load/spent-key-work.sh            # N=300, Redis on port 6391, the app on 18091
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
jar=sample-app/target/sample-app-0.1.0-SNAPSHOT.jar
port=${REDIS_PORT:-6391}
app=${APP_PORT:-18091}
n=${N:-300}
[ -f "$jar" ] || ./mvnw -B -q -pl sample-app -am package -DskipTests
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --logfile "/tmp/redis-$port.log"
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
body='{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello there, a request of about a hundred bytes."}]}'

post() {
	curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Authorization: Bearer sk-benchmark' \
		-H "Idempotency-Key: $1" -d "$body" "localhost:$app/v1/chat/completions"
}

used_memory() {
	redis-cli -p "$port" info memory | tr -d '\r' | awk -F: '/^used_memory:/ { print $2 }'
}

run() {
	local name=$1 pid mem0 mem1
	shift
	redis-cli -p "$port" flushall >/dev/null
	java -Xmx512m -jar "$jar" --server.port="$app" --management.server.port=0 --spring.profiles.active=redis \
		--spring.data.redis.port="$port" --modelgate.idempotency.ttl=1h "$@" >"/tmp/spent-key-work-$name.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 120); do curl -s -o /dev/null "localhost:$app/v1/chat/completions" && break; sleep 1; done
	post "warm-$name" # loads the scripts
	redis-cli -p "$port" config resetstat >/dev/null
	mem0=$(used_memory)
	for i in $(seq 1 "$n"); do post "$name-$i"; done
	mem1=$(used_memory)
	echo "$name ($n new keys):"
	redis-cli -p "$port" info commandstats | tr -d '\r' | awk -F'[:=,]' -v n="$n" '/^cmdstat_/ {
		sub(/^cmdstat_/, "", $1)
		if ($1 != "info" && $1 !~ /^config/) printf "  %-8s %.2f per key, %.1f µs per key\n", $1, $3 / n, $5 / n }'
	echo "  used_memory: $(((mem1 - mem0) / n)) bytes per key"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
}

run markers-off
run markers-on --modelgate.idempotency.spent-key-retention=7d
