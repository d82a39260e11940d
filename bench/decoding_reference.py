"""The decoding bench's reference, in a process of its own (run by
bench/decoding.py before any peer): the model of tc's checks
(test/Frontend/torch/reference_transformer.py, nn.Transformer in float32,
the decoder re-run on whole prefixes) decodes a few sentences greedily and,
for the PyTorch peer, by tc's beam search rule
(test/Runtime/Inputs/reference_beam.py, the one copy of the rule in
Python); check.json in the work directory holds the
outputs, which every peer is checked against before it is timed."""

import json
import os
import sys
import time

from decoding_peer import ROOT, check_picks, child_arguments, read_lines, sources_of

sys.path.insert(0, os.path.join(ROOT, "test", "Runtime", "Inputs"))
import reference_beam  # noqa: E402


def greedy(model, source, offset):
    """The most probable token of all V (tc's greedy search, which masks
    nothing) until EOS or L_max tokens: the ids without EOS and each
    generated token's log-probability, EOS included."""
    prefix, values = [model.bos], []
    while len(values) < len(source) + offset:
        row = model.next_log_probs(source, [prefix])[0]
        token = int(row.argmax())
        values.append(float(row[token]))
        if token == model.eos:
            break
        prefix.append(token)
    return prefix[1:], values


def main():
    import sentencepiece
    import torch
    args = child_arguments(__doc__.split("\n\n")[0], [(
        "--with-beam", {"action": "store_true",
                        "help": "the beam search too (the PyTorch peer's check)"})])
    torch.set_num_threads(args.threads)
    began = time.perf_counter()
    model = reference_beam.Model(args.description, args.params, dtype=torch.float32)
    processor = sentencepiece.SentencePieceProcessor(model_file=args.vocabulary)
    sources = sources_of(processor, read_lines(args.source), model.eos)
    check = []
    for i in check_picks(sources, args.check):
        source = sources[i]
        ids, values = greedy(model, source, args.offset)
        check.append({"source": source, "greedy": ids, "greedy_log_probs": values})
        if args.with_beam:
            [(check[-1]["beam"], check[-1]["beam_score"])] = reference_beam.beam_search(
                model, source, args.beam, args.alpha, 1, len(source) + args.offset)
    with open(args.output, "w") as f:  # check.json
        json.dump(check, f)
    print(f"reference: {len(check)} sentences in {time.perf_counter() - began:.0f} s",
          file=sys.stderr, flush=True)
    print(json.dumps({"sentences": len(check)}))


if __name__ == "__main__":
    main()
