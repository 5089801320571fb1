#!/usr/bin/env bash
# The merge step of a balance study: RESULTS/shard-1.json … shard-N.json (written by
# deploy/shard.sh) → RESULTS/merged.json (byte for byte what one unsharded `cav sim --format json`
# gives), charts in RESULTS/charts/, and the human table on standard output.
#
#   deploy/merge.sh [N]        N: the shard count (default: SHARDS)
#
# Every shard file 1..N must be there: a missing one is named and nothing is merged (exit 2).
# `cav sim merge` itself refuses shards of other content (their content hashes differ: the packs
# changed between shards), another scenario, ruleset or change, and overlapping seeds (a shard
# counted twice, or shards of two studies with different GAMES or SEED) — exit 2, nothing written.
# Environment: RESULTS (default: results), CAV (default: cav), PLOT=0 to skip the charts.
set -euo pipefail

die() {
  echo "merge.sh: $*" >&2
  exit 2
}
n="${1:-${SHARDS:-}}"
[[ -n "$n" ]] || die "how many shards? give N as the argument or set SHARDS"
[[ "$n" =~ ^[0-9]+$ ]] && ((10#$n >= 1)) || die "the shard count must be a whole number >= 1, got \`$n\`"
n=$((10#$n))
results="${RESULTS:-results}"

files=()
missing=()
for ((i = 1; i <= n; i++)); do
  f="$results/shard-$i.json"
  if [[ -f "$f" ]]; then files+=("$f"); else missing+=("shard-$i.json"); fi
done
((${#missing[@]} == 0)) || die "${#missing[@]} of $n shard results missing in $results/: ${missing[*]}"

plot=()
[[ "${PLOT:-1}" == 0 ]] || plot=(--plot "$results/charts")
"${CAV:-cav}" sim merge "${files[@]}" --format json --out "$results/merged.json" "${plot[@]}"
"${CAV:-cav}" sim merge "$results/merged.json" --format human
echo "merge.sh: $n shards -> $results/merged.json" >&2
