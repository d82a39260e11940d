"""Decoding speed and quality (issue 17): tc's compiled incremental decoder
and beam search against an incremental PyTorch beam search and CTranslate2,
on the demo model (scripts/main-job.sh) with the same weights, the same
sentences and the same threads; and tc's incremental decoder against its
full-prefix one (greedy).

- Weights: `tc-run export MODEL.tcx --checkpoint CK -o params.npz`, read by
  the two peers.
- PyTorch (eager, Debian's python3-torch, float32): an incremental decoder
  written here over the exported tensors (post-LN layers, fused q/k/v, keys
  and values of the self-attention cached per layer, the cross-attention's
  computed once per batch, the k hypotheses of a sentence as k rows of the
  batch, a sentence leaves the batch when its search stops), and tc's beam
  search rule (issue 17, `tc-run translate --beam`) vectorised over the
  batch: the 2k best candidates with ties broken by (hypothesis
  rank, token), EOS in the first k finishes, lp(n) = ((5 + n) / 6)^alpha,
  the provably safe early stop, L_max = source tokens (with EOS) + offset.
  Before timing it is checked against the reference model of tc's checks
  (test/Frontend/torch/reference_transformer.py, nn.Transformer, full
  recompute of the prefix at every step): greedy log-probabilities and ids,
  and the beam search rule run one sentence at a time over full prefixes.
- CTranslate2 (PyPI, CPU, float32, intra_threads = threads, inter_threads
  1): the model built from the .npz with its spec API (TransformerSpec,
  post-LN, embeddings shared and scaled by sqrt(d_model), the output tied to
  them); tc's position table set explicitly (interleaved sin/cos, not
  fairseq's halves) and tc's layer norm epsilon in the config. Checked
  before timing: score_batch's per-token log-probabilities of the PyTorch
  greedy outputs against the reference's, and its greedy outputs against
  PyTorch's. Its beam search is its own: beam_size k, length_penalty alpha
  used as CT2 uses it, an exponent (score / n^alpha, not GNMT's
  ((5 + n) / 6)^alpha), its own early stop (patience 1),
  max_decoding_length = the batch's longest source + offset.
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
are a markdown table and the ratios, for docs/performance.md.

    bench/run.sh decoding [--threads 2] [--every 1] [--prefix-every 4]
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "Frontend", "torch"))

MISSING = """\
bench: {what} is missing: {path}
The demo model and corpus come from the main job, which builds the corpus,
trains the demo model for 30 minutes and averages its checkpoints:
    scripts/main-job.sh          (build/corpus, build/demo: about 40 minutes)
or pass --model, --checkpoint, --source and --reference."""


def run(*command, **kwargs):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


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


def lp(n, alpha):
    return ((5 + n) / 6) ** alpha


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)


def sources_of(processor, lines, eos):
    """Source ids as tc-run translate makes them: the pieces, then EOS."""
    return [processor.encode(line) + [eos] for line in lines]


def length_sorted_batches(sources, batch):
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    return [order[i:i + batch] for i in range(0, len(order), batch)]


def timed_runs(name, args, sources, report, translate_batch):
    """Translates `sources` --runs times in length-sorted batches of --batch
    (translate_batch: a batch of sources -> their outputs, in order); returns
    the last run's outputs in input order, each run's seconds and the load
    average after it, and records in `report` whether the runs agreed."""
    batches = length_sorted_batches(sources, args.batch)
    seconds, outputs, loads = [], None, []
    for _ in range(args.runs):
        found = [None] * len(sources)
        start = time.perf_counter()
        for batch in batches:
            for i, output in zip(batch, translate_batch([sources[i] for i in batch])):
                found[i] = output
        seconds.append(time.perf_counter() - start)
        loads.append(os.getloadavg()[0])
        print(f"{name}: beam {args.beam} in {seconds[-1]:.1f} s (load {loads[-1]:.1f})",
              file=sys.stderr, flush=True)
        report["deterministic"] = report.get("deterministic", True) and (
            outputs is None or outputs == found)
        outputs = found
    return outputs, seconds, loads


# --- PyTorch: the incremental decoder and the batched beam search --------------

class IncrementalTransformer:
    """tc's model over an exported .npz: the encoder, and one decoder step for
    a batch of rows against per-layer key/value caches."""

    def __init__(self, params, d):
        import numpy as np
        import torch
        self.torch = torch
        z = np.load(params)
        w = {name: torch.from_numpy(z[name]) for name in z.files}
        self.d, self.h = d["d_model"], d["heads"]
        self.dk, self.eps = self.d // self.h, d["eps"]
        self.pad, self.bos, self.eos = d["pad"], d["bos"], d["eos"]
        self.emb = w["embedding.weight"]
        self.vocab = self.emb.shape[0]
        self.emb_scale = math.sqrt(self.d)
        self.pe = torch.from_numpy(position_table(1024, self.d))

        def attention(p, fused):  # fused: "qkv" or "kv" (the cross-attention's)
            a = {"w_" + fused: torch.cat([w[f"{p}.{c}.weight"] for c in fused]),
                 "b_" + fused: torch.cat([w[f"{p}.{c}.bias"] for c in fused]),
                 "w_out": w[f"{p}.out.weight"], "b_out": w[f"{p}.out.bias"]}
            if fused == "kv":
                a["w_q"], a["b_q"] = w[f"{p}.q.weight"], w[f"{p}.q.bias"]
            return a

        def norm(p):
            return (w[f"{p}.weight"], w[f"{p}.bias"])

        def ffn(p):
            return (w[f"{p}.fc1.weight"], w[f"{p}.fc1.bias"],
                    w[f"{p}.fc2.weight"], w[f"{p}.fc2.bias"])

        self.encoder = [{"self": attention(f"encoder.layers.{i}.self_attn", "qkv"),
                         "norm1": norm(f"encoder.layers.{i}.self_attn_norm"),
                         "ffn": ffn(f"encoder.layers.{i}.ffn"),
                         "norm2": norm(f"encoder.layers.{i}.ffn_norm")}
                        for i in range(d["encoder_layers"])]
        self.decoder = [{"self": attention(f"decoder.layers.{i}.self_attn", "qkv"),
                         "norm1": norm(f"decoder.layers.{i}.self_attn_norm"),
                         "cross": attention(f"decoder.layers.{i}.cross_attn", "kv"),
                         "norm2": norm(f"decoder.layers.{i}.cross_attn_norm"),
                         "ffn": ffn(f"decoder.layers.{i}.ffn"),
                         "norm3": norm(f"decoder.layers.{i}.ffn_norm")}
                        for i in range(d["decoder_layers"])]

    def _norm(self, x, wb):
        return self.torch.nn.functional.layer_norm(x, (self.d,), wb[0], wb[1], self.eps)

    def _ffn(self, x, p):
        F = self.torch.nn.functional
        return F.linear(F.relu(F.linear(x, p[0], p[1])), p[2], p[3])

    def encode(self, src):
        """src [S, L] (padded) -> (memory [S, L, d], key bias [S, 1, 1, L])."""
        torch, F = self.torch, self.torch.nn.functional
        S, L = src.shape
        bias = torch.zeros(S, 1, 1, L).masked_fill((src == self.pad)[:, None, None, :],
                                                   float("-inf"))
        x = self.emb[src] * self.emb_scale + self.pe[:L]
        for layer in self.encoder:
            a = layer["self"]
            qkv = F.linear(x, a["w_qkv"], a["b_qkv"]).view(S, L, 3, self.h, self.dk)
            q, k, v = qkv.permute(2, 0, 3, 1, 4)  # each [S, H, L, dk]
            scores = (q * (1.0 / math.sqrt(self.dk))) @ k.transpose(-1, -2) + bias
            ctx = (scores.softmax(-1) @ v).transpose(1, 2).reshape(S, L, self.d)
            x = self._norm(x + F.linear(ctx, a["w_out"], a["b_out"]), layer["norm1"])
            x = self._norm(x + self._ffn(x, layer["ffn"]), layer["norm2"])
        return x, bias

    def cross_keys_values(self, memory):
        """Per decoder layer, the cross-attention's K and V [S, H, L, dk], once."""
        F = self.torch.nn.functional
        S, L, _ = memory.shape
        out = []
        for layer in self.decoder:
            a = layer["cross"]
            kv = F.linear(memory, a["w_kv"], a["b_kv"]).view(S, L, 2, self.h, self.dk)
            k, v = kv.permute(2, 0, 3, 1, 4)
            out.append((k.contiguous(), v.contiguous()))
        return out

    def step(self, tokens, t, cache, cross, bias):
        """One position t for rows = S sentences x k hypotheses.

        tokens [S, k]; cache: per layer (K, V) [S*k, H, t, dk] or None, replaced
        by the caches with position t; cross, bias: per sentence. Returns the
        log-probabilities [S, k, V]."""
        torch, F = self.torch, self.torch.nn.functional
        S, k = tokens.shape
        R = S * k
        scale = 1.0 / math.sqrt(self.dk)
        x = self.emb[tokens.reshape(R)] * self.emb_scale + self.pe[t]
        for i, layer in enumerate(self.decoder):
            a = layer["self"]
            qkv = F.linear(x, a["w_qkv"], a["b_qkv"]).view(R, 3, self.h, 1, self.dk)
            q, kt, vt = qkv.unbind(1)  # [R, H, 1, dk]
            if cache[i] is None:
                K, V = kt, vt
            else:
                K, V = torch.cat([cache[i][0], kt], 2), torch.cat([cache[i][1], vt], 2)
            cache[i] = (K, V)
            scores = (q * scale) @ K.transpose(-1, -2)  # [R, H, 1, t + 1]
            ctx = (scores.softmax(-1) @ V).reshape(R, self.d)
            x = self._norm(x + F.linear(ctx, a["w_out"], a["b_out"]), layer["norm1"])
            c = layer["cross"]
            q = F.linear(x, c["w_q"], c["b_q"]).view(S, k, self.h, self.dk).transpose(1, 2)
            Kc, Vc = cross[i]
            scores = (q * scale) @ Kc.transpose(-1, -2) + bias  # [S, H, k, L]
            ctx = (scores.softmax(-1) @ Vc).transpose(1, 2).reshape(R, self.d)
            x = self._norm(x + F.linear(ctx, c["w_out"], c["b_out"]), layer["norm2"])
            x = self._norm(x + self._ffn(x, layer["ffn"]), layer["norm3"])
        return F.linear(x, self.emb).log_softmax(-1).view(S, k, self.vocab)

    def padded(self, rows):
        src = self.torch.full((len(rows), max(map(len, rows))), self.pad)
        for r, s in enumerate(rows):
            src[r, :len(s)] = self.torch.tensor(s)
        return src


def beam_search(model, rows, k, alpha, offset, n_best=1):
    """tc's beam search for a batch of sources (ids ending with EOS): per
    source, the n-best (ids without BOS/EOS, score, logP), best first."""
    torch = model.torch
    S, V = len(rows), model.vocab
    limits = [len(s) + offset for s in rows]  # L_max
    memory, bias = model.encode(model.padded(rows))
    cross = model.cross_keys_values(memory)
    cache = [None] * len(model.decoder)
    alive = list(range(S))  # batch position -> sentence
    finished = [[] for _ in range(S)]  # (score, order, ids, logP)
    counter = 0
    # Step 0 has one hypothesis, [BOS]; rows 1..k-1 start at -inf and so
    # propose nothing the first row does not beat.
    logp = torch.full((S, k), float("-inf"))
    logp[:, 0] = 0
    tokens = torch.full((S, k), model.bos)
    history = torch.zeros(S, k, 0, dtype=torch.long)
    t = 0
    while alive:
        lprobs = model.step(tokens, t, cache, cross, bias)
        lprobs[:, :, model.pad] = float("-inf")
        lprobs[:, :, model.bos] = float("-inf")
        n = t + 1
        last = [limits[s] == n for s in alive]
        cand = (logp[:, :, None] + lprobs).view(len(alive), k * V)
        top_v, top_i = cand.topk(2 * k + 1, dim=1)  # sorted descending
        # Ties by (rank, token) = flat index ascending: order each run of equal
        # values by index; a tie across the 2k boundary takes a full sort.
        boundary = top_v[:, 2 * k] == top_v[:, 2 * k - 1]
        top_v, top_i = top_v[:, :2 * k], top_i[:, :2 * k]
        o = top_i.argsort(dim=1)
        top_v, top_i = top_v.gather(1, o), top_i.gather(1, o)
        o = top_v.argsort(dim=1, descending=True, stable=True)
        top_v, top_i = top_v.gather(1, o), top_i.gather(1, o)
        for b in boundary.nonzero().flatten().tolist():
            v, i = torch.sort(cand[b], descending=True, stable=True)
            top_v[b], top_i[b] = v[:2 * k], i[:2 * k]
        hyp, tok = top_i // V, top_i % V
        is_eos = tok == model.eos
        live = is_eos.int().argsort(dim=1, stable=True)[:, :k]  # first k non-EOS
        new_logp, new_hyp, new_tok = top_v.gather(1, live), hyp.gather(1, live), tok.gather(1, live)
        bound = (new_logp.max(1).values).tolist()
        eos_v, eos_h, eos_first = top_v[:, :k].tolist(), hyp[:, :k].tolist(), is_eos[:, :k].tolist()
        end_logp = (logp + lprobs[:, :, model.eos]).tolist()
        keep = []
        for b, s in enumerate(alive):
            if last[b]:  # every live hypothesis ends with EOS
                for h in range(k):
                    if end_logp[b][h] != float("-inf"):
                        finished[s].append((end_logp[b][h] / lp(n, alpha), counter,
                                            history[b, h].tolist(), end_logp[b][h]))
                        counter += 1
                continue
            for p in range(k):
                if eos_first[b][p]:
                    finished[s].append((eos_v[b][p] / lp(n, alpha), counter,
                                        history[b, eos_h[b][p]].tolist(), eos_v[b][p]))
                    counter += 1
            f = finished[s]
            if len(f) >= n_best:
                f.sort(key=lambda e: (-e[0], e[1]))
                if f[n_best - 1][0] > bound[b] / lp(limits[s], alpha):
                    continue
            keep.append(b)
        history = torch.cat([history.gather(
            1, new_hyp[:, :, None].expand(-1, -1, history.shape[2])), new_tok[:, :, None]], 2)
        if len(keep) < len(alive):
            index = torch.tensor(keep, dtype=torch.long)
            new_logp, new_hyp, new_tok = new_logp[index], new_hyp[index], new_tok[index]
            history = history[index]
            bias = bias[index]
            cross = [(K[index], Vv[index]) for K, Vv in cross]
            alive = [alive[b] for b in keep]
        else:
            index = torch.arange(len(alive))
        if alive:
            rows_of = (index[:, None] * k + new_hyp).reshape(-1)
            cache = [(K.index_select(0, rows_of), Vv.index_select(0, rows_of))
                     for K, Vv in cache]
        logp, tokens = new_logp, new_tok
        t += 1
    result = []
    for f in finished:
        f.sort(key=lambda e: (-e[0], e[1]))
        result.append([(ids, score, lpv) for score, _, ids, lpv in f[:n_best]])
    return result


def greedy_search(model, rows, offset):
    """The most probable token (all V, as tc's greedy search) until EOS or
    L_max tokens: ids without EOS and the log-probabilities of each generated
    token (EOS included), per source."""
    torch = model.torch
    S = len(rows)
    memory, bias = model.encode(model.padded(rows))
    cross = model.cross_keys_values(memory)
    cache = [None] * len(model.decoder)
    tokens = torch.full((S, 1), model.bos)
    out = [([], []) for _ in range(S)]
    done = [False] * S
    for t in range(max(len(s) for s in rows) + offset):
        lprobs = model.step(tokens, t, cache, cross, bias)[:, 0]
        best = lprobs.argmax(-1)
        values = lprobs.gather(1, best[:, None])[:, 0].tolist()
        for s, (token, value) in enumerate(zip(best.tolist(), values)):
            if done[s]:
                continue
            out[s][1].append(value)
            if token == model.eos or len(out[s][1]) == len(rows[s]) + offset:
                done[s] = True
            if token != model.eos:
                out[s][0].append(token)
        if all(done):
            break
        tokens = best[:, None]
    return out


# --- the full-recompute references the incremental decoder is checked against --

def reference_model(params, d):
    import numpy as np
    import torch
    from reference_transformer import ReferenceTransformer
    net = ReferenceTransformer(d["vocab"], d["d_model"], d["heads"], d["d_ff"],
                               d["encoder_layers"], d["decoder_layers"], pad_id=d["pad"],
                               layer_norm_eps=d["eps"]).eval()
    z = np.load(params)
    with torch.no_grad():
        for name, tensor in net.tc_parameters().items():
            tensor.copy_(torch.from_numpy(z[name]))
    return net


def reference_log_probs(net, source, prefixes):
    import torch
    src = torch.tensor([source] * len(prefixes))
    logits = net.decode(net.encode(src), src, torch.tensor(prefixes))[:, -1]
    return logits.log_softmax(-1).numpy()


def reference_greedy(net, source, offset, d):
    prefix, values = [d["bos"]], []
    while len(values) < len(source) + offset:
        row = reference_log_probs(net, source, [prefix])[0]
        token = int(row.argmax())
        values.append(float(row[token]))
        if token == d["eos"]:
            break
        prefix.append(token)
    return prefix[1:], values


def reference_beam(net, source, k, alpha, offset, n_best, d):
    """tc's rule one sentence at a time, the decoder re-run on whole prefixes,
    candidates sorted with numpy (value descending, rank, token)."""
    import numpy as np
    limit = len(source) + offset
    live = [([d["bos"]], np.float32(0))]
    finished = []
    for t in range(limit):
        rows = reference_log_probs(net, source, [p for p, _ in live])
        rows[:, [d["pad"], d["bos"]]] = -np.inf
        n = t + 1
        if n == limit:
            for r, (p, v) in enumerate(live):
                total = v + rows[r, d["eos"]]
                finished.append((float(total) / lp(n, alpha), len(finished), p[1:], float(total)))
            break
        cand = np.stack([v + rows[r] for r, (_, v) in enumerate(live)])  # float32
        V = cand.shape[1]
        h = np.repeat(np.arange(len(live)), V)
        tok = np.tile(np.arange(V), len(live))
        order = np.lexsort((tok, h, -cand.reshape(-1)))[:2 * k]
        nxt = []
        for position, c in enumerate(order):
            value, hh, vv = cand.reshape(-1)[c], h[c], tok[c]
            if vv == d["eos"]:
                if position < k:
                    finished.append((float(value) / lp(n, alpha), len(finished),
                                     live[hh][0][1:], float(value)))
            elif len(nxt) < k:
                nxt.append((live[hh][0] + [int(vv)], value))
        live = nxt
        if len(finished) >= n_best:
            best = sorted(finished, key=lambda e: (-e[0], e[1]))
            if best[n_best - 1][0] > max(float(v) for _, v in live) / lp(limit, alpha):
                break
    finished.sort(key=lambda e: (-e[0], e[1]))
    return [(ids, score, value) for score, _, ids, value in finished[:n_best]]


# --- PyTorch, in a process of its own -----------------------------------------

def torch_child(args):
    import sentencepiece
    import torch
    torch.set_num_threads(args.threads)
    d = description_of(args.description)
    processor = sentencepiece.SentencePieceProcessor(model_file=args.vocabulary)
    sources = sources_of(processor, read_lines(args.source), d["eos"])
    model = IncrementalTransformer(args.params, d)
    report = {"threads": torch.get_num_threads()}

    began = time.perf_counter()
    with torch.no_grad():
        # The checks: the incremental decoder against nn.Transformer re-run on
        # whole prefixes; the batched beam search against the rule run one
        # sentence at a time on those.
        net = reference_model(args.params, d)
        picks = sorted({round(i * (len(sources) - 1) / max(1, args.check - 1))
                        for i in range(args.check)})
        rows = [sources[i] for i in picks]
        greedy = greedy_search(model, rows, args.offset)
        beams = beam_search(model, rows, args.beam, args.alpha, args.offset)
        check, worst, same_greedy, same_beam, score_diff = [], 0.0, 0, 0, 0.0
        for r, source in enumerate(rows):
            ids, values = reference_greedy(net, source, args.offset, d)
            same_greedy += ids == greedy[r][0]
            if ids == greedy[r][0]:
                worst = max(worst, max(abs(a - b) for a, b in zip(values, greedy[r][1])))
            ref = reference_beam(net, source, args.beam, args.alpha, args.offset, 1, d)
            same_beam += ref[0][0] == beams[r][0][0]
            score_diff = max(score_diff, abs(ref[0][1] - beams[r][0][1]))
            check.append({"source": source, "greedy": ids, "greedy_log_probs": values,
                          "beam": ref[0][0], "beam_score": ref[0][1]})
        report["check"] = {
            "sentences": len(rows), "greedy_same_ids": same_greedy,
            "greedy_max_log_prob_diff": worst, "beam_same_ids": same_beam,
            "beam_max_score_diff": score_diff}
        print(f"torch check ({time.perf_counter() - began:.0f} s): "
              f"{json.dumps(report['check'])}", file=sys.stderr, flush=True)
        json.dump(check, open(os.path.join(args.work, "check.json"), "w"))
        if same_greedy != len(rows) or same_beam != len(rows) or score_diff > 1e-4:
            sys.exit("torch: the incremental decoder or beam search differs from the "
                     f"full-recompute reference: {report['check']}")

        outputs, seconds, loads = timed_runs(
            "torch", args, sources, report,
            lambda batch: [best[0] for best in beam_search(
                model, batch, args.beam, args.alpha, args.offset)])
    write_lines(args.output, [processor.decode(ids) for ids, _, _ in outputs])
    report["seconds"], report["loads"] = seconds, loads
    report["at_limit"] = sum(len(ids) + 1 >= len(s) + args.offset
                             for (ids, _, _), s in zip(outputs, sources))
    print(json.dumps(report))


# --- CTranslate2, in a process of its own -------------------------------------

def ct2_model(params, d, pieces, directory):
    """tc's model as a CTranslate2 TransformerSpec, saved in `directory`."""
    import numpy as np
    from ctranslate2.specs import transformer_spec
    z = np.load(params)
    spec = transformer_spec.TransformerSpec.from_config(
        (d["encoder_layers"], d["decoder_layers"]), d["heads"], pre_norm=False)
    emb = z["embedding.weight"]
    table = position_table(1024, d["d_model"])

    def linear(s, *names):
        s.weight = np.concatenate([z[n + ".weight"] for n in names])
        s.bias = np.concatenate([z[n + ".bias"] for n in names])

    def norm(s, name):
        s.gamma, s.beta = z[name + ".weight"], z[name + ".bias"]

    def ffn(s, p):
        linear(s.linear_0, p + ".ffn.fc1")
        linear(s.linear_1, p + ".ffn.fc2")
        norm(s.layer_norm, p + ".ffn_norm")

    def attention(s, p, cross):
        if cross:
            linear(s.linear[0], p + ".q")
            linear(s.linear[1], p + ".k", p + ".v")
        else:
            linear(s.linear[0], p + ".q", p + ".k", p + ".v")
        linear(s.linear[-1], p + ".out")

    enc, dec = spec.encoder, spec.decoder
    enc.embeddings[0].weight = emb
    enc.scale_embeddings = True  # x sqrt(d_model)
    enc.position_encodings.encodings = table
    for i, layer in enumerate(enc.layer):
        p = f"encoder.layers.{i}"
        attention(layer.self_attention, p + ".self_attn", False)
        norm(layer.self_attention.layer_norm, p + ".self_attn_norm")
        ffn(layer.ffn, p)
    dec.embeddings.weight = emb
    dec.scale_embeddings = True
    dec.position_encodings.encodings = table
    dec.projection.weight = emb  # tied, no bias
    for i, layer in enumerate(dec.layer):
        p = f"decoder.layers.{i}"
        attention(layer.self_attention, p + ".self_attn", False)
        norm(layer.self_attention.layer_norm, p + ".self_attn_norm")
        attention(layer.attention, p + ".cross_attn", True)
        norm(layer.attention.layer_norm, p + ".cross_attn_norm")
        ffn(layer.ffn, p)
    spec.config.layer_norm_epsilon = d["eps"]
    spec.config.unk_token, spec.config.bos_token, spec.config.eos_token = (
        pieces[3], pieces[d["bos"]], pieces[d["eos"]])
    spec.config.decoder_start_token = pieces[d["bos"]]
    spec.register_source_vocabulary(pieces)
    spec.register_target_vocabulary(pieces)
    spec.validate()
    spec.optimize(quantization=None)
    subprocess.run(["rm", "-rf", directory], check=True)
    os.makedirs(directory)
    spec.save(directory)


def ct2_child(args):
    import ctranslate2
    import sentencepiece
    d = description_of(args.description)
    processor = sentencepiece.SentencePieceProcessor(model_file=args.vocabulary)
    pieces = [processor.id_to_piece(i) for i in range(processor.get_piece_size())]
    if len(pieces) != d["vocab"] or processor.unk_id() != 3:
        sys.exit(f"ct2: {args.vocabulary} has {len(pieces)} pieces (unk {processor.unk_id()}),"
                 f" the model {d['vocab']}")
    directory = os.path.join(args.work, "ct2-model")
    ct2_model(args.params, d, pieces, directory)
    translator = ctranslate2.Translator(directory, device="cpu", compute_type="float32",
                                       inter_threads=1, intra_threads=args.threads)
    report = {"version": ctranslate2.__version__}

    def as_pieces(ids):
        return [pieces[i] for i in ids]

    # The checks: the per-token log-probabilities of the reference's greedy
    # outputs (EOS included), and CT2's own greedy outputs.
    check = json.load(open(os.path.join(args.work, "check.json")))
    scored = translator.score_batch([as_pieces(c["source"]) for c in check],
                                    [as_pieces(c["greedy"]) for c in check])
    # (A greedy output cut at L_max has no EOS, which score_batch adds.)
    worst = max(max(abs(a - b) for a, b in zip(s.log_probs, c["greedy_log_probs"]))
                for s, c in zip(scored, check))
    lengths_ok = all(len(s.log_probs) == len(c["greedy"]) + 1 for s, c in zip(scored, check))
    greedy = translator.translate_batch(
        [as_pieces(c["source"]) for c in check], beam_size=1,
        max_decoding_length=max(len(c["source"]) for c in check) + args.offset)
    same = sum([processor.piece_to_id(p) for p in g.hypotheses[0]] == c["greedy"]
               for g, c in zip(greedy, check))
    report["check"] = {"sentences": len(check), "max_log_prob_diff": worst,
                       "log_prob_lengths_match": lengths_ok, "greedy_same_ids": same}
    print(f"ct2 check: {json.dumps(report['check'])}", file=sys.stderr, flush=True)
    if worst > 1e-3 or not lengths_ok:
        sys.exit(f"ct2: the converted model's log-probabilities differ: {report['check']}")

    sources = [as_pieces(s) for s in sources_of(processor, read_lines(args.source), d["eos"])]
    outputs, seconds, loads = timed_runs(
        "ct2", args, sources, report,
        lambda batch: [r.hypotheses[0] for r in translator.translate_batch(
            batch, beam_size=args.beam, length_penalty=args.ct2_length_penalty,
            num_hypotheses=1, max_batch_size=args.batch,
            max_decoding_length=max(len(s) for s in batch) + args.offset)])
    write_lines(args.output, [processor.decode([processor.piece_to_id(p) for p in h])
                              for h in outputs])
    report["seconds"], report["loads"] = seconds, loads
    print(json.dumps(report))


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

def child(args, mode, output):
    command = [sys.executable, __file__, "--child", mode, "--output", output,
               "--work", args.work, "--params", args.params, "--description",
               args.description, "--vocabulary", args.vocabulary, "--source",
               args.subset_source, "--threads", str(args.threads), "--runs", str(args.runs),
               "--beam", str(args.beam), "--alpha", str(args.alpha), "--offset",
               str(args.offset), "--batch", str(args.batch), "--check", str(args.check),
               "--ct2-length-penalty", str(args.ct2_length_penalty)]
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=args.env)
    if done.returncode != 0:
        sys.exit(f"bench: the {mode} run failed")
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


def main():
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
                        help="comma-separated systems not to run: torch,ct2,tc")
    parser.add_argument("--work", default="")
    parser.add_argument("--child", choices=["torch", "ct2"], help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    parser.add_argument("--params", help=argparse.SUPPRESS)
    parser.add_argument("--vocabulary", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ct2_length_penalty is None:
        args.ct2_length_penalty = args.alpha
    if args.child:
        (torch_child if args.child == "torch" else ct2_child)(args)
        return

    began = time.perf_counter()
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
    skip = set(filter(None, args.skip.split(",")))
    os.makedirs(args.work, exist_ok=True)
    args.env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))

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

    rows = []  # (system, decoding, sentences, output, seconds, loads, note)
    if "torch" not in skip:
        out = os.path.join(args.work, "torch.beam.es")
        r = child(args, "torch", out)
        rows.append(("PyTorch (incremental)", f"beam {args.beam}", beam_n, out, r["seconds"],
                     r["loads"], f"checked: {r['check']}; deterministic {r['deterministic']}; "
                     f"{r['at_limit']} at L_max"))
    if "ct2" not in skip:
        out = os.path.join(args.work, "ct2.beam.es")
        r = child(args, "ct2", out)
        rows.append((f"CTranslate2 {r['version']}", f"beam {args.beam}", beam_n, out,
                     r["seconds"], r["loads"],
                     f"checked: {r['check']}; deterministic {r['deterministic']}"))
    if "tc" not in skip:
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
    print(f"\n(bench: {time.perf_counter() - began:.0f} s in all)")


if __name__ == "__main__":
    main()
