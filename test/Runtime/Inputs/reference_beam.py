"""The independent reference for `tc-run translate --beam`: tc's beam search
run brute force in float64 on the PyTorch reference model (test/Frontend/torch)
with the weights of a checkpoint (`tc-run export ... -o P.npz`). No key/value
cache: each step re-runs the decoder on every live hypothesis's whole prefix
(BOS + tokens); the encoder runs once per sentence.

The rule, per sentence (source ids + EOS), beam k, n-best N, at most L_max
generated tokens (EOS included), L_max = min(len(source incl. EOS) + offset, T):
- step 0 has one live hypothesis, [BOS] with logP 0; pad and BOS are never
  generated (log-probability -inf); logP sums the log softmax of the logits.
- each step, every live h (in rank order) proposes every token v with
  logP_h + logprob(v | h); sorted by logP descending, ties by the rank of h,
  then v; the first 2k are kept. An EOS candidate at position < k finishes
  (score = logP / lp(n), n = tokens incl. EOS, lp(n) = ((5 + n) / 6)^alpha),
  one at position >= k is dropped; the first k others are the next live
  hypotheses, in that order. At the last step (t + 1 == L_max) every live h
  ends with EOS.
- stop early once N are finished and the N-th best score > max over live h of
  logP_h / lp(L_max) (no extension can beat it for alpha >= 0).
- result: finished sorted by score descending (ties: finished earlier first),
  the first N.

The rule lives here once: bench/decoding_reference.py imports `Model`,
`beam_search` and `lp` (in float32, to check the bench's incremental PyTorch
decoder against it).

Prints the n-best as tc does, `I ||| ids ||| score` (ids without BOS/EOS), or
with --check compares tc's n-best file: the same best hypothesis and score
within 1e-4 for every sentence, and n-best lists of the same lengths.

    reference_beam.py --description M.toml --params P.npz --sources SRC.txt
        --beam 4 --alpha 0.6 --n-best N --max-length-offset 50
        --max-target-length T [--check TC_NBEST.txt] [--count-at-least 50]
"""
import argparse
import os
import sys
import tomllib

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "test", "Frontend", "torch"))
from reference_transformer import ReferenceTransformer  # noqa: E402

SCORE_TOLERANCE = 1e-4


class Model:
    """The reference Transformer with an exported checkpoint's weights, in
    float64 (or the dtype given)."""

    def __init__(self, description, params, dtype=torch.float64):
        m = tomllib.load(open(description, "rb"))["model"]
        self.pad, self.bos, self.eos = m.get("pad_id", 0), m.get("bos_id", 1), m.get("eos_id", 2)
        self.vocab = m["vocab_size"]
        self.net = ReferenceTransformer(
            self.vocab, m["d_model"], m["heads"], m["d_ff"], m["encoder_layers"],
            m["decoder_layers"], pad_id=self.pad,
            layer_norm_eps=m.get("layer_norm_epsilon", 1e-5)).to(dtype).eval()
        weights = np.load(params)
        wanted = self.net.tc_parameters()
        if set(weights.files) != set(wanted):
            sys.exit(f"{params}: parameters differ from the model's: "
                     f"{sorted(set(weights.files) ^ set(wanted))}")
        with torch.no_grad():
            for name, tensor in wanted.items():
                tensor.copy_(torch.from_numpy(weights[name]))  # shape mismatch raises
        self.encoded = (None, None)

    @torch.no_grad()
    def encode(self, source):
        """The encoder's output for one source, [1, len, d_model] (the last one kept)."""
        if self.encoded[0] != source:
            self.encoded = (source, self.net.encode(torch.tensor([source])))
        return self.encoded[1]

    @torch.no_grad()
    def next_log_probs(self, source, prefixes):
        """log softmax of the last position of each prefix (all of one length):
        [len(prefixes), vocab] in the model's dtype."""
        n = len(prefixes)
        logits = self.net.decode(self.encode(source).expand(n, -1, -1),
                                 torch.tensor([source] * n), torch.tensor(prefixes))[:, -1]
        return torch.log_softmax(logits, dim=-1).numpy()

    def log_probs(self, source, prefixes):
        """next_log_probs with pad and BOS at -inf: what beam search may generate."""
        result = self.next_log_probs(source, prefixes)
        result[:, [self.pad, self.bos]] = -np.inf
        return result

    @torch.no_grad()
    def log_prob(self, source, tokens):
        """logP of tokens + EOS in one teacher-forced pass (for the report of a mismatch)."""
        out = tokens + [self.eos]
        logits = self.net.decode(self.encode(source), torch.tensor([source]),
                                 torch.tensor([[self.bos] + tokens]))
        return float(torch.log_softmax(logits[0], dim=-1)[range(len(out)), out].sum())


def lp(n, alpha):
    return ((5 + n) / 6) ** alpha


def beam_search(model, source, k, alpha, n_best, l_max, early_stop=True,
                stop="best-proven"):
    """tc's beam search of one source (ids incl. EOS): the n-best as
    [(tokens without BOS/EOS, score)]. logP sums in the dtype of
    model.log_probs. early_stop=False is for checking that the early stop
    changes nothing. stop is tc-run's --stop: "best-proven" (the n-th best
    finished beats every live hypothesis's best reachable score) or
    "beam-finished" (k hypotheses have finished)."""
    live = [(0, [])]  # (logP, tokens), in rank order
    finished = []  # (score, tokens), in the order they finished
    for t in range(l_max):
        scores = model.log_probs(source, [[model.bos] + tokens for _, tokens in live])
        if t + 1 == l_max:
            finished += [(float(p + scores[h, model.eos]) / lp(t + 1, alpha), tokens)
                         for h, (p, tokens) in enumerate(live)]
            break
        totals = np.array([p for p, _ in live], dtype=scores.dtype)[:, None] + scores
        # A stable sort of the row-major (h, v) order: ties by rank h, then v.
        order = np.argsort(-totals.ravel(), kind="stable")[:2 * k]
        candidates = [(totals.flat[i], *divmod(int(i), model.vocab))
                      for i in order if totals.flat[i] > -np.inf]
        next_live = []
        for position, (p, h, v) in enumerate(candidates):
            if v == model.eos:
                if position < k:
                    finished.append((float(p) / lp(t + 1, alpha), live[h][1]))
            elif len(next_live) < k:
                next_live.append((p, live[h][1] + [v]))
        live = next_live
        finished.sort(key=lambda f: -f[0])  # stable: earlier first among ties
        if not live:
            break
        if stop == "beam-finished":
            if len(finished) >= k:
                break
        elif early_stop and len(finished) >= n_best and (
                finished[n_best - 1][0] > float(max(p for p, _ in live)) / lp(l_max, alpha)):
            break
    finished.sort(key=lambda f: -f[0])
    return [(tokens, score) for score, tokens in finished[:n_best]]


def read_nbest(path):
    """tc's n-best file: {sentence: [(tokens, score)]} in file order, and the line count."""
    nbest, count = {}, 0
    for number, line in enumerate(open(path), 1):
        fields = [f.strip() for f in line.split("|||")]
        if len(fields) != 3:
            sys.exit(f"{path}:{number}: not `I ||| ids ||| score`: {line!r}")
        nbest.setdefault(int(fields[0]), []).append(
            ([int(x) for x in fields[1].split()], float(fields[2])))
        count += 1
    return nbest, count


def show(tokens):
    return " ".join(map(str, tokens))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--description", required=True, help="the model description (.toml)")
    parser.add_argument("--params", required=True, help="tc-run export's .npz")
    parser.add_argument("--sources", required=True, help="one sentence of ids a line, no EOS")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--alpha", type=float, default=0.6)
    parser.add_argument("--n-best", type=int, default=1)
    parser.add_argument("--max-length-offset", type=int, default=50)
    parser.add_argument("--stop", choices=["best-proven", "beam-finished"],
                        default="best-proven", help="tc-run translate's --stop")
    parser.add_argument("--max-target-length", type=int, required=True,
                        help="T, the target length of the bucket")
    parser.add_argument("--check", help="tc's n-best file to compare with")
    parser.add_argument("--count-at-least", type=int, default=0,
                        help="with --check: fail when fewer sentences are compared")
    args = parser.parse_args()
    if not 1 <= args.n_best <= args.beam or args.alpha < 0 or args.max_target_length < 1:
        sys.exit("need 1 <= --n-best <= --beam, --alpha >= 0, --max-target-length >= 1")

    model = Model(args.description, args.params)
    sources = [[int(x) for x in line.split()] + [model.eos]
               for line in open(args.sources).read().splitlines()]
    results = []
    for source in sources:
        l_max = min(len(source) + args.max_length_offset, args.max_target_length)
        results.append(beam_search(model, source, args.beam, args.alpha, args.n_best, l_max,
                                   stop=args.stop))

    if not args.check:
        for i, nbest in enumerate(results):
            for tokens, score in nbest:
                print(f"{i} ||| {show(tokens)} ||| {score!r}")
        return

    theirs, lines = read_nbest(args.check)
    problems, largest = [], 0.0
    if lines != sum(map(len, results)):
        problems.append(f"{args.check} has {lines} lines, the reference {sum(map(len, results))}")
    extra = sorted(set(theirs) - set(range(len(results))))
    if extra:
        problems.append(f"{args.check} has sentences {extra} beyond the {len(results)} sources")
    for i, ours in enumerate(results):
        got = theirs.get(i, [])
        if len(got) != len(ours):
            problems.append(f"sentence {i}: tc has {len(got)} hypotheses, "
                            f"the reference {len(ours)}")
        if not got:
            continue
        (tokens, score), (want_tokens, want_score) = got[0], ours[0]
        largest = max(largest, abs(score - want_score))
        if tokens != want_tokens or abs(score - want_score) > SCORE_TOLERANCE:
            problems.append(f"sentence {i}: tc best [{show(tokens)}] score {score!r}, "
                            f"reference [{show(want_tokens)}] score {want_score!r}")
            if tokens != want_tokens and all(0 <= v < model.vocab for v in tokens):
                rescored = model.log_prob(sources[i], tokens) / lp(len(tokens) + 1, args.alpha)
                problems[-1] += f" (the reference model scores tc's best {rescored!r})"
        # The rest of the n-best too: which hypotheses a stop rule leaves
        # finished shows there first.
        for rank, ((tokens, score), (want_tokens, want_score)) in enumerate(
                zip(got[1:], ours[1:]), 2):
            largest = max(largest, abs(score - want_score))
            if tokens != want_tokens or abs(score - want_score) > SCORE_TOLERANCE:
                problems.append(f"sentence {i}: tc's hypothesis {rank} [{show(tokens)}] "
                                f"score {score!r}, reference [{show(want_tokens)}] "
                                f"score {want_score!r}")
    if len(results) < args.count_at_least:
        problems.append(f"only {len(results)} sentences compared, fewer than {args.count_at_least}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"reference beam search: {len(results)} sentences, n-best lists identical, "
          f"largest score difference {largest:.3g}")


if __name__ == "__main__":
    main()
