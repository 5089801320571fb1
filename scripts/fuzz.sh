#!/usr/bin/env bash
# Fuzz the loader and the script sandbox with libFuzzer (cargo fuzz, nightly toolchain).
#   scripts/fuzz.sh              every target for 60 s each
#   scripts/fuzz.sh 3600         every target for an hour each (a long local run)
#   scripts/fuzz.sh 600 script   one target
#   FUZZ_RUNS=3000 scripts/fuzz.sh   a fixed number of inputs from a fixed seed (what CI runs:
#                                    the same inputs every time, so CI never fails by chance)
#   FUZZ_SANITIZER=none FUZZ_MAX_LEN=16384 scripts/fuzz.sh 3600 yaml_documents
#                                    volume: no AddressSanitizer (safe Rust needs none; it triples the
#                                    inputs per second) and smaller inputs
#   FUZZ_CORPUS=DIR FUZZ_TARGET_DIR=DIR   keep the corpus and the build elsewhere (a long run
#                                    beside CI's short one)
# Seed corpora come from the bundled content and tests/fuzz/seeds; a crash leaves its input under
# tests/fuzz/artifacts/<target>/ and makes this script exit non-zero.
set -euo pipefail
cd "$(dirname "$0")/../tests/fuzz"
secs="${1:-60}"
targets=("${@:2}")
[ ${#targets[@]} -gt 0 ] || targets=(yaml_documents script pack)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
corpus="${FUZZ_CORPUS:-target/corpus}"
sanitizer="${FUZZ_SANITIZER:-address}"
max_len="${FUZZ_MAX_LEN:-262144}"
target_dir=()
[ -z "${FUZZ_TARGET_DIR:-}" ] || target_dir=(--target-dir "$FUZZ_TARGET_DIR")
mkdir -p "$corpus/yaml_documents" "$corpus/pack" "$corpus/script"
find ../../content ../../mods -name '*.yaml' -exec cp {} "$corpus/yaml_documents/" \;
find ../../content ../../mods -name '*.yaml' -exec cp {} "$corpus/pack/" \;
find ../../content ../../mods -name '*.luau' -exec cp {} "$corpus/script/" \; 2>/dev/null || true
# Seeds that call every library function of the sandbox with hostile arguments (seeds/script).
cp seeds/script/*.luau "$corpus/script/"
for t in "${targets[@]}"; do
  echo "== $t for ${secs}s"
  # -rss_limit_mb: a run that grows past 2 GiB is a finding; -timeout: so is one input > 10 s.
  if [ -n "${FUZZ_RUNS:-}" ]; then budget=(-runs="$FUZZ_RUNS" -seed=1); else budget=(-max_total_time="$secs"); fi
  log="$(mktemp)"
  cargo +nightly fuzz run --fuzz-dir . -s "$sanitizer" "${target_dir[@]}" "$t" "$corpus/$t" -- \
    "${budget[@]}" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" -print_final_stats=1 >"$log" 2>&1 || true
  grep -E '^(#[0-9]+.*(DONE|pulse|INITED)|stat::number_of_executed_units|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)' "$log" || true
  # No statistics means the target never ran (a build error, say): that is a failure, not a pass.
  if ! grep -q '^stat::number_of_executed_units' "$log" && ! ls "artifacts/$t"/* >/dev/null 2>&1; then
    tail -n 40 "$log"; echo "fuzz target $t did not run"; rm -f "$log"; exit 1
  fi
  rm -f "$log"
  if ls "artifacts/$t"/* >/dev/null 2>&1; then
    echo "crash inputs in tests/fuzz/artifacts/$t"; exit 1
  fi
done
