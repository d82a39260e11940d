// tc-opt registers the tc dialect, its passes with their options, and MLIR's
// standard options.
// RUN: tc-opt --help | FileCheck %s
// CHECK-DAG: --tc-decompose {{.*}}Expands softmax and layer_norm
// CHECK-DAG: --ops=<string> {{.*}}Composite ops to expand
// CHECK-DAG: --split-input-file
// CHECK-DAG: --verify-diagnostics
// CHECK-DAG: --mlir-print-ir-after-all
// RUN: tc-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects: {{.*}}tc
