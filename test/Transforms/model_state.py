"""Helpers for the tests that run a compiled @train_step with tc-interpret:
parameter initialisation from the tc.init attributes and a driver for steps."""
import json
import os
import subprocess
import sys
import tomllib

import numpy as np


def first_bucket(description):
    """The description's parsed TOML, its first bucket's batch, source and
    target lengths, and the name of that bucket's training step."""
    config = tomllib.load(open(description, "rb"))
    bucket = config["training"]["buckets"][0]
    B, S, T = bucket["batch"], bucket["source_length"], bucket["target_length"]
    return config, (B, S, T), f"train_step_{B}x{S}x{T}"


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def initial_value(param, rng):
    """The parameter's initializer, as the runtime will implement it."""
    shape, init = param["shape"], param["init"]
    if init == "#tc.init<zeros>":
        return np.zeros(shape, np.float32)
    if init == "#tc.init<ones>":
        return np.ones(shape, np.float32)
    if init == "#tc.init<xavier_uniform>":  # [out, in]
        bound = np.sqrt(6.0 / (shape[0] + shape[1]))
        return rng.uniform(-bound, bound, shape).astype(np.float32)
    if init.startswith("#tc.init<normal("):
        std = float(init[len("#tc.init<normal("):-2])
        return (rng.standard_normal(shape) * std).astype(np.float32)
    sys.exit(f"unknown initializer {init}")


class TrainStep:
    """A description compiled with `compile_args`, and its @train_step run by
    tc-interpret on a state dict (parameters and Adam moments)."""

    def __init__(self, description, work, *compile_args):
        os.makedirs(work, exist_ok=True)
        self.work = work
        self.mlir = os.path.join(work, "model.mlir")
        open(self.mlir, "w").write(run("tc-compile", description, "--emit=tc", *compile_args))
        self.params = json.loads(run("tc-compile", description, "--emit=params"))
        self.names = ([p["name"] for p in self.params]
                      + ["adam_m." + p["name"] for p in self.params]
                      + ["adam_v." + p["name"] for p in self.params])

    def initial_state(self, seed):
        rng = np.random.default_rng(seed)
        state = {}
        for p in self.params:
            state[p["name"]] = initial_value(p, rng)
            state["adam_m." + p["name"]] = np.zeros(p["shape"], np.float32)
            state["adam_v." + p["name"]] = np.zeros(p["shape"], np.float32)
        return state

    def step(self, function, state, batch, rng_state):
        """Runs one step; returns (new state, loss, tokens, learning rate)."""
        state_dir = os.path.join(self.work, "state")
        os.makedirs(state_dir, exist_ok=True)
        for name in self.names:
            np.save(os.path.join(state_dir, name + ".npy"), state[name])
        inputs = [os.path.join(state_dir, n + ".npy") for n in self.names[len(self.params):]]
        for name, array in list(zip(("src", "tgt_in", "tgt_out"), batch)) + [("rng", rng_state)]:
            path = os.path.join(self.work, name + ".npy")
            np.save(path, array)
            inputs.append(path)
        out = os.path.join(self.work, "out")
        run("tc-interpret", self.mlir, f"--function={function}", f"--params-dir={state_dir}",
            *[f"--input={i}" for i in inputs], f"--output-dir={out}")
        results = [np.load(os.path.join(out, f"result{i}.npy"))
                   for i in range(len(self.names) + 3)]
        loss, tokens, lr = results[len(self.names):]
        return dict(zip(self.names, results)), float(loss), int(tokens), float(lr)
