#!/usr/bin/env bash
# What a new key costs on PostgreSQL (issue 15): the sample gateway on its postgres profile (JDBC
# store, and credits charged in PostgreSQL by the handler, so its unannotated twin pays the database
# too), mock provider, driven by wrk: kind a (unannotated twin) against kind b (a new key on every
# request) at each concurrency, with the app's CPU per request from /proc and the p50 from wrk.
#
#   benchmarks/load/postgres.sh
#   BEFORE_JAR=/path/to/older/sample-app.jar benchmarks/load/postgres.sh   # side by side
#   PROFILES="postgres mariadb" benchmarks/load/postgres.sh                 # the databases side by side
#
# PROFILES names the sample's database profiles to run (postgres, the default, and mariadb: MariaDB at
# 127.0.0.1:3306, user root, database test), each round in turn, with this build.
# With BEFORE_JAR, each round runs the older gateway, then this one, so that drift on a shared
# machine does not favour one. Each gateway warms up every kind at every concurrency before it is
# measured (the JIT is still compiling otherwise), and the JIT's CPU during the measured runs is
# reported so that a run it disturbed can be told apart.
# Settings (environment): DURATION (seconds per measured run, 8), WARMUP (seconds per kind and
# concurrency, 10), ROUNDS (2), CONCURRENCY ("1 16"), APP_PORT (18082), PG* (the database, as
# libpq: PGHOST 127.0.0.1, PGPORT 5432, PGDATABASE test, PGUSER postgres), EXTRA_ARGS (more
# arguments for the gateways), SKIP_BUILD=1 to reuse the built jars.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

duration=${DURATION:-8}
warmup=${WARMUP:-10}
rounds=${ROUNDS:-2}
concurrency=${CONCURRENCY:-1 16}
app_port=${APP_PORT:-18082}
run_id=$(date +%Y%m%d-%H%M%S)
out="$root/benchmarks/target/postgres/$run_id"
mkdir -p "$out"
base="http://127.0.0.1:$app_port"
jar=${NOW_JAR:-"$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"}
clock_ticks=$(getconf CLK_TCK)
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
java -cp "$root/benchmarks/target/benchmarks.jar" dev.modelgate.idempotency.benchmarks.ChatBodies 1024 "$out/body-1k.json"

read -r -a profiles <<<"${PROFILES:-postgres}"
gateways=(now)
declare -A jar_of=([now]="$jar") profile_of=([now]="${profiles[0]}")
if [ -n "${BEFORE_JAR:-}" ]; then
	gateways=(before now)
	jar_of[before]=$BEFORE_JAR
	profile_of[before]=${profiles[0]}
elif [ "${#profiles[@]}" -gt 1 ]; then
	gateways=("${profiles[@]}")
	for profile in "${profiles[@]}"; do
		jar_of[$profile]=$jar
		profile_of[$profile]=$profile
	done
fi

post() {
	curl -s -o /dev/null -w '%{http_code}' -X POST "$base$1" -H 'Content-Type: application/json' \
		-H 'Authorization: Bearer sk-benchmark' ${2:+-H "Idempotency-Key: $2"} --data-binary "@$out/body-1k.json" || true
}

start_app() {
	local gateway=$1 round=$2
	log "starting $gateway (round $round)"
	# shellcheck disable=SC2086
	java -Xms1g -Xmx1g -jar "${jar_of[$gateway]}" --server.port="$app_port" --management.server.port=0 \
		--spring.profiles.active="${profile_of[$gateway]}" --modelgate.benchmark.enabled=true --modelgate.idempotency.ttl=60s \
		--logging.level.root=warn ${EXTRA_ARGS:-} >"$out/app-$gateway-$round.log" 2>&1 &
	app_pid=$!
	for i in $(seq 1 240); do
		[ "$(post /v1/chat/completions "start-$gateway-$round-$run_id-$i")" = 200 ] && return
		kill -0 "$app_pid" 2>/dev/null || { tail -50 "$out/app-$gateway-$round.log" >&2; exit 1; }
		sleep 0.5
	done
	echo "the gateway did not answer: $out/app-$gateway-$round.log" >&2
	exit 1
}

app_cpu() {
	awk -v hz="$clock_ticks" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$app_pid/stat"
}

# CPU seconds of the app's JIT compiler threads.
jit_cpu() {
	local total=0 task name
	for task in /proc/"$app_pid"/task/*; do
		name=$(cat "$task/comm" 2>/dev/null || true)
		case $name in C1\ Compiler* | C2\ Compiler*) total=$(awk -v t="$total" -v hz="$clock_ticks" \
			'{ printf "%.3f", t + ($14 + $15) / hz }' "$task/stat") ;; esac
	done
	echo "$total"
}

path_of() {
	case $1 in a) echo /benchmark/chat/completions ;; b) echo /v1/chat/completions ;; esac
}

mode_of() {
	case $1 in a) echo none ;; b) echo new ;; esac
}

# run_kind KIND CONNECTIONS SECONDS: wrk's RESULT line, then the app's and the JIT's CPU µs per request.
run_kind() {
	local line app0 jit0
	app0=$(app_cpu)
	jit0=$(jit_cpu)
	line=$(wrk -t1 -c"$2" -d"$3"s --timeout 5s -s "$root/benchmarks/load/chat.lua" "$base$(path_of "$1")" \
		-- "$out/body-1k.json" "$(mode_of "$1")" "$run_id-$RANDOM$RANDOM" | grep '^RESULT')
	echo "$line $(awk -v a0="$app0" -v a1="$(app_cpu)" -v j0="$jit0" -v j1="$(jit_cpu)" -v line="$line" 'BEGIN {
		match(line, /requests=[0-9]+/); n = substr(line, RSTART + 9, RLENGTH - 9)
		printf "app_us=%.0f jit_us=%.1f", (a1 - a0) * 1e6 / n, (j1 - j0) * 1e6 / n }')"
}

field() {
	tr ' ' '\n' <<<"$2" | awk -F= -v name="$1" '$1 == name { print $2 }'
}

runs="$out/runs.tsv"
printf 'gateway\tround\tconcurrency\tkind\trequests\trps\tp50_ms\tp99_ms\terrors\tapp_us\tjit_us\tload\n' >"$runs"
for round in $(seq 1 "$rounds"); do
	for gateway in "${gateways[@]}"; do
		start_app "$gateway" "$round"
		for c in $concurrency; do
			for kind in a b; do
				run_kind "$kind" "$c" "$warmup" >/dev/null
			done
		done
		for c in $concurrency; do
			# a b b a: neither kind always runs on the warmer JVM.
			for kind in a b b a; do
				line=$(run_kind "$kind" "$c" "$duration")
				load=$(cut -d' ' -f1 /proc/loadavg)
				log "$gateway round $round c=$c $kind: $line load=$load"
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$gateway" "$round" "$c" "$kind" \
					"$(field requests "$line")" "$(field rps "$line")" "$(field p50_ms "$line")" "$(field p99_ms "$line")" \
					"$(( $(field status_errors "$line") + $(field socket_errors "$line") ))" "$(field app_us "$line")" \
					"$(field jit_us "$line")" "$load" >>"$runs"
			done
		done
		kill -0 "$app_pid" 2>/dev/null || { echo "$gateway died in round $round" >&2; exit 1; }
		stop_app
	done
done

# Medians over all runs of each gateway, concurrency and kind; "added" is b less a of the same
# gateway and concurrency.
report="$out/report.md"
{
	echo "Sample gateway, profiles ${profiles[*]} (JDBC store, credits charged in that database by both kinds),"
	echo "mock provider, 1 KiB chat request; $rounds rounds of a b b a per gateway and concurrency, ${duration}s"
	echo "per run, medians. $(nproc) cores, load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "| gateway | concurrency | kind | requests/s | p50 ms | p99 ms | app CPU µs/req | JIT µs/req | errors | load |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 { k = $1 SUBSEP $3 SUBSEP $4; rps[k] = rps[k] " " $6; p50[k] = p50[k] " " $7
			p99[k] = p99[k] " " $8; app[k] = app[k] " " $10; jit[k] = jit[k] " " $11; load[k] = load[k] " " $12; err[k] += $9
			if (!(k in seen)) { seen[k] = 1; keys[++n] = k } }
		function median(list,   values, count, i, j, t) {
			count = split(substr(list, 2), values, " ")
			for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
			return (count % 2) ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
		}
		END {
			for (i = 1; i <= n; i++) { split(keys[i], p, SUBSEP)
				printf "| %s | %s | %s | %.0f | %.2f | %.2f | %.0f | %.1f | %d | %.1f |\n", p[1], p[2],
					(p[3] == "a") ? "a: unannotated" : "b: new key", median(rps[keys[i]]), median(p50[keys[i]]),
					median(p99[keys[i]]), median(app[keys[i]]), median(jit[keys[i]]), err[keys[i]], median(load[keys[i]]) }
			print ""
			print "| gateway | concurrency | app CPU added by a new key, µs/req | p50 added, ms | b/a requests/s |"
			print "|---|---|---|---|---|"
			for (i = 1; i <= n; i++) { split(keys[i], p, SUBSEP); if (p[3] != "b") continue
				a = p[1] SUBSEP p[2] SUBSEP "a"
				printf "| %s | %s | %+.0f | %+.2f | %.2f |\n", p[1], p[2], median(app[keys[i]]) - median(app[a]),
					median(p50[keys[i]]) - median(p50[a]), median(rps[keys[i]]) / median(rps[a]) }
		}' "$runs"
} >"$report"
cat "$report"
log "raw results in $out"
