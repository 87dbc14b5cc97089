#!/usr/bin/env bash
# Large keyed bodies in a small heap (issue 15): 32 connections sending 1 MiB chat requests to the
# sample gateway (memory store, mock provider) in a 256 MiB G1 heap, unannotated twin (a) against
# new keys (b), with the GC log of each run parsed for full collections and humongous regions.
# Fails (exit 1) when a run with new keys had a full collection in the gateway under test.
#
#   benchmarks/load/large-bodies.sh
#   BEFORE_JAR=/path/to/older/sample-app.jar benchmarks/load/large-bodies.sh   # side by side
#
# With BEFORE_JAR, each round runs the older gateway, then this one, alternately, so that drift on
# the machine does not favour one; only this one's full collections fail the script.
# Settings (environment): DURATION (seconds per measured run, 15), WARMUP (seconds per kind before
# measuring, 40: at a few hundred requests/s the JIT goes on compiling the handler's and the filter's
# code for some 30 s, and a shorter warm-up measures kinds that are still getting faster), ROUNDS (3),
# APP_PORT (18081), SKIP_BUILD=1 to reuse the built jars.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

duration=${DURATION:-15}
warmup=${WARMUP:-40}
rounds=${ROUNDS:-3}
app_port=${APP_PORT:-18081}
run_id=$(date +%Y%m%d-%H%M%S)
out="$root/benchmarks/target/large-bodies/$run_id"
mkdir -p "$out"
base="http://127.0.0.1:$app_port"
jar="$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
app_pid=

log() {
	echo "[$(date +%H:%M:%S)] $*" >&2
}

stop_app() {
	if [ -n "$app_pid" ]; then
		kill "$app_pid" 2>/dev/null || true
		wait "$app_pid" 2>/dev/null || true
		app_pid=
	fi
}
trap stop_app EXIT

for tool in wrk curl java jcmd awk; do
	command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

if [ "${SKIP_BUILD:-}" != 1 ]; then
	log "building the sample app and the benchmarks"
	./mvnw -B -q -pl sample-app,benchmarks -am package -DskipTests
fi
java -cp "$root/benchmarks/target/benchmarks.jar" dev.modelgate.idempotency.benchmarks.ChatBodies 1048576 "$out/body-1m.json"

gateways=(now)
declare -A jar_of=([now]="$jar")
if [ -n "${BEFORE_JAR:-}" ]; then
	gateways=(before now)
	jar_of[before]=$BEFORE_JAR
fi

# start_app GATEWAY ROUND: the gateway in a 256 MiB G1 heap, logging each pause and the humongous
# regions before and after it.
start_app() {
	local gateway=$1 round=$2
	log "starting $gateway (round $round)"
	java -Xms256m -Xmx256m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
		-Xlog:gc,gc+heap=info:file="$out/gc-$gateway-$round.log":uptime \
		-jar "${jar_of[$gateway]}" --server.port="$app_port" --management.server.port=0 \
		--modelgate.benchmark.enabled=true --logging.level.root=warn >"$out/app-$gateway-$round.log" 2>&1 &
	app_pid=$!
	for _ in $(seq 1 300); do
		[ "$(post /benchmark/chat/completions)" = 200 ] && return
		kill -0 "$app_pid" 2>/dev/null || { echo "the gateway died: $out/app-$gateway-$round.log" >&2; exit 1; }
		sleep 0.2
	done
	echo "the gateway did not answer: $out/app-$gateway-$round.log" >&2
	exit 1
}

post() {
	curl -s -o /dev/null -w '%{http_code}' -X POST "$base$1" -H 'Content-Type: application/json' \
		-H 'Authorization: Bearer sk-benchmark' --data-binary "@$out/body-1m.json" || true
}

uptime_seconds() {
	jcmd "$app_pid" VM.uptime | awk '/s$/ { sub(/ s$/, ""); print $NF }' | tail -1
}

path_of() {
	case $1 in a) echo /benchmark/chat/completions ;; b) echo /v1/chat/completions ;; esac
}

mode_of() {
	case $1 in a) echo none ;; b) echo new ;; esac
}

# wrk_run KIND SECONDS: prints wrk's RESULT line.
wrk_run() {
	wrk -t1 -c32 -d"$2"s --timeout 30s -s "$root/benchmarks/load/chat.lua" "$base$(path_of "$1")" \
		-- "$out/body-1m.json" "$(mode_of "$1")" "$run_id-$RANDOM$RANDOM" | grep '^RESULT'
}

runs="$out/runs.tsv"
printf 'gateway\tround\tkind\tstart_s\tend_s\tresult\n' >"$runs"
for round in $(seq 1 "$rounds"); do
	for gateway in "${gateways[@]}"; do
		start_app "$gateway" "$round"
		for kind in a b; do
			wrk_run "$kind" "$warmup" >/dev/null
		done
		# a b b a: neither kind always runs on the warmer JVM.
		for kind in a b b a; do
			start_s=$(uptime_seconds)
			line=$(wrk_run "$kind" "$duration")
			log "$gateway round $round $kind: $line"
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$gateway" "$round" "$kind" "$start_s" "$(uptime_seconds)" \
				"${line#RESULT }" >>"$runs"
		done
		kill -0 "$app_pid" 2>/dev/null || { echo "$gateway died in round $round" >&2; exit 1; }
		stop_app
	done
done

# Per run: requests, GC pauses, full GCs, pauses started by a humongous allocation, and humongous
# regions allocated (the count before each pause less the count after the one before it, when it
# grew: regions freed between pauses make this a lower bound).
measured="$out/measured.tsv"
printf 'gateway\tkind\trequests\tseconds\terrors\tpauses\tfull\thumongous_pauses\thumongous_regions\tpause_ms\n' >"$measured"
while IFS=$'\t' read -r gateway round kind start_s end_s result; do
	[ "$gateway" = gateway ] && continue
	awk -v gateway="$gateway" -v kind="$kind" -v from="$start_s" -v to="$end_s" -v result="$result" '
		{ t = substr($1, 2) + 0 }
		/Humongous regions:/ { split($NF, h, "->"); if (t >= from && t <= to && seen && h[1] > last) regions += h[1] - last
			last = h[2]; seen = 1; next }
		/ Pause / && /ms$/ { if (t < from || t > to) next
			pauses++
			if ($0 ~ /Pause Full/) full++
			if ($0 ~ /Humongous Allocation/) humongous++
			match($0, /[0-9.]+ms$/); pause += substr($0, RSTART, RLENGTH - 2) }
		END {
			split(result, f, " "); for (i in f) { split(f[i], kv, "="); r[kv[1]] = kv[2] }
			printf "%s\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%.0f\n", gateway, kind, r["requests"], r["seconds"],
				r["status_errors"] + r["socket_errors"], pauses, full, humongous, regions, pause }' \
		"$out/gc-$gateway-$round.log" >>"$measured"
done <"$runs"

report="$out/report.md"
{
	echo "32 connections, 1 MiB chat bodies, -Xms256m -Xmx256m G1 (1 MiB regions), memory store;"
	echo "$rounds rounds of a b b a, ${duration}s per run; sums over all runs of each gateway and kind."
	echo
	echo "| gateway | kind | requests | requests/s | b/a | errors | GC pauses | full GCs | pauses for a humongous allocation | humongous regions allocated | pause ms per s |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 { k = $1 SUBSEP $2; req[k] += $3; sec[k] += $4; err[k] += $5; p[k] += $6; full[k] += $7
			hp[k] += $8; hr[k] += $9; ms[k] += $10; if (!(($1) in seen)) { seen[$1] = 1; order[++n] = $1 } }
		END { for (i = 1; i <= n; i++) { g = order[i]
			for (j = 1; j <= 2; j++) { kind = (j == 1) ? "a" : "b"; k = g SUBSEP kind
				rate[kind] = req[k] / sec[k]
				printf "| %s | %s | %d | %.1f | %s | %d | %d | %d | %d | %d | %.0f |\n", g,
					(kind == "a") ? "a: unannotated" : "b: new key", req[k], rate[kind],
					(kind == "b") ? sprintf("%.2f", rate["b"] / rate["a"]) : "", err[k], p[k], full[k], hp[k], hr[k],
					ms[k] / sec[k] } } }' "$measured"
} >"$report"
cat "$report"
log "raw results in $out"
if awk -F'\t' '$1 == "now" && $2 == "b" && $7 > 0 { found = 1 } END { exit !found }' "$measured"; then
	echo "full collections with new keys in the gateway under test" >&2
	exit 1
fi
