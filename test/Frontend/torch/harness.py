"""Shared set-up of the checks against PyTorch: compile a description with
dropout off, give tc and the reference model the same random weights, make a
batch, and run tc-interpret."""
import json
import os
import re
import subprocess
import tomllib

import numpy as np
import torch

from reference_transformer import ReferenceTransformer


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


class Setup:
    """A compiled description (dropout off), the float64 reference model with
    the same (f32-representable) weights, and one padded batch."""

    def __init__(self, description, work, seed=0, overrides=None, fusion="all"):
        self.work = work
        os.makedirs(os.path.join(work, "params"), exist_ok=True)
        text = open(description).read()
        text = re.sub(r"(?m)^(\s*(?:dropout|attention_dropout|relu_dropout)\s*=).*$",
                      r"\1 0.0", text)
        for key, value in (overrides or {}).items():
            text, n = re.subn(rf"(?m)^{key}\s*=.*$", f"{key} = {value}", text)
            if n == 0:
                text = text.replace("[training]\n", f"[training]\n{key} = {value}\n")
        path = os.path.join(work, "model.toml")
        open(path, "w").write(text)
        self.config = tomllib.loads(text)
        m, bucket = self.config["model"], self.config["training"]["buckets"][0]
        self.B, self.S, self.T = bucket["batch"], bucket["source_length"], bucket["target_length"]
        self.V, self.pad = m["vocab_size"], m.get("pad_id", 0)
        self.mlir = os.path.join(work, "model.mlir")
        open(self.mlir, "w").write(run("tc-compile", path, "--emit=tc", f"--fusion={fusion}"))
        self.params = json.loads(run("tc-compile", path, "--emit=params"))

        torch.manual_seed(seed)
        model = ReferenceTransformer(self.V, m["d_model"], m["heads"], m["d_ff"],
                                     m["encoder_layers"], m["decoder_layers"], pad_id=self.pad,
                                     label_smoothing=m.get("label_smoothing", 0.1),
                                     layer_norm_eps=m.get("layer_norm_epsilon", 1e-5))
        named = model.tc_parameters()
        with torch.no_grad():
            for name, tensor in named.items():
                # Larger than the default initialisation, so that biases and
                # LayerNorm affinities matter; rounded to f32, which tc holds.
                offset = 1.0 if name.endswith("norm.weight") else 0.0
                tensor.copy_((torch.randn(tensor.shape) * 0.3 + offset).float())
        self.model = model.double()
        self.named = self.model.tc_parameters()
        self.save_params(os.path.join(work, "params"),
                         {p["name"]: self.named[p["name"]].detach().float().numpy()
                          for p in self.params})

        self.src, self.tgt_in, self.tgt_out = self.make_batch(seed)
        for name in ("src", "tgt_in", "tgt_out"):
            np.save(self.path(name), getattr(self, name))

    def make_batch(self, seed):
        """(source, target in, target out): real tokens in [3, V), padding at
        the end of the last sequence."""
        rng = np.random.default_rng(seed)
        src = rng.integers(3, self.V, (self.B, self.S)).astype(np.int32)
        tgt = rng.integers(3, self.V, (self.B, self.T + 1)).astype(np.int32)
        src[-1, self.S - 2:] = self.pad
        tgt[-1, self.T - 1:] = self.pad
        return src, tgt[:, :-1].copy(), tgt[:, 1:].copy()

    def path(self, name):
        return os.path.join(self.work, name + ".npy")

    def save_params(self, directory, arrays):
        os.makedirs(directory, exist_ok=True)
        for name, array in arrays.items():
            np.save(os.path.join(directory, name + ".npy"), array)

    def torch_batch(self):
        return tuple(torch.from_numpy(a).long() for a in (self.src, self.tgt_in, self.tgt_out))

    def interpret(self, function, inputs, params_dir=None):
        """Runs @function with parameters from params_dir (default: the
        initial weights) and the given .npy inputs; returns its results."""
        out = os.path.join(self.work, "out-" + function)
        run("tc-interpret", self.mlir, f"--function={function}",
            f"--params-dir={params_dir or os.path.join(self.work, 'params')}",
            *[f"--input={i}" for i in inputs], f"--output-dir={out}")
        count = len(os.listdir(out))
        return [np.load(os.path.join(out, f"result{i}.npy")) for i in range(count)]
