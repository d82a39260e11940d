// tc-compile --stats --gpu=NAME: each step's predicted time on a datasheet
// GPU (compiler/analysis/GpuStepModel.h), checked against the arithmetic by
// hand. H100 SXM5: f32 66.9, TF32 494.7, bf16 989.4 TFLOP/s, 3350 GB/s;
// GEMMs at 70% of peak; a launch takes at least 3 us; the host issues a
// kernel (or a graph's replay) in 4 us, a GEMM in 26 us.
// RUN: tc-compile %s --stats --gpu=h100 2>%t.table | FileCheck %s
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// RUN: tc-compile %s --stats --gpu=p100 2>/dev/null | FileCheck %s --check-prefix=P100
// RUN: tc-compile %s --stats --gpu=h200 2>/dev/null | FileCheck %s --check-prefix=H200
// RUN: not tc-compile %s --stats --gpu=v100 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tc-compile %s --gpu=h100 2>&1 | FileCheck %s --check-prefix=NOSTATS

// The GEMM: 2 x 1024^3 = 2.147e9 FLOPs, 3 x 4 MiB = 12.58 MB.
//   f32:  2.147e9 / (0.7 x 66.9e12)  = 45.85 us (compute; the bytes take 3.76)
//   tf32: 2.147e9 / (0.7 x 494.7e12) =  6.20 us
//   bf16: 2.147e9 / (0.7 x 989.4e12) =  3.10 us (the bytes, halved: 1.88)
// The large add: 12.58 MB / 3350 GB/s = 3.756 us (memory); the small add and
// the exp: 3 us each (the launch). Replayed as a graph, the step is their sum
// after the host's one call: 4 + 45.86 + 3.756 + 6 = 59.61 us, 19.96 (tf32),
// 16.86 (bf16). Eager, each launch starts once issued (the GEMM at 26 us,
// the kernels 4 us apart after it) and once the one before it has ended:
// bf16 GEMM 26..29.10, add 30..33.756, add 34..37, exp 38..41 us, the host's
// pace; f32 GEMM 26..71.857, then the kernels back to back: 81.613 us.
// target_out has 6 elements: tokens/s = 6 / step. MFU = GEMM FLOPs / step
// / peak: 53.8% (f32), 12.9% (bf16).
// CHECK:      "gpu_prediction": {
// CHECK:        "bandwidth_gb_per_s": 3350,
// CHECK:        "gemm_efficiency": 0.69999
// CHECK:        "gpu": "h100",
// CHECK:        "minimum_launch_us": 3,
// CHECK:        "steps": {
// CHECK-NEXT:     "train_step_1x2x3": {
// CHECK-NEXT:       "bf16": {
// CHECK-NEXT:         "eager_step_ms": 0.0410000
// CHECK-NEXT:         "gemm_ms": 0.0031007
// CHECK-NEXT:         "gemm_tflop": 0.0021474
// CHECK-NEXT:         "launch_bound_launches": 2,
// CHECK-NEXT:         "launches": 4,
// CHECK-NEXT:         "memory_bound_launches": 1,
// CHECK-NEXT:         "mfu": 0.1287
// CHECK-NEXT:         "ms_by_op": {
// CHECK-NEXT:           "gemm": 0.0031007
// CHECK-NEXT:           "tc.add": 0.0067560
// CHECK-NEXT:           "tc.exp": 0.003
// CHECK-NEXT:         },
// CHECK-NEXT:         "step_ms": 0.0168567
// CHECK-NEXT:         "target_tokens_per_second": 355939
// CHECK:            "f32": {
// CHECK-NEXT:         "eager_step_ms": 0.081613
// CHECK-NEXT:         "gemm_ms": 0.045857
// CHECK:              "mfu": 0.5384
// CHECK:              "step_ms": 0.059613
// CHECK:            "target_tokens": 6,
// CHECK-NEXT:       "tf32": {
// CHECK-NEXT:         "eager_step_ms": 0.041957
// CHECK-NEXT:         "gemm_ms": 0.0062014
// CHECK:              "step_ms": 0.0199574

// TABLE:      tc-compile: predicted on h100 (H100 SXM5 80 GB: f32 66.9, TF32 494.7, bf16 989.4 TFLOP/s, 3350 GB/s; GEMMs at 70% of peak, a launch at least 3 us; a step replayed as a CUDA graph, and eager: the host issuing a kernel in 4 us, a GEMM in 26 us)
// TABLE-NEXT:   step                       GEMMs   ms/step  eager ms     tokens/s    MFU   GEMM ms  largest others (ms)
// TABLE-NEXT:   train_step_1x2x3           f32        0.06      0.08       100649  53.8%      0.05  tc.add 0.0, tc.exp 0.0
// TABLE-NEXT:   train_step_1x2x3           tf32       0.02      0.04
// TABLE-NEXT:   train_step_1x2x3           bf16       0.02      0.04

// The H200 has the H100's arithmetic and 4800 GB/s: the large add's
// 12.58 MB take 2.62 us, under a launch, so its f32 step is 4 + 45.857 +
// 3 x 3 = 58.857 us, with no launch bound by memory.
// H200:     "bandwidth_gb_per_s": 4800,
// H200:     "gpu": "h200",
// H200:     "f32": {
// H200-NEXT:  "eager_step_ms": 0.080857
// H200-NEXT:  "gemm_ms": 0.045857
// H200-NEXT:  "gemm_tflop": 0.0021474
// H200-NEXT:  "launch_bound_launches": 3,
// H200-NEXT:  "launches": 4,
// H200-NEXT:  "memory_bound_launches": 0,
// H200:       "step_ms": 0.058857

// The P100 has no tensor cores: f32 GEMMs only.
// P100:     "gpu_prediction": {
// P100:     "train_step_1x2x3": {
// P100-NEXT:  "f32": {
// P100:       "target_tokens": 6
// P100-NEXT: }
// P100-NOT: "tf32": {

// UNKNOWN: tc-compile: error: --gpu=v100: expected one of p100, a100, h100, h200
// NOSTATS: tc-compile: error: --gpu predicts step times for --stats; add --stats

func.func @train_step_1x2x3(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                            %s: tensor<4xf32>,
                            %t: tensor<2x3xi32> {tc.input = "target_out"})
    -> (tensor<1024x1024xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = tc.matmul %a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %d = tc.add %c, %a : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  %e = tc.add %s, %s : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %f = tc.exp %e : tensor<4xf32>
  return %d, %e, %f : tensor<1024x1024xf32>, tensor<4xf32>, tensor<4xf32>
}
