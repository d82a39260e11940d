"""Checks tc-compile --stats --gpu's GEMM FLOPs (the MFU numerator of the
GPU step-time model, compiler/analysis/KernelCount.cpp's gemmFlops over
every GEMM of the compiled training step, transposes and batches included)
against bench/run.py's closed form of the Transformer's model FLOPs (3x the
forward's products). They differ only by the bias epilogues, d_out per row
of each biased projection: bound 0.1%.

    gemm-flops.py STATS.json CONFIG.toml
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "bench"))
from run import model_config, step_flops  # noqa: E402

stats = json.load(open(sys.argv[1]))["gpu_prediction"]["steps"]
config = os.path.splitext(os.path.basename(sys.argv[2]))[0]
(step,) = stats.values()
ours = step["f32"]["gemm_tflop"] * 1e12
closed_form = step_flops(model_config(config))
error = (ours - closed_form) / closed_form
print(f"GEMM FLOPs: tc {ours:.6g}, closed form {closed_form:.6g}, relative {error:.2e}")
sys.exit(0 if 0 <= error < 1e-3 else 1)
