#!/usr/bin/env python3
"""Checks that tc-compile counts exactly the parameters of the equivalent
PyTorch model (nn.Transformer without the stacks' final LayerNorms, plus one
shared embedding), tensor by tensor: same names (through the mapping in
reference_transformer.py), same shapes, same total.

    param_count.py models/transformer_base.toml
"""
import json
import subprocess
import sys
import tomllib

from reference_transformer import ReferenceTransformer


def tc_compile(*args):
    return json.loads(subprocess.run(["tc-compile", *args], check=True,
                                     capture_output=True, text=True).stdout)


path = sys.argv[1]
with open(path, "rb") as f:
    m = tomllib.load(f)["model"]
stats = tc_compile(path, "--stats")
params = tc_compile(path, "--emit=params")
reference = ReferenceTransformer(m["vocab_size"], m["d_model"], m["heads"], m["d_ff"],
                                 m["encoder_layers"], m["decoder_layers"])
torch_count = sum(p.numel() for p in reference.parameters())
named = reference.tc_parameters()
print(f"{path}: tc {stats['params']} parameters in {stats['param_tensors']} tensors; "
      f"PyTorch {torch_count}")

errors = []
if stats["params"] != torch_count:
    errors.append(f"parameter counts differ: tc {stats['params']}, PyTorch {torch_count}")
tc_shapes = {p["name"]: p["shape"] for p in params}
for name in sorted(set(tc_shapes) | set(named)):
    if name not in named:
        errors.append(f"tc parameter {name} has no PyTorch counterpart")
    elif name not in tc_shapes:
        errors.append(f"PyTorch tensor {name} has no tc parameter")
    elif list(named[name].shape) != tc_shapes[name]:
        errors.append(f"{name}: tc shape {tc_shapes[name]}, PyTorch {list(named[name].shape)}")
if errors:
    sys.exit("error: " + "\nerror: ".join(errors))
