"""tc against PyTorch on the demo's real job (issue 16): the same model, the
same recipe and the same prepared data, trained for the same wall time on
this machine's CPU, each then translating the held-out test books by greedy
decoding the same way; BLEU and chrF of both (tc-run score, which equals
sacreBLEU's).

- tc: `tc-compile models/bible_en_es.toml --buckets-from`, `tc-run train
  --time-limit M` (no validation, so that all M minutes train), `tc-run
  translate` with the last checkpoint.
- PyTorch (eager, Debian's python3-torch): the reference model of tc's checks
  (test/Frontend/torch/reference_transformer.py: nn.Transformer, post-LN,
  shared embedding tied to the output) with tc's dropout places and rates,
  label smoothing, Adam (0.9, 0.98, 1e-9), the same schedule and gradient
  clipping; the same
  token files, the same buckets and batch sizes (each batch trimmed to its
  longest pair, which only helps PyTorch), each epoch in a new order; M
  minutes from its first step. Decoding: the encoder once per batch, then
  the decoder re-run on the prefix for each position (as tc's decoder
  session does), the most probable token, until EOS or the bucket's target
  length, sentences batched by length in the bucket tc-run translate picks
  (runtime/decode/Translator.cpp). Detokenised by the same SentencePiece model (python3-sentencepiece).

    bench/run.sh translation [--minutes 30]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "models", "bible_en_es.toml")
sys.path.insert(0, os.path.join(ROOT, "test", "Frontend", "torch"))


def run(*command, **kwargs):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def buckets_of(tc_inspect, executable):
    """The (batch, source, target) buckets of an executable, smallest first."""
    text = subprocess.run([tc_inspect, executable], check=True,
                          capture_output=True, text=True).stdout
    found = {tuple(map(int, m)) for m in
             re.findall(r"train_step_(\d+)x(\d+)x(\d+)", text)}
    return sorted(found, key=lambda b: b[1] * b[2])


def score(tc_run, reference, hypothesis):
    out = subprocess.run([tc_run, "score", "--json", "--reference", reference,
                          hypothesis], check=True, capture_output=True,
                         text=True).stdout
    scores = {entry["name"]: entry["score"] for entry in json.loads(out)}
    return scores["BLEU"], scores["chrF2"]


# --- PyTorch, in a process of its own -----------------------------------------

def torch_child(work, minutes, threads, seed):
    import random

    import sentencepiece
    import torch
    from reference_transformer import ReferenceTransformer
    from token_file import padded_batch, read_pairs

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    description = tomllib.load(open(MODEL, "rb"))
    m, t = description["model"], description["training"]
    pad, bos, eos = m.get("pad_id", 0), m.get("bos_id", 1), m.get("eos_id", 2)
    model = ReferenceTransformer(
        m["vocab_size"], m["d_model"], m["heads"], m["d_ff"], m["encoder_layers"],
        m["decoder_layers"], pad_id=pad, label_smoothing=m.get("label_smoothing", 0.1),
        dropout=m.get("dropout", 0.1))
    # tc's dropout places: nn.Transformer's layers drop attention weights and
    # inside the feed-forward network with the same rate; set them as tc's.
    for layer in list(model.transformer.encoder.layers) + list(model.transformer.decoder.layers):
        for attention in (layer.self_attn, getattr(layer, "multihead_attn", None)):
            if attention is not None:
                attention.dropout = m.get("attention_dropout", 0.0)
        layer.dropout.p = m.get("relu_dropout", 0.0)
    d, warmup = m["d_model"], t.get("warmup_steps", 4000)
    scale = t.get("learning_rate_scale", 1.0)
    clip = t.get("gradient_clip", 0.0)
    optimizer = torch.optim.Adam(model.parameters(), lr=1.0,
                                 betas=(t.get("adam_beta1", 0.9), t.get("adam_beta2", 0.98)),
                                 eps=t.get("adam_epsilon", 1e-9))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: scale * d ** -0.5 * min((s + 1) ** -0.5, (s + 1) * warmup ** -1.5))
    buckets = json.load(open(os.path.join(work, "buckets.json")))

    def bucket_for(source, target):
        for b in buckets:
            if source <= b[1] and target <= b[2]:
                return b
        return None

    groups = {}
    for s, tg in read_pairs(os.path.join(work, "train.tok")):
        b = bucket_for(len(s), len(tg) + 1)
        if b:
            groups.setdefault(tuple(b), []).append((s, tg))
    batches = [pairs[i:i + b[0]] for b, pairs in groups.items()
               for i in range(0, len(pairs), b[0])]

    shuffle = random.Random(seed)
    model.train()
    start = time.perf_counter()
    steps, tokens = 0, 0
    while time.perf_counter() - start < 60 * minutes:
        order = list(range(len(batches)))
        shuffle.shuffle(order)
        for index in order:
            src, tgt_in, tgt_out = padded_batch(batches[index], pad, bos, eos)
            optimizer.zero_grad(set_to_none=True)
            loss, count = model(src, tgt_in, tgt_out)
            (loss / count).backward()
            if clip > 0:  # tc's clipping (docs/autodiff.md), per token
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            schedule.step()
            steps += 1
            tokens += int((src != pad).sum()) + count
            if steps % 100 == 0:
                print(f"torch: step {steps}, loss {float(loss) / count:.4f}, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
            if time.perf_counter() - start >= 60 * minutes:
                break
    seconds = time.perf_counter() - start

    # Greedy decoding of the test sources, as tc-run translate does it.
    model.eval()
    sources = [s for s, _ in read_pairs(os.path.join(work, "test.tok"))]
    longest = max(b[1] for b in buckets)
    sources = [s if len(s) <= longest else s[:longest - 1] + [eos] for s in sources]
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))

    def decoding_bucket(length):
        fits = [b for b in buckets if b[1] >= length]
        exact = [b for b in fits if b[2] >= length + (length + 3) // 4]
        return exact[0] if exact else max(fits, key=lambda b: b[2])

    outputs = [None] * len(sources)
    decode_start = time.perf_counter()
    with torch.no_grad():
        first = 0
        while first < len(order):
            b = decoding_bucket(len(sources[order[first]]))
            end = first
            while (end < len(order) and end - first < b[0]
                   and decoding_bucket(len(sources[order[end]])) == b):
                end += 1
            rows = [sources[i] for i in order[first:end]]
            src = torch.full((len(rows), max(map(len, rows))), pad)
            for r, s in enumerate(rows):
                src[r, :len(s)] = torch.tensor(s)
            memory = model.encode(src)
            prefix = torch.full((len(rows), 1), bos)
            finished = torch.zeros(len(rows), dtype=torch.bool)
            for _ in range(b[2]):
                logits = model.decode(memory, src, prefix)[:, -1]
                token = logits.argmax(-1)
                token[finished] = pad
                finished |= token == eos
                prefix = torch.cat([prefix, token[:, None]], 1)
                if finished.all():
                    break
            for r, i in enumerate(order[first:end]):
                ids = []
                for token in prefix[r, 1:].tolist():
                    if token == eos:
                        break
                    ids.append(token)
                outputs[i] = ids
            first = end
    decode_seconds = time.perf_counter() - decode_start
    processor = sentencepiece.SentencePieceProcessor(
        model_file=os.path.join(work, "tc", "checkpoints", "vocabulary.model"))
    with open(os.path.join(work, "test.torch.es"), "w", encoding="utf-8") as out:
        for ids in outputs:
            out.write(processor.decode(ids) + "\n")
    print(json.dumps({"steps": steps, "seconds": seconds,
                      "tokens_per_second": tokens / seconds,
                      "decode_seconds": decode_seconds}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", default="")
    args = parser.parse_args()
    work = args.work or os.path.join(args.build, "bench-translation")
    if args.child:
        torch_child(work, args.minutes, args.threads, seed=1)
        return
    binary = os.path.join(args.build, "bin")
    tc_compile, tc_run = os.path.join(binary, "tc-compile"), os.path.join(binary, "tc-run")
    corpus = os.path.join(args.build, "corpus")
    if not os.path.exists(os.path.join(corpus, "README.txt")):
        run(os.path.join(ROOT, "scripts", "build-corpus.py"), corpus)
    subprocess.run(["rm", "-rf", work], check=True)
    os.makedirs(work)
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))

    # The data, prepared once for both.
    sizing = os.path.join(work, "vocabulary-size.tcx")
    run(tc_compile, MODEL, "-o", sizing)
    train, test = os.path.join(work, "train.tok"), os.path.join(work, "test.tok")
    run(tc_run, "prepare", sizing, "--source", f"{corpus}/train.en",
        "--target", f"{corpus}/train.es", "-o", train)
    run(tc_run, "prepare", sizing, "--source", f"{corpus}/test.en",
        "--target", f"{corpus}/test.es", "--vocabulary", train, "-o", test)
    executable = os.path.join(work, "bible.tcx")
    run(tc_compile, MODEL, "--buckets-from", train, "-o", executable)
    buckets = buckets_of(os.path.join(binary, "tc-inspect"), executable)
    json.dump(buckets, open(os.path.join(work, "buckets.json"), "w"))

    # tc.
    checkpoints = os.path.join(work, "tc", "checkpoints")
    metrics = os.path.join(work, "tc", "metrics.jsonl")
    os.makedirs(os.path.dirname(checkpoints), exist_ok=True)
    run(tc_run, "train", executable, "--data", train, "--checkpoint-dir", checkpoints,
        "--checkpoint-every", "0", "--time-limit", str(args.minutes),
        "--metrics", metrics, env=env)
    lines = [json.loads(line) for line in open(metrics)]
    tc_steps = lines[-1]["step"]
    tc_rate = lines[-1]["tokens_per_second"]
    start = time.perf_counter()
    # Greedy, as PyTorch decodes here (beam search: bench/decoding.py).
    run(tc_run, "translate", executable, "--checkpoint", checkpoints, "--input",
        f"{corpus}/test.en", "-o", os.path.join(work, "test.tc.es"),
        "--beam", "1", env=env)
    tc_decode = time.perf_counter() - start

    # PyTorch.
    out = subprocess.run([sys.executable, __file__, "--child", "--work", work,
                          "--minutes", str(args.minutes), "--threads", str(args.threads)],
                         check=True, capture_output=True, text=True, env=env).stdout
    torch_result = json.loads(out.strip().splitlines()[-1])

    reference = f"{corpus}/test.es"
    rows = [("tc", tc_steps, tc_rate, tc_decode,
             *score(tc_run, reference, os.path.join(work, "test.tc.es"))),
            ("torch", torch_result["steps"], torch_result["tokens_per_second"],
             torch_result["decode_seconds"],
             *score(tc_run, reference, os.path.join(work, "test.torch.es")))]
    print(f"\n{args.minutes:g} minutes of training each, {args.threads} threads, "
          f"test: {corpus}/test.en (1 Samuel, 1 Corinthians), greedy decoding")
    print(f"{'system':8} {'steps':>7} {'tokens/s':>9} {'decode s':>9} {'BLEU':>6} {'chrF':>6}")
    for name, steps, rate, decode, bleu, chrf in rows:
        print(f"{name:8} {steps:7d} {rate:9.0f} {decode:9.1f} {bleu:6.2f} {chrf:6.2f}")
    print(f"bleu_tc {rows[0][4]:.2f}\nbleu_torch {rows[1][4]:.2f}")


if __name__ == "__main__":
    main()
