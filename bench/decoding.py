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
- CTranslate2 (bench/decoding_ctranslate2.py, PyPI, CPU, float32): the model
  converted from the .npz with its spec API; its own beam search (its length
  penalty is score / n^alpha, not GNMT's ((5 + n) / 6)^alpha).
- tc: `tc-run translate --beam k --alpha A --max-length-offset O`, and
  greedy: `--beam 1` (incremental) against `--beam 1 --recompute-prefix`
  (the full-prefix decoder). An executable compiled before the incremental
  decoder (no decode_step functions) is compiled again from --description
  with the buckets of its training tokens (`--buckets-from`, the same
  buckets; the checkpoint fits). Without those flags (tc-run translate
  before issue 17) only the plain greedy full-prefix run is measured.
  L_max = source + O, capped by the decoder shape's target length (which
  tc-compile makes the bucket's source length + 50).

Speed: target tokens per second = the SentencePiece pieces of each system's
output text, re-encoded by the same vocabulary.model for every system, plus
one EOS per sentence, over the wall time of the translation alone (ids in,
ids out: the model load, the text encoding and decoding excluded): tc's own
"translated N sentences in X s" (tc-run translate, stderr), the peers' clock
around their decoding calls, after loading. Median of --runs runs (each in
the same process for the peers, a process each for tc) and their min..max.
BLEU and chrF: tc-run score (sacreBLEU 2.6.0's, checked against sacrebleu).
Batches: the peers decode sentences sorted by source length, --batch
sentences (k rows each) at a time; tc batches by its shape buckets.
Threads: OMP_NUM_THREADS, torch.set_num_threads and CT2's intra_threads all
--threads (2). Debian's torch 1.13 runs this small model's products slower
on 2 threads than on 1 (PyTorch, 61 sentences: 486 tokens/s on 2, 1061 on
1); `--threads 1` shows every system on one. Each run's 1-minute load
average is printed, and a warning when other work shared the machine: on
2 cores any other busy process distorts the timings several-fold.

Defaults: beam search on all 1,220 test sentences, greedy incremental
against full prefix on 1 in 4 (the full-prefix decoder takes ~95 s for
those 305); about 14 minutes in all on the 2-core machine. The last lines
are a markdown table and the ratios, for docs/performance.md. --skip
leaves systems out (torch, ctranslate2 or ct2, tc); --every N and --runs 1
make a short run.

    bench/run.sh decoding [--threads 2] [--every 1] [--prefix-every 4]
        [--skip torch,ctranslate2]
"""

import argparse
import json
import os
import re
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
    incremental decoder (no decode_step functions), the same description
    compiled again with the same buckets (--buckets-from the demo's training
    tokens) in the work directory; the checkpoint fits both."""
    inspect = os.path.join(args.build, "bin", "tc-inspect")

    def functions(path):
        return subprocess.run([inspect, path], check=True, capture_output=True,
                              text=True).stdout

    old = functions(args.model)
    if "decode_step_" in old:
        return args.model
    train = args.train_tokens or os.path.join(os.path.dirname(args.model), "train.tok")
    if not os.path.exists(train):
        sys.exit(f"bench: {args.model} has no incremental decoder (decode_step functions) "
                 f"and {train} (the token file its buckets came from) is missing: compile "
                 f"it again with tc-compile {args.description} --buckets-from TRAIN.tok, "
                 "or pass --model or --train-tokens")
    compiled = os.path.join(args.work, "bible.tcx")
    run(os.path.join(args.build, "bin", "tc-compile"), args.description, "--buckets-from",
        train, "-o", compiled)
    buckets = re.compile(r"train_step_(\d+x\d+x\d+)")
    if set(buckets.findall(old)) != set(buckets.findall(functions(compiled))):
        sys.exit(f"bench: {compiled} has other buckets than {args.model}")
    return compiled


def tc_translate(args, source, output, flags, env):
    """Runs tc-run translate --runs times: the seconds of each (its own
    translation time, else the process's wall time), whether that was tc's
    own clock, and the 1-minute load average after each."""
    seconds, own, loads = [], True, []
    for _ in range(args.runs):
        command = [args.tc_run, "translate", args.executable, "--checkpoint", args.checkpoint,
                   "--input", source, "-o", output, "--overwrite", *flags]
        print("$ " + " ".join(command), flush=True)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"bench: tc-run translate failed ({done.returncode}):\n{done.stderr}")
        m = re.search(r"translated \d+ sentences in ([0-9.]+) s", done.stderr)
        seconds.append(float(m.group(1)) if m else wall)
        own &= m is not None
        loads.append(os.getloadavg()[0])
        print(f"tc: {seconds[-1]:.1f} s ({'its own clock' if m else 'process wall'}, "
              f"load {loads[-1]:.1f})", flush=True)
    return seconds, own, loads


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
    parser.add_argument("--description", default=os.path.join(ROOT, "models", "bible_en_es.toml"),
                        help="the model description the executable was compiled from")
    parser.add_argument("--source", help="default BUILD/corpus/test.en")
    parser.add_argument("--reference", help="default BUILD/corpus/test.es")
    parser.add_argument("--train-tokens",
                        help="the token file --model's buckets came from, to compile it "
                        "again when it has no incremental decoder (default: beside it)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
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
                        help="greedy incremental against full prefix (tc) on every N-th sentence")
    parser.add_argument("--check", type=int, default=8,
                        help="sentences the peers are checked on before timing")
    parser.add_argument("--skip", default="",
                        help="comma-separated systems not to run: torch, ctranslate2 "
                        "(or ct2), tc")
    parser.add_argument("--work", default="")
    args = parser.parse_args()
    if args.ct2_length_penalty is None:
        args.ct2_length_penalty = args.alpha
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
    args.vocabulary = os.path.join(os.path.dirname(os.path.abspath(args.checkpoint)),
                                   "vocabulary.model")
    args.tc_run = os.path.join(args.build, "bin", "tc-run")
    for what, path in [("tc-run", args.tc_run), ("the demo executable", args.model),
                       ("the checkpoint", args.checkpoint),
                       ("the vocabulary beside the checkpoint", args.vocabulary),
                       ("the test sources", args.source),
                       ("the test references", args.reference),
                       ("the model description", args.description)]:
        if not os.path.exists(path):
            sys.exit(MISSING.format(what=what, path=path))
    os.makedirs(args.work, exist_ok=True)
    args.env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    return args, skip


def peer_rows(args, skip, beam_n):
    """The peers' beam search runs, each after the reference's check file."""
    rows = []  # (system, decoding, sentences, output, seconds, loads, note)
    if {"torch", "ctranslate2"} - skip:
        child(args, "decoding_reference", check_path(args.work),
              *([] if "torch" in skip else ["--with-beam"]))
    if "torch" not in skip:
        out = os.path.join(args.work, "torch.beam.es")
        r = child(args, "decoding_torch", out)
        rows.append(("PyTorch (incremental)", f"beam {args.beam}", beam_n, out, r["seconds"],
                     r["loads"], f"checked: {r['check']}; deterministic {r['deterministic']}; "
                     f"{r['at_limit']} at L_max"))
    if "ctranslate2" not in skip:
        out = os.path.join(args.work, "ct2.beam.es")
        r = child(args, "decoding_ctranslate2", out)
        rows.append((f"CTranslate2 {r['version']}", f"beam {args.beam}", beam_n, out,
                     r["seconds"], r["loads"],
                     f"checked: {r['check']}; deterministic {r['deterministic']}"))
    return rows


def tc_rows(args, beam_n, prefix_src, prefix_n):
    """tc's runs: beam search on the beam sentences, greedy incremental and
    full prefix on the prefix sentences (what this tc-run translate has)."""
    rows = []
    flags = tc_flags(args.tc_run)
    incremental = "--beam" in flags
    args.executable = tc_executable(args) if incremental else args.model

    def tc_row(decoding, source, n, name, tc_args):
        out = os.path.join(args.work, name)
        seconds, own, loads = tc_translate(args, source, out, tc_args, args.env)
        rows.append(("tc", decoding, n, out, seconds, loads,
                     "" if own else "process wall time"))

    if incremental:
        tc_row(f"beam {args.beam}", args.subset_source, beam_n, "tc.beam.es",
               ["--beam", str(args.beam), "--alpha", str(args.alpha),
                "--max-length-offset", str(args.offset)])
        tc_row("greedy, incremental", prefix_src, prefix_n, "tc.greedy.es",
               ["--beam", "1", "--max-length-offset", str(args.offset)])
    else:
        print("bench: tc-run translate has no --beam yet: greedy full prefix only",
              flush=True)
    if incremental and "--recompute-prefix" not in flags:
        print("bench: tc-run translate has no --recompute-prefix", flush=True)
    else:
        tc_row("greedy, full prefix", prefix_src, prefix_n, "tc.prefix.es",
               ["--beam", "1", "--recompute-prefix", "--max-length-offset",
                str(args.offset)] if incremental else [])
    return rows


def measured(args, processor, rows, beam_ref, prefix_ref):
    """Each run's table row (tokens, speed, BLEU, chrF, notes), and the runs
    that other work on the machine slowed down."""
    table, busy = [], []
    for system, decoding, n, out, seconds, loads, note in rows:
        tokens = target_tokens(processor, out)
        reference = beam_ref if decoding.startswith("beam") else prefix_ref
        bleu, chrf = score(args, reference, out)
        rates = sorted(tokens / s for s in seconds)
        # The bench's own threads count; a busy machine's other work slows a
        # run's threads down much more than its share (they wait on each other).
        if max(loads) > args.threads + 1.5:
            busy.append(f"{system} {decoding} (load average {max(loads):.1f})")
        note = (note + "; " if note else "") + "load average after each run: " + \
            ", ".join(f"{x:.1f}" for x in loads)
        table.append({"system": system, "decoding": decoding, "sentences": n,
                      "tokens": tokens, "seconds": statistics.median(seconds),
                      "rate": statistics.median(rates), "low": rates[0], "high": rates[-1],
                      "bleu": bleu, "chrf": chrf, "note": note, "output": out})
    return table, busy


def comparisons(args, table):
    """The ratios of speed and the BLEU differences between the systems that
    ran; notes how many translations agree."""
    def find(system, decoding):
        for row in table:
            if row["system"].startswith(system) and row["decoding"] == decoding:
                return row
        return None

    beam = f"beam {args.beam}"
    tc_beam, torch_beam = find("tc", beam), find("PyTorch", beam)
    ct2_beam = find("CTranslate2", beam)
    inc, full = find("tc", "greedy, incremental"), find("tc", "greedy, full prefix")
    if tc_beam and torch_beam:
        same = sum(a == b for a, b in zip(read_lines(tc_beam["output"]),
                                          read_lines(torch_beam["output"])))
        tc_beam["note"] = (tc_beam["note"] + "; " if tc_beam["note"] else "") + \
            f"{same}/{tc_beam['sentences']} translations as PyTorch's"
    if inc and full:
        same = sum(a == b for a, b in zip(read_lines(inc["output"]), read_lines(full["output"])))
        inc["note"] = (inc["note"] + "; " if inc["note"] else "") + \
            f"{same}/{inc['sentences']} translations as the full prefix's"

    ratios = []
    for name, a, b in [("tc / CTranslate2 speed", tc_beam, ct2_beam),
                       ("tc / PyTorch speed", tc_beam, torch_beam),
                       ("CTranslate2 / PyTorch speed", ct2_beam, torch_beam),
                       ("tc incremental / full prefix speed (greedy)", inc, full)]:
        if a and b:
            ratios.append(f"{name}: {a['rate'] / b['rate']:.2f}x")
    for name, a, b in [("BLEU tc - CTranslate2", tc_beam, ct2_beam),
                       ("BLEU tc - PyTorch", tc_beam, torch_beam),
                       ("BLEU CTranslate2 - PyTorch", ct2_beam, torch_beam),
                       ("BLEU tc incremental - full prefix", inc, full)]:
        if a and b:
            ratios.append(f"{name}: {a['bleu'] - b['bleu']:+.2f}")
    return ratios


def report(args, table, ratios, busy, beam_n, prefix_n):
    """Prints the notes, the markdown table for docs/performance.md and the
    ratios."""
    def every(n):
        return "all sentences" if n == 1 else f"1 sentence in {n}"

    for row in table:
        if row["note"]:
            print(f"{row['system']} {row['decoding']}: {row['note']}")
    print()
    print(f"Decoding {os.path.relpath(args.source, ROOT)} with "
          f"{os.path.relpath(args.checkpoint, ROOT)}, {args.threads} threads, "
          f"alpha {args.alpha}, L_max = source + {args.offset}; beam rows: "
          f"{every(args.every)} ({beam_n}), greedy rows: {every(args.prefix_every)} "
          f"({prefix_n}); tokens: the output's SentencePiece pieces + 1 EOS per "
          f"sentence; tokens/s: median of {args.runs} runs (min..max), translation "
          f"only (model load excluded); CTranslate2's length penalty: "
          f"n^{args.ct2_length_penalty:g}, tc's and PyTorch's ((5 + n) / 6)^{args.alpha:g}.")
    print()
    print("| system | decoding | sentences | target tokens | seconds | tokens/s (min..max) "
          "| BLEU | chrF |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in table:
        print(f"| {row['system']} | {row['decoding']} | {row['sentences']} | {row['tokens']} | "
              f"{row['seconds']:.1f} | {row['rate']:.0f} ({row['low']:.0f}..{row['high']:.0f}) | "
              f"{row['bleu']:.2f} | {row['chrf']:.2f} |")
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
    run(args.tc_run, "export", args.model, "--checkpoint", args.checkpoint, "-o",
        args.params, "--overwrite")

    sources, references = read_lines(args.source), read_lines(args.reference)
    if len(sources) != len(references):
        sys.exit(f"bench: {args.source} and {args.reference} differ in lines")

    def subset(every, name):
        src, ref = os.path.join(args.work, name + ".en"), os.path.join(args.work, name + ".es")
        write_lines(src, sources[::every])
        write_lines(ref, references[::every])
        return src, ref, len(sources[::every])

    args.subset_source, beam_ref, beam_n = subset(args.every, "beam")
    prefix_src, prefix_ref, prefix_n = subset(args.prefix_every, "prefix")
    rows = peer_rows(args, skip, beam_n)
    if "tc" not in skip:
        rows += tc_rows(args, beam_n, prefix_src, prefix_n)
    table, busy = measured(args, processor, rows, beam_ref, prefix_ref)
    report(args, table, comparisons(args, table), busy, beam_n, prefix_n)
    print(f"\n(bench: {time.perf_counter() - began:.0f} s in all)")


if __name__ == "__main__":
    main()
