#!/usr/bin/env bash
# Load benchmark of the idempotency filter: the sample gateway with its zero-latency mock provider
# and Redis, driven from outside the JVM by wrk. One command, from anywhere:
#
#   benchmarks/load/run.sh
#
# Phase 1 (throughput): four request kinds side by side, at concurrency 1, 16 and 64:
#   a  POST /benchmark/chat/completions      the unannotated twin of the chat endpoint
#   b  POST /v1/chat/completions, new key    @Idempotent, a key never seen before on every request
#   c  POST /v1/chat/completions, same key   @Idempotent, every request a replay
#   d  POST /v1/chat/completions, no key     @Idempotent, passed through
# Phase 2 (store and memory), in a second app run with a 256 MiB heap:
#   Redis commands per request kind, from INFO commandstats before and after N requests;
#   32 concurrent 1 MiB keyed requests, and whether the app stayed up.
#
# Settings (environment): DURATION (seconds per measured run, 5), ROUNDS (runs per kind and
# concurrency, the median is reported, 3), WARMUP (seconds per kind before measuring, 10),
# CONCURRENCY ("1 16 64"), COUNT (requests per kind in phase 2, 500), MEMORY_DURATION (30),
# APP_PORT (18080), REDIS_PORT (6390: a private Redis started here, because INFO commandstats is
# server-wide and a shared Redis counts other clients' commands; point it at a running Redis to use
# that one instead), SKIP_BUILD=1 to reuse the built jars.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

duration=${DURATION:-5}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-10}
concurrency=${CONCURRENCY:-1 16 64}
count=${COUNT:-500}
memory_duration=${MEMORY_DURATION:-30}
app_port=${APP_PORT:-18080}
redis_port=${REDIS_PORT:-6390}
run_id=$(date +%Y%m%d-%H%M%S)
out="$root/benchmarks/target/load/$run_id"
mkdir -p "$out"
base="http://127.0.0.1:$app_port"
jar="$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
app_pid=
redis_started=

log() {
	echo "[$(date +%H:%M:%S)] $*" >&2
}

cleanup() {
	stop_app
	if [ -n "$redis_started" ]; then
		redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT

if ! command -v wrk >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "installing wrk"
		apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
	else
		echo "wrk is needed: apt-get install wrk (Debian, Ubuntu) or brew install wrk (macOS)" >&2
		exit 1
	fi
fi
for tool in redis-server redis-cli curl java awk; do
	command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

if [ "${SKIP_BUILD:-}" != 1 ]; then
	log "building the sample app and the benchmarks"
	./mvnw -B -q -pl sample-app,benchmarks -am package -DskipTests
fi

if ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
	log "starting a private Redis on port $redis_port"
	redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
		--dir "$out" --logfile "$out/redis.log"
	redis_started=1
	for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
	redis-cli -p "$redis_port" flushall >/dev/null
fi

# Bodies: the 1 KiB chat request the JMH fingerprint benchmark uses, and a 1 MiB one.
java -cp "$root/benchmarks/target/benchmarks.jar" dev.modelgate.idempotency.benchmarks.ChatBodies 1024 "$out/body-1k.json"
java -cp "$root/benchmarks/target/benchmarks.jar" dev.modelgate.idempotency.benchmarks.ChatBodies 1048576 "$out/body-1m.json"

# start_app NAME [JVM OPTIONS...] [-- APP ARGUMENTS...]
start_app() {
	local name=$1 jvm=() app=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do jvm+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	app=("$@")
	log "starting the sample app ($name)"
	java "${jvm[@]}" -jar "$jar" --server.port="$app_port" --spring.profiles.active=redis \
		--spring.data.redis.port="$redis_port" --modelgate.benchmark.enabled=true \
		--modelgate.idempotency.ttl=60s "${app[@]}" >"$out/app-$name.log" 2>&1 &
	app_pid=$!
	# Ready once a keyed request is answered: the first one also opens the Redis connection, which
	# can outlast the operation timeout on a busy machine (that request then gets a 503).
	for i in $(seq 1 120); do
		if [ "$(post /v1/chat/completions "$out/body-1k.json" "start-$name-$run_id-$i")" = 200 ]; then
			return
		fi
		kill -0 "$app_pid" 2>/dev/null || { tail -50 "$out/app-$name.log" >&2; exit 1; }
		sleep 0.5
	done
	echo "the sample app did not start; see $out/app-$name.log" >&2
	exit 1
}

stop_app() {
	if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
		kill "$app_pid"
		wait "$app_pid" 2>/dev/null || true
	fi
	app_pid=
}

# post PATH BODY [KEY] [CURL OPTIONS...]: one request; prints the status.
post() {
	local path=$1 body=$2 key=${3:-}
	shift $(( $# < 3 ? $# : 3 ))
	curl -s -o /dev/null -w '%{http_code}' "$@" -X POST "$base$path" -H 'Content-Type: application/json' \
		-H 'Authorization: Bearer sk-benchmark' ${key:+-H "Idempotency-Key: $key"} --data-binary "@$body" || true
}

# wrk_run CONNECTIONS SECONDS PATH BODY MODE: prints wrk's RESULT line.
wrk_run() {
	wrk -t1 -c"$1" -d"$2"s -s "$root/benchmarks/load/chat.lua" "$base$3" -- "$4" "$5" "$run_id-$RANDOM$RANDOM" \
		| grep '^RESULT'
}

path_of() {
	case $1 in a) echo /benchmark/chat/completions ;; *) echo /v1/chat/completions ;; esac
}

# run_kind KIND CONNECTIONS SECONDS: one wrk run of a request kind; prints its RESULT line.
run_kind() {
	local kind=$1 mode
	case $kind in
		a | d) mode=none ;;
		b) mode=new ;;
		c)
			mode="fixed:replay-$run_id-$RANDOM$RANDOM"
			[ "$(post /v1/chat/completions "$out/body-1k.json" "${mode#fixed:}")" = 200 ] || { echo "priming the replay key failed" >&2; exit 1; }
			;;
	esac
	wrk_run "$2" "$3" "$(path_of "$kind")" "$out/body-1k.json" "$mode"
}

# field NAME LINE: the value of NAME=value in a RESULT line.
field() {
	tr ' ' '\n' <<<"$2" | awk -F= -v name="$1" '$1 == name { print $2 }'
}

# ---------------------------------------------------------------------------------------------
# Phase 1: throughput and latency.

start_app throughput -Xms1g -Xmx1g

log "checking that each kind does what it says"
headers=$(mktemp)
check() {
	local want_status=$1 want_replayed=$2 path=$3 key=${4:-}
	local status
	status=$(post "$path" "$out/body-1k.json" "$key" -D "$headers")
	local replayed=no
	grep -qi '^Idempotency-Replayed: true' "$headers" && replayed=yes
	if [ "$status" != "$want_status" ] || [ "$replayed" != "$want_replayed" ]; then
		echo "check failed: $path key=${key:-none}: status $status, replayed $replayed" >&2
		exit 1
	fi
}
check 200 no /benchmark/chat/completions
check 200 no /v1/chat/completions "check-$run_id"
check 200 yes /v1/chat/completions "check-$run_id"
check 200 no /v1/chat/completions
rm -f "$headers"

log "warming up: ${warmup}s per kind at concurrency 16"
for kind in a b c d; do
	run_kind "$kind" 16 "$warmup" >/dev/null
done

results="$out/throughput.tsv"
printf 'concurrency\tkind\tround\trequests\trps\tp50_ms\tp99_ms\terrors\n' >"$results"
for c in $concurrency; do
	for round in $(seq 1 "$rounds"); do
		# Alternate the order, so that drift on a shared machine does not favour one kind.
		order="a b c d"
		[ $((round % 2)) = 0 ] && order="d c b a"
		for kind in $order; do
			line=$(run_kind "$kind" "$c" "$duration")
			log "c=$c round $round $kind: $line"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$kind" "$round" "$(field requests "$line")" \
				"$(field rps "$line")" "$(field p50_ms "$line")" "$(field p99_ms "$line")" \
				"$(field errors "$line")" >>"$results"
		done
	done
done
stop_app

# ---------------------------------------------------------------------------------------------
# Phase 2: store round trips and memory, with a 256 MiB heap.

start_app memory -Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError -Xlog:gc:file="$out/gc-memory.log" \
	-- --modelgate.benchmark.hold=5s

commandstats() {
	redis-cli -p "$redis_port" info commandstats | tr -d '\r' \
		| awk -F'[:=,]' '/^cmdstat_/ { sub(/^cmdstat_/, "", $1); print $1, $3 }' | sort
}

# requests N PATH BODY KEYMODE: N sequential requests on one connection (one curl), statuses tallied.
requests() {
	local n=$1 path=$2 body=$3 mode=$4 config
	config=$(mktemp)
	for i in $(seq 1 "$n"); do
		{
			[ "$i" = 1 ] || echo 'next'
			echo "url = \"$base$path\""
			echo 'header = "Content-Type: application/json"'
			echo 'header = "Authorization: Bearer sk-benchmark"'
			case $mode in
				new) echo "header = \"Idempotency-Key: rt-$run_id-$path-$i\"" ;;
				fixed:*) echo "header = \"Idempotency-Key: ${mode#fixed:}\"" ;;
			esac
			echo "data-binary = \"@$body\""
			echo 'output = "/dev/null"'
			echo 'write-out = "%{http_code}\n"'
			echo 'silent'
		} >>"$config"
	done
	curl -K "$config" | sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " } END { print "" }'
	rm -f "$config"
}

# count KIND N STATUSES BEFORE AFTER: a row of per-request command counts.
roundtrips="$out/roundtrips.tsv"
printf 'kind\trequests\tstatuses\tcommand\tper_request\n' >"$roundtrips"
count_row() {
	local kind=$1 n=$2 statuses=$3 before=$4 after=$5
	join -a 2 -e 0 -o 0,1.2,2.2 "$before" "$after" | awk -v kind="$kind" -v n="$n" -v statuses="$statuses" \
		'$1 != "info" && $3 - $2 > 0 { printf "%s\t%d\t%s\t%s\t%.3f\n", kind, n, statuses, $1, ($3 - $2) / n }' >>"$roundtrips"
}
measure() {
	local kind=$1 path=$2 mode=$3 statuses
	commandstats >"$out/before"
	statuses=$(requests "$count" "$path" "$out/body-1k.json" "$mode")
	commandstats >"$out/after"
	log "$kind: $statuses"
	count_row "$kind" "$count" "$statuses" "$out/before" "$out/after"
	grep -q "^$kind" "$roundtrips" || printf '%s\t%d\t%s\t(none)\t0\n' "$kind" "$count" "$statuses" >>"$roundtrips"
}

log "counting Redis commands per request kind ($count requests each)"
# Loads the scripts (the first EVALSHA of each answers NOSCRIPT and is followed by an EVAL).
requests 2 /v1/chat/completions "$out/body-1k.json" "fixed:prime-$run_id" >/dev/null
measure unannotated /benchmark/chat/completions none
measure annotated-no-key /v1/chat/completions none
measure new-key /v1/chat/completions new
measure replay /v1/chat/completions "fixed:prime-$run_id"
held_key="held-$run_id"
post /benchmark/held/chat/completions "$out/body-1k.json" "$held_key" >"$out/held-status" &
held_pid=$!
sleep 1
measure in-progress /benchmark/held/chat/completions "fixed:$held_key"
wait "$held_pid"
log "the held request answered $(cat "$out/held-status")"

log "memory: 32 connections sending 1 MiB keyed bodies for ${memory_duration}s, 256 MiB heap"
memory_line=$(wrk_run 32 "$memory_duration" /v1/chat/completions "$out/body-1m.json" new)
log "memory: $memory_line"
if kill -0 "$app_pid" 2>/dev/null && [ "$(post /v1/chat/completions "$out/body-1k.json")" = 200 ]; then
	stayed_up=yes
else
	stayed_up=no
fi
stop_app

# ---------------------------------------------------------------------------------------------
# Report.

report="$out/report.md"
{
	echo "# Load benchmark $run_id"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'),"
	echo "$(java -version 2>&1 | head -1), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Each cell: the median of $rounds runs of ${duration}s (wrk, 1 thread, keep-alive); ratios are of"
	echo "throughput against kind a at the same concurrency, from the same run."
	echo
	echo "| concurrency | kind | requests/s | p50 ms | p99 ms | ratio to a | errors |"
	echo "|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 { key = $1 " " $2; rps[key] = rps[key] " " $5; p50[key] = p50[key] " " $6;
			p99[key] = p99[key] " " $7; err[key] += $8; if (!(key in seen)) { seen[key] = 1; keys[++n] = key } }
		function median(list,   values, count, i, j, t) {
			count = split(substr(list, 2), values, " ")
			for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
			return (count % 2) ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
		}
		END {
			split("a b c d", kinds, " ")
			names["a"] = "a: unannotated"; names["b"] = "b: annotated, new key"
			names["c"] = "c: annotated, replay"; names["d"] = "d: annotated, no key"
			for (i = 1; i <= n; i++) { split(keys[i], parts, " "); conc[parts[1]] = 1 }
			for (i = 1; i <= n; i++) {
				split(keys[i], parts, " "); c = parts[1]; k = parts[2]
				base = median(rps[c " a"])
				ratio = (k == "a") ? "1.00" : sprintf("%.2f", median(rps[keys[i]]) / base)
				printf "| %s | %s | %.0f | %.2f | %.2f | %s | %d |\n", c, names[k], median(rps[keys[i]]),
					median(p50[keys[i]]), median(p99[keys[i]]), ratio, err[keys[i]]
			}
		}' "$results" | sort -t'|' -k2,2n -k3,3
	echo
	echo "Redis commands per request ($count sequential requests of each kind, INFO commandstats before"
	echo "and after; EVALSHA is the round trip, the others run inside its Lua script):"
	echo
	echo "| kind | statuses | command | per request |"
	echo "|---|---|---|---|"
	awk -F'\t' 'NR > 1 { printf "| %s | %s | %s | %s |\n", $1, $3, $4, $5 }' "$roundtrips"
	echo
	echo "Memory: 32 connections, 1 MiB bodies with new keys, ${memory_duration}s, -Xmx256m:"
	echo "wrk $(echo "$memory_line" | sed 's/^RESULT //'); the app stayed up: $stayed_up."
	awk '/Pause/ { n++; split($0, a, " "); for (i in a) if (a[i] ~ /->/) { split(a[i], h, /->|\(/); sub(/M/, "", h[2]); if (h[2] + 0 > max) max = h[2] + 0 }
			if (match($0, /[0-9.]+ms$/)) { p = substr($0, RSTART, RLENGTH - 2) + 0; total += p; if (p > maxp) maxp = p } }
		/Pause Full/ { full++ }
		END { printf "GC: %d pauses (%d full), longest %.1f ms, %.0f ms in total; the largest heap after a collection %d MiB.\n", n, full, maxp, total, max }' \
		"$out/gc-memory.log"
} >"$report"
cat "$report"
log "raw results in $out"
