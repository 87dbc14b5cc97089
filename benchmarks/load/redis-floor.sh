#!/usr/bin/env bash
# What a new key costs on Redis in the servlet filter, against what the Redis client alone needs for
# the same two scripts (issue 38). In one run, with the same JVM settings:
#   M  the sample app on its in-memory store
#   L  the sample app on Redis with Lettuce (Spring Boot's default client), the sample's 2 s timeouts
#   D  the same with Spring Boot's (and Lettuce's) default timeouts: 60 s per command, 10 s to connect
#   J  the sample app on Redis with Jedis, its calls bounded within operation-timeout as STORES.md
#      shows (a pool of 16 that waits 200 ms, 800 ms read and 1 s connect timeouts)
#   B  with BEFORE_SERVLET_JAR: that jar (an earlier commit) as D, so that a change is measured side by
#      side with what it replaces
# each driven by wrk at the unannotated twin (POST /benchmark/chat/completions), at the @Idempotent
# chat endpoint with a new key on every request (POST /v1/chat/completions), and at the twin with the
# store's begin and complete called by hand around it, no filter (POST
# /benchmark/store-calls/chat/completions: the store's own cost inside a request), with the app's CPU time
# per request (all threads but the JIT compilers', from /proc); and RedisClientFloor (benchmarks jar) in a JVM of its own:
#   floor  begin.lua then complete.lua with a 900-byte outcome, the store's arguments, on the client's
#          own API (Lettuce: one shared connection, synchronous API; Jedis: a pool of 16), in a loop
#   store  the same pair through RedisIdempotencyStore on Spring Data's connection factory
# from as many threads as the concurrency, with the process's CPU time per key (the same threads).
#
# The filter's Redis cost per new key is what a new key adds on Redis beyond what it adds on the
# memory store, each against its twin in the same round: ((L_new - L_twin) - (M_new - M_twin)). The
# report divides it by the client's floor, and by the same difference for the store calls made by hand
# in a request (what the filter adds around the store, in the same request chain). Each round runs everything in one order, the next round in
# the reverse order; a cell is the median over the rounds.
#
#   benchmarks/load/redis-floor.sh
#
# Settings (environment): DURATION (seconds per measured run, 6), ROUNDS (3), WARMUP (seconds per
# kind and concurrency before measuring, 10), CONCURRENCY ("1 16"), PORT (the first of four ports,
# 18091), APPS (the apps to run, "M L D J"; M is needed), REDIS_HOST (127.0.0.1), REDIS_PORT (6379), SKIP_BUILD=1 to reuse the built jars, SERVLET_JAR
# and BENCHMARKS_JAR (the jars to run), PROFILER (async-profiler's libasyncProfiler.so: after the
# measured runs, each app's PROFILE_KINDS ("new"; also "twin", "store") once more at PROFILE_CONCURRENCY
# ("16") with cpu sampling, written as profile-<app>-<kind>-c<concurrency>.collapsed).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

duration=${DURATION:-6}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-10}
concurrency=${CONCURRENCY:-1 16}
port=${PORT:-18091}
redis_host=${REDIS_HOST:-127.0.0.1}
redis_port=${REDIS_PORT:-6379}
profiler=${PROFILER:-}
profile_concurrency=${PROFILE_CONCURRENCY:-16}
profile_kinds=${PROFILE_KINDS:-new}
servlet_jar=${SERVLET_JAR:-$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar}
benchmarks_jar=${BENCHMARKS_JAR:-$root/benchmarks/target/benchmarks.jar}
jvm=(-Xms1g -Xmx1g)
out="$root/benchmarks/target/redis-floor/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
clock_ticks=$(getconf CLK_TCK)
declare -A pids bases

log() {
	echo "[$(date +%H:%M:%S)] $*" >&2
}

stop_apps() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}
trap stop_apps EXIT

command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
if [ "${SKIP_BUILD:-}" != 1 ] || [ ! -f "$servlet_jar" ] || [ ! -f "$benchmarks_jar" ]; then
	log "building the sample app and the benchmarks"
	./mvnw -B -q -pl sample-app,benchmarks -am package -DskipTests
fi

# A 1 KiB chat request, as gateway.sh sends.
python3 - "$out/body-1k.json" <<'EOF'
import json, sys
json.dump({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "x" * 900}]}, open(sys.argv[1], "w"))
EOF

# The CPU seconds process $1 has used, all threads but the JIT compilers': they still compile now and
# then after the warm-up, and what they spend in one run would be charged to that run's kind.
app_cpu() {
	local all jit
	all=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
	# A thread's name is field 2, in parentheses, and has a space: cut it off, utime and stime follow.
	jit=$(grep -h 'CompilerThre' "/proc/$1"/task/*/stat 2>/dev/null | sed 's/^.*) //' | awk '{ s += $12 + $13 } END { print s + 0 }')
	awk -v a="$all" -v j="$jit" -v t="$clock_ticks" 'BEGIN { print (a - j) / t }'
}

post() {
	curl -s -o /dev/null -w '%{http_code}' -X POST "$1$2" -H 'Content-Type: application/json' \
		-H 'Authorization: Bearer sk-benchmark' ${3:+-H "Idempotency-Key: $3"} --data-binary "@$out/body-1k.json"
}

# Start app $1 (M, L or J) on port $2 with the arguments that follow.
start_app() {
	local name=$1 app_port=$2
	shift 2
	log "starting app $name on port $app_port"
	java "${jvm[@]}" -jar "$servlet_jar" --server.port="$app_port" --management.server.port=0 \
		--modelgate.benchmark.enabled=true --modelgate.idempotency.ttl=60s "$@" >"$out/app-$name.log" 2>&1 &
	pids[$name]=$!
	bases[$name]="http://127.0.0.1:$app_port"
}

redis=(--spring.profiles.active=redis --spring.data.redis.host="$redis_host" --spring.data.redis.port="$redis_port")
apps=${APPS:-M L D J}
kinds=
for name in $apps; do
	case $name in
		M) start_app M "$port" ;;
		L) start_app L "$((port + 1))" "${redis[@]}" ;;
		D) start_app D "$((port + 3))" "${redis[@]}" --spring.data.redis.timeout=60s \
			--spring.data.redis.connect-timeout=10s ;;
		J) start_app J "$((port + 2))" "${redis[@]}" --spring.data.redis.client-type=jedis \
			--spring.data.redis.timeout=800ms --spring.data.redis.connect-timeout=1s \
			--spring.data.redis.jedis.pool.enabled=true --spring.data.redis.jedis.pool.max-active=16 \
			--spring.data.redis.jedis.pool.max-idle=16 --spring.data.redis.jedis.pool.max-wait=200ms ;;
	esac
	kinds="$kinds ${name}_twin ${name}_new ${name}_store"
done
kinds="$kinds floor_lettuce store_lettuce floor_jedis store_jedis"
if [ -n "${BEFORE_SERVLET_JAR:-}" ]; then
	servlet_jar=$BEFORE_SERVLET_JAR start_app B "$((port + 4))" "${redis[@]}" --spring.data.redis.timeout=60s \
		--spring.data.redis.connect-timeout=10s
	apps="$apps B"
	kinds="$kinds B_twin B_new B_store"
fi
for name in $apps; do
	for i in $(seq 1 180); do
		[ "$(post "${bases[$name]}" /v1/chat/completions "start-$name-$i-$RANDOM")" = 200 ] && break
		kill -0 "${pids[$name]}" 2>/dev/null || { echo "app $name died: $out/app-$name.log" >&2; exit 1; }
		sleep 1
	done
	[ "$(post "${bases[$name]}" /benchmark/chat/completions)" = 200 ] || { echo "app $name's twin does not answer" >&2; exit 1; }
	[ "$(post "${bases[$name]}" /benchmark/store-calls/chat/completions)" = 200 ] \
		|| { echo "app $name's store-calls endpoint does not answer" >&2; exit 1; }
done

# Run kind $1 (M_twin, M_new, L_twin, ...) at concurrency $2 for $3 seconds; prints "rps p50_ms us_per_req".
run_app() {
	local name=${1%_*} kind=${1#*_} c=$2 seconds=$3 path=/benchmark/chat/completions mode=none before line
	[ "$kind" = new ] && path=/v1/chat/completions mode=new
	[ "$kind" = store ] && path=/benchmark/store-calls/chat/completions
	before=$(app_cpu "${pids[$name]}")
	line=$(wrk -t1 -c"$c" -d"${seconds}s" --latency -s benchmarks/load/chat.lua "${bases[$name]}$path" \
		-- "$out/body-1k.json" "$mode" "rf-$1-$c-$RANDOM" | grep '^RESULT')
	awk -v a0="$before" -v a1="$(app_cpu "${pids[$name]}")" -v line="$line" 'BEGIN {
		match(line, /requests=[0-9]+/); n = substr(line, RSTART + 9, RLENGTH - 9); if (n == 0) n = 1
		match(line, /rps=[0-9.]+/); rps = substr(line, RSTART + 4, RLENGTH - 4)
		match(line, /p50_ms=[0-9.]+/); p50 = substr(line, RSTART + 7, RLENGTH - 7)
		match(line, /status_errors=[0-9]+/); errors = substr(line, RSTART + 14, RLENGTH - 14)
		printf "%s %s %.1f %s\n", rps, p50, (a1 - a0) * 1e6 / n, errors }'
}

# Run the client alone ($1: floor_lettuce, store_jedis, ...) at concurrency $2: "keys/s p50_ms us_per_key 0".
run_floor() {
	local path=${1%_*} client=${1#*_} c=$2 seconds=$3
	java "${jvm[@]}" -Dredis.host="$redis_host" -Dredis.port="$redis_port" -Dclock.ticks="$clock_ticks" \
		-cp "$benchmarks_jar" dev.modelgate.idempotency.redis.RedisClientFloor "$client" "$path" "$c" "$warmup" \
		"$seconds" | awk '/^RESULT/ { printf "%s %.3f %s 0\n", $6, $8 / 1000, $7 }'
}

run() {
	case $1 in
		[MLDJB]_*) run_app "$@" ;;
		*) run_floor "$@" ;;
	esac
}

printf 'concurrency\tkind\tround\trps\tp50_ms\tus\terrors\tload\n' >"$out/runs.tsv"
for c in $concurrency; do
	log "warming up the apps at concurrency $c"
	for kind in $kinds; do
		case $kind in [MLDJB]_*) run_app "$kind" "$c" "$warmup" >/dev/null ;; esac
	done
	for round in $(seq 1 "$rounds"); do
		order=$kinds
		[ $((round % 2)) = 0 ] && order=$(echo "$kinds" | tr ' ' '\n' | tac | tr '\n' ' ')
		for kind in $order; do
			read -r rps p50 us errors <<<"$(run "$kind" "$c" "$duration")"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$kind" "$round" "$rps" "$p50" "$us" "$errors" \
				"$(cut -d' ' -f1 /proc/loadavg)" >>"$out/runs.tsv"
			log "c=$c $kind round $round: $rps/s p50 $p50 ms, $us µs CPU each, $errors errors"
		done
	done
done

if [ -n "$profiler" ]; then
	for c in $profile_concurrency; do
		for name in $apps; do
			for kind in $profile_kinds; do
				jcmd "${pids[$name]}" JVMTI.agent_load "$profiler" "\"start,event=cpu,interval=200000\"" >/dev/null
				run_app "${name}_$kind" "$c" "$duration" >/dev/null
				jcmd "${pids[$name]}" JVMTI.agent_load "$profiler" \
					"\"stop,file=$out/profile-$name-$kind-c$c.collapsed,collapsed\"" >/dev/null
				log "profiled app $name, $kind, at c=$c"
			done
		done
	done
fi

python3 - "$out/runs.tsv" <<'EOF' | tee "$out/report.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def by_round(c, kind, field="us"):
    return {r["round"]: float(r[field]) for r in rows if r["concurrency"] == c and r["kind"] == kind}
def median(values):
    return statistics.median(values) if values else float("nan")
errors = sum(int(r["errors"]) for r in rows)
print("| concurrency | client | client floor µs CPU/key | store µs CPU/key | store calls in a request µs/key | filter's Redis cost µs CPU/key [rounds] | filter / floor | store / floor | filter / store calls in a request | floor p50 ms | filter's added p50 ms |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for c in sorted({r["concurrency"] for r in rows}, key=int):
    for name, client, label in (("L", "lettuce", "Lettuce, 2 s timeouts"), ("D", "lettuce", "Lettuce, Boot's default timeouts"), ("J", "jedis", "Jedis, bounded calls"), ("B", "lettuce", "Lettuce, Boot's default timeouts, before")):
        if not by_round(c, name + "_new"):
            continue
        floor, store = by_round(c, "floor_" + client), by_round(c, "store_" + client)
        def added(app, field):
            new, twin = by_round(c, app + "_new", field), by_round(c, app + "_twin", field)
            return {r: new[r] - twin[r] for r in new if r in twin}
        def beyond_memory(kind, field="us"):
            def diff(app):
                mine, twin = by_round(c, app + "_" + kind, field), by_round(c, app + "_twin", field)
                return {r: mine[r] - twin[r] for r in mine if r in twin}
            redis, memory = diff(name), diff("M")
            return [redis[r] - memory[r] for r in sorted(redis, key=int) if r in memory]
        cost = beyond_memory("new")
        in_request = median(beyond_memory("store"))
        redis_p50, memory_p50 = added(name, "p50_ms"), added("M", "p50_ms")
        p50 = median([redis_p50[r] - memory_p50[r] for r in redis_p50 if r in memory_p50])
        f, s, k = median(list(floor.values())), median(list(store.values())), median(cost)
        print(f"| {c} | {label} | {f:.1f} | {s:.1f} | {in_request:+.1f} | {k:+.1f} [{' '.join(f'{v:+.0f}' for v in cost)}] | "
              f"{k / f:.2f} | {s / f:.2f} | {k / in_request:.2f} | {median(list(by_round(c, 'floor_' + client, 'p50_ms').values())):.3f} | {p50:+.3f} |")
print()
print(f"HTTP errors in all runs: {errors}")
EOF
log "results in $out"
