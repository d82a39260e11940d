"""The decoding bench's PyTorch peer, in a process of its own (run by
bench/decoding.py): an incremental decoder written here over the exported
tensors (eager, Debian's python3-torch, float32; post-LN layers, fused
q/k/v, keys and values of the self-attention cached per layer, the
cross-attention's computed once per batch, the k hypotheses of a sentence
as k rows of the batch, a sentence leaves the batch when its search stops)
and tc's beam search rule (`tc-run translate --beam`, the rule of
test/Runtime/Inputs/reference_beam.py) vectorised over the batch: the 2k
best candidates with ties broken by (hypothesis rank, token), EOS in the
first k finishes, GNMT's length penalty, the provably safe early stop,
L_max = source tokens (with EOS) + offset. Before timing, its greedy
log-probabilities and ids and its beam search are checked against the
reference's outputs (check.json, bench/decoding_reference.py)."""

import json
import math
import os
import sys

from decoding_peer import (ROOT, child_arguments, description_of, position_table,
                           read_check, read_lines, sources_of, timed_runs, write_lines)

sys.path.insert(0, os.path.join(ROOT, "test", "Runtime", "Inputs"))
from reference_beam import lp  # noqa: E402


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



def check_against_reference(model, check, args):
    """The incremental decoder's greedy ids and log-probabilities, and the
    batched beam search's best hypotheses and scores, against the
    reference's on the checked sentences."""
    rows = [c["source"] for c in check]
    greedy = greedy_search(model, rows, args.offset)
    beams = beam_search(model, rows, args.beam, args.alpha, args.offset)
    worst, same_greedy, same_beam, score_diff = 0.0, 0, 0, 0.0
    for c, (ids, values), [(beam, score, _)] in zip(check, greedy, beams):
        same_greedy += ids == c["greedy"]
        if ids == c["greedy"]:
            worst = max(worst, max(abs(a - b) for a, b in zip(values, c["greedy_log_probs"])))
        same_beam += beam == c["beam"]
        score_diff = max(score_diff, abs(score - c["beam_score"]))
    return {"sentences": len(rows), "greedy_same_ids": same_greedy,
            "greedy_max_log_prob_diff": worst, "beam_same_ids": same_beam,
            "beam_max_score_diff": score_diff}


def main():
    import sentencepiece
    import torch
    args = child_arguments(__doc__.split("\n\n")[0])
    torch.set_num_threads(args.threads)
    d = description_of(args.description)
    processor = sentencepiece.SentencePieceProcessor(model_file=args.vocabulary)
    sources = sources_of(processor, read_lines(args.source), d["eos"])
    model = IncrementalTransformer(args.params, d)
    report = {"threads": torch.get_num_threads()}
    with torch.no_grad():
        report["check"] = check = check_against_reference(model, read_check(args.work), args)
        print(f"torch check: {json.dumps(check)}", file=sys.stderr, flush=True)
        if (check["greedy_same_ids"] != check["sentences"] or
                check["beam_same_ids"] != check["sentences"] or
                check["beam_max_score_diff"] > 1e-4):
            sys.exit("torch: the incremental decoder or beam search differs from the "
                     f"full-recompute reference: {check}")
        outputs, seconds, loads = timed_runs(
            "torch", args, sources, report,
            lambda batch: [best[0] for best in beam_search(
                model, batch, args.beam, args.alpha, args.offset)])
    write_lines(args.output, [processor.decode(ids) for ids, _, _ in outputs])
    report["seconds"], report["loads"] = seconds, loads
    report["at_limit"] = sum(len(ids) + 1 >= len(s) + args.offset
                             for (ids, _, _), s in zip(outputs, sources))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
