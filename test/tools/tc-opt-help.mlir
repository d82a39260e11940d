// tc-opt registers the tc dialect, its passes with their options, and MLIR's
// standard options.
// RUN: tc-opt --help | FileCheck %s
// CHECK-DAG: --tc-autodiff {{.*}}Builds the reverse-mode gradient function of every loss
// CHECK-DAG: --functions=<string> {{.*}}Functions to differentiate
// CHECK-DAG: --tc-build-train-step {{.*}}Builds the training step around every gradient function
// CHECK-DAG: --accumulation-steps=<long> {{.*}}Micro-batches whose gradients one step sums
// CHECK-DAG: --gradient-clip=<number>
// CHECK-DAG: --tc-decompose {{.*}}Expands softmax and layer_norm
// CHECK-DAG: --ops=<string> {{.*}}Composite ops to expand
// CHECK-DAG: --tc-fuse-adam
// CHECK-DAG: --tc-fuse-elementwise
// CHECK-DAG: --tc-fuse-embedding
// CHECK-DAG: --tc-fuse-linear
// CHECK-DAG: --tc-fuse-masked-softmax
// CHECK-DAG: --tc-fuse-qkv
// CHECK-DAG: --tc-fuse-residual-layer-norm
// CHECK-DAG: --split-input-file
// CHECK-DAG: --verify-diagnostics
// CHECK-DAG: --mlir-print-ir-after-all
// RUN: tc-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects: {{.*}}tc
