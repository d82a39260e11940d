//===- Sgemm.cpp - the CPU device's single-threaded f32 GEMM --------------===//

#include "runtime/cpu/Sgemm.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace tc::rt {

SgemmLibrary defaultSgemm() {
  // Measured: with AVX-512, oneDNN 2.6's steps 4-8% faster on one thread
  // (2026-11-24). On a Zen 3 (AVX2 only), OpenBLAS's kernels ran every
  // large GEMM of small's step as fast or faster (the step's GEMMs 5-19%
  // less time), the weight gradients X^T dY whose X rows are 512 or 1024
  // floats 2.2x (oneDNN's AVX2 sgemm reads their transposed A slowly).
  // oneDNN's effective ISA, not the CPU's: under ONEDNN_MAX_CPU_ISA=AVX2
  // its sgemm is the AVX2 one.
  bool avx512 = (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core) ==
                dnnl_cpu_isa_avx512_core;
  return avx512 ? SgemmLibrary::OneDnn : SgemmLibrary::OpenBlas;
}

bool chooseSgemm(SgemmLibrary &library, std::string &error) {
  const char *name = std::getenv("TC_SGEMM");
  std::string_view chosen = name ? name : "";
  if (chosen.empty()) {
    library = defaultSgemm();
  } else if (chosen == "onednn") {
    library = SgemmLibrary::OneDnn;
  } else if (chosen == "openblas") {
    library = SgemmLibrary::OpenBlas;
  } else {
    error = "TC_SGEMM='" + std::string(chosen) +
            "' names no GEMM library; use onednn or openblas (unset: " +
            (defaultSgemm() == SgemmLibrary::OneDnn ? "onednn" : "openblas") +
            " on this CPU)";
    return false;
  }
  openblas_set_num_threads(1); // OpenMP threads call it
  return true;
}

std::string describeSgemm(SgemmLibrary library) {
  if (library == SgemmLibrary::OpenBlas)
    return std::string("OpenBLAS ") + openblas_get_corename() + " kernels";
  const dnnl_version_t *v = dnnl_version();
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) +
         "." + std::to_string(v->patch) + " sgemm";
}

void sgemm(SgemmLibrary library, bool transposeA, bool transposeB, int64_t m,
           int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
           const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  if (library == SgemmLibrary::OpenBlas) {
    cblas_sgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans,
                transposeB ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda,
                b, ldb, beta, c, ldc);
    return;
  }
  // oneDNN threads its calls with OpenMP: inside the device's parallel
  // regions they run on their thread (no nesting); outside, on the calling
  // thread only while the thread count says one.
  bool outside = !omp_in_parallel();
  int threads = omp_get_max_threads();
  if (outside)
    omp_set_num_threads(1);
  dnnl_status_t status =
      dnnl_sgemm(transposeA ? 'T' : 'N', transposeB ? 'T' : 'N', m, n, k,
                 alpha, a, lda, b, ldb, beta, c, ldc);
  if (outside)
    omp_set_num_threads(threads);
  if (status != dnnl_success) { // the loader verified every GEMM's operands
    std::fprintf(stderr,
                 "tc-run: internal error: oneDNN's sgemm refused a %lldx%lldx%lld "
                 "product (status %d); TC_SGEMM=openblas runs without it\n",
                 (long long)m, (long long)n, (long long)k, int(status));
    std::abort();
  }
}

void sgemmBlock(SgemmLibrary library, const GemmBlock &g) {
  float beta = addBiasBeforeProduct(g);
  sgemm(library, g.transposeA, g.transposeB, g.rows, g.cols, g.k, g.alpha,
        static_cast<const float *>(g.a), g.lda, static_cast<const float *>(g.b),
        g.ldb, beta, static_cast<float *>(g.c), g.ldc);
  if (g.relu)
    applyRelu(g);
}

} // namespace tc::rt
