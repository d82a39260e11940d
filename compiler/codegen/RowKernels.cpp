//===- RowKernels.cpp - host C++ for the row-wise ops ---------------------===//
//
// tc.masked_softmax, tc.log_softmax, tc.residual_layer_norm,
// tc.cross_entropy and their gradients (and tc.cross_entropy_with_grad, the
// loss and its gradient together) (and tc.softmax and tc.layer_norm,
// which the fusions replace, with theirs): a loop over the rows of the last
// dimension, accumulators of kAccumulatorType within a row (ElementTypes.h),
// dropout masks from Philox. One template serves both targets through the row
// macros of the preludes (TargetBackend.h): on the host rows run across OpenMP
// threads and a row in order; on CUDA a block takes a row, its threads stride
// over the row and reduce through warp shuffles. The templates mark the types
// they spell: @E the op's element type, @S0 result #0's (the op's, or bf16
// where tc-fuse-convert narrowed it), @C a bf16 copy's (the LayerNorms'),
// @A the accumulators' (spellTypes).
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/RowKernels.h"
#include "compiler/codegen/ElementTypes.h"
#include "compiler/codegen/KernelText.h"
#include "dialects/tc/Bf16Copies.h"
#include "dialects/tc/TcDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace tc::codegen {

namespace {

/// The kernel's buffers and the row geometry of `rowsOf` ([rows, D] over
/// its last dimension).
std::string rowPrologue(Operation *op, Value rowsOf,
                        const TargetBackend &backend) {
  auto type = cast<RankedTensorType>(rowsOf.getType());
  int64_t d = type.getShape().back();
  return bufferDeclarations(op, backend) +
         llvm::formatv("  const int64_t D = {0}, rows = {1};\n", d,
                       type.getNumElements() / d)
             .str();
}

/// `keep(i)`: dropout's factor for element i (1 at rate 0).
std::string keepFunction(double rate, int64_t key, unsigned rngIn) {
  if (rate == 0.0) // the RNG state is not read
    return "  (void)in" + std::to_string(rngIn) +
           ";\n  auto keep = [](int64_t) { return 1.0; };\n";
  return llvm::formatv(
             "  const uint64_t seed = in{0}[0], step = in{0}[1];\n"
             "  TC_DROPOUT_MASK(mask, {1}, {2:e17}, rows * D)\n"
             "  auto keep = [&](int64_t i) {\n"
             "    return TC_KEEPS(mask, {1}, {2:e17}, i) ? {3:e17} : 0.0;\n"
             "  };\n",
             rngIn, key, rate, 1.0 / (1.0 - rate))
      .str();
}

/// The mask is indexed by the row `o` and the column `k` (broadcastIndex's
/// inRows): contiguous in k where it is not broadcast along the row, so the
/// host's row loops vectorise (indexed by the flat element, a gather of bytes
/// kept them scalar: attention's softmax took 1.16 ms for 4096 rows of 32 on
/// one Zen 5 thread, 0.55 ms with the scores cached first). On the host the
/// masked scores are cached first.
std::string maskedSoftmax(MaskedSoftmaxOp m, const TargetBackend &backend) {
  std::string mask = broadcastIndex(shapeOf(m.getMask()),
                                    shapeOf(m.getScores()), /*inRows=*/true);
  return rowPrologue(m, m.getScores(), backend) +
         keepFunction(m.getRate().convertToDouble(), m.getKey(), 2) +
         fill(R"cpp(  auto z = [&](int64_t o, int64_t k) {
    return in1[@0] ? @A(in0[o * D + k]) * @1 : @2;
  };
  TC_ROWS(r) {
    @A max = -INFINITY, sum = 0.0, scores = 0.0; // scores: unused
    TC_ROW_CACHE(@A, masked, z(r, k))
    TC_ROW_SOFTMAX_SHORT(e, masked(k), max, sum, scores)
    TC_ROW(k) {
      int64_t i = r * D + k;
      @A p = e(k) / sum;
      out1[i] = @E(p);
      out0[i] = @S0(p * keep(i));
    }
  }
)cpp",
              {mask, number(m.getScale().convertToDouble()),
               number(m.getFill().convertToDouble())});
}

std::string maskedSoftmaxGrad(MaskedSoftmaxGradOp m,
                              const TargetBackend &backend) {
  std::string mask = broadcastIndex(shapeOf(m.getMask()),
                                    shapeOf(m.getProbs()), /*inRows=*/true);
  return rowPrologue(m, m.getProbs(), backend) +
         keepFunction(m.getRate().convertToDouble(), m.getKey(), 3) +
         fill(R"cpp(  TC_ROWS(r) {
    const int64_t o = r; // the row, for the mask's index
    @A dot = 0.0;
    TC_ROW_REDUCE(k, +, dot) {
      int64_t i = r * D + k;
      dot += @A(in1[i]) * keep(i) * in0[i];
    }
    dot = TC_ROW_SUM(dot);
    TC_ROW(k) {
      int64_t i = r * D + k;
      @A dp = @A(in1[i]) * keep(i);
      out0[i] = @S0(in2[@0] ? @E(@1 * in0[i] * (dp - dot)) : @E(0));
    }
  }
)cpp",
              {mask, number(m.getScale().convertToDouble())});
}

/// tc.softmax and its gradient along the last axis (the frontend's: other
/// axes have no kernel), for executables compiled without
/// tc-fuse-masked-softmax: tc.masked_softmax's rows with no scale, mask or
/// dropout.
std::string softmax(SoftmaxOp s, const TargetBackend &backend) {
  return rowPrologue(s, s.getInput(), backend) + R"cpp(  TC_ROWS(r) {
    @A max = -INFINITY, sum = 0.0, inputs = 0.0; // inputs: unused
    TC_ROW_SOFTMAX_SHORT(e, @A(in0[r * D + k]), max, sum, inputs)
    TC_ROW(k)
      out0[r * D + k] = @S0(e(k) / sum);
  }
)cpp";
}

std::string softmaxGrad(SoftmaxGradOp s, const TargetBackend &backend) {
  return rowPrologue(s, s.getOutput(), backend) + R"cpp(  TC_ROWS(r) {
    @A dot = 0.0;
    TC_ROW_REDUCE(k, +, dot)
      dot += @A(in1[r * D + k]) * in0[r * D + k];
    dot = TC_ROW_SUM(dot);
    TC_ROW(k) {
      int64_t i = r * D + k;
      out0[i] = @S0(in0[i] * (@A(in1[i]) - dot));
    }
  }
)cpp";
}

/// Three passes over a row where the chain of ops it replaces made five: the
/// max, the sum of the exponentials, the results. The shifted `x - max` and
/// the rounding of the sum before its log are the chain's f32 (@E). The max
/// and the sum reduce in vector lanes on the host (a decoder step's 4,000
/// logits a row: in order, each was a chain of dependent adds). The max is
/// a plain comparison, exact in @E, that skips a NaN: the NaN still makes
/// the sum NaN (exp(NaN - max) is NaN), and so every result, as the chain
/// gives; tc::maximum's NaN test kept the loop out of vector lanes (38 us
/// of a decoder step's 100 us call on two Zen 5 threads).
/// A row's log-softmax statistics, inside TC_ROWS: x (the row), shift (its
/// max) and logSum, so that element k's log-probability is
/// (x[k] - shift) - logSum. The exponentials are cached in f32 before the
/// double sum: in one loop with it they ran in the double's 8 lanes, not
/// f32's 16 (a decoder step's 64 x 4,000: 62 -> 54 us on two Zen 5
/// threads, measured on its own).
constexpr const char *kLogSoftmaxRow = R"cpp(    const @E *x = in0 + r * D;
    @E max = -INFINITY;
    @A sum = 0.0;
    TC_ROW_REDUCE(k, max, max)
      max = x[k] > max ? x[k] : max;
    const @E shift = @E(TC_ROW_MAX(max));
    TC_ROW_CACHE(float, e, tc::rowExp(x[k] - shift))
    TC_ROW_REDUCE(k, +, sum)
      sum += @A(e(k));
    const @E logSum = @E(std::log(@E(TC_ROW_SUM(sum))));
)cpp";

std::string logSoftmax(LogSoftmaxOp l, const TargetBackend &backend) {
  return rowPrologue(l, l.getInput(), backend) + "  TC_ROWS(r) {\n" +
         kLogSoftmaxRow + R"cpp(    TC_ROW(k)
      out0[r * D + k] = @S0((x[k] - shift) - logSum);
  }
)cpp";
}

/// Each candidate c[k] computed as tc.log_softmax stores it and tc.add adds
/// the addend to it, then the row's leader selects the top k of them
/// (tc::topKOfRow) and stores the column's.
std::string logSoftmaxTopK(LogSoftmaxTopKOp t, const TargetBackend &backend) {
  return rowPrologue(t, t.getInput(), backend) + "  TC_ROWS(r) {\n" +
         kLogSoftmaxRow +
         fill(R"cpp(    auto candidate = [&](int64_t k) {
      return @E((x[k] - shift) - logSum) + in1[k];
    };
    TC_ROW_LEADER {
      tc::topKOfRow<@E>(D, @0, candidate, out0 + r * @0, out1 + r * @0);
      out2[r] = candidate(@1);
    }
  }
)cpp",
              {std::to_string(t.getK()), std::to_string(t.getColumn())});
}

/// A LayerNorm row's statistics of s(k), inside TC_ROWS: its mean and
/// rstd = 1 / sqrt(var + epsilon) (@0), with the biased variance. The mean
/// and the variance reduce in vector lanes on the host: in order, each was
/// a chain of dependent double adds (a decoder step's 64 x 256 took 10.7 us
/// on two Zen 5 threads).
constexpr const char *kLayerNormStatistics = R"cpp(    @A mean = 0.0, var = 0.0;
    TC_ROW_REDUCE(k, +, mean)
      mean += s(k);
    mean = TC_ROW_SUM(mean) / D;
    TC_ROW_REDUCE(k, +, var) {
      @A c = s(k) - mean;
      var += c * c;
    }
    @A rstd = 1.0 / std::sqrt(TC_ROW_SUM(var) / D + @0);
)cpp";

/// The normalised row, y(k) = (s(k) - mean) * rstd * gamma + beta stored in
/// out0, gamma and beta inputs @0 and @1; @2 stores its bf16 copy, or is
/// empty (copyStore).
constexpr const char *kLayerNormStore = R"cpp(    TC_ROW(k) {
      const @S0 y = @S0((s(k) - mean) * rstd * in@0[k] + in@1[k]);
      out0[r * D + k] = y;
@2    }
)cpp";

/// The store of `value` (an f32 expression) at `index` of the bf16 copy
/// `copy` (the op's result #`result`, tc-fuse-convert), rounded once as a
/// convert of the stored f32 value would be; "" without a copy.
std::string copyStore(Value copy, unsigned result, StringRef index,
                      StringRef value) {
  if (!copy)
    return "";
  return llvm::formatv("      tc::storeBits(out{0} + ({1}), @C(float({2})));\n",
                       result, index, value)
      .str();
}

std::string residualLayerNorm(ResidualLayerNormOp n,
                              const TargetBackend &backend) {
  std::string epsilon = number(n.getEpsilon().convertToDouble());
  return rowPrologue(n, n.getResidual(), backend) +
         keepFunction(n.getRate().convertToDouble(), n.getKey(), 4) +
         "  TC_ROWS(r) {\n"
         "    TC_ROW_CACHE(@A, s, in0[r * D + k] + @A(in1[r * D + k]) * "
         "keep(r * D + k))\n" +
         fill(kLayerNormStatistics, {epsilon}) +
         fill(kLayerNormStore,
              {"2", "3", copyStore(n.getResultBf16(), 3, "r * D + k", "y")}) +
         R"cpp(    TC_ROW_LEADER {
      out1[r] = @E(mean);
      out2[r] = @E(rstd);
    }
  }
)cpp";
}

/// tc.layer_norm, for executables compiled without
/// tc-fuse-residual-layer-norm.
std::string layerNorm(LayerNormOp n, const TargetBackend &backend) {
  std::string epsilon = number(n.getEpsilon().convertToDouble());
  return rowPrologue(n, n.getInput(), backend) +
         "  TC_ROWS(r) {\n    TC_ROW_CACHE(@A, s, in0[r * D + k])\n" +
         fill(kLayerNormStatistics, {epsilon}) +
         fill(kLayerNormStore, {"1", "2", ""}) + "  }\n";
}

/// A LayerNorm gradient's rows, inside TC_ROWS after x(k) (the normalised
/// input) and rstd, with dy(r, k) (the output's gradient) and gamma(k):
/// ds, the gradient of the normalised sum, for `store` to write.
constexpr const char *kLayerNormGradRow = R"cpp(    @A meanG = 0.0, meanGX = 0.0;
    TC_ROW_REDUCE(k, +, meanG, meanGX) {
      @A g = dy(r, k) * gamma(k);
      meanG += g / D;
      meanGX += g * x(k) / D;
    }
    meanG = TC_ROW_SUM(meanG);
    meanGX = TC_ROW_SUM(meanGX);
    TC_ROW(k) {
      int64_t i = r * D + k;
      @A ds = rstd * (dy(r, k) * gamma(k) - meanG - x(k) * meanGX);
)cpp";

/// The gamma and beta gradients (out@0 and out@1): sums over the rows of
/// dy * x, x the normalised input, and of dy, given rowStatistics(r, mean,
/// rstd), s(r, k) (the row before normalisation) and dy(r, k). They read only
/// inputs, so they are independent of the rows' part of the kernel.
constexpr const char *kGammaBetaGrads = R"cpp(  TC_COLUMN_BLOCKS(k0, k1) {
    @A dgamma[TC_COLUMN_BLOCK] = {}, dbeta[TC_COLUMN_BLOCK] = {};
    TC_COLUMN_ROWS(r, rows) {
      @A mean, rstd;
      rowStatistics(r, mean, rstd);
      for (int64_t k = k0; k < k1; ++k) {
        dgamma[k - k0] += dy(r, k) * ((s(r, k) - mean) * rstd);
        dbeta[k - k0] += dy(r, k);
      }
    }
    TC_COLUMN_TOTALS(dgamma, dbeta);
    TC_COLUMN_LEADER
    for (int64_t k = k0; k < k1; ++k) {
      out@0[k] = @E(dgamma[k - k0]);
      out@1[k] = @E(dbeta[k - k0]);
    }
  }
)cpp";

/// Row gradients in parallel (a row's two sums in vector lanes on the
/// host) from the forward's saved mean and rstd; the gamma and beta sums
/// over rows in order (a column each).
std::string residualLayerNormGrad(ResidualLayerNormGradOp n,
                                  const TargetBackend &backend) {
  return rowPrologue(n, n.getResidual(), backend) +
         keepFunction(n.getRate().convertToDouble(), n.getKey(), 6) +
         R"cpp(  auto s = [&](int64_t r, int64_t k) {
    int64_t i = r * D + k;
    return in0[i] + @A(in1[i]) * keep(i);
  };
  auto dy = [&](int64_t r, int64_t k) { return @A(in5[r * D + k]); };
  auto gamma = [&](int64_t k) { return in2[k]; };
  auto rowStatistics = [&](int64_t r, @A &mean, @A &rstd) {
    mean = in3[r];
    rstd = in4[r];
  };
  TC_ROWS(r) {
    const @A rstd = in4[r];
    TC_ROW_CACHE(@A, x, (s(r, k) - in3[r]) * rstd)
)cpp" + kLayerNormGradRow +
         R"cpp(      out0[i] = @S0(ds);
      const @E sublayerGrad = @E(ds * keep(i));
      out1[i] = sublayerGrad;
)cpp" + copyStore(n.getSublayerGradBf16(), 4, "i", "sublayerGrad") +
         R"cpp(    }
  }
)cpp" + fill(kGammaBetaGrads, {"2", "3"});
}

/// tc.layer_norm's gradients, for executables compiled without
/// tc-fuse-residual-layer-norm: the rows' statistics are not saved by the
/// forward (tc.residual_layer_norm saves them), so the rows recompute them,
/// and the gamma and beta sums again for each block of columns, in order (a
/// block's lanes of one row read it together): d_model / 64 more passes
/// over the input on the host, a baseline for A/B comparisons only.
std::string layerNormGrad(LayerNormGradOp n, const TargetBackend &backend) {
  std::string epsilon = number(n.getEpsilon().convertToDouble());
  return rowPrologue(n, n.getInput(), backend) + fill(R"cpp(  auto s = [&](int64_t r, int64_t k) { return @A(in0[r * D + k]); };
  auto dy = [&](int64_t r, int64_t k) { return @A(in2[r * D + k]); };
  auto gamma = [&](int64_t k) { return in1[k]; };
  auto rowStatistics = [&](int64_t r, @A &mean, @A &rstd) {
    mean = 0.0;
    for (int64_t k = 0; k < D; ++k)
      mean += s(r, k);
    mean /= D;
    @A var = 0.0;
    for (int64_t k = 0; k < D; ++k)
      var += (s(r, k) - mean) * (s(r, k) - mean);
    rstd = 1.0 / std::sqrt(var / D + @0);
  };
  TC_ROWS(r) {
    TC_ROW_CACHE(@A, s, in0[r * D + k])
)cpp", {epsilon}) + fill(kLayerNormStatistics, {epsilon}) +
         R"cpp(    TC_ROW_CACHE(@A, x, (s(k) - mean) * rstd)
)cpp" + kLayerNormGradRow +
         R"cpp(      out0[i] = @S0(ds);
    }
  }
)cpp" + fill(kGammaBetaGrads, {"1", "2"});
}

/// The loss's rows: those whose target is counted (@0 the ignored index).
constexpr const char *kCountedRows = R"cpp(  auto counted = [&](int64_t r) {
    int64_t t = in1[r]; // ignored: the padding, out of range (which the
    return !(t == @0 || t < 0 || t >= D); // interpreter reports)
  };
)cpp";

/// A loss row's softmax statistics, inside a row r: x (the row), its max
/// and sum of exponentials e(k), and the sum of its logits.
constexpr const char *kLossRowSoftmax =
    R"cpp(    const @E *x = in0 + r * D; // a pointer the loops see as contiguous
    @A max = -INFINITY, sum = 0.0, logits = 0.0;
    TC_ROW_SOFTMAX(e, x[k], max, sum, logits)
)cpp";

/// The row's label-smoothed loss (smoothing @1), after kLossRowSoftmax.
constexpr const char *kLossOfRow = R"cpp(    @A lse = max + std::log(sum);
    logits = TC_ROW_SUM(logits);
    const @A rowLoss = (1.0 - @1) * (lse - x[in1[r]]) + @1 * (lse - logits / D);
)cpp";

/// The row's gradient (target t, seed `scale`, smoothing `eps`) stored in
/// out0, after kLossRowSoftmax.
constexpr const char *kLossGradOfRow =
    R"cpp(    const @A inverse = 1.0 / sum; // a product a element, not a division
    TC_ROW(k) {
      @A p = e(k) * inverse;
      @A q = eps / D + (k == t ? 1.0 - eps : 0.0);
      out0[r * D + k] = @S0(scale * (p - q));
    }
)cpp";

/// The summed loss over the counted rows, in a fixed order (the host's row
/// order; on CUDA the prelude's): deterministic. `rowValue(r)` computes a
/// row's loss; the leader stores it in out@0 (as @1) and the count in
/// out@2.
constexpr const char *kLossSum =
    R"cpp(  TC_ORDERED_ROW_SUM(total, tokens, counted, rowValue)
  TC_ORDERED_ROW_SUM_LEADER(total) {
    out@0[0] = @1(total);
    out@2[0] = tokens;
  }
)cpp";

std::string crossEntropy(CrossEntropyOp c, const TargetBackend &backend) {
  std::string ignored = std::to_string(int64_t(c.getIgnoreIndex())),
              smoothing = number(c.getLabelSmoothing().convertToDouble());
  return rowPrologue(c, c.getLogits(), backend) +
         fill(kCountedRows, {ignored}) +
         "  auto rowValue = [&](int64_t r) {\n" + kLossRowSoftmax +
         fill(kLossOfRow, {ignored, smoothing}) + "    return rowLoss;\n  };\n" +
         fill(kLossSum, {"0", "@S0", "1"});
}

std::string crossEntropyGrad(CrossEntropyGradOp c,
                             const TargetBackend &backend) {
  return rowPrologue(c, c.getLogits(), backend) +
         fill(R"cpp(  const @A scale = in2[0], eps = @1;
  TC_ROWS(r) {
    int64_t t = in1[r];
    if (t == @0 || t < 0 || t >= D) { // the same for the whole row
      TC_ROW(k)
        out0[r * D + k] = @S0(0.0f);
      continue;
    }
)cpp",
              {std::to_string(int64_t(c.getIgnoreIndex())),
               number(c.getLabelSmoothing().convertToDouble())}) +
         kLossRowSoftmax + kLossGradOfRow + "  }\n";
}

/// tc.cross_entropy and tc.cross_entropy_grad from one softmax a row: a
/// counted row's loss and its gradient (out0) together, the other rows'
/// gradients zero; the same arithmetic as the two kernels, so the same
/// bits.
std::string crossEntropyWithGrad(CrossEntropyWithGradOp c,
                                 const TargetBackend &backend) {
  std::string ignored = std::to_string(int64_t(c.getIgnoreIndex())),
              smoothing = number(c.getLabelSmoothing().convertToDouble());
  return rowPrologue(c, c.getLogits(), backend) +
         fill(kCountedRows, {ignored}) +
         fill("  const @A scale = in2[0], eps = @0;\n", {smoothing}) +
         "  auto rowValue = [&](int64_t r) {\n    const int64_t t = in1[r];\n" +
         kLossRowSoftmax + fill(kLossOfRow, {ignored, smoothing}) + kLossGradOfRow +
         "    return rowLoss;\n  };\n" + fill(kLossSum, {"1", "@E", "2"}) +
         R"cpp(  TC_ROWS(r) {
    if (!counted(r)) // the same for the whole row
      TC_ROW(k)
        out0[r * D + k] = @S0(0.0f);
  }
)cpp";
}

/// The body of `op`'s row kernel, its types still marked (spellTypes), or
/// none for an op with no row kernel.
std::optional<std::string> rowBody(Operation *op,
                                   const TargetBackend &backend) {
  if (auto m = dyn_cast<MaskedSoftmaxOp>(op))
    return maskedSoftmax(m, backend);
  if (auto m = dyn_cast<MaskedSoftmaxGradOp>(op))
    return maskedSoftmaxGrad(m, backend);
  if (auto l = dyn_cast<LogSoftmaxOp>(op))
    return logSoftmax(l, backend);
  if (auto t = dyn_cast<LogSoftmaxTopKOp>(op))
    return logSoftmaxTopK(t, backend);
  if (auto s = dyn_cast<SoftmaxOp>(op))
    return softmax(s, backend);
  if (auto s = dyn_cast<SoftmaxGradOp>(op))
    return softmaxGrad(s, backend);
  if (auto n = dyn_cast<LayerNormOp>(op))
    return layerNorm(n, backend);
  if (auto n = dyn_cast<LayerNormGradOp>(op))
    return layerNormGrad(n, backend);
  if (auto n = dyn_cast<ResidualLayerNormOp>(op))
    return residualLayerNorm(n, backend);
  if (auto n = dyn_cast<ResidualLayerNormGradOp>(op))
    return residualLayerNormGrad(n, backend);
  if (auto c = dyn_cast<CrossEntropyOp>(op))
    return crossEntropy(c, backend);
  if (auto c = dyn_cast<CrossEntropyGradOp>(op))
    return crossEntropyGrad(c, backend);
  if (auto c = dyn_cast<CrossEntropyWithGradOp>(op))
    return crossEntropyWithGrad(c, backend);
  return std::nullopt;
}

/// The element types row kernels are generated for so far: f32 values,
/// integer ids and boolean masks.
bool rowKernelType(Value v) {
  std::optional<support::ElementType> type = elementTypeOf(v);
  return type == support::ElementType::F32 ||
         type == support::ElementType::I64 ||
         type == support::ElementType::I32 || type == support::ElementType::I1;
}

} // namespace

FailureOr<std::string> emitRowKernel(Operation *op, StringRef name,
                                     const TargetBackend &backend,
                                     std::string &error) {
  if (!hasCppTypes(op, backend, error))
    return failure();
  // tc.softmax's axis is an attribute (the interpreter takes any); the
  // kernels' rows are the last dimension.
  std::optional<int64_t> axis;
  if (auto softmax = dyn_cast<SoftmaxOp>(op))
    axis = softmax.getAxis();
  if (auto grad = dyn_cast<SoftmaxGradOp>(op))
    axis = grad.getAxis();
  if (int64_t rank = shapeOf(op->getOperand(0)).size();
      axis && *axis != rank - 1) {
    error = llvm::formatv("'{0}' along axis {1} of a rank-{2} tensor: kernels "
                          "are generated along the last axis only; transpose "
                          "that axis last (tc.transpose) around it",
                          op->getName().getStringRef(), *axis, rank)
                .str();
    return failure();
  }
  std::optional<std::string> body = rowBody(op, backend);
  if (!body) {
    error = "no row kernel for '" + op->getName().getStringRef().str() + "'";
    return failure();
  }
  // Mixed precision keeps them f32 (docs/codegen.md), but for result #0,
  // which tc-fuse-convert may narrow to bf16 (stored rounded once from
  // the f32 value, @S0), and a bf16 copy it may add (@C): any other bf16
  // value is refused, never computed wrong.
  std::optional<Bf16Copy> copyable = bf16CopyOf(op);
  Value stored = op->getResult(0), copy = copyable ? copyable->copy : Value();
  bool narrowed = isComputedWider(stored);
  auto storedInBf16 = [&](Value v) {
    return (narrowed && v == stored) || (copy && v == copy);
  };
  if (std::optional<std::string> bf16 = firstComputedWider(op, storedInBf16)) {
    error = "'" + op->getName().getStringRef().str() + "': " + *bf16 +
            ", but row kernels (softmax, LayerNorm, cross-entropy and their "
            "gradients) compute on f32 tensors only; convert it to f32 first "
            "(tc.convert)";
    return failure();
  }
  if (!llvm::all_of(llvm::concat<Value>(op->getOperands(), op->getResults()),
                    [&](Value v) { return rowKernelType(v) || storedInBf16(v); })) {
    error = "row kernels are generated for f32 tensors only so far";
    return failure();
  }
  // The stores convert to the results' type (@S0 result #0's, @C the
  // copy's, @E the op's: its first operand's); the statistics accumulate
  // in kAccumulatorType.
  return backend.kernel(
      name,
      spellTypes(*body, {{"@S0", *backend.spell(stored)},
                         {"@C", *backend.spell(copy ? copy : stored)},
                         {"@E", *backend.spell(op->getOperand(0))},
                         {"@A", *backend.spell(kAccumulatorType)}}));
}

} // namespace tc::codegen
