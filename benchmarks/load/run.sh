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
# with the CPU time the app and Redis spent per request.
# Phase 2 (store and memory), with a 256 MiB heap: Redis commands per request kind, from INFO
# commandstats before and after N requests; then 32 concurrent 1 MiB requests, unannotated and with
# new keys, and whether the app stayed up.
#
# Settings (environment): STORE (redis, the default, or memory: the sample's default profile, the
# in-memory store, no Redis at all; phase 2 then skips the Redis command counts), DURATION (seconds
# per measured run, 5), ROUNDS (runs per kind and concurrency, the median is reported, 3), WARMUP
# (seconds per kind and concurrency before measuring it, 10), WARMUP_PASSES (the most warm-up passes
# per concurrency, 3: another pass runs while the JIT compilers used more than JIT_QUIET µs of CPU per
# request in the last one), JIT_QUIET (2), CONCURRENCY ("1 16 64"), COUNT (requests per kind for the
# command counts, 500), MEMORY_DURATION (seconds per kind, 20), APP_PORT (18080), REDIS_PORT (6390: a
# private Redis started here, because INFO commandstats is server-wide and a shared Redis counts other
# clients' commands; point it at a running Redis to use that one instead), SKIP_BUILD=1 to reuse the
# built jars, PHASES ("1 2"; "1" skips the store and memory phase; THROUGHPUT_ONLY=1 means the same),
# PROFILER (the path of async-profiler's libasyncProfiler.so, from Maven Central
# tools.profiler:async-profiler: after phase 1, one more run of each kind at each PROFILE_CONCURRENCY
# ("16") with PROFILE_EVENT sampling ("cpu"; "wall" shows where threads wait), written as collapsed
# stacks profile-<kind>-c<concurrency>.collapsed), JAVA (the java that runs the app,
# java), JVM_OPTS (more JVM options for the app, space-separated), APP_OPTS (more app arguments,
# space-separated: APP_OPTS="--spring.data.redis.client-type=jedis --spring.threads.virtual.enabled=true"),
# START_TIMEOUT (seconds the app may take to answer its first keyed request, 180).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

store=${STORE:-redis}
duration=${DURATION:-5}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-10}
warmup_passes=${WARMUP_PASSES:-3}
start_timeout=${START_TIMEOUT:-180}
jit_quiet=${JIT_QUIET:-2}
phases=${PHASES:-1 2}
if [ "${THROUGHPUT_ONLY:-}" = 1 ]; then
	phases=1
fi
profiler=${PROFILER:-}
profile_concurrency=${PROFILE_CONCURRENCY:-16}
profile_event=${PROFILE_EVENT:-cpu}
read -r -a jvm_opts <<<"${JVM_OPTS:-}"
read -r -a app_opts <<<"${APP_OPTS:-}"
concurrency=${CONCURRENCY:-1 16 64}
count=${COUNT:-500}
memory_duration=${MEMORY_DURATION:-20}
app_port=${APP_PORT:-18080}
redis_port=${REDIS_PORT:-6390}
case $store in
	redis) profile_args=(--spring.profiles.active=redis --spring.data.redis.port="$redis_port") ;;
	memory) profile_args=() ;;
	*) echo "STORE must be redis or memory, was $store" >&2; exit 1 ;;
esac
run_id=$(date +%Y%m%d-%H%M%S)
out="$root/benchmarks/target/load/$run_id"
mkdir -p "$out"
base="http://127.0.0.1:$app_port"
jar="$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
clock_ticks=$(getconf CLK_TCK)
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
for tool in redis-server redis-cli curl java jcmd awk; do
	command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

if [ "${SKIP_BUILD:-}" != 1 ]; then
	log "building the sample app and the benchmarks"
	./mvnw -B -q -pl sample-app,benchmarks -am package -DskipTests
fi

if [ "$store" = redis ] && ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
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
	"${JAVA:-java}" "${jvm[@]}" ${jvm_opts[@]+"${jvm_opts[@]}"} -jar "$jar" --server.port="$app_port" \
		--management.server.port=0 ${profile_args[@]+"${profile_args[@]}"} --modelgate.benchmark.enabled=true \
		--modelgate.idempotency.ttl=60s ${app[@]+"${app[@]}"} ${app_opts[@]+"${app_opts[@]}"} >"$out/app-$name.log" 2>&1 &
	app_pid=$!
	# Ready once a keyed request is answered: the first one also opens the Redis connection, which
	# can outlast the operation timeout on a busy machine (that request then gets a 503).
	local i=0 deadline=$((SECONDS + start_timeout))
	while [ "$SECONDS" -lt "$deadline" ]; do
		i=$((i + 1))
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

# wrk_run CONNECTIONS SECONDS PATH BODY MODE [TIMEOUT]: prints wrk's RESULT line.
wrk_run() {
	wrk -t1 -c"$1" -d"$2"s --timeout "${6:-2}s" -s "$root/benchmarks/load/chat.lua" "$base$3" \
		-- "$4" "$5" "$run_id-$RANDOM$RANDOM" | grep '^RESULT'
}

path_of() {
	case $1 in a) echo /benchmark/chat/completions ;; *) echo /v1/chat/completions ;; esac
}

# CPU seconds the app has used (all threads), its JIT compiler threads alone, and Redis.
app_cpu() {
	awk -v hz="$clock_ticks" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$app_pid/stat"
}
jit_cpu() {
	# A thread's name is field 2, in parentheses, and has a space: cut it off, utime and stime follow.
	grep -h 'CompilerThre' "/proc/$app_pid"/task/*/stat 2>/dev/null | sed 's/^.*) //' \
		| awk -v hz="$clock_ticks" '{ s += $12 + $13 } END { printf "%.3f\n", s / hz }'
}
redis_cpu() {
	if [ "$store" != redis ]; then
		echo 0
		return
	fi
	redis-cli -p "$redis_port" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ { s += $2 } END { printf "%.3f\n", s }'
}

# run_kind KIND CONNECTIONS SECONDS: one wrk run of a request kind; prints its RESULT line followed
# by the app's, its JIT compilers' and Redis's CPU microseconds per request.
run_kind() {
	local kind=$1 mode line app0 jit0 redis0
	case $kind in
		a | d) mode=none ;;
		b) mode=new ;;
		c)
			mode="fixed:replay-$run_id-$RANDOM$RANDOM"
			[ "$(post /v1/chat/completions "$out/body-1k.json" "${mode#fixed:}")" = 200 ] || { echo "priming the replay key failed" >&2; exit 1; }
			;;
	esac
	app0=$(app_cpu)
	jit0=$(jit_cpu)
	redis0=$(redis_cpu)
	line=$(wrk_run "$2" "$3" "$(path_of "$kind")" "$out/body-1k.json" "$mode")
	echo "$line $(awk -v a0="$app0" -v a1="$(app_cpu)" -v j0="$jit0" -v j1="$(jit_cpu)" -v r0="$redis0" \
		-v r1="$(redis_cpu)" -v line="$line" 'BEGIN {
		match(line, /requests=[0-9]+/); n = substr(line, RSTART + 9, RLENGTH - 9); if (n == 0) n = 1
		printf "app_us=%.1f jit_us=%.1f redis_us=%.1f", (a1 - a0) * 1e6 / n, (j1 - j0) * 1e6 / n, (r1 - r0) * 1e6 / n }')"
}

# warm_up CONNECTIONS KINDS: WARMUP seconds of each kind at this concurrency, repeated (up to
# WARMUP_PASSES) while the JIT compilers still used more than JIT_QUIET µs of CPU per request in a
# pass: C2 compiles the paths each concurrency takes, and a run measured while it does pays for it.
warm_up() {
	local c=$1 kinds=$2 pass kind line jit worst
	for pass in $(seq 1 "$warmup_passes"); do
		worst=0
		for kind in $kinds; do
			line=$(run_kind "$kind" "$c" "$warmup")
			jit=$(field jit_us "$line")
			worst=$(awk -v a="$worst" -v b="$jit" 'BEGIN { print (b > a) ? b : a }')
		done
		log "warm-up c=$c pass $pass: JIT CPU at most ${worst} µs per request"
		awk -v w="$worst" -v q="$jit_quiet" 'BEGIN { exit !(w <= q) }' && return
	done
	log "warm-up c=$c: the JIT is still compiling after $warmup_passes passes (jit_us in the results says how much)"
}

# field NAME LINE: the value of NAME=value in a RESULT line.
field() {
	tr ' ' '\n' <<<"$2" | awk -F= -v name="$1" '$1 == name { print $2 }'
}

# measure_throughput TSV CONCURRENCY KINDS: ROUNDS runs of each kind at each concurrency.
measure_throughput() {
	local tsv=$1 levels=$2 kinds=$3 c round kind order line
	printf 'concurrency\tkind\tround\trequests\trps\tp50_ms\tp99_ms\terrors\tapp_us\tredis_us\tjit_us\tload\n' >"$tsv"
	for c in $levels; do
		warm_up "$c" "$kinds"
		for round in $(seq 1 "$rounds"); do
			# Alternate the order, so that drift on a shared machine does not favour one kind.
			order=$kinds
			[ $((round % 2)) = 0 ] && order=$(tr ' ' '\n' <<<"$kinds" | tac | tr '\n' ' ')
			for kind in $order; do
				line=$(run_kind "$kind" "$c" "$duration")
				log "c=$c round $round $kind: $line"
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$kind" "$round" "$(field requests "$line")" \
					"$(field rps "$line")" "$(field p50_ms "$line")" "$(field p99_ms "$line")" \
					"$(( $(field status_errors "$line") + $(field socket_errors "$line") ))" \
					"$(field app_us "$line")" "$(field redis_us "$line")" "$(field jit_us "$line")" \
					"$(cut -d' ' -f1 /proc/loadavg)" >>"$tsv"
			done
		done
	done
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
	grep -qi '^Idempotent-Replayed: true' "$headers" && replayed=yes
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

measure_throughput "$out/throughput.tsv" "$concurrency" "a b c d"
if [ -n "$profiler" ]; then
	for c in $profile_concurrency; do
		for kind in a b c d; do
			jcmd "$app_pid" JVMTI.agent_load "$profiler" "\"start,event=$profile_event,interval=200000\"" >/dev/null
			line=$(run_kind "$kind" "$c" "$duration")
			jcmd "$app_pid" JVMTI.agent_load "$profiler" \
				"\"stop,file=$out/profile-$kind-c$c.collapsed,collapsed\"" >/dev/null
			log "profiled c=$c $kind: $line"
			echo "c=$c $kind $line" >>"$out/profiled-runs.txt"
		done
	done
fi
stop_app

# ---------------------------------------------------------------------------------------------
# Phase 2: store round trips and memory, with a 256 MiB heap.

roundtrips="$out/roundtrips.tsv"
memory="$out/memory.tsv"
stayed_up=-
if [[ " $phases " == *" 2 "* ]]; then
	start_app small-heap -Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError -Xlog:gc:file="$out/gc-small-heap.log" \
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

	roundtrips="$out/roundtrips.tsv"
	printf 'kind\trequests\tstatuses\tcommand\tper_request\n' >"$roundtrips"
	# count_row KIND N STATUSES BEFORE AFTER: per-request command counts (INFO itself left out).
	count_row() {
		local kind=$1 n=$2 statuses=$3 before=$4 after=$5
		join -a 2 -e 0 -o 0,1.2,2.2 "$before" "$after" | awk -v kind="$kind" -v n="$n" -v statuses="$statuses" \
			'$1 != "info" && $3 - $2 > 0 { printf "%s\t%d\t%s\t%s\t%.3f\n", kind, n, statuses, $1, ($3 - $2) / n }' >>"$roundtrips"
	}
	count_commands() {
		local kind=$1 path=$2 mode=$3 statuses
		commandstats >"$out/before"
		statuses=$(requests "$count" "$path" "$out/body-1k.json" "$mode")
		commandstats >"$out/after"
		log "$kind: $statuses"
		count_row "$kind" "$count" "$statuses" "$out/before" "$out/after"
		grep -q "^$kind	" "$roundtrips" || printf '%s\t%d\t%s\t(none)\t0\n' "$kind" "$count" "$statuses" >>"$roundtrips"
	}

	if [ "$store" = redis ]; then
		log "counting Redis commands per request kind ($count requests each)"
		# Loads the scripts if this Redis has not seen them (the first EVALSHA answers NOSCRIPT, then EVAL).
		requests 2 /v1/chat/completions "$out/body-1k.json" "fixed:prime-$run_id" >/dev/null
		count_commands unannotated /benchmark/chat/completions none
		count_commands annotated-no-key /v1/chat/completions none
		count_commands new-key /v1/chat/completions new
		count_commands replay /v1/chat/completions "fixed:prime-$run_id"
		held_key="held-$run_id"
		post /benchmark/held/chat/completions "$out/body-1k.json" "$held_key" >"$out/held-status" &
		held_pid=$!
		sleep 1
		count_commands in-progress /benchmark/held/chat/completions "fixed:$held_key"
		wait "$held_pid"
		log "the held request answered $(cat "$out/held-status")"
	fi

	uptime_seconds() {
		jcmd "$app_pid" VM.uptime | awk '/s$/ { sub(/ s$/, ""); print $NF }' | tail -1
	}
	memory="$out/memory.tsv"
	printf 'kind\tstart_s\tend_s\tresult\n' >"$memory"
	for kind in a b; do
		mode=none
		[ "$kind" = b ] && mode=new
		# Requests wrk left in flight are still being answered for a while: let them finish first.
		sleep 10
		log "memory: 32 connections sending 1 MiB bodies to $kind for ${memory_duration}s, 256 MiB heap"
		start_s=$(uptime_seconds)
		line=$(wrk_run 32 "$memory_duration" "$(path_of "$kind")" "$out/body-1m.json" "$mode" 60)
		log "memory $kind: $line"
		printf '%s\t%s\t%s\t%s\n' "$kind" "$start_s" "$(uptime_seconds)" "${line#RESULT }" >>"$memory"
	done
	if kill -0 "$app_pid" 2>/dev/null && [ "$(post /v1/chat/completions "$out/body-1k.json")" = 200 ]; then
		stayed_up=yes
	else
		stayed_up=no
	fi
	stop_app
fi

# ---------------------------------------------------------------------------------------------
# Report.

# table TSV: a markdown table of medians per concurrency and kind, with ratios to kind a and what
# each kind adds to a's app CPU and p50 (the median of the differences within each round, so that a
# kind is compared with the a measured beside it).
table() {
	echo "| concurrency | kind | requests/s | p50 ms | p99 ms | ratio to a | app CPU µs/req | app CPU added to a, µs/req | p50 added to a, ms | Redis CPU µs/req | JIT CPU µs/req | errors | load average |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR == FNR { if (FNR > 1 && $2 == "a") { base_app[$1 " " $3] = $9; base_p50[$1 " " $3] = $6 } next }
		FNR > 1 { key = $1 " " $2; rps[key] = rps[key] " " $5; p50[key] = p50[key] " " $6;
			p99[key] = p99[key] " " $7; app[key] = app[key] " " $9; red[key] = red[key] " " $10; err[key] += $8
			jit[key] = jit[key] " " $11; load[key] = load[key] " " $12
			added[key] = added[key] " " ($9 - base_app[$1 " " $3]); addedp50[key] = addedp50[key] " " ($6 - base_p50[$1 " " $3])
			if (!(key in seen)) { seen[key] = 1; keys[++n] = key } }
		function median(list,   values, count, i, j, t) {
			count = split(substr(list, 2), values, " ")
			for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
			return (count % 2) ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
		}
		function range(list,   values, count, i, lo, hi) {
			count = split(substr(list, 2), values, " "); lo = values[1] + 0; hi = lo
			for (i = 2; i <= count; i++) { if (values[i] + 0 < lo) lo = values[i] + 0; if (values[i] + 0 > hi) hi = values[i] + 0 }
			return sprintf("%.1f-%.1f", lo, hi)
		}
		END {
			names["a"] = "a: unannotated"; names["b"] = "b: annotated, new key"
			names["c"] = "c: annotated, replay"; names["d"] = "d: annotated, no key"
			for (i = 1; i <= n; i++) {
				split(keys[i], parts, " "); c = parts[1]; k = parts[2]
				ratio = (k == "a") ? "1.00" : sprintf("%.2f", median(rps[keys[i]]) / median(rps[c " a"]))
				plus = (k == "a") ? "-" : sprintf("%+.0f", median(added[keys[i]]))
				plusp50 = (k == "a") ? "-" : sprintf("%+.2f", median(addedp50[keys[i]]))
				printf "| %s | %s | %.0f | %.2f | %.2f | %s | %.0f | %s | %s | %.0f | %.1f | %d | %s |\n", c, names[k], median(rps[keys[i]]),
					median(p50[keys[i]]), median(p99[keys[i]]), ratio, median(app[keys[i]]), plus, plusp50,
					median(red[keys[i]]), median(jit[keys[i]]), err[keys[i]], range(load[keys[i]])
			}
		}' "$1" "$1" | sort -t'|' -k2,2n -k3,3
}

report="$out/report.md"
{
	echo "# Load benchmark $run_id"
	echo
	echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'),"
	echo "$(java -version 2>&1 | head -1), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Each cell: the median of $rounds runs of ${duration}s (wrk, 1 thread, keep-alive, 1 KiB chat"
	echo "request); ratios are of throughput against kind a at the same concurrency, from the same run."
	echo "Store: $store. CPU per request is the app's (all its threads; JIT: its compiler threads alone)"
	echo "and Redis's, over the same run. Warm-up: ${warmup}s per kind at each concurrency, up to"
	echo "$warmup_passes passes, until the JIT used at most $jit_quiet µs per request in a pass."
	echo
	table "$out/throughput.tsv"
	echo
	if [ -s "$roundtrips" ]; then
		echo "Redis commands per request ($count sequential requests of each kind, INFO commandstats before"
		echo "and after; EVALSHA is the round trip, the others run inside its Lua script):"
		echo
		echo "| kind | statuses | command | per request |"
		echo "|---|---|---|---|"
		awk -F'\t' 'NR > 1 { printf "| %s | %s | %s | %s |\n", $1, $3, $4, $5 }' "$roundtrips"
		echo
	fi
	if [ -s "$memory" ]; then
		echo "Memory: 32 connections sending 1 MiB bodies for ${memory_duration}s each, -Xmx256m (G1);"
		echo "the app stayed up: $stayed_up."
		echo
		echo "| kind | requests | requests/s | p50 ms | p99 ms | errors | GC pauses | full GCs | longest pause ms | pause ms total | heap after GC, median MiB | heap after full GC, max MiB |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		while IFS=$'\t' read -r kind start_s end_s result; do
			[ "$kind" = kind ] && continue
			awk -v kind="$kind" -v from="$start_s" -v to="$end_s" -v result="$result" '
				function after(line,   parts, i, h) { split(line, parts, " "); for (i in parts) if (parts[i] ~ /->/) { split(parts[i], h, /->|\(/); sub(/M/, "", h[2]); return h[2] + 0 } return -1 }
				/Pause/ { t = substr($1, 2) + 0; if (t < from || t > to) next
					n++; heap[n] = after($0)
					if (match($0, /[0-9.]+ms$/)) { p = substr($0, RSTART, RLENGTH - 2) + 0; total += p; if (p > maxp) maxp = p }
					if ($0 ~ /Pause Full/) { full++; if (heap[n] > maxfull) maxfull = heap[n] } }
				END {
					for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (heap[j] < heap[i]) { x = heap[i]; heap[i] = heap[j]; heap[j] = x }
					split(result, f, " "); for (i in f) { split(f[i], kv, "="); r[kv[1]] = kv[2] }
					printf "| %s | %d | %.1f | %.0f | %.0f | %d | %d | %d | %.0f | %.0f | %d | %s |\n", (kind == "a") ? "a: unannotated" : "b: annotated, new key",
						r["requests"], r["rps"], r["p50_ms"], r["p99_ms"], r["status_errors"] + r["socket_errors"], n, full, maxp, total,
						(n > 0) ? heap[int((n + 1) / 2)] : 0, (full > 0) ? maxfull : "-" }' "$out/gc-small-heap.log"
		done <"$memory"
	fi
} >"$report"
cat "$report"
log "raw results in $out"
