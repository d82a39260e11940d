"""The decoding bench's CTranslate2 peer, in a process of its own (run by
bench/decoding.py, once per compute type): PyPI's CPU wheel, --compute-type
float32, int8 or int8_float32 (int8: weights quantized per output row when
loaded, int8 GEMMs). tc's model is converted from the exported .npz with
CTranslate2's spec API (TransformerSpec, post-LN, embeddings shared and
scaled by sqrt(d_model), the output tied to them); tc's position table is
set explicitly (interleaved sin/cos, not fairseq's halves) and tc's layer
norm epsilon in the config. Checked before timing against the reference's
outputs (check.json, bench/decoding_reference.py): score_batch's per-token
log-probabilities of the reference's greedy outputs, and its own greedy
outputs against the reference's (float32 must agree within 1e-3; the int8
types' differences are reported). Its beam search is its own: beam_size k,
length_penalty used as CT2 uses it, an exponent (score / n^alpha, not
GNMT's ((5 + n) / 6)^alpha), its own early stop (patience 1),
max_decoding_length = the batch's longest source + offset.

Its best settings on this machine: first a sweep on every --sweep-every-th
sentence over --batches (sentences per translate_batch call) and --splits
(intra_threads x inter_threads; with inter_threads > 1 the batches are
submitted asynchronously, so that its workers decode batches side by side),
the best of 2 runs each; then the whole set --runs times with the fastest.
--latency N: the first N sentences one per translate_batch call, each
sentence's seconds, --runs times, with --latency-intra threads, or else
the faster intra_threads of 1 and --threads (a warm-up and one timed pass
over the N sentences each): on a 2-core Zen 3 VM, intra_threads 2 took a
sentence ~300 ms where 1 took ~20."""

import json
import os
import shutil
import sys
import time

from decoding_peer import (child_arguments, description_of, latency_runs, position_table,
                           read_check, read_lines, sources_of, timed_runs, write_lines)


def ct2_model(params, d, pieces, unk, directory):
    """tc's model as a CTranslate2 TransformerSpec (its vocabulary the
    SentencePiece pieces, `unk` the unknown one), saved in `directory`."""
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
        unk, pieces[d["bos"]], pieces[d["eos"]])
    spec.config.decoder_start_token = pieces[d["bos"]]
    spec.register_source_vocabulary(pieces)
    spec.register_target_vocabulary(pieces)
    spec.validate()
    spec.optimize(quantization=None)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    spec.save(directory)


def check_against_reference(translator, processor, pieces, check, offset):
    """The per-token log-probabilities of the reference's greedy outputs (EOS
    included), and CT2's own greedy outputs, against the reference's."""
    def as_pieces(ids):
        return [pieces[i] for i in ids]

    scored = translator.score_batch([as_pieces(c["source"]) for c in check],
                                    [as_pieces(c["greedy"]) for c in check])
    # (A greedy output cut at L_max has no EOS, which score_batch adds.)
    worst = max(max(abs(a - b) for a, b in zip(s.log_probs, c["greedy_log_probs"]))
                for s, c in zip(scored, check))
    lengths_ok = all(len(s.log_probs) == len(c["greedy"]) + 1 for s, c in zip(scored, check))
    greedy = translator.translate_batch(
        [as_pieces(c["source"]) for c in check], beam_size=1,
        max_decoding_length=max(len(c["source"]) for c in check) + offset)
    same = sum([processor.piece_to_id(p) for p in g.hypotheses[0]] == c["greedy"]
               for g, c in zip(greedy, check))
    return {"sentences": len(check), "max_log_prob_diff": worst,
            "log_prob_lengths_match": lengths_ok, "greedy_same_ids": same}


def sweep(ctranslate2, directory, args, sources, tokens_of):
    """tokens/s of each (batch size, intra_threads x inter_threads) on every
    --sweep-every-th sentence, the best of 2 runs each: the rows, and the
    fastest's settings."""
    subset = sources[::args.sweep_every]
    rows = []
    for split in args.splits.split(","):
        intra, inter = (int(x) for x in split.split("x"))
        translator = load(ctranslate2, directory, args.compute_type, intra, inter)
        translate_batches(translator, args)(subset[:args.batch])()  # warm-up
        for batch in (int(b) for b in args.batches.split(",")):
            outputs, seconds, _ = timed_runs("ct2 sweep", args, subset, {},
                                             translate_batches(translator, args), batch, 2)
            rate = tokens_of(outputs) / min(seconds)
            rows.append({"batch": batch, "intra_threads": intra, "inter_threads": inter,
                         "tokens_per_second": rate})
            print(f"ct2 sweep {args.compute_type}: batch {batch}, intra {intra} x inter "
                  f"{inter}: {rate:.0f} tokens/s ({len(subset)} sentences)",
                  file=sys.stderr, flush=True)
    return rows, max(rows, key=lambda r: r["tokens_per_second"])


def load(ctranslate2, directory, compute_type, intra, inter):
    return ctranslate2.Translator(directory, device="cpu", compute_type=compute_type,
                                  inter_threads=inter, intra_threads=intra)


def translate_batches(translator, args):
    """A batch of sources -> a function that waits for its outputs: submitted
    asynchronously, so that inter_threads workers decode batches side by
    side (one length limit per batch: its longest source + offset)."""
    def submit(batch):
        pending = translator.translate_batch(
            batch, beam_size=args.beam, length_penalty=args.ct2_length_penalty,
            num_hypotheses=1, max_decoding_length=max(len(s) for s in batch) + args.offset,
            asynchronous=True)
        return lambda: [p.result().hypotheses[0] for p in pending]
    return submit


def main():
    import ctranslate2
    import sentencepiece
    args = child_arguments(__doc__.split("\n\n")[0], [
        ("--compute-type", {"default": "float32", "help": "float32, int8 or int8_float32"}),
        ("--batches", {"default": "", "help": "batch sizes (sentences) to sweep, comma-"
                       "separated (default: --batch alone)"}),
        ("--splits", {"default": "", "help": "intra_threads x inter_threads to sweep, "
                      "comma-separated, e.g. 2x1,1x2 (default: --threads x 1)"}),
        ("--sweep-every", {"type": int, "default": 8,
                           "help": "the sweep on every N-th sentence"}),
        ("--latency", {"type": int, "default": 0,
                       "help": "then the first N sentences one at a time"}),
        ("--latency-output", {"help": "their translations"}),
        ("--latency-intra", {"type": int, "default": 0,
                             "help": "intra_threads for --latency (default: the faster of "
                             "1 and --threads)"})])
    args.batches = args.batches or str(args.batch)
    args.splits = args.splits or f"{args.threads}x1"
    d = description_of(args.description)
    processor = sentencepiece.SentencePieceProcessor(model_file=args.vocabulary)
    pieces = [processor.id_to_piece(i) for i in range(processor.get_piece_size())]
    if len(pieces) != d["vocab"]:
        sys.exit(f"ct2: {args.vocabulary} has {len(pieces)} pieces, the model {d['vocab']}")
    directory = os.path.join(args.work, "ct2-model")
    ct2_model(args.params, d, pieces, pieces[processor.unk_id()], directory)
    report = {"version": ctranslate2.__version__, "compute_type": args.compute_type}
    translator = load(ctranslate2, directory, args.compute_type, args.threads, 1)
    report["check"] = check = check_against_reference(
        translator, processor, pieces, read_check(args.work), args.offset)
    print(f"ct2 check ({args.compute_type}): {json.dumps(check)}", file=sys.stderr, flush=True)
    # Quantized weights change the log-probabilities: only float32 must agree.
    if args.compute_type == "float32" and (check["max_log_prob_diff"] > 1e-3 or
                                           not check["log_prob_lengths_match"]):
        sys.exit(f"ct2: the converted model's log-probabilities differ: {check}")

    sources = [[pieces[i] for i in s]
               for s in sources_of(processor, read_lines(args.source), d["eos"])]

    def text(hypothesis):
        return processor.decode([processor.piece_to_id(p) for p in hypothesis])

    def tokens_of(outputs):  # as the parent counts them: re-encoded, + EOS
        return sum(len(processor.encode(text(h))) + 1 for h in outputs)

    report["sweep"], best = sweep(ctranslate2, directory, args, sources, tokens_of)
    report["best"] = {k: best[k] for k in ("batch", "intra_threads", "inter_threads")}
    translator = load(ctranslate2, directory, args.compute_type, best["intra_threads"],
                      best["inter_threads"])
    outputs, seconds, loads = timed_runs("ct2", args, sources, report,
                                         translate_batches(translator, args), best["batch"])
    write_lines(args.output, [text(h) for h in outputs])
    report["seconds"], report["loads"] = seconds, loads
    if args.latency:
        del translator  # its thread pools would share the cores with the latency's
        first = sources[:args.latency]

        def one_at_a_time(intra):
            return translate_batches(load(ctranslate2, directory, args.compute_type, intra, 1),
                                     args)

        intra = args.latency_intra
        if not intra:  # the faster, by one timed pass each
            passes = {}
            for candidate in sorted({1, args.threads}):
                one = one_at_a_time(candidate)
                for s in first:  # the warm-up
                    one([s])()
                start = time.perf_counter()
                for s in first:
                    one([s])()
                passes[candidate] = time.perf_counter() - start
                del one
                print(f"ct2 latency {args.compute_type}: intra {candidate}: "
                      f"{passes[candidate]:.2f} s for {len(first)} sentences",
                      file=sys.stderr, flush=True)
            intra = min(passes, key=passes.get)
        report["latency_intra_threads"] = intra
        one = one_at_a_time(intra)
        outputs = [one([s])()[0] for s in first]  # also the warm-up
        write_lines(args.latency_output, [text(h) for h in outputs])
        report["latency"], report["latency_loads"] = latency_runs(
            "ct2", first, args.runs, lambda s: one([s])())
    print(json.dumps(report))


if __name__ == "__main__":
    main()
