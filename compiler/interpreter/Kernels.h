//===- Kernels.h - the reference kernels of the interpreter ---------------===//
//
// One plain function per tc operation, on host tensors, written to be
// obviously correct rather than fast: every sum and every normalisation is
// taken in double precision and the result rounded once to its element type.
// The operands have already passed the op's verifier, so shapes agree; the
// only errors left are those that depend on the data (an id out of range),
// reported through `error`.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_INTERPRETER_KERNELS_H
#define TC_COMPILER_INTERPRETER_KERNELS_H

#include "compiler/interpreter/Tensor.h"

#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace tc::ref {

enum class BinaryFn { Add, Sub, Mul, Div, Max, Min };
enum class UnaryFn { Neg, Exp, Log, Sqrt, Rsqrt, Tanh, Relu };
enum class CompareFn { Eq, Ne, Lt, Le, Gt, Ge };
enum class ReduceFn { Sum, Max, Mean };

// Elementwise (ElementwiseKernels.cpp); operands broadcast to `shape`.
Tensor binary(BinaryFn fn, const Tensor &lhs, const Tensor &rhs,
              const Shape &shape);
Tensor unary(UnaryFn fn, const Tensor &input);
Tensor compare(CompareFn fn, const Tensor &lhs, const Tensor &rhs,
               const Shape &shape);
Tensor select(const Tensor &condition, const Tensor &onTrue,
              const Tensor &onFalse, const Shape &shape);
Tensor convert(const Tensor &input, DType to);

// Reductions and row-wise normalisations (ReductionKernels.cpp).
Tensor reduce(ReduceFn fn, const Tensor &input, const Shape &axes,
              bool keepDims);
Tensor softmax(const Tensor &input, int64_t axis);
/// tc.log_softmax over the last dimension, rounded as the chain it replaces
/// (reduce_max, sub, exp, reduce_sum, log, sub) rounds each of its results.
Tensor logSoftmax(const Tensor &input);
Tensor layerNorm(const Tensor &input, const Tensor &gamma, const Tensor &beta,
                 double epsilon);
/// (summed loss, token count); see tc.cross_entropy.
std::pair<Tensor, Tensor> crossEntropy(const Tensor &logits,
                                       const Tensor &targets,
                                       double labelSmoothing,
                                       int64_t ignoreIndex, std::string &error);
/// tc.top_k: (values, i32 indices) of each last-dimension row's k largest
/// elements, largest first, the lower index first among equals.
std::pair<Tensor, Tensor> topK(const Tensor &input, int64_t k);

// The gradients of softmax, layer_norm and cross_entropy (GradientKernels.cpp)
Tensor softmaxGrad(const Tensor &output, const Tensor &outputGrad,
                   int64_t axis);
/// (input grad, gamma grad, beta grad)
std::tuple<Tensor, Tensor, Tensor> layerNormGrad(const Tensor &input,
                                                 const Tensor &gamma,
                                                 const Tensor &outputGrad,
                                                 double epsilon);
Tensor crossEntropyGrad(const Tensor &logits, const Tensor &targets,
                        const Tensor &lossGrad, double labelSmoothing,
                        int64_t ignoreIndex);
/// tc.embedding_grad: the sums start at zero, or at `base` (a [vocab, dim]
/// table: tc.embedding_grad_add); positions of `paddingId` add nothing.
Tensor embeddingGrad(const Tensor &ids, const Tensor &outputGrad,
                     int64_t vocab, std::optional<int64_t> paddingId,
                     const Tensor *base = nullptr);

// Fused forward ops and their gradients (FusedKernels.cpp). A linear's result
// has its bias's type (f32 for bf16 input and weight in mixed precision).
Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias,
              bool relu);
/// (result, mean, rstd)
std::tuple<Tensor, Tensor, Tensor>
residualLayerNorm(const Tensor &residual, const Tensor &sublayer,
                  const Tensor &gamma, const Tensor &beta, const Tensor &rng,
                  double rate, int64_t key, double epsilon);
/// (residual grad, sublayer grad, gamma grad, beta grad)
std::tuple<Tensor, Tensor, Tensor, Tensor>
residualLayerNormGrad(const Tensor &residual, const Tensor &sublayer,
                      const Tensor &gamma, const Tensor &mean,
                      const Tensor &rstd, const Tensor &outputGrad,
                      const Tensor &rng, double rate, int64_t key);
/// (result, probs)
std::pair<Tensor, Tensor> maskedSoftmax(const Tensor &scores,
                                        const Tensor &mask, const Tensor &rng,
                                        double scale, double fill, double rate,
                                        int64_t key);
Tensor maskedSoftmaxGrad(const Tensor &probs, const Tensor &outputGrad,
                         const Tensor &mask, const Tensor &rng, double scale,
                         double rate, int64_t key);

Tensor embed(const Tensor &table, const Tensor &ids, const Tensor &positions,
             const Tensor &rng, double scale, double rate, int64_t key,
             std::string &error);

// Fused optimizer (OptimizerKernels.cpp).
struct AdamStep {
  double beta1, beta2, epsilon;
  double stepSize;         ///< lr / (1 - beta1^t)
  double rsqrtCorrection2; ///< 1 / sqrt(1 - beta2^t)
  double gradScale;        ///< applied to every gradient as it is read
};
/// The new parameters, then first moments, then second moments.
std::vector<Tensor> adam(const AdamStep &step,
                         const std::vector<const Tensor *> &params,
                         const std::vector<const Tensor *> &grads,
                         const std::vector<const Tensor *> &firstMoments,
                         const std::vector<const Tensor *> &secondMoments);

// Matrix product (MatmulKernel.cpp): the operands' values multiplied and
// summed in double, rounded once to `resultType` (f32 for bf16 operands in
// mixed precision).
Tensor matmul(const Tensor &lhs, const Tensor &rhs, bool transposeLhs,
              bool transposeRhs, const Shape &resultShape, DType resultType);

// Transformer-specific ops (ModelKernels.cpp).
Tensor embedding(const Tensor &table, const Tensor &ids, std::string &error);
Tensor dropout(const Tensor &input, const Tensor &rng, double rate,
               int64_t key);
Tensor causalMask(int64_t length);
Tensor paddingMask(const Tensor &ids, int64_t padId);
/// [R] positions -> [R, length]: true at j <= position[r].
Tensor prefixMask(const Tensor &position, int64_t length);
/// tc.cache_update: the value written at each row's position; a position
/// out of range is `error`.
Tensor cacheUpdate(const Tensor &cache, const Tensor &value,
                   const Tensor &position, std::string &error);
/// tc.beam_history: each row's prefix of cache rows taken from its
/// origin's, itself at its position; an origin or position out of range is
/// `error`.
Tensor beamHistory(const Tensor &history, const Tensor &origin,
                   const Tensor &position, std::string &error);
/// tc.cached_attention: each (row, head)'s softmax attention over the key
/// positions it may attend to, position j in cache row history[r, j], else
/// slot[r], else r; `slot`, `history`, `limit` and `keyMask` may be null. A
/// cache row outside the cache is `error`.
Tensor cachedAttention(const Tensor &query, const Tensor &keys,
                       const Tensor &values, const Tensor *slot,
                       const Tensor *history, const Tensor *limit,
                       const Tensor *keyMask, int64_t heads,
                       std::string &error);
Tensor positionalEncoding(DType dtype, int64_t length, int64_t dim);

// Data movement (ShapeKernels.cpp).
Tensor reshape(const Tensor &input, const Shape &shape);
Tensor transpose(const Tensor &input, const Shape &permutation);
Tensor broadcastTo(const Tensor &input, const Shape &shape);
Tensor slice(const Tensor &input, const Shape &offsets, const Shape &sizes);
Tensor concat(const std::vector<const Tensor *> &inputs, int64_t axis);

/// Maps a row-major index of a tensor of shape `to` to the index of the
/// element it reads in a tensor of shape `from` that broadcasts to it.
class BroadcastIndex {
public:
  BroadcastIndex(const Shape &from, const Shape &to);
  int64_t operator()(int64_t index) const;

private:
  Shape toStrides;   // row-major strides of `to`
  Shape fromStrides; // strides of `from` aligned to `to`, 0 where broadcast
};

} // namespace tc::ref

#endif // TC_COMPILER_INTERPRETER_KERNELS_H
