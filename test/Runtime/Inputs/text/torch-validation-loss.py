"""The validation loss of exported parameters in the PyTorch reference model:
loads a .npz written by `tc-run export` into ReferenceTransformer (the
independent nn.Transformer model of tc's checks, in float64), computes the
mean negative log-likelihood per target token (EOS included, no label
smoothing, no dropout) of a token file's pairs, and compares it with tc's
(`tc-run eval --data`'s "loss X per target token" line) to 1e-5 relative.

    torch-validation-loss.py MODEL.toml PARAMS.npz PAIRS.tok TC_EVAL_OUTPUT
"""
import re
import sys
import tomllib

import numpy as np
import torch

sys.path.insert(0, sys.argv[0].rsplit("/", 4)[0] + "/Frontend/torch")
from reference_transformer import ReferenceTransformer  # noqa: E402
from token_file import padded_batch, read_pairs  # noqa: E402


config = tomllib.load(open(sys.argv[1], "rb"))
m = config["model"]
pad, bos, eos = m.get("pad_id", 0), m.get("bos_id", 1), m.get("eos_id", 2)
model = ReferenceTransformer(m["vocab_size"], m["d_model"], m["heads"], m["d_ff"],
                             m["encoder_layers"], m["decoder_layers"], pad_id=pad)
model = model.double().eval()
arrays = np.load(sys.argv[2])
with torch.no_grad():
    for name, tensor in model.tc_parameters().items():
        tensor.copy_(torch.from_numpy(arrays[name].astype(np.float64)))

# The pairs that fit a bucket of the model (tc leaves the others out).
buckets = config["training"]["buckets"]
pairs = [(s, t) for s, t in read_pairs(sys.argv[3])
         if any(len(s) <= b["source_length"] and len(t) + 1 <= b["target_length"]
                for b in buckets)]
src, tgt_in, tgt_out = padded_batch(pairs, pad, bos, eos)
with torch.no_grad():
    total, tokens = model(src, tgt_in, tgt_out)
reference = float(total) / tokens

tc_output = open(sys.argv[4]).read()
match = re.search(r"loss ([0-9.]+) per target token", tc_output)
assert match, tc_output
tc = float(match.group(1))
relative = abs(tc - reference) / reference
print(f"{len(pairs)} pairs, {tokens} target tokens: PyTorch {reference:.7f}, "
      f"tc {tc:.7f}, relative difference {relative:.1e}")
assert relative <= 1e-5, "tc's validation loss differs from PyTorch's"
