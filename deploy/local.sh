#!/usr/bin/env bash
# A balance study on one machine, the way the cluster runs it: N background processes of
# deploy/shard.sh (shard 1/N … N/N), then deploy/merge.sh. For trying the path before a cluster.
#
#   SCENARIO=stand-and-fight GAMES=10000 deploy/local.sh [N]      N: shards (default: SHARDS, else 4)
#
# The study's variables are shard.sh's (SCENARIO, GAMES, SEED, RULESET, VS, RESULTS, CAV); see
# deploy/README.md. CAV defaults to `cav` on PATH, else a release build of this checkout. Each
# shard gets nproc/N threads (RAYON_NUM_THREADS, unless set). Exit 2 on bad usage, 1 when a shard
# failed (its exit code and log are shown; nothing is merged).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

n="${1:-${SHARDS:-4}}"
[[ "$n" =~ ^[0-9]+$ ]] && ((10#$n >= 1)) || { echo "local.sh: the shard count must be a whole number >= 1, got \`$n\`" >&2; exit 2; }
n=$((10#$n))
[[ -n "${SCENARIO:-}" && -n "${GAMES:-}" ]] || { echo "local.sh: set SCENARIO and GAMES (e.g. SCENARIO=stand-and-fight GAMES=1000)" >&2; exit 2; }

if [[ -z "${CAV:-}" ]]; then
  if command -v cav >/dev/null; then
    CAV=cav
  else
    (cd "$here/.." && cargo build --release -q -p cav-cli)
    CAV="$(cd "$here/.." && cargo metadata --format-version 1 --no-deps \
      | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/cav"
  fi
fi
export CAV
export RESULTS="${RESULTS:-results}"
cores=$(nproc 2>/dev/null || echo 1)
export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-$(((cores + n - 1) / n))}"
mkdir -p "$RESULTS"
rm -f "$RESULTS"/shard-*.json "$RESULTS/merged.json"

pids=()
for ((i = 1; i <= n; i++)); do
  "$here/shard.sh" "$i" "$n" >"$RESULTS/shard-$i.log" 2>&1 &
  pids+=($!)
done
failed=0
for ((i = 1; i <= n; i++)); do
  code=0
  wait "${pids[i - 1]}" || code=$?
  if ((code != 0)); then
    echo "local.sh: shard $i/$n failed (exit $code):" >&2
    sed 's/^/  /' "$RESULTS/shard-$i.log" >&2
    failed=1
  fi
done
((failed == 0)) || exit 1
"$here/merge.sh" "$n"
