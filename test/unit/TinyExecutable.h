//===- TinyExecutable.h - a model compiled into an executable, for tests ---===//
//
// Test helpers shared by the runtime's tests: a model description (the tiny
// model by default) through the training pipeline (kept for the
// interpreter) and the plan pipeline into a loaded .tcx, for the host or
// CUDA target; random inputs for a function; and a cuBLAS call evaluated on
// host memory as cuBLAS defines it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_UNIT_TINYEXECUTABLE_H
#define TC_TEST_UNIT_TINYEXECUTABLE_H

#include "ModelPipeline.h"

#include "compiler/export/TcxWriter.h"
#include "runtime/Executable.h"
#include "runtime/cuda/CublasGemm.h"

#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>

namespace tc::test {

struct Compiled {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> graph; // after the training pipeline
  std::unique_ptr<rt::Executable> executable;
  std::vector<uint8_t> bytes; // the .tcx file
};

/// The model description at `path` as an executable: host code, or CUDA
/// code for `cudaArchitectures` ("sm_80") when given; gradients summed over
/// ranks in buckets of `allreduceBucketBytes`; in `precision` when given;
/// with `fusions` (as tc-compile --fusion).
inline std::unique_ptr<Compiled>
compileExecutable(const std::string &path,
                  std::vector<std::string> cudaArchitectures = {},
                  int64_t allreduceBucketBytes = int64_t(25) << 20,
                  std::optional<support::Precision> precision = std::nullopt,
                  const std::string &fusions = "all") {
  auto compiled = std::make_unique<Compiled>();
  compiled->graph =
      compileModel(compiled->context, path, false, precision, fusions);
  if (!compiled->graph)
    return nullptr;
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> planModule = compiled->graph->clone();
  mlir::PassManager lower(&compiled->context);
  addPlanPipeline(lower, allreduceBucketBytes);
  EXPECT_TRUE(mlir::succeeded(lower.run(*planModule)));
  std::string name = std::filesystem::path(path).stem().string();
  ExportOptions options{name, "test"};
  EXPECT_TRUE(setTarget(options,
                        cudaArchitectures.empty() ? Target::Host : Target::Cuda,
                        "native", cudaArchitectures, error))
      << error;
  std::optional<std::vector<uint8_t>> bytes =
      writeExecutable(*planModule, options, error);
  EXPECT_TRUE(bytes) << error;
  if (!bytes)
    return nullptr;
  compiled->bytes = *bytes;
  compiled->executable =
      rt::Executable::fromBytes(std::move(*bytes), name + ".tcx", error);
  EXPECT_TRUE(compiled->executable) << error;
  return compiled->executable ? std::move(compiled) : nullptr;
}

/// models/tiny.toml as an executable (see compileExecutable).
inline std::unique_ptr<Compiled>
compileTiny(std::vector<std::string> cudaArchitectures = {},
            std::optional<support::Precision> precision = std::nullopt,
            const std::string &fusions = "all") {
  return compileExecutable(std::string(TC_SOURCE_DIR) + "/models/tiny.toml",
                           std::move(cudaArchitectures), int64_t(25) << 20,
                           precision, fusions);
}

/// `call` on host memory, column-major, as cuBLAS (and cuBLASLt with a
/// bias/ReLU epilogue) defines it: batch b reads a[b] and b[b], writes c[b].
inline void evaluateColumnMajor(const rt::CublasGemm &call,
                                const float *const *a, const float *const *b,
                                float *const *c, const float *bias = nullptr,
                                bool relu = false) {
  for (int64_t batch = 0; batch < call.batchCount; ++batch) {
    const float *A = a[batch], *B = b[batch];
    float *C = c[batch];
    for (int64_t col = 0; col < call.n; ++col)
      for (int64_t row = 0; row < call.m; ++row) {
        double sum = 0;
        for (int64_t p = 0; p < call.k; ++p) {
          // op(A)[row, p] and op(B)[p, col], column-major storage.
          float x =
              call.transposeA ? A[p + row * call.lda] : A[row + p * call.lda];
          float y =
              call.transposeB ? B[col + p * call.ldb] : B[p + col * call.ldb];
          sum += double(x) * y;
        }
        float &out = C[row + col * call.ldc];
        float value =
            float(call.alpha * sum + (call.beta == 0 ? 0.0 : call.beta * out));
        if (bias)
          value += bias[row];
        out = relu ? std::max(value, 0.0f) : value;
      }
  }
}

/// Random bytes for binding `b`: token ids below `vocabulary` (0, padding,
/// at the end of each row), RNG states (seed 1234, `step`), or floats.
inline std::vector<uint8_t> randomInput(const tcx::Binding &b,
                                        std::mt19937_64 &rng, int step,
                                        int32_t vocabulary = 24) {
  const tcx::Buffer &buffer = *b.buffer();
  int64_t count = 1;
  for (int64_t extent : *buffer.shape())
    count *= extent;
  int64_t row = buffer.shape()->size()
                    ? buffer.shape()->Get(buffer.shape()->size() - 1)
                    : 1;
  std::vector<uint8_t> bytes(count * tcx::sizeOf(buffer.dtype()));
  for (int64_t i = 0; i < count; ++i)
    switch (buffer.dtype()) {
    case tcx::DType::I64:
      reinterpret_cast<int64_t *>(bytes.data())[i] = i == 0 ? 1234 : step;
      break;
    case tcx::DType::I32:
      reinterpret_cast<int32_t *>(bytes.data())[i] =
          i % row == row - 1 ? 0 : int32_t(1 + rng() % (vocabulary - 1));
      break;
    default:
      reinterpret_cast<float *>(bytes.data())[i] =
          std::uniform_real_distribution<float>(-1, 1)(rng);
    }
  return bytes;
}

} // namespace tc::test

#endif // TC_TEST_UNIT_TINYEXECUTABLE_H
