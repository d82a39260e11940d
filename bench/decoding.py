"""Decoding speed and quality (issue 17): tc's compiled incremental decoder
and beam search against an incremental PyTorch beam search and CTranslate2,
on the demo model (scripts/main-job.sh) with the same weights, the same
sentences and the same threads; and tc's incremental decoder against its
full-prefix one (greedy).

- Weights: `tc-run export MODEL.tcx --checkpoint CK -o params.npz`, read by
  the two peers.
- The reference (bench/decoding_reference.py): the model of tc's checks
  (test/Frontend/torch/reference_transformer.py, nn.Transformer, the decoder
  re-run on whole prefixes) decodes --check sentences greedily and by tc's
  beam search rule (test/Runtime/Inputs/reference_beam.py, the rule's one
  Python copy); every peer is checked against its outputs before timing.
- PyTorch (bench/decoding_torch.py, eager, Debian's python3-torch, float32):
  an incremental decoder over the exported tensors and tc's beam search
  vectorised over the batch.
- CTranslate2 (bench/decoding_ctranslate2.py, PyPI, CPU): the model
  converted from the .npz with its spec API; its own beam search (its length
  penalty is score / n^alpha, not GNMT's ((5 + n) / 6)^alpha). Each of
  --ct2-compute-types (float32, int8, int8_float32) at its best settings on
  this machine: a sweep on 1 beam sentence in --sweep-every (8) over
  --ct2-batches (8, 16, 32, 64 sentences per translate_batch call) and
  --ct2-splits (intra_threads x inter_threads: THREADSx1 and 1xTHREADS;
  with inter_threads > 1 its workers decode batches side by side), the best
  of 2 runs each, then the whole set with the fastest; the sweep is printed
  and the winner named in the row.
- tc: `tc-run translate --beam k --alpha A --max-length-offset O` in each of
  --tc-compute-types (f32, bf16, int8: `--compute-type`, where tc-run has
  it), each with every --tc-workers count (`--workers`: one decoder, and one
  per thread as CTranslate2's inter_threads; the fastest is compared; a
  compute type it refuses, or a tc-run without the flag, is a row saying
  why) and every --tc-stops rule (`--stop`: best-proven, tc's default, and
  beam-finished, the rule CTranslate2 follows with a length penalty), and
  greedy: `--beam 1` (incremental) against `--beam 1 --recompute-prefix`
  (the full-prefix decoder). An executable compiled before the incremental
  decoder (no decode_step functions), or not in f32 (the main job's bf16
  model: every tc row is a compute type of an f32 executable), is compiled
  again in f32 from --description with the buckets of its training tokens
  (`--buckets-from`, the same buckets; the checkpoint fits). Without those flags (tc-run translate
  before issue 17) only the plain greedy full-prefix run is measured.
  L_max = source + O, capped by the decoder shape's target length (which
  tc-compile makes the bucket's source length + 50).

Latency (interactive use; --latency N, default 100, 0 skips it): the first
N beam sentences one at a time, beam k: CTranslate2 one sentence per
translate_batch call (intra_threads 1 or --threads, the faster in the
first round), timed sentence by sentence (the median sentence and the
mean); tc `tc-run translate
--batch-sentences 1` (where tc-run has it, else a row saying why), whose
own clock gives the mean only. Each in every compute type that ran.

Speed: target tokens per second = the SentencePiece pieces of each system's
output text, re-encoded by the same vocabulary.model for every system, plus
one EOS per sentence, over the wall time of the translation alone (ids in,
ids out: the model load, the text encoding and decoding excluded): tc's own
"translated N sentences in X s" (tc-run translate, stderr), the peers' clock
around their decoding calls, after loading. Median of --runs runs (each in
the same process for the peers, a process each for tc) and their min..max.
--rounds N runs the whole comparison N times, round after round (a round:
each system's --runs, CTranslate2 at the first round's best settings), and
gives tc / CTranslate2 also as the median (min..max) of the rounds' ratios:
a VM's speed can drift by 10-15% within minutes (a Zen 3 VM, 2026-11-28),
and a ratio of runs minutes apart is steadier than one of a whole system's
set against another's.
BLEU and chrF: tc-run score (sacreBLEU 2.6.0's, checked against sacrebleu).
Batches: PyTorch decodes sentences sorted by source length, --batch
sentences (k rows each) at a time, CTranslate2 its sweep's best; tc batches
by its shape buckets. Threads: OMP_NUM_THREADS and torch.set_num_threads
--threads (2), CTranslate2's intra x inter its sweep's best. Debian's torch 1.13 runs this small model's products slower
on 2 threads than on 1 (PyTorch, 61 sentences: 486 tokens/s on 2, 1061 on
1); `--threads 1` shows every system on one. Each run's 1-minute load
average is printed, and a warning when other work shared the machine: on
2 cores any other busy process distorts the timings several-fold.

Defaults: beam search on all 1,220 test sentences, greedy incremental
against full prefix on 1 in 4 (the full-prefix decoder takes ~95 s for
those 305; --prefix-every 0 skips it); about 20 minutes in all on the
2-core machine. The last lines are markdown tables (the runs, one sentence
at a time, CTranslate2's sweeps, tc / CTranslate2 by compute type) and the
ratios, for docs/performance.md. --skip leaves systems out (torch,
ctranslate2 or ct2, tc); --every N, --runs 1, --latency 5 and a smaller
sweep make a short run. Where no vocabulary.model is beside the checkpoint,
--vocabulary gives it (a .model, or the training token file that holds it).

    bench/run.sh decoding [--threads 2] [--every 1] [--prefix-every 4]
        [--skip torch,ctranslate2] [--ct2-compute-types float32,int8]
        [--tc-compute-types f32,int8] [--tc-stops best-proven,beam-finished]
        [--latency 100] [--runs 3] [--rounds 1]
    bench/run.sh decoding --skip torch --prefix-every 0
        --model /work/demo-model/bible.tcx --checkpoint /work/demo-model/average.tcck
        --vocabulary /work/demo-model/train.tok --source test.en --reference test.es
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from decoding_peer import HERE, ROOT, check_path, read_lines, write_lines

# The names --skip takes, and the system each names.
SYSTEMS = {"torch": "torch", "ctranslate2": "ctranslate2", "ct2": "ctranslate2", "tc": "tc"}

MISSING = """\
bench: {what} is missing: {path}
The demo model and corpus come from the main job, which builds the corpus,
trains the demo model for 30 minutes and averages its checkpoints:
    scripts/main-job.sh          (build/corpus, build/demo: about 40 minutes)
or pass --model, --checkpoint, --source and --reference."""


def run(*command, **kwargs):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


# --- tc -----------------------------------------------------------------------

def tc_flags(tc_run):
    text = subprocess.run([tc_run, "translate", "--help"], capture_output=True,
                          text=True).stdout
    return set(re.findall(r"(--[a-z][a-z-]*)", text))


def tc_executable(args):
    """The executable to translate with: --model, or, when it predates the
    incremental decoder (no decode_step functions) or this build's .tcx
    format (tc-inspect refuses it), or is not f32 (the main job's bf16
    model), the same description compiled again in f32 with the same
    buckets (--buckets-from the demo's training tokens) in the work
    directory; the checkpoint fits both."""
    inspect = os.path.join(args.build, "bin", "tc-inspect")

    def functions(path):
        return subprocess.run([inspect, path], check=True, capture_output=True,
                              text=True).stdout

    inspected = subprocess.run([inspect, args.model], capture_output=True, text=True)
    old = inspected.stdout if inspected.returncode == 0 else None
    precision = re.search(r"^precision: (\w+)", old or "", re.M)
    f32 = precision is None or precision.group(1) == "f32"  # older: f32 only
    if old is not None and "decode_step_" in old and f32:
        return args.model
    # Every tc row is a compute type of an f32 executable (--compute-type);
    # the main job's model is bf16 where the CPU has bf16 instructions.
    why = ("has no incremental decoder (decode_step functions)" if old is not None and f32
           else f"is compiled in {precision.group(1)} (the compute types' rows run an "
                "f32 executable)" if old is not None
           else "is not readable by this build (" + inspected.stderr.strip() + ")")
    print(f"bench: {args.model} {why}: compiling it again", flush=True)
    train = args.train_tokens or os.path.join(os.path.dirname(args.model), "train.tok")
    if not os.path.exists(train):
        sys.exit(f"bench: {args.model} {why} "
                 f"and {train} (the token file its buckets came from) is missing: compile "
                 f"it again with tc-compile {args.description} --buckets-from TRAIN.tok, "
                 "or pass --model or --train-tokens")
    compiled = os.path.join(args.work, "bible.tcx")
    run(os.path.join(args.build, "bin", "tc-compile"), args.description, "--buckets-from",
        train, "--precision=f32", "-o", compiled)
    buckets = re.compile(r"train_step_(\d+x\d+x\d+)")
    if old is not None and set(buckets.findall(old)) != set(buckets.findall(functions(compiled))):
        sys.exit(f"bench: {compiled} has other buckets than {args.model}")
    return compiled


def tc_translate(args, source, output, flags, env):
    """Runs tc-run translate --runs times: the seconds of each (its own
    translation time, else the process's wall time), whether that was tc's
    own clock, the 1-minute load average after each, each run's median
    sentence latency as a one-element list (where tc-run reports it, one
    sentence at a time), and None; or, when it fails, ([], ..., its first
    error line)."""
    seconds, own, loads, latency = [], True, [], []
    for _ in range(args.runs):
        command = [args.tc_run, "translate", args.executable, "--checkpoint", args.checkpoint,
                   "--input", source, "-o", output, "--overwrite", *flags]
        print("$ " + " ".join(command), flush=True)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            print(f"bench: tc-run translate failed ({done.returncode}):\n{done.stderr}",
                  flush=True)
            return [], own, loads, latency, next((line.strip() for line in done.stderr.splitlines()
                                         if line.strip()), f"exit status {done.returncode}")
        m = re.search(r"translated \d+ sentences in ([0-9.]+) s", done.stderr)
        seconds.append(float(m.group(1)) if m else wall)
        # One sentence at a time, tc-run times each sentence and says the median.
        median = re.search(r"median latency ([0-9.]+) ms", done.stderr)
        if median:
            latency.append([float(median.group(1)) / 1e3])
        own &= m is not None
        loads.append(os.getloadavg()[0])
        print(f"tc: {seconds[-1]:.1f} s ({'its own clock' if m else 'process wall'}, "
              f"load {loads[-1]:.1f})", flush=True)
    return seconds, own, loads, latency, None


def vocabulary_model(path, work):
    """A SentencePiece model file: `path` itself, or the vocabulary a token
    file (tc-run prepare's, runtime/format/TokenFile.h) carries, written to
    WORK/checkpoint (not WORK itself: tc-run takes a folder that holds a
    vocabulary.model for a run's directory, where it writes no output)."""
    with open(path, "rb") as f:
        header = f.read(40)
        if not header.startswith(b"TCTOKENS"):
            return path
        version = int.from_bytes(header[8:12], "little")
        size = int.from_bytes(header[24:32], "little")
        if version < 2 or size == 0:
            sys.exit(f"bench: {path} (token file version {version}) holds no vocabulary")
        # The vocabulary follows the header: 64 bytes from version 4
        # (runtime/format/TokenFile.h), 40 in version 3, 32 before.
        f.seek(64 if version >= 4 else 40 if version == 3 else 32)
        os.makedirs(os.path.join(work, "checkpoint"), exist_ok=True)
        model = os.path.join(work, "checkpoint", "vocabulary.model")
        with open(model, "wb") as out:
            out.write(f.read(size))
    return model


def checkpoint_beside(args):
    """tc-run translate reads the vocabulary beside the checkpoint: where
    --vocabulary is elsewhere, the checkpoint is linked into a work folder
    beside a copy of it."""
    beside = os.path.join(os.path.dirname(os.path.abspath(args.checkpoint)), "vocabulary.model")
    if os.path.exists(beside) and os.path.samefile(beside, args.vocabulary):
        return
    folder = os.path.join(args.work, "checkpoint")
    os.makedirs(folder, exist_ok=True)
    linked = os.path.join(folder, os.path.basename(args.checkpoint))
    if os.path.lexists(linked):
        os.remove(linked)
    os.symlink(os.path.abspath(args.checkpoint), linked)
    copy = os.path.join(folder, "vocabulary.model")
    if not (os.path.exists(copy) and os.path.samefile(copy, args.vocabulary)):
        shutil.copyfile(args.vocabulary, copy)
    args.checkpoint = linked


# --- the parent ---------------------------------------------------------------

def child(args, script, output, *extra):
    """Runs bench/SCRIPT.py on the beam sentences (with the flags `extra`);
    its last line of output is its report (JSON)."""
    command = [sys.executable, os.path.join(HERE, script + ".py"), "--output", output,
               "--work", args.work, "--params", args.params, "--description",
               args.description, "--vocabulary", args.vocabulary, "--source",
               args.subset_source, "--threads", str(args.threads), "--runs", str(args.runs),
               "--beam", str(args.beam), "--alpha", str(args.alpha), "--offset",
               str(args.offset), "--batch", str(args.batch), "--check", str(args.check),
               "--ct2-length-penalty", str(args.ct2_length_penalty), *extra]
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=args.env)
    if done.returncode != 0:
        sys.exit(f"bench: {script} failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def score(args, reference, hypothesis):
    out = subprocess.run([args.tc_run, "score", "--json", "--reference", reference,
                          hypothesis], check=True, capture_output=True, text=True).stdout
    scores = {entry["name"]: entry["score"] for entry in json.loads(out)}
    try:
        import sacrebleu
        bleu = sacrebleu.corpus_bleu(read_lines(hypothesis), [read_lines(reference)]).score
        if abs(bleu - scores["BLEU"]) > 0.01:
            print(f"bench: warning: tc-run score BLEU {scores['BLEU']:.2f}, sacrebleu "
                  f"{bleu:.2f} ({hypothesis})", flush=True)
    except ImportError:
        pass
    return scores["BLEU"], scores["chrF2"]


def target_tokens(processor, path):
    """The pieces of a system's output re-encoded by the vocabulary, + 1 EOS
    per sentence."""
    return sum(len(processor.encode(line)) + 1 for line in read_lines(path))


def arguments():
    """The command line, with the defaults filled in and checked: args, and
    the set of systems --skip leaves out."""
    build = os.path.join(ROOT, "build")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=build)
    parser.add_argument("--model", help="the executable (default BUILD/demo/bible.tcx)")
    parser.add_argument("--checkpoint",
                        help="default BUILD/demo/checkpoints/average.tcck; its "
                        "vocabulary.model beside it")
    parser.add_argument("--vocabulary",
                        help="the checkpoint's SentencePiece model, or a token file that "
                        "holds it (the training data's), where none is beside the checkpoint")
    parser.add_argument("--description", default=os.path.join(ROOT, "models", "bible_en_es.toml"),
                        help="the model description the executable was compiled from")
    parser.add_argument("--source", help="default BUILD/corpus/test.en")
    parser.add_argument("--reference", help="default BUILD/corpus/test.es")
    parser.add_argument("--train-tokens",
                        help="the token file --model's buckets came from, to compile it "
                        "again when it has no incremental decoder (default: beside it)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1,
                        help="the whole comparison N times over, each system's runs of a "
                        "round beside the others' (--runs each): tc / CTranslate2 is then "
                        "also the median of the rounds' ratios, each of runs minutes apart "
                        "rather than a whole system's set apart")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--alpha", type=float, default=0.6)
    parser.add_argument("--offset", "--max-length-offset", type=int, default=50)
    parser.add_argument("--ct2-length-penalty", type=float,
                        help="CT2's length_penalty, an exponent of the length (default alpha)")
    parser.add_argument("--batch", type=int, default=32,
                        help="sentences per batch of the peers (k rows each)")
    parser.add_argument("--every", type=int, default=1,
                        help="the beam search comparison on every N-th sentence")
    parser.add_argument("--prefix-every", type=int, default=4,
                        help="greedy incremental against full prefix (tc) on every N-th "
                        "sentence (0: not run)")
    parser.add_argument("--ct2-compute-types", default="float32,int8,int8_float32",
                        help="CTranslate2's compute types, each at its best settings")
    parser.add_argument("--ct2-batches", default="8,16,32,64",
                        help="CTranslate2's batch sizes (sentences) to sweep")
    parser.add_argument("--ct2-splits",
                        help="CTranslate2's intra_threads x inter_threads to sweep "
                        "(default THREADSx1,1xTHREADS)")
    parser.add_argument("--sweep-every", type=int, default=8,
                        help="CTranslate2's sweep on every N-th beam sentence")
    parser.add_argument("--tc-compute-types", default="f32,bf16,int8",
                        help="tc-run translate --compute-type values (where it has the flag)")
    parser.add_argument("--tc-workers", default="",
                        help="tc-run translate --workers values, each a row of every compute "
                             "type (default 1,THREADS: one decoder, and one per thread as "
                             "CTranslate2's inter_threads); the fastest is compared")
    parser.add_argument("--tc-stops", default="best-proven",
                        help="tc-run translate --stop rules, each a row of every compute type "
                             "and worker count: best-proven (tc's default), beam-finished "
                             "(CTranslate2's own rule with a length penalty: stop once "
                             "--beam hypotheses have finished)")
    parser.add_argument("--latency", type=int, default=100,
                        help="one sentence at a time on the first N beam sentences "
                        "(0: not run)")
    parser.add_argument("--check", type=int, default=8,
                        help="sentences the peers are checked on before timing")
    parser.add_argument("--skip", default="",
                        help="comma-separated systems not to run: torch, ctranslate2 "
                        "(or ct2), tc")
    parser.add_argument("--work", default="")
    args = parser.parse_args()
    if args.ct2_length_penalty is None:
        args.ct2_length_penalty = args.alpha
    if args.rounds < 1 or args.runs < 1:
        parser.error("--rounds and --runs: at least 1")
    names = list(filter(None, args.skip.split(",")))
    unknown = [name for name in names if name not in SYSTEMS]
    if unknown:
        parser.error(f"--skip: no system {', '.join(unknown)}; the systems: torch, "
                     "ctranslate2 (or ct2), tc")
    skip = {SYSTEMS[name] for name in names}

    args.work = args.work or os.path.join(args.build, "bench-decoding")
    args.model = args.model or os.path.join(args.build, "demo", "bible.tcx")
    args.checkpoint = args.checkpoint or os.path.join(args.build, "demo", "checkpoints",
                                                      "average.tcck")
    args.source = args.source or os.path.join(args.build, "corpus", "test.en")
    args.reference = args.reference or os.path.join(args.build, "corpus", "test.es")
    args.ct2_splits = args.ct2_splits or f"{args.threads}x1,1x{args.threads}"
    args.tc_workers = args.tc_workers or ",".join(sorted({"1", str(args.threads)}, key=int))
    os.makedirs(args.work, exist_ok=True)
    args.vocabulary = (vocabulary_model(args.vocabulary, args.work) if args.vocabulary else
                       os.path.join(os.path.dirname(os.path.abspath(args.checkpoint)),
                                    "vocabulary.model"))
    args.tc_run = os.path.join(args.build, "bin", "tc-run")
    for what, path in [("tc-run", args.tc_run), ("the demo executable", args.model),
                       ("the checkpoint", args.checkpoint),
                       ("the vocabulary beside the checkpoint", args.vocabulary),
                       ("the test sources", args.source),
                       ("the test references", args.reference),
                       ("the model description", args.description)]:
        if not os.path.exists(path):
            sys.exit(MISSING.format(what=what, path=path))
    checkpoint_beside(args)
    args.env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    return args, skip


# A compute type's class, across CTranslate2's names and tc's: the rows each
# ratio compares (CTranslate2 has no bf16 on a CPU: tc's bf16 is compared
# with its float32).
CLASS = {"float32": "f32", "f32": "f32", "int8": "int8", "int8_float32": "int8",
         "bf16": "bf16"}


def row(system, compute, decoding, n, output=None, seconds=(), loads=(), note="", **more):
    """A measured run, or one that did not run (more: not_run=the reason)."""
    return dict(system=system, compute=compute, decoding=decoding, sentences=n, output=output,
                seconds=list(seconds), loads=list(loads), note=note, **more)


def peer_rows(args, skip, beam_n, best=None):
    """The peers' beam search runs, each after the reference's check file;
    CTranslate2 once per compute type, at its best settings, with its
    latency. `best` (a later round): compute type -> the settings the first
    round's sweep chose, kept (no new sweep, no new check file)."""
    rows = []
    if {"torch", "ctranslate2"} - skip and best is None:
        child(args, "decoding_reference", check_path(args.work),
              *([] if "torch" in skip else ["--with-beam"]))
    beam = f"beam {args.beam}"
    if "torch" not in skip:
        out = os.path.join(args.work, "torch.beam.es")
        r = child(args, "decoding_torch", out)
        rows.append(row("PyTorch (incremental)", "float32", beam, beam_n, out, r["seconds"],
                        r["loads"], f"checked: {r['check']}; deterministic "
                        f"{r['deterministic']}; {r['at_limit']} at L_max",
                        settings=f"batch {args.batch}, {args.threads} threads"))
    if "ctranslate2" in skip:
        return rows
    for compute in args.ct2_compute_types.split(","):
        out = os.path.join(args.work, f"ct2.{compute}.beam.es")
        latency_out = os.path.join(args.work, f"ct2.{compute}.latency.es")
        chosen = (best or {}).get(compute)
        batches, splits = ((str(chosen["batch"]),
                            f"{chosen['intra_threads']}x{chosen['inter_threads']}")
                           if chosen else (args.ct2_batches, args.ct2_splits))
        latency_intra = (["--latency-intra", str(chosen["latency_intra_threads"])]
                         if chosen and "latency_intra_threads" in chosen else [])
        r = child(args, "decoding_ctranslate2", out, "--compute-type", compute,
                  "--batches", batches, "--splits", splits,
                  "--sweep-every", str(args.sweep_every), "--latency", str(args.latency),
                  "--latency-output", latency_out, *latency_intra)
        won = r["best"]
        if "latency_intra_threads" in r:  # kept for the later rounds with the rest
            won["latency_intra_threads"] = r["latency_intra_threads"]
        settings = (f"batch {won['batch']}, intra {won['intra_threads']} x inter "
                    f"{won['inter_threads']}")
        system = f"CTranslate2 {r['version']}"
        rows.append(row(system, compute, beam, beam_n, out, r["seconds"], r["loads"],
                        f"checked: {r['check']}; deterministic {r['deterministic']}",
                        settings=settings, sweep=r["sweep"], best=won))
        if args.latency:
            rows.append(row(system, compute, f"{beam}, one sentence at a time", args.latency,
                            latency_out, [sum(run) for run in r["latency"]],
                            r["latency_loads"],
                            settings=f"intra {r['latency_intra_threads']} x inter 1",
                            latency=r["latency"]))
    return rows


def tc_rows(args, beam_n, prefix_src, prefix_n):
    """tc's runs: beam search in each compute type on the beam sentences, one
    sentence at a time on the latency sentences, greedy incremental and full
    prefix on the prefix sentences (what this tc-run translate has)."""
    rows = []
    flags = tc_flags(args.tc_run)
    incremental = "--beam" in flags
    beam = f"beam {args.beam}"

    def tc_row(decoding, source, n, name, tc_args, compute="f32", settings=""):
        out = os.path.join(args.work, name)
        seconds, own, loads, latency, error = tc_translate(args, source, out, tc_args,
                                                           args.env)
        rows.append(row("tc", compute, decoding, n, out, seconds, loads,
                        "" if own else "process wall time", settings=settings,
                        **({"latency": latency} if latency else {}),
                        **({"not_run": error} if error else {})))
        return not error

    if not incremental:
        print("bench: tc-run translate has no --beam yet: greedy full prefix only", flush=True)
        tc_row("greedy, full prefix", prefix_src, prefix_n, "tc.prefix.es", [])
        return rows
    search = ["--beam", str(args.beam), "--alpha", str(args.alpha),
              "--max-length-offset", str(args.offset)]
    ran = []
    for compute in args.tc_compute_types.split(","):
        if "--compute-type" not in flags and compute != "f32":
            rows.append(row("tc", compute, beam, beam_n,
                            not_run="this tc-run has no --compute-type"))
            continue
        for stop in args.tc_stops.split(","):
            stopped = [] if stop == "best-proven" else ["--stop", stop]
            if stopped and "--stop" not in flags:
                rows.append(row("tc", compute, beam, beam_n, settings=f"--stop {stop}",
                                not_run="this tc-run has no --stop"))
                continue
            typed = (["--compute-type", compute] if "--compute-type" in flags else []) + stopped
            for workers in [int(w) for w in args.tc_workers.split(",")]:
                settings = " ".join(([f"{workers} workers"] if workers > 1 else ["1 worker"]) +
                                    stopped)
                if workers > 1 and "--workers" not in flags:
                    rows.append(row("tc", compute, beam, beam_n, settings=settings,
                                    not_run="this tc-run has no --workers"))
                    continue
                many = ["--workers", str(workers)] if workers > 1 else []
                if tc_row(beam, args.subset_source, beam_n,
                          f"tc.{compute}.{stop}.w{workers}.beam.es",
                          search + typed + many, compute, settings) and \
                        (compute, stop, typed) not in ran:
                    ran.append((compute, stop, typed))
    latency = f"{beam}, one sentence at a time"
    for compute, stop, typed in ran if args.latency else []:
        if "--batch-sentences" not in flags:
            rows.append(row("tc", compute, latency, args.latency,
                            not_run="this tc-run has no --batch-sentences"))
            continue
        tc_row(latency, args.latency_source, args.latency, f"tc.{compute}.{stop}.latency.es",
               search + typed + ["--batch-sentences", "1"], compute,
               "--batch-sentences 1" + ("" if stop == "best-proven" else f" --stop {stop}"))
    if not prefix_n:
        return rows
    tc_row("greedy, incremental", prefix_src, prefix_n, "tc.greedy.es",
           ["--beam", "1", "--max-length-offset", str(args.offset)])
    if "--recompute-prefix" not in flags:
        print("bench: tc-run translate has no --recompute-prefix", flush=True)
    else:
        tc_row("greedy, full prefix", prefix_src, prefix_n, "tc.prefix.es",
               ["--beam", "1", "--recompute-prefix", "--max-length-offset", str(args.offset)])
    return rows


def merged(rows, more, round_index):
    """`rows` with a round's rows `more` added: a row of the same system,
    compute type, decoding and settings gets the round's runs (each marked
    with its round); a new one is appended. A row that fails in any round is
    not run (its output file may be the failed run's); one that failed in an
    earlier round stays so."""
    def key(r):
        return r["system"], r["compute"], r["decoding"], r.get("settings", "")

    for r in more:
        r["round_of_run"] = [round_index] * len(r["seconds"])
        same = next((x for x in rows if key(x) == key(r)), None)
        if same is None:
            rows.append(r)
        elif "not_run" in r and "not_run" not in same:
            same["not_run"] = f"round {round_index + 1}: {r['not_run']}"
        elif "not_run" not in same:
            for field in ("seconds", "loads", "latency", "round_of_run"):
                if field in r:
                    same[field] = same.get(field, []) + r[field]
    return rows


def round_rates(r):
    """A row's speed in each round: round -> the median of its runs' rates."""
    rates = {}
    for index, rate in zip(r["round_of_run"], r["rates"]):
        rates.setdefault(index, []).append(rate)
    return {index: statistics.median(v) for index, v in rates.items()}


def spread(values, scale=1.0, digits=0):
    """'median (min..max)' of `values` x `scale`."""
    v = sorted(x * scale for x in values)
    return f"{statistics.median(v):.{digits}f} ({v[0]:.{digits}f}..{v[-1]:.{digits}f})"


def measured(args, processor, rows, references):
    """Each run's tokens, speed, BLEU, chrF and latency added to its row
    (`references`: the decoding's first word -> its reference file), and
    the runs that other work on the machine slowed down."""
    busy = []
    for r in rows:
        if "not_run" in r:
            continue
        r["tokens"] = target_tokens(processor, r["output"])
        reference = references["latency" if "one sentence" in r["decoding"] else
                               "beam" if r["decoding"].startswith("beam") else "prefix"]
        r["bleu"], r["chrf"] = score(args, reference, r["output"])
        r["rates"] = [r["tokens"] / x for x in r["seconds"]]
        r["rate"] = statistics.median(r["rates"])
        # A sentence's latency: the median of each run's (where a system times
        # each), and the mean (a run's seconds over its sentences).
        r["means"] = [x / r["sentences"] for x in r["seconds"]]
        if "latency" in r:
            r["medians"] = [statistics.median(run) for run in r["latency"]]
        # The bench's own threads count; a busy machine's other work slows a
        # run's threads down much more than its share (they wait on each other).
        if max(r["loads"]) > args.threads + 1.5:
            busy.append(f"{r['system']} {r['compute']} {r['decoding']} "
                        f"(load average {max(r['loads']):.1f})")
        r["note"] = (r["note"] + "; " if r["note"] else "") + \
            "load average after each run: " + ", ".join(f"{x:.1f}" for x in r["loads"])
    return busy


def comparisons(args, rows):
    """Notes how many translations agree; returns the ratio table's lines
    (tc / CTranslate2 by compute type, and latency) and the other ratios."""
    def find(system, decoding, compute=None):
        return next((r for r in rows if r["system"].startswith(system) and "rate" in r
                     and r["decoding"] == decoding and compute in (None, r["compute"])), None)

    def fastest(system, decoding, wanted):
        found = [r for r in rows if r["system"].startswith(system) and "rate" in r and
                 r["decoding"] == decoding and CLASS.get(r["compute"]) == wanted]
        return max(found, key=lambda r: r["rate"], default=None)

    beam, latency = f"beam {args.beam}", f"beam {args.beam}, one sentence at a time"
    tc_beam, torch_beam = find("tc", beam, "f32"), find("PyTorch", beam)
    inc, full = find("tc", "greedy, incremental"), find("tc", "greedy, full prefix")
    for a, b, what in [(tc_beam, torch_beam, "PyTorch's"), (inc, full, "the full prefix's")]:
        if a and b:
            same = sum(x == y for x, y in zip(read_lines(a["output"]), read_lines(b["output"])))
            a["note"] += f"; {same}/{a['sentences']} translations as {what}"

    table = ["| compute type | tc tokens/s | CTranslate2 tokens/s | tc / CTranslate2 "
             "| BLEU tc | BLEU CTranslate2 |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    if args.rounds > 1:
        table[0] = table[0].replace("| tc / CTranslate2 ", "| tc / CTranslate2 (ratio of the "
                                    "medians; median of the rounds' ratios (min..max)) ")
    for wanted, against in [("f32", "f32"), ("int8", "int8"), ("bf16", "f32")]:
        tc, ct2 = fastest("tc", beam, wanted), fastest("CTranslate2", beam, against)
        if not tc or not ct2:
            reason = next((r["not_run"] for r in rows if r["system"] == "tc" and
                           CLASS.get(r["compute"]) == wanted and "not_run" in r), "not run")
            table.append(f"| {wanted} | {reason} | | | | |")
            continue
        label = wanted if wanted == against else f"{wanted} (CTranslate2: {ct2['compute']}; " \
            "it has no bf16 on a CPU)"
        ratio = f"**{tc['rate'] / ct2['rate']:.2f}x**"
        if args.rounds > 1:
            tc_rounds, ct2_rounds = round_rates(tc), round_rates(ct2)
            paired = [tc_rounds[i] / ct2_rounds[i] for i in sorted(tc_rounds)
                      if i in ct2_rounds]
            if paired:
                ratio += f"; {spread(paired, digits=2)}x over {len(paired)} rounds"
        table.append(f"| {label} | {tc['rate']:.0f} ({tc['settings']}) | "
                     f"{ct2['rate']:.0f} ({ct2['compute']}, "
                     f"{ct2['settings']}) | {ratio} | "
                     f"{tc['bleu']:.2f} | {ct2['bleu']:.2f} |")
    for wanted in ("f32", "int8"):
        tc, ct2 = fastest("tc", latency, wanted), fastest("CTranslate2", latency, wanted)
        if tc and ct2:
            table.append(f"| {wanted}, one sentence at a time: mean ms per sentence | "
                         f"{statistics.median(tc['means']) * 1e3:.1f} ({tc['settings']}) | "
                         f"{statistics.median(ct2['means']) * 1e3:.1f} | "
                         f"**{statistics.median(ct2['means']) / statistics.median(tc['means']):.2f}x**"
                         f" | {tc['bleu']:.2f} | {ct2['bleu']:.2f} |")
        if tc and ct2 and "medians" in tc and "medians" in ct2:
            a, b = statistics.median(tc["medians"]), statistics.median(ct2["medians"])
            table.append(f"| {wanted}, one sentence at a time: median sentence ms | "
                         f"{a * 1e3:.1f} ({tc['settings']}) | {b * 1e3:.1f} | "
                         f"**{b / a:.2f}x** | {tc['bleu']:.2f} | {ct2['bleu']:.2f} |")
    ratios = []
    for name, a, b in [("tc / PyTorch speed", tc_beam, torch_beam),
                       ("tc incremental / full prefix speed (greedy)", inc, full)]:
        if a and b:
            ratios.append(f"{name}: {a['rate'] / b['rate']:.2f}x")
    return table, ratios


def report(args, rows, table, ratios, busy, counts):
    """Prints the notes, the markdown tables for docs/performance.md (the
    runs, the latency, CTranslate2's sweep, the ratios) and the ratios."""
    def every(n):
        return "all sentences" if n == 1 else f"1 sentence in {n}"

    for r in rows:
        if r["note"]:
            print(f"{r['system']} {r['compute']} {r['decoding']}: {r['note']}")
    print()
    def shown(path):  # relative to the repository where it is inside it
        relative = os.path.relpath(os.path.realpath(path), ROOT)
        return os.path.realpath(path) if relative.startswith("..") else relative

    print(f"Decoding {shown(args.source)} with {shown(args.checkpoint)}, {args.threads} threads, "
          f"alpha {args.alpha}, L_max = source + {args.offset}; beam rows: "
          f"{every(args.every)} ({counts['beam']}), greedy rows: "
          f"{every(args.prefix_every) if counts['prefix'] else 'none'} ({counts['prefix']}), "
          f"one sentence at a time: the first {args.latency}; tokens: the output's "
          f"SentencePiece pieces + 1 EOS per sentence; tokens/s and latency: median of "
          f"{args.runs * args.rounds} runs (min..max)"
          f"{f' in {args.rounds} interleaved rounds' if args.rounds > 1 else ''}, "
          f"translation only (model load excluded); "
          f"CTranslate2's length penalty: n^{args.ct2_length_penalty:g}, tc's and PyTorch's "
          f"((5 + n) / 6)^{args.alpha:g}.")
    print()
    print("| system | compute type | settings | decoding | sentences | target tokens | seconds "
          "| tokens/s (min..max) | BLEU | chrF |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        head = f"| {r['system']} | {r['compute']} | {r.get('settings', '')} | {r['decoding']} "
        if "not_run" in r:
            print(head + f"| {r['sentences']} | not run: {r['not_run']} | | | | |")
            continue
        print(head + f"| {r['sentences']} | {r['tokens']} | "
              f"{statistics.median(r['seconds']):.1f} | {spread(r['rates'])} | "
              f"{r['bleu']:.2f} | {r['chrf']:.2f} |")
    timed = [r for r in rows if "one sentence" in r["decoding"] and "means" in r]
    if timed:
        print("\nOne sentence at a time (ms per sentence, median of the runs (min..max); "
              "the median sentence where the system times each one, else the mean):\n")
        print("| system | compute type | settings | sentences | median sentence ms | mean ms |")
        print("| --- | --- | --- | ---: | ---: | ---: |")
        for r in timed:
            median = spread(r["medians"], 1e3, 1) if "medians" in r else "-"
            print(f"| {r['system']} | {r['compute']} | {r['settings']} | {r['sentences']} | "
                  f"{median} | "
                  f"{spread(r['means'], 1e3, 1)} |")
    for r in (r for r in rows if "sweep" in r):
        print(f"\nCTranslate2 {r['compute']}, the sweep (tokens/s, best of 2 runs, 1 beam "
              f"sentence in {args.sweep_every}); the best: {r['settings']}\n")
        print("| batch | intra x inter | tokens/s |\n| ---: | --- | ---: |")
        for x in r["sweep"]:
            print(f"| {x['batch']} | {x['intra_threads']} x {x['inter_threads']} | "
                  f"{x['tokens_per_second']:.0f} |")
    print("\ntc / CTranslate2, each at its best (one sentence at a time: CTranslate2's "
          "mean over tc's; above 1, tc is faster):\n")
    print("\n".join(table))
    print()
    for line in ratios:
        print(f"- {line}")
    if busy:
        print(f"\nWARNING: other work loaded the machine during {', '.join(busy)}: "
              "those timings are not to be trusted; run again on a quiet machine.")


def main():
    args, skip = arguments()
    began = time.perf_counter()
    import sentencepiece
    processor = sentencepiece.SentencePieceProcessor(model_file=args.vocabulary)
    args.params = os.path.join(args.work, "params.npz")
    # What tc translates with, which also exports the checkpoint's parameters.
    incremental = "--beam" in tc_flags(args.tc_run)
    args.executable = tc_executable(args) if incremental else args.model
    run(args.tc_run, "export", args.executable, "--checkpoint", args.checkpoint, "-o",
        args.params, "--overwrite")

    sources, references = read_lines(args.source), read_lines(args.reference)
    if len(sources) != len(references):
        sys.exit(f"bench: {args.source} and {args.reference} differ in lines")

    def subset(name, chosen):
        src, ref = os.path.join(args.work, name + ".en"), os.path.join(args.work, name + ".es")
        write_lines(src, chosen(sources))
        write_lines(ref, chosen(references))
        return src, ref, len(chosen(sources))

    args.subset_source, beam_ref, beam_n = subset("beam", lambda x: x[::args.every])
    args.latency_source, latency_ref, args.latency = subset(
        "latency", lambda x: x[::args.every][:args.latency])
    prefix_src, prefix_ref, prefix_n = subset(
        "prefix", lambda x: x[::args.prefix_every] if args.prefix_every else [])
    rows, best = [], None
    for round_index in range(args.rounds):
        if args.rounds > 1:
            print(f"bench: round {round_index + 1} of {args.rounds}", flush=True)
        more = peer_rows(args, skip, beam_n, best)
        best = {r["compute"]: r["best"] for r in more if "best" in r}
        if "tc" not in skip:
            more += tc_rows(args, beam_n, prefix_src, prefix_n)
        rows = merged(rows, more, round_index)
    busy = measured(args, processor, rows, {"beam": beam_ref, "prefix": prefix_ref,
                                            "latency": latency_ref})
    table, ratios = comparisons(args, rows)
    report(args, rows, table, ratios, busy, {"beam": beam_n, "prefix": prefix_n})
    print(f"\n(bench: {time.perf_counter() - began:.0f} s in all)")


if __name__ == "__main__":
    main()
