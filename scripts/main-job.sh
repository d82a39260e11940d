#!/usr/bin/env bash
# The main job: install what is missing, build tc, build the demo corpus
# (English -> Spanish, King James Version -> Reina-Valera 1909, whole books
# held out), prepare it (a joint SentencePiece vocabulary), compile the
# model with buckets chosen from the data, train it on the CPU for a bounded
# wall time with validation, average the last checkpoints, translate the
# held-out test books and score them (BLEU and chrF as sacreBLEU computes
# them), show a few translations beside their references, and draw the
# training curves. docs/demo.md explains every step and its numbers.
#
# It trains in bf16 (GEMM operands in bf16, f32 accumulation and master
# weights) where the CPU has bf16 GEMM instructions, in f32 elsewhere, and
# says which and why.
#
#   scripts/main-job.sh                     # 30 minutes of training
#   scripts/main-job.sh --minutes 5         # a shorter run
#   scripts/main-job.sh --which-precision   # build, choose, say, stop
#   scripts/main-job.sh --precision f32     # f32 even where bf16 would run
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=30
which_precision_only=false
requested_precision=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --which-precision) which_precision_only=true; shift ;;
    --precision)
      case "${2:-}" in
        f32|bf16) requested_precision="$2"; shift 2 ;;
        *) echo "scripts/main-job.sh: --precision takes f32 or bf16, not '${2:-}'" >&2; exit 2 ;;
      esac ;;
    *) echo "usage: scripts/main-job.sh [--minutes N] [--precision f32|bf16 | --which-precision]" >&2; exit 2 ;;
  esac
done

scripts/install-deps.sh
scripts/build.sh

bin=build/bin
model=models/bible_en_es.toml
corpus=build/corpus
work=build/demo
step() { echo; echo "== $*"; }

# Asks tc-run itself: one step of the tiny model compiled in bf16. tc-run
# refuses a bf16 executable with exit 2 where the CPU has no bf16 GEMM
# instructions (oneDNN's effective ISA decides; ONEDNN_MAX_CPU_ISA=AVX2
# plays such a CPU), where its GEMMs would run slower than f32's.
choose_precision() {
  local probe status=0
  probe=$(mktemp -d)
  $bin/tc-compile models/tiny.toml --precision=bf16 -o "$probe/tiny.tcx" \
    >"$probe/log" 2>&1 || { cat "$probe/log" >&2; rm -rf "$probe"; exit 1; }
  $bin/tc-run train "$probe/tiny.tcx" --steps 1 --quiet \
    --checkpoint-dir "$probe/ck" 2>"$probe/log" || status=$?
  if [ "$status" -eq 0 ]; then
    precision=bf16
    precision_reason="this CPU has bf16 GEMM instructions (tc-run ran a bf16 step): bf16 GEMMs at about twice the f32 rate"
  elif [ "$status" -eq 2 ] && grep -q "has no bf16 GEMM instructions" "$probe/log"; then
    precision=f32
    precision_reason="$(sed -n 's/^tc-run: error: [^:]*: //p' "$probe/log" |
      sed 's/: the executable.*//'): bf16 GEMMs would run widened to f32, slower than f32's"
  else
    cat "$probe/log" >&2; rm -rf "$probe"; exit 1
  fi
  rm -rf "$probe"
}

step "the precision: bf16 where this CPU has bf16 GEMM instructions, f32 elsewhere"
choose_precision
if [ "$requested_precision" = f32 ]; then
  precision=f32
  precision_reason="asked for (--precision f32)"
elif [ "$requested_precision" = bf16 ] && [ "$precision" != bf16 ]; then
  echo "scripts/main-job.sh: --precision bf16 refused: $precision_reason" >&2
  exit 2
fi
echo "training in $precision: $precision_reason"
if $which_precision_only; then
  exit 0
fi

step "the corpus: scripts/build-corpus.py $corpus"
if [ ! -f "$corpus/README.txt" ]; then
  scripts/build-corpus.py "$corpus"
fi
wc -l "$corpus"/{train,valid,test}.en

rm -rf "$work" && mkdir -p "$work"
step "a joint subword vocabulary and token files (tc-run prepare)"
$bin/tc-compile "$model" -o "$work/vocabulary-size.tcx"
$bin/tc-run prepare "$work/vocabulary-size.tcx" --source "$corpus/train.en" \
  --target "$corpus/train.es" -o "$work/train.tok"
$bin/tc-run prepare "$work/vocabulary-size.tcx" --source "$corpus/valid.en" \
  --target "$corpus/valid.es" --vocabulary "$work/train.tok" -o "$work/valid.tok"

step "tc-compile $model --buckets-from $work/train.tok --precision=$precision"
$bin/tc-compile "$model" --buckets-from "$work/train.tok" \
  --precision="$precision" -o "$work/bible.tcx"

step "tc-run train: $minutes minutes on the CPU in $precision, validated every 1000 steps"
$bin/tc-run train "$work/bible.tcx" --data "$work/train.tok" \
  --valid "$work/valid.tok" --valid-every 1000 --valid-translate 100 \
  --checkpoint-dir "$work/checkpoints" --checkpoint-every 250 --keep-last 5 \
  --time-limit "$minutes" --metrics "$work/metrics.jsonl"

# The paper averages the last 5 checkpoints of base; a short run may have
# kept fewer.
kept=$(ls "$work"/checkpoints/checkpoint-*.tcck | wc -l)
last=$(( kept < 5 ? kept : 5 ))
step "tc-run average: the last $last checkpoints"
$bin/tc-run average "$work/bible.tcx" --checkpoint-dir "$work/checkpoints" \
  --last "$last" -o "$work/checkpoints/average.tcck"
for checkpoint in checkpoint.tcck average.tcck; do
  echo "-- validation of $checkpoint"
  $bin/tc-run eval "$work/bible.tcx" --checkpoint "$work/checkpoints/$checkpoint" \
    --data "$work/valid.tok"
done

step "tc-run translate: the test books (1 Samuel, 1 Corinthians) with the average, beam search (beam 4, length penalty 0.6)"
$bin/tc-run translate "$work/bible.tcx" --checkpoint "$work/checkpoints/average.tcck" \
  --input "$corpus/test.en" -o "$work/test.hyp.es"

step "tc-run score --reference $corpus/test.es $work/test.hyp.es"
$bin/tc-run score --reference "$corpus/test.es" "$work/test.hyp.es"

step "a few translations"
for line in 1 100 400 900 1100; do
  echo "source:     $(sed -n "${line}p" "$corpus/test.en")"
  echo "tc:         $(sed -n "${line}p" "$work/test.hyp.es")"
  echo "reference:  $(sed -n "${line}p" "$corpus/test.es")"
  echo
done

step "training curves"
scripts/plot-training.py "$work/metrics.jsonl" -o "$work/curves.png" \
  --title "tc: $model, $precision, $minutes minutes on $(nproc) CPU cores"
