#!/usr/bin/env bash
# Thread hand-offs per request, the figure that a busy machine does not distort:
#
#   benchmarks/load/context-switches.sh NAME [JAR] [JAVA] ["APP ARGUMENTS"]
#
# Starts the sample app (JAR, default the built one) on a private Redis, warms up, then at
# concurrency 1, 16 and 64 runs wrk (as run.sh does) for kinds a (unannotated), b (new key) and c
# (replay), ROUNDS times (3) for 5 s each, and prints per request: the app's voluntary context
# switches (summed over all its threads: each is a thread going to sleep, so every hand-off between
# threads shows), its CPU microseconds, wrk's requests/s and p50. Ports: APP_PORT (18282) and
# REDIS_PORT (6482). Build first: ./mvnw -B -q -pl sample-app,benchmarks -am package -DskipTests
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
name=$1 jar=${2:-$root/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar} java=${3:-java} opts=${4:-}
port=${APP_PORT:-18282} rport=${REDIS_PORT:-6482}
out=$root/benchmarks/target/context-switches/$name; mkdir -p "$out"
redis-server --port $rport --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --dir $out --logfile $out/redis.log
sleep 0.5
body=$out/body-1k.json
java -cp $root/benchmarks/target/benchmarks.jar dev.modelgate.idempotency.benchmarks.ChatBodies 1024 $body
# shellcheck disable=SC2086
$java -Xms1g -Xmx1g -jar $jar --server.port=$port --management.server.port=0 --spring.profiles.active=redis \
	--spring.data.redis.port=$rport --modelgate.benchmark.enabled=true --modelgate.idempotency.ttl=60s $opts > $out/app.log 2>&1 &
pid=$!
for i in $(seq 1 600); do
	s=$(curl -s -o /dev/null -w '%{http_code}' -X POST http://127.0.0.1:$port/v1/chat/completions -H 'Content-Type: application/json' -H 'Authorization: Bearer sk-x' -H "Idempotency-Key: start-$i" --data-binary @$body)
	[ "$s" = 200 ] && break; sleep 0.5
done
ctx() { cat /proc/$pid/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s }'; }
cpu() { awk -v hz=$(getconf CLK_TCK) '{ printf "%.4f\n", ($14 + $15) / hz }' /proc/$pid/stat; }
path() { [ $1 = a ] && echo /benchmark/chat/completions || echo /v1/chat/completions; }
mode() { case $1 in a) echo none ;; b) echo new ;; c) echo "fixed:replay-$name" ;; esac; }
runk() { # kind conc secs
	wrk -t1 -c$2 -d$3s --timeout 2s -s $root/benchmarks/load/chat.lua http://127.0.0.1:$port$(path $1) -- $body $(mode $1) "$name-$RANDOM$RANDOM" | grep '^RESULT'
}
curl -s -o /dev/null -X POST http://127.0.0.1:$port/v1/chat/completions -H 'Content-Type: application/json' -H 'Authorization: Bearer sk-benchmark' -H "Idempotency-Key: replay-$name" --data-binary @$body
for c in 16 1; do for k in a b c a b c; do runk $k $c 6 >/dev/null; done; done
echo "# $name load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in 1 16 64; do
	for r in $(seq 1 ${ROUNDS:-3}); do
		for k in a b c; do
			x0=$(ctx); c0=$(cpu)
			line=$(runk $k $c 5)
			x1=$(ctx); c1=$(cpu)
			n=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
			p50=$(sed -E 's/.*p50_ms=([0-9.]+).*/\1/' <<<"$line")
			rps=$(sed -E 's/.*rps=([0-9.]+).*/\1/' <<<"$line")
			awk -v n=$n -v x0=$x0 -v x1=$x1 -v c0=$c0 -v c1=$c1 -v p50=$p50 -v rps=$rps -v c=$c -v k=$k -v r=$r -v name=$name \
				'BEGIN { printf "%s\tc=%s\t%s\tround %s\trps=%s\tp50_ms=%s\tcs_per_req=%.2f\tapp_us=%.0f\n", name, c, k, r, rps, p50, (x1-x0)/n, (c1-c0)*1e6/n }'
		done
	done
done
kill $pid; wait $pid 2>/dev/null
redis-cli -p $rport shutdown nosave >/dev/null 2>&1
