#!/usr/bin/env bash
# Builds the published modules twice from scratch and fails when a published jar (classes, sources
# or javadoc) differs between the two builds, naming the jar and the entries that differ.
#
# Offline by default (run it after a build that resolved the plugins, as .ci/run does); on a machine
# whose local repository lacks them: MAVEN_OFFLINE= .ci/reproducible.sh
#
# FIRST_BUILD=target takes the jars that the build just before left in the modules' target folders as the
# first build, and builds once more: .ci/run uses the jars of its `./mvnw -B verify`.
set -euo pipefail
cd "$(dirname "$0")/.."

source .ci/published-modules.sh
modules=$(IFS=,; echo "${published[*]}")
offline=${MAVEN_OFFLINE--o}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build_into() {
  local out=$1
  for module in "${published[@]}"; do
    rm -rf "$module/target"
  done
  # shellcheck disable=SC2086 # $offline is one option or none
  ./mvnw -B -q $offline package -DskipTests -pl "$modules" -am >"$work/$(basename "$out").log" 2>&1 || {
    cat "$work/$(basename "$out").log" >&2
    echo "reproducible: the build failed" >&2
    exit 1
  }
  collect_into "$out"
}

collect_into() {
  local out=$1
  mkdir -p "$out"
  for module in "${published[@]}"; do
    for jar in "$module"/target/*.jar; do
      if [ -e "$jar" ]; then cp "$jar" "$out/"; fi
    done
  done
}

start=$SECONDS
if [ "${FIRST_BUILD:-}" = target ]; then
  collect_into "$work/first"
  if ! compgen -G "$work/first/*.jar" >/dev/null; then
    echo "reproducible: FIRST_BUILD=target, but no published module has a jar in target/; build first" >&2
    exit 1
  fi
else
  build_into "$work/first"
fi
# A second later at least, so that anything stamped with the build time differs.
sleep 1
build_into "$work/second"

jars=0
different=0
for first in "$work"/first/*.jar; do
  name=$(basename "$first")
  second="$work/second/$name"
  jars=$((jars + 1))
  if [ ! -e "$second" ]; then
    echo "DIFFERENT $name: only the first build made it"
    different=$((different + 1))
    continue
  fi
  if [ "$(sha256sum <"$first")" != "$(sha256sum <"$second")" ]; then
    echo "DIFFERENT $name"
    different=$((different + 1))
    if [ "$(unzip -Z1 "$first")" != "$(unzip -Z1 "$second")" ]; then
      echo "  the entries are in another order or are not the same entries"
    fi
    mkdir -p "$work/x1/$name" "$work/x2/$name"
    unzip -q "$first" -d "$work/x1/$name"
    unzip -q "$second" -d "$work/x2/$name"
    diff -rq "$work/x1/$name" "$work/x2/$name" | sed "s|$work/x[12]/||g; s/^/  /" || true
    if diff -rq "$work/x1/$name" "$work/x2/$name" >/dev/null; then
      echo "  same contents: the entries' times or attributes differ"
    fi
  fi
done
for second in "$work"/second/*.jar; do
  if [ ! -e "$work/first/$(basename "$second")" ]; then
    echo "DIFFERENT $(basename "$second"): only the second build made it"
    different=$((different + 1))
  fi
done

if [ "$jars" -eq 0 ]; then
  echo "reproducible: no jar was built" >&2
  exit 1
fi
echo "reproducible: $jars jars compared, $different different ($((SECONDS - start)) s)"
[ "$different" -eq 0 ]
