"""What the decoding bench's processes share (bench/decoding.py runs each
peer in a process of its own): the arguments the parent hands a child, the
model's description, tc's position table, text files, the sentences'
length-sorted batches, the timed runs, and the reference outputs every peer
is checked against before it is timed (check.json in the work directory,
written by bench/decoding_reference.py)."""

import argparse
import json
import os
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def child_arguments(description, extra=()):
    """The arguments of a child process, as bench/decoding.py's child() passes
    them, and the child's own (`extra`: (flag, add_argument's keywords))."""
    parser = argparse.ArgumentParser(description=description)
    for flag, keywords in extra:
        parser.add_argument(flag, **keywords)
    parser.add_argument("--output", required=True, help="the translations, one line each")
    parser.add_argument("--work", required=True, help="the bench's work directory")
    parser.add_argument("--params", required=True, help="tc-run export's .npz")
    parser.add_argument("--description", required=True, help="the model description")
    parser.add_argument("--vocabulary", required=True, help="the SentencePiece model")
    parser.add_argument("--source", required=True, help="the sentences to translate")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--beam", type=int, required=True)
    parser.add_argument("--alpha", type=float, required=True)
    parser.add_argument("--offset", type=int, required=True)
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--check", type=int, required=True)
    parser.add_argument("--ct2-length-penalty", type=float, required=True)
    return parser.parse_args()


def description_of(path):
    """The model's hyperparameters and token ids (tc's defaults where the
    description leaves them out: compiler/frontend/ModelDescription.h)."""
    m = tomllib.load(open(path, "rb"))["model"]
    return {"vocab": m["vocab_size"], "d_model": m["d_model"], "heads": m["heads"],
            "d_ff": m["d_ff"], "encoder_layers": m["encoder_layers"],
            "decoder_layers": m["decoder_layers"],
            "eps": m.get("layer_norm_epsilon", 1e-5), "pad": m.get("pad_id", 0),
            "bos": m.get("bos_id", 1), "eos": m.get("eos_id", 2)}


def position_table(length, d_model):
    """tc's sinusoidal positions, interleaved: PE[p, 2i] = sin(p / 10000^(2i/d)),
    PE[p, 2i + 1] = cos(the same angle); float64 -> float32 as the reference."""
    import numpy as np
    pos = np.arange(length, dtype=np.float64)[:, None]
    col = np.arange(d_model)
    angle = pos / np.power(10000.0, (col - col % 2) / d_model)
    return np.where(col % 2 == 0, np.sin(angle), np.cos(angle)).astype(np.float32)


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)


def sources_of(processor, lines, eos):
    """Source ids as tc-run translate makes them: the pieces, then EOS."""
    return [processor.encode(line) + [eos] for line in lines]


def check_picks(sources, count):
    """The indices of the `count` sentences, spread over `sources`, that the
    peers are checked on."""
    return sorted({round(i * (len(sources) - 1) / max(1, count - 1)) for i in range(count)})


def check_path(work):
    return os.path.join(work, "check.json")


def read_check(work):
    """The reference's outputs for the checked sentences: a list of {source,
    greedy, greedy_log_probs} (and beam, beam_score with --with-beam)."""
    with open(check_path(work)) as f:
        return json.load(f)


def length_sorted_batches(sources, batch):
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    return [order[i:i + batch] for i in range(0, len(order), batch)]


def timed_runs(name, args, sources, report, translate_batch, batch_size=None, runs=None):
    """Translates `sources` `runs` (default --runs) times in length-sorted
    batches of `batch_size` (default --batch) (translate_batch: a batch of
    sources -> their outputs in order, or a function that waits for them: all
    batches are submitted before the first is waited for, so that a peer with
    several workers keeps them busy); returns the last run's outputs in input
    order, each run's seconds and the load average after it, and records in
    `report` whether the runs agreed."""
    batches = length_sorted_batches(sources, batch_size or args.batch)
    seconds, outputs, loads = [], None, []
    for _ in range(runs or args.runs):
        found = [None] * len(sources)
        start = time.perf_counter()
        submitted = [translate_batch([sources[i] for i in batch]) for batch in batches]
        for batch, results in zip(batches, submitted):
            for i, output in zip(batch, results() if callable(results) else results):
                found[i] = output
        seconds.append(time.perf_counter() - start)
        loads.append(os.getloadavg()[0])
        print(f"{name}: beam {args.beam} in {seconds[-1]:.1f} s (load {loads[-1]:.1f})",
              file=sys.stderr, flush=True)
        report["deterministic"] = report.get("deterministic", True) and (
            outputs is None or outputs == found)
        outputs = found
    return outputs, seconds, loads


def latency_runs(name, sources, runs, translate_one):
    """Translates `sources` one at a time (interactive use), `runs` times:
    each run's per-sentence seconds, and the load average after each run."""
    runs_seconds, loads = [], []
    for _ in range(runs):
        seconds = []
        for source in sources:
            start = time.perf_counter()
            translate_one(source)
            seconds.append(time.perf_counter() - start)
        runs_seconds.append(seconds)
        loads.append(os.getloadavg()[0])
        print(f"{name}: {len(sources)} sentences one at a time in {sum(seconds):.1f} s "
              f"(load {loads[-1]:.1f})", file=sys.stderr, flush=True)
    return runs_seconds, loads
