#!/usr/bin/env bash
# The README's "Five minutes", followed as a new user follows it, on an empty local Maven repository
# (only Maven Central), timed: the README's install command, then a new application made only of the
# README's snippets (its pom's dependencies, its handler, its properties), started with java -jar and
# sent the README's curl twice: the second answer must be a replay of the first.
#
# Everything is taken from README.md at run time, so a change to the README is what gets tested. The
# rest of the application is what start.spring.io generates and the README assumes: a pom with
# spring-boot-starter-parent (this build's Spring Boot version) and spring-boot-maven-plugin, a main
# class, and the imports the handler needs.
#
# FIVE_MINUTES_LIMIT (seconds) bounds the total, 300 unless set. An empty repository downloads about
# 420 MB from Maven Central, much of it test-scoped (RocksDB, the OpenAI SDK, Testcontainers): Maven
# resolves it even when -Dmaven.test.skip skips compiling the tests. On two cores shared with another
# build (load 7 to 14) the whole path took 278 s, the install 194 s of it; with -DskipTests instead of
# -Dmaven.test.skip -Dmaven.javadoc.skip the install alone took 323 s to 419 s.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=${FIVE_MINUTES_LIMIT:-300}
url=http://127.0.0.1:8080

fail() {
  echo "five minutes: $1" >&2
  exit 1
}

# The "Five minutes" section, and its n-th fenced snippet of a language.
section=$(awk '/^## Five minutes/ { on = 1; next } /^## / { on = 0 } on' README.md)
[ -n "$section" ] || fail "README.md has no '## Five minutes' section"
snippet() {
  awk -v lang="$1" -v n="${2:-1}" '
    /^```/ {
      if (open) { open = 0; if (mine) exit; next }
      open = 1; mine = 0
      if ($0 == "```" lang && ++count == n) mine = 1
      next
    }
    open && mine { print }' <<<"$section"
}

install=$(grep -o -m1 '\./mvnw -B -q install [^`]*' <<<"$section" || true)
[ -n "$install" ] || fail "the install command (./mvnw -B -q install ...) was not found"
dependencies=$(snippet xml 1)
handler=$(snippet java 1)
properties=$(snippet properties 1)
request=$(snippet bash 1 | awk '/^curl / { on = 1 } on { print } on && !/\\$/ { exit }')
for part in dependencies handler properties request; do
  [ -n "${!part}" ] || fail "the section's $part snippet was not found"
done
grep -q '<artifactId>modelgate-idempotency-bom</artifactId>' <<<"$dependencies" \
  || fail "the first xml snippet does not import the BOM: $dependencies"
boot=$(sed -n 's:.*<spring-boot.version>\(.*\)</spring-boot.version>.*:\1:p' pom.xml | head -1)
[ -n "$boot" ] || fail "no spring-boot.version in pom.xml"

if [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/" || true)" != 000 ]; then
  fail "port 8080 (the README's curl) is taken before the application starts"
fi

repository=$(mktemp -d)
app=$(mktemp -d)
log=$(mktemp)
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$repository" "$app" "$log"
}
trap cleanup EXIT

timings=()
started=$(date +%s)
step_started=$started
step() {
  local now
  now=$(date +%s)
  timings+=("$(printf '%5d s  %s' $((now - step_started)) "$1")")
  step_started=$now
}
run() {
  if ! "$@" >"$log" 2>&1; then
    tail -n 80 "$log" >&2
    fail "failed: $*"
  fi
}

# 1. The README's install command, from the root of the checkout, into the empty repository.
run bash -c "$install -Dmaven.repo.local='$repository'"
step "install: $install"

# 2. A new application of the README's snippets, built against the same repository.
mkdir -p "$app/src/main/java/com/example/orders" "$app/src/main/resources"
cat >"$app/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>$boot</version>
    <relativePath/>
  </parent>
  <groupId>com.example</groupId>
  <artifactId>orders</artifactId>
  <version>0.0.1</version>
  <properties>
    <java.version>17</java.version>
  </properties>
$dependencies
  <build>
    <plugins>
      <plugin>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-maven-plugin</artifactId>
      </plugin>
    </plugins>
  </build>
</project>
EOF
cat >"$app/src/main/java/com/example/orders/OrdersApplication.java" <<'EOF'
package com.example.orders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class OrdersApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrdersApplication.class, args);
	}

}
EOF
class=$(sed -n 's/^\(public \)\{0,1\}class \([A-Za-z0-9_]*\).*/\2/p' <<<"$handler" | head -1)
[ -n "$class" ] || fail "the java snippet declares no class: $handler"
{
  echo 'package com.example.orders;'
  echo
  echo 'import java.util.*;'
  echo 'import org.springframework.http.*;'
  echo 'import org.springframework.web.bind.annotation.*;'
  echo 'import dev.modelgate.idempotency.Idempotent;'
  echo
  echo "$handler"
} >"$app/src/main/java/com/example/orders/$class.java"
echo "$properties" >"$app/src/main/resources/application.properties"
run ./mvnw -B -q -f "$app/pom.xml" package -DskipTests -Dmaven.repo.local="$repository"
step "build the application of the README's snippets (Spring Boot $boot)"

# 3. java -jar, until it answers.
java -jar "$app/target/orders-0.0.1.jar" >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/" || true)" != 000 ] && break
  kill -0 "$pid" 2>/dev/null || { tail -n 80 "$log" >&2; fail "the application stopped before it answered"; }
  sleep 0.5
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/" || true)" != 000 ] \
  || { tail -n 80 "$log" >&2; fail "the application did not answer within 60 s"; }
step "start it: java -jar"

# 4. The README's curl, twice.
first=$(bash -c "$request -sS")
second=$(bash -c "$request -sS")
status() { head -n1 <<<"$1" | tr -d '\r'; }
body() { printf '%s' "${1#*$'\r\n\r\n'}"; }
grep -q '^HTTP/1.1 2' <<<"$first" || fail "the first request was not answered 2xx: $first"
grep -qi '^Idempotent-Replayed:' <<<"$first" && fail "the first request was a replay: $first"
grep -qi '^Idempotent-Replayed: true' <<<"$second" || fail "the retry was not a replay: $second"
[ "$(status "$first")" = "$(status "$second")" ] || fail "the replay's status differs: $first / $second"
[ "$(body "$first")" = "$(body "$second")" ] || fail "the replay's body differs: $first / $second"
step "the README's curl twice: $(status "$first"), then the same with Idempotent-Replayed: true"

total=$(($(date +%s) - started))
echo "five minutes, on an empty local repository:"
printf '%s\n' "${timings[@]}"
printf '%5d s  total (limit %d s)\n' "$total" "$limit"
[ "$total" -le "$limit" ] || fail "the README's path took ${total} s, more than ${limit} s"
