// A split into many parts: binding each part inserts into the interpreter's
// value map, which grows (rehashes) several times on the way; the split's
// operand must not be read from the map's old storage after that (issue 15:
// a use after free, a segfault or garbage with the default fusions on a
// 3-decoder-layer model; AddressSanitizer reports it in the sanitizer build).
// The parts are concatenated back in reverse order: row i of the result is
// row 47-i of the input.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(96, dtype=np.float32).reshape(48, 2))"
// RUN: tc-interpret %s --input=%t/x.npy --output-dir=%t/out
// RUN: %python -c "import numpy as np; r = np.load('%t/out/result0.npy'); x = np.arange(96, dtype=np.float32).reshape(48, 2); assert (r == x[::-1]).all(), r"
func.func @reverse_rows(%x: tensor<48x2xf32>) -> tensor<48x2xf32> {
  %p:48 = tc.split %x axis = 0 : tensor<48x2xf32> -> tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
  %r = tc.concat %p#47, %p#46, %p#45, %p#44, %p#43, %p#42, %p#41, %p#40, %p#39, %p#38, %p#37, %p#36, %p#35, %p#34, %p#33, %p#32, %p#31, %p#30, %p#29, %p#28, %p#27, %p#26, %p#25, %p#24, %p#23, %p#22, %p#21, %p#20, %p#19, %p#18, %p#17, %p#16, %p#15, %p#14, %p#13, %p#12, %p#11, %p#10, %p#9, %p#8, %p#7, %p#6, %p#5, %p#4, %p#3, %p#2, %p#1, %p#0 axis = 0 : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32> -> tensor<48x2xf32>
  return %r : tensor<48x2xf32>
}
