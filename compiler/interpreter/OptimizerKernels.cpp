//===- OptimizerKernels.cpp - the multi-tensor Adam step ------------------===//

#include "compiler/interpreter/Kernels.h"

#include <cmath>

namespace tc::ref {

std::vector<Tensor> adam(const AdamStep &step,
                         const std::vector<const Tensor *> &params,
                         const std::vector<const Tensor *> &grads,
                         const std::vector<const Tensor *> &firstMoments,
                         const std::vector<const Tensor *> &secondMoments) {
  size_t n = params.size();
  std::vector<Tensor> out(3 * n);
  for (size_t i = 0; i < n; ++i) {
    const Tensor &p = *params[i];
    Tensor newP(p.dtype, p.shape), newM(p.dtype, p.shape),
        newV(p.dtype, p.shape);
    for (int64_t e = 0; e < p.size(); ++e) {
      double g = grads[i]->get(e) * step.gradScale;
      double m = step.beta1 * firstMoments[i]->get(e) + (1 - step.beta1) * g;
      double v =
          step.beta2 * secondMoments[i]->get(e) + (1 - step.beta2) * g * g;
      newM.set(e, m);
      newV.set(e, v);
      newP.set(e, p.get(e) - step.stepSize * m /
                                 (std::sqrt(v) * step.rsqrtCorrection2 +
                                  step.epsilon));
    }
    out[i] = std::move(newP);
    out[n + i] = std::move(newM);
    out[2 * n + i] = std::move(newV);
  }
  return out;
}

} // namespace tc::ref
