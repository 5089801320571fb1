#!/usr/bin/env bash
# One shard of a balance study: `cav sim SCENARIO --games GAMES --seed SEED --shard I/N
# --format json`, written to RESULTS/shard-I.json. The Kubernetes Job (deploy/k8s/sim-job.yaml),
# the Slurm array (deploy/slurm/sim-array.sbatch) and deploy/local.sh all run this script.
#
#   deploy/shard.sh [I N]
#
# Which shard (I of N, 1-based), the first of these that is set:
#   arguments I N                                  (deploy/local.sh, by hand)
#   JOB_COMPLETION_INDEX (0-based) and SHARDS      (a Kubernetes Indexed Job: SHARDS = completions)
#   SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm array; the task ids must be contiguous,
#                                                   counted from SLURM_ARRAY_TASK_MIN, default 1)
# The study (environment; see deploy/README.md):
#   SCENARIO  scenario id (required)           GAMES    games of the whole study (required)
#   SEED      first seed (default 1)           RULESET  ruleset (default: cav's, quickstart)
#   VS        a `--vs` change (optional)       RESULTS  output directory (default: results)
#   CAV       the cav binary (default: cav)
# Every shard of one study must get the same SCENARIO, GAMES, SEED, RULESET, VS and content.
# Exit codes: cav's (0 done, 1 invalid content, 2 usage); 2 when no shard index is given.
set -euo pipefail

die() {
  echo "shard.sh: $*" >&2
  exit 2
}
count() { [[ "$2" =~ ^[0-9]+$ ]] || die "$1 must be a whole number, got \`$2\`"; }

if (($# > 0)); then
  (($# == 2)) || die "expected two arguments, I N (shard I of N, 1-based); got $#"
  count I "$1"
  count N "$2"
  i=$((10#$1)) n=$((10#$2))
elif [[ -n "${JOB_COMPLETION_INDEX:-}" ]]; then
  [[ -n "${SHARDS:-}" ]] || die "JOB_COMPLETION_INDEX is set but SHARDS is not: set SHARDS to the Job's completions"
  count JOB_COMPLETION_INDEX "$JOB_COMPLETION_INDEX"
  count SHARDS "$SHARDS"
  i=$((10#$JOB_COMPLETION_INDEX + 1)) n=$((10#$SHARDS))
elif [[ -n "${SLURM_ARRAY_TASK_ID:-}" ]]; then
  [[ -n "${SLURM_ARRAY_TASK_COUNT:-}" ]] || die "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not"
  count SLURM_ARRAY_TASK_ID "$SLURM_ARRAY_TASK_ID"
  count SLURM_ARRAY_TASK_COUNT "$SLURM_ARRAY_TASK_COUNT"
  count SLURM_ARRAY_TASK_MIN "${SLURM_ARRAY_TASK_MIN:-1}"
  i=$((10#$SLURM_ARRAY_TASK_ID - 10#${SLURM_ARRAY_TASK_MIN:-1} + 1)) n=$((10#$SLURM_ARRAY_TASK_COUNT))
else
  die "no shard index: give I N as arguments, or set JOB_COMPLETION_INDEX and SHARDS (Kubernetes \
Indexed Job), or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (Slurm array)"
fi
((n >= 1 && i >= 1 && i <= n)) || die "shard $i of $n: expected 1 <= I <= N"

[[ -n "${SCENARIO:-}" ]] || die "SCENARIO is not set (a scenario id, e.g. stand-and-fight)"
[[ -n "${GAMES:-}" ]] || die "GAMES is not set (the games of the whole study, all shards together)"
count GAMES "$GAMES"
count SEED "${SEED:-1}"
results="${RESULTS:-results}"
mkdir -p "$results"

args=(sim "$SCENARIO" --games "$GAMES" --seed "${SEED:-1}" --shard "$i/$n" --format json)
[[ -n "${RULESET:-}" ]] && args+=(--ruleset "$RULESET")
[[ -n "${VS:-}" ]] && args+=(--vs "$VS")

# Written under a temporary name and renamed, so a merge never reads half a file (a retried pod,
# a node lost mid-write).
out="$results/shard-$i.json"
tmp="$results/.shard-$i.json.$$"
trap 'rm -f "$tmp"' EXIT
echo "shard.sh: shard $i/$n: ${CAV:-cav} ${args[*]} -> $out" >&2
"${CAV:-cav}" "${args[@]}" --out "$tmp"
mv -f "$tmp" "$out"
