"""The GPU step model's prediction for an executable compiled in a reduced
precision, against an f32 compile's of the same model (tc-compile --stats
--gpu=NAME): the reduced compile's steps are predicted in the compiled
precision only, and each step's GEMM time lies below the f32 prediction's.

    gpu-step-model-precision.py REDUCED.json F32.json PRECISION
"""
import json
import sys

reduced, f32 = (json.load(open(path))["gpu_prediction"] for path in sys.argv[1:3])
precision = sys.argv[3]
assert reduced["compiled_precision"] == precision, reduced["compiled_precision"]
assert f32["compiled_precision"] == "f32", f32["compiled_precision"]
assert reduced["steps"].keys() == f32["steps"].keys()
for name, step in reduced["steps"].items():
    predicted = sorted(key for key, value in step.items() if isinstance(value, dict))
    assert predicted == [precision], (name, predicted)
    ms, f32_ms = step[precision]["gemm_ms"], f32["steps"][name]["f32"]["gemm_ms"]
    assert ms < f32_ms, (name, ms, f32_ms)
    print(f"{name}: {precision} only, GEMMs {ms:.2f} ms < f32 {f32_ms:.2f} ms")
