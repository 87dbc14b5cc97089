#!/usr/bin/env bash
# What the reactive filter costs (issue 14), measured like the servlet filter's in run.sh: the
# sample Spring Cloud Gateway (sample-gateway: WebFlux, Netty, its in-memory store, the built-in mock
# provider behind a forward: route) driven by wrk from outside the JVM, beside the servlet filter in
# the sample app (Tomcat, MVC, its in-memory store, its mock provider) running at the same time, so
# that the three filters are measured in one run, kind after kind:
#   a  POST /benchmark/chat/completions   a twin route to the same mock, without the Idempotency filter
#   b  POST /v1/chat/completions          the chat route with the filter, a new key on every request
#   c  POST /v1/chat/completions          the same with one key: every request a replay
#   d  POST /benchmark/webflux/twin/...   an annotated WebFlux handler answering as the mock does, no @Idempotent
#   e  POST /benchmark/webflux/...        the same handler with @Idempotent (the WebFlux filter), a new key each
#   f  POST /benchmark/webflux/floor/...  the twin behind a filter that only holds the request body and the
#                                         response body (BenchmarkFloorFilter): the least any recording filter
#                                         does on WebFlux, the floor under e
#   s  POST /benchmark/chat/completions   the sample app's (servlet) unannotated twin of its chat endpoint
#   t  POST /v1/chat/completions          the sample app's @Idempotent chat endpoint (the servlet filter), a new key each
# with the app's CPU time per request (all threads, from /proc) and wrk's p50. b and c are compared
# with a (the gateway route filter), e and f with d (the WebFlux filter and its floor), t with s (the servlet filter). Each round runs the kinds in the
# order a b c d e f s t, then t s f e d c b a, so that drift on the machine favours none; a cell is the median of
# its rounds, and a filter's added cost the median over the rounds of its difference to its twin in the same round
# (each round's difference is printed too: on this machine they spread by tens of µs).
#
#   benchmarks/load/gateway.sh
#
# Settings (environment): DURATION (seconds per measured run, 6), ROUNDS (3), WARMUP (seconds per kind
# and concurrency before measuring, 10), CONCURRENCY ("1 16"), KINDS (the kinds to run, "a b c d e f s t"),
# APP_PORT (18084), SERVLET_PORT (the sample app's, 18085), STORE_ARGS (more arguments for both apps,
# e.g. "--spring.profiles.active=redis"), GATEWAY_JAR and SERVLET_JAR (the jars to run, the built ones by
# default), BEFORE_GATEWAY_JAR and BEFORE_SERVLET_JAR (jars of an earlier commit: both run beside the
# others on the next ports, each kind gets an upper-case twin that runs against them in the same round, and
# the report adds the before/after table), SKIP_BUILD=1 to reuse the built jar,
# PROFILER (the path of async-profiler's libasyncProfiler.so, Maven Central
# tools.profiler:async-profiler, classifier linux-x64: after the measured runs, one more run of each
# kind at each PROFILE_CONCURRENCY ("16") with PROFILE_EVENT sampling ("cpu"), written as collapsed
# stacks profile-<kind>-c<concurrency>.collapsed, as run.sh does).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

duration=${DURATION:-6}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-10}
concurrency=${CONCURRENCY:-1 16}
app_port=${APP_PORT:-18084}
servlet_port=${SERVLET_PORT:-18085}
read -r -a store_args <<<"${STORE_ARGS:-}"
profiler=${PROFILER:-}
profile_concurrency=${PROFILE_CONCURRENCY:-16}
profile_event=${PROFILE_EVENT:-cpu}
out="$root/benchmarks/target/gateway/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
gateway_base="http://127.0.0.1:$app_port"
servlet_base="http://127.0.0.1:$servlet_port"
jar=${GATEWAY_JAR:-$root/sample-gateway/target/sample-gateway-0.1.0-SNAPSHOT.jar}
servlet_jar=${SERVLET_JAR:-$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar}
before_jar=${BEFORE_GATEWAY_JAR:-}
before_servlet_jar=${BEFORE_SERVLET_JAR:-}
kinds=${KINDS:-a b c d e f s t}
if [ -n "$before_jar" ]; then
	kinds="$kinds $(echo "$kinds" | tr a-z A-Z)"
fi
clock_ticks=$(getconf CLK_TCK)
app_pid=
servlet_pid=
before_pid=
before_servlet_pid=

log() {
	echo "[$(date +%H:%M:%S)] $*" >&2
}

stop_app() {
	for pid in $app_pid $servlet_pid $before_pid $before_servlet_pid; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	app_pid=
	servlet_pid=
	before_pid=
	before_servlet_pid=
}
trap stop_app EXIT

command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
if [ "${SKIP_BUILD:-}" != 1 ] || [ ! -f "$jar" ] || [ ! -f "$servlet_jar" ]; then
	log "building the sample gateway and the sample app"
	./mvnw -B -q -pl sample-gateway,sample-app -am package -DskipTests
fi

# A 1 KiB chat request, as run.sh sends.
python3 - "$out/body-1k.json" <<'EOF'
import json, sys
content = "x" * 900
json.dump({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": content}]}, open(sys.argv[1], "w"))
EOF

# The CPU time the process $1 has used, in seconds.
app_cpu() {
	awk -v t="$clock_ticks" '{ print ($14 + $15) / t }' "/proc/$1/stat"
}

# POST the chat body to path $1 of the gateway (or of the app at base $3), with key $2 if given.
post() {
	curl -s -o /dev/null -w '%{http_code}' -X POST "${3:-$gateway_base}$1" -H 'Content-Type: application/json' \
		-H 'Authorization: Bearer sk-benchmark' ${2:+-H "Idempotency-Key: $2"} --data-binary "@$out/body-1k.json"
}

# Start the sample app (servlet) from jar $1 on port $2, logging to $3; its pid in $started.
start_servlet() {
	log "starting the sample app (servlet) from $1"
	java -Xms1g -Xmx1g -jar "$1" --server.port="$2" --management.server.port=0 \
		--modelgate.benchmark.enabled=true --modelgate.idempotency.ttl=60s \
		${store_args[@]+"${store_args[@]}"} >"$3" 2>&1 &
	started=$!
}

# Start the sample gateway from jar $1 on port $2, logging to $3; its pid in $started.
# The memory store as users deploy it and as run.sh measures the servlet filter: its default limits
# (10,000 entries, 64 MB). With room for every key of a run (a million, 512 MB) the records of the new
# keys filled half the heap, and the collector's work on that live set was charged to the filter.
start_gateway() {
	log "starting the sample gateway from $1"
	java -Xms1g -Xmx1g -jar "$1" --server.port="$2" --modelgate.idempotency.ttl=60s \
		--modelgate.benchmark.enabled=true \
		--spring.cloud.gateway.server.webflux.routes[0].id=benchmark-twin \
		--spring.cloud.gateway.server.webflux.routes[0].uri=forward:/mock/v1/chat/completions \
		--spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/benchmark/chat/completions \
		--spring.cloud.gateway.server.webflux.routes[0].predicates[1]=Method=POST \
		--spring.cloud.gateway.server.webflux.routes[0].filters[0]=SetPath=/mock/v1/chat/completions \
		--spring.cloud.gateway.server.webflux.routes[0].filters[1]=RemoveRequestHeader=Authorization \
		${store_args[@]+"${store_args[@]}"} >"$3" 2>&1 &
	started=$!
}

# Wait until the gateway at $1 and the sample app at $2 answer every path the kinds use.
await_apps() {
	for i in $(seq 1 120); do
		[ "$(post /v1/chat/completions "start-$i-$RANDOM" "$1")" = 200 ] && break
		sleep 1
	done
	[ "$(post /benchmark/chat/completions "" "$1")" = 200 ] || { echo "the twin route does not answer 200" >&2; exit 1; }
	for i in $(seq 1 120); do
		[ "$(post /v1/chat/completions "start-servlet-$i-$RANDOM" "$2")" = 200 ] && break
		sleep 1
	done
	[ "$(post /benchmark/chat/completions "" "$2")" = 200 ] || { echo "the sample app's twin does not answer 200" >&2; exit 1; }
	[ "$(post /benchmark/webflux/twin/chat/completions "" "$1")" = 200 ] || { echo "the WebFlux twin does not answer 200" >&2; exit 1; }
	[ "$(post /benchmark/webflux/floor/chat/completions "" "$1")" = 200 ] || { echo "the floor handler does not answer 200" >&2; exit 1; }
	[ "$(post /benchmark/webflux/chat/completions "start-webflux-$RANDOM" "$1")" = 200 ] || { echo "the annotated WebFlux handler does not answer 200" >&2; exit 1; }
}

start_servlet "$servlet_jar" "$servlet_port" "$out/servlet.log"
servlet_pid=$started
start_gateway "$jar" "$app_port" "$out/app.log"
app_pid=$started
before_base="http://127.0.0.1:$((app_port + 10))"
before_servlet_base="http://127.0.0.1:$((servlet_port + 10))"
if [ -n "$before_jar" ]; then
	start_servlet "$before_servlet_jar" "$((servlet_port + 10))" "$out/servlet-before.log"
	before_servlet_pid=$started
	start_gateway "$before_jar" "$((app_port + 10))" "$out/app-before.log"
	before_pid=$started
fi
await_apps "$gateway_base" "$servlet_base"
if [ -n "$before_jar" ]; then
	await_apps "$before_base" "$before_servlet_base"
fi

# A replay key primed before each run of kind c: records live 60 s (ttl above), and a key primed once
# expired in the middle of a later run, whose next request then ran again while the others waited.
prime_replay_key() {
	local key="replay-$RANDOM$RANDOM"
	[ "$(post /v1/chat/completions "$key" "$1")" = 200 ] || { echo "priming the replay key failed" >&2; exit 1; }
	echo "$key"
}

# Run kind $1 (upper case: against the earlier commit's apps) at concurrency $2 for $3 seconds.
run_kind() {
	local kind=$1 c=$2 seconds=$3 path mode key before line base=$gateway_base pid=$app_pid
	local servlet=$servlet_base servlet_process=$servlet_pid
	case $kind in
		[A-Z]) base=$before_base pid=$before_pid servlet=$before_servlet_base servlet_process=$before_servlet_pid
			kind=$(echo "$kind" | tr A-Z a-z) ;;
	esac
	case $kind in
		a) path=/benchmark/chat/completions mode=none ;;
		b) path=/v1/chat/completions mode=new ;;
		c) key=$(prime_replay_key "$base") || exit 1
			path=/v1/chat/completions mode="fixed:$key" ;;
		d) path=/benchmark/webflux/twin/chat/completions mode=none ;;
		e) path=/benchmark/webflux/chat/completions mode=new ;;
		f) path=/benchmark/webflux/floor/chat/completions mode=none ;;
		s) path=/benchmark/chat/completions mode=none base=$servlet pid=$servlet_process ;;
		t) path=/v1/chat/completions mode=new base=$servlet pid=$servlet_process ;;
	esac
	before=$(app_cpu "$pid")
	line=$(wrk -t1 -c"$c" -d"${seconds}s" --latency -s benchmarks/load/chat.lua "$base$path" \
		-- "$out/body-1k.json" "$mode" "gw-$kind-$c-$RANDOM" | grep '^RESULT')
	awk -v a0="$before" -v a1="$(app_cpu "$pid")" -v line="$line" 'BEGIN {
		match(line, /requests=[0-9]+/); n = substr(line, RSTART + 9, RLENGTH - 9); if (n == 0) n = 1
		printf "%s app_us=%.1f\n", line, (a1 - a0) * 1e6 / n }'
}

field() {
	echo "$2" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print $2 }'
}

printf 'concurrency\tkind\tround\trps\tp50_ms\tapp_us\tstatus_errors\tload\n' >"$out/runs.tsv"
for c in $concurrency; do
	log "warming up at concurrency $c"
	for kind in $kinds $kinds; do
		run_kind "$kind" "$c" "$warmup" >/dev/null
	done
	for round in $(seq 1 "$rounds"); do
		order=$kinds
		[ $((round % 2)) = 0 ] && order=$(echo "$kinds" | tr ' ' '\n' | tac | tr '\n' ' ')
		for kind in $order; do
			line=$(run_kind "$kind" "$c" "$duration")
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$kind" "$round" "$(field rps "$line")" \
				"$(field p50_ms "$line")" "$(field app_us "$line")" "$(field status_errors "$line")" \
				"$(cut -d' ' -f1 /proc/loadavg)" >>"$out/runs.tsv"
			log "c=$c $kind round $round: $line"
		done
	done
done

if [ -n "$profiler" ]; then
	for c in $profile_concurrency; do
		for kind in $kinds; do
			pid=$app_pid
			case $kind in s | t) pid=$servlet_pid ;; [A-Z]) continue ;; esac
			jcmd "$pid" JVMTI.agent_load "$profiler" "\"start,event=$profile_event,interval=200000\"" >/dev/null
			line=$(run_kind "$kind" "$c" "$duration")
			jcmd "$pid" JVMTI.agent_load "$profiler" \
				"\"stop,file=$out/profile-$kind-c$c.collapsed,collapsed\"" >/dev/null
			log "profiled c=$c $kind: $line"
		done
	done
fi

python3 - "$out/runs.tsv" <<'EOF' | tee "$out/report.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
# b and c against a (the route without the filter), e and f against d (the handler without @Idempotent),
# t against s (the servlet handler without @Idempotent); an upper-case kind against its upper-case twin.
base = {"a": "a", "b": "a", "c": "a", "d": "d", "e": "d", "f": "d", "s": "s", "t": "s"}
base.update({k.upper(): v.upper() for k, v in base.items()})
present = sorted({r["kind"] for r in rows}, key=lambda k: (k.lower(), k.isupper()))
summary = []
print("| concurrency | kind | req/s | p50 ms | app CPU µs/req | ratio to its twin | app CPU added | p50 added ms | errors |")
print("|---|---|---|---|---|---|---|---|---|")
for c in sorted({r["concurrency"] for r in rows}, key=int):
    med = {}
    for k in present:
        rs = [r for r in rows if r["concurrency"] == c and r["kind"] == k]
        med[k] = {f: statistics.median(float(r[f]) for r in rs) for f in ("rps", "p50_ms", "app_us")}
        med[k]["errors"] = sum(int(r["status_errors"]) for r in rs)
    for k in present:
        if base[k] not in med:
            continue
        m, a = med[k], med[base[k]]
        print(f"| {c} | {k} | {m['rps']:.0f} | {m['p50_ms']:.3f} | {m['app_us']:.1f} | {m['rps'] / a['rps']:.2f} | "
              f"{m['app_us'] - a['app_us']:+.1f} | {m['p50_ms'] - a['p50_ms']:+.3f} | {m['errors']} |")
    # The added cost per round (each kind against its twin measured in the same round, minutes apart at
    # most), then the median over the rounds: the machine's drift between rounds cancels out.
    def paired(k, field):
        by_round = lambda kind: {r["round"]: float(r[field]) for r in rows if r["concurrency"] == c and r["kind"] == kind}
        mine, twin = by_round(k), by_round(base[k])
        return [mine[r] - twin[r] for r in sorted(mine, key=int) if r in twin]
    added = {k: (paired(k, "app_us"), paired(k, "p50_ms")) for k in "beftBEFT" if k in med and base[k] in med}
    summary.append((c, added))
def cell(added, k, t=None):
    if k not in added or not added[k][0]:
        return "-"
    cpu, p50 = statistics.median(added[k][0]), statistics.median(added[k][1])
    rounds = " ".join(f"{v:+.0f}" for v in added[k][0])
    ratio = f" ({cpu / t:.1f}x)" if t else ""
    return f"{cpu:+.1f} µs{ratio} [{rounds}], {p50:+.3f} ms"
print()
print("A new key's added app CPU and p50, each the median over the rounds of the difference to its twin in")
print("that round (the rounds' own differences in brackets); the reactive filters' also as a multiple of the servlet filter's:")
print()
print("| concurrency | servlet (t) | WebFlux (e) | gateway route (b) | WebFlux floor (f) |")
print("|---|---|---|---|---|")
for c, added in summary:
    t = statistics.median(added["t"][0]) if "t" in added and added["t"][0] else None
    t = t if t and t > 0 else None
    print(f"| {c} | {cell(added, 't')} | {cell(added, 'e', t)} | {cell(added, 'b', t)} | {cell(added, 'f')} |")
if any(k.isupper() for k in present):
    print()
    print("Before (the BEFORE_ jars) and after, in the same rounds: a new key's added app CPU and p50 against each")
    print("build's own twin, and after as a multiple of before:")
    print()
    print("| concurrency | filter | before | after | after / before |")
    print("|---|---|---|---|---|")
    names = {"t": "servlet", "e": "WebFlux", "b": "gateway route", "f": "WebFlux floor"}
    for c, added in summary:
        for k in "tebf":
            if k in added and k.upper() in added and added[k][0] and added[k.upper()][0]:
                after, before = statistics.median(added[k][0]), statistics.median(added[k.upper()][0])
                ratio = f"{after / before:.2f}" if before > 0 else "-"
                print(f"| {c} | {names[k]} | {cell(added, k.upper())} | {cell(added, k)} | {ratio} |")
EOF
log "results in $out"
