//===- CandidatesFusion.cpp - an output GEMM and its candidates as one ----===//

#include "runtime/cpu/CandidatesFusion.h"
#include "runtime/cpu/StepBuffers.h"

#include "runtime/format/DType.h"
#include "runtime/format/GemmTypes.h"

#include <algorithm>
#include <string_view>

namespace tc::rt {
namespace {

/// The bytes [begin, end) of a space that `buffer` covers.
struct ByteRange {
  tcx::Space space;
  int64_t begin, end;

  bool overlaps(const ByteRange &other) const {
    return space == other.space && begin < other.end && other.begin < end;
  }
};

ByteRange rangeOf(const tcx::Buffer &buffer) {
  int64_t last = 0; // the last element's offset, in elements
  for (size_t d = 0; d < buffer.shape()->size(); ++d)
    last += (buffer.shape()->Get(d) - 1) * buffer.strides()->Get(d);
  return {buffer.space(), buffer.offset(),
          buffer.offset() + (last + 1) * tcx::sizeOf(buffer.dtype())};
}

int64_t elementsOf(const tcx::Buffer &buffer) {
  int64_t count = 1;
  for (int64_t extent : *buffer.shape())
    count *= extent;
  return count;
}

/// Whether `buffer` is `count` elements of `dtype`, one after the other.
bool isDense(const tcx::Buffer &buffer, tcx::DType dtype, int64_t count) {
  ByteRange r = rangeOf(buffer);
  return buffer.dtype() == dtype && elementsOf(buffer) == count &&
         r.end - r.begin == count * tcx::sizeOf(dtype);
}

/// Whether a and b are the same elements, in views of any shape (the GEMM
/// writes [R, 1, N], the launch reads [R, N]).
bool sameElements(const tcx::Buffer &a, const tcx::Buffer &b) {
  ByteRange ra = rangeOf(a), rb = rangeOf(b);
  return ra.space == rb.space && ra.begin == rb.begin && ra.end == rb.end &&
         a.dtype() == b.dtype() && elementsOf(a) == elementsOf(b);
}

/// The fusion of steps i and i + 1, if they make one.
std::optional<CandidatesAfterGemm> fusionAt(const tcx::Executable &executable,
                                            const tcx::Function &function,
                                            size_t i) {
  const auto &steps = *function.steps();
  if (i + 1 >= steps.size())
    return std::nullopt;
  const tcx::Gemm *gemm = steps.Get(i)->step_as_Gemm();
  const tcx::Launch *launch = steps.Get(i + 1)->step_as_Launch();
  if (!gemm || !launch || !executable.kernels() ||
      launch->kernel() >= executable.kernels()->size())
    return std::nullopt;
  const tcx::Kernel *kernel = executable.kernels()->Get(launch->kernel());
  constexpr tcx::GemmTypes kF32{tcx::DType::F32, tcx::DType::F32,
                                tcx::DType::F32, tcx::GemmCompute::F32};
  if (!kernel->op() ||
      std::string_view(kernel->op()->c_str()) != "tc.log_softmax_top_k" ||
      !kernel->attributes() || kernel->attributes()->size() != 2 ||
      !launch->inputs() || launch->inputs()->size() != 2 ||
      !launch->outputs() || launch->outputs()->size() != 3 ||
      !(tcx::gemmTypesOf(*gemm) == kF32) || gemm->batch()->size() != 0 ||
      gemm->rhs()->space() != tcx::Space::Params || gemm->ldc() != gemm->n() ||
      gemm->alpha() != 1.0f || gemm->beta() != 0.0f ||
      !sameElements(*launch->inputs()->Get(0), *gemm->out()))
    return std::nullopt;
  // What the fused run writes and reads must be what the kernel's
  // signature says (an edited file may say otherwise): the logits [m, n],
  // the addend [n], and [m, k], [m, k], [m, 1] out, all dense.
  int64_t m = gemm->m(), n = gemm->n();
  int64_t k = kernel->attributes()->Get(0),
          column = kernel->attributes()->Get(1);
  const tcx::Buffer &addend = *launch->inputs()->Get(1);
  const tcx::Buffer &values = *launch->outputs()->Get(0),
                    &indices = *launch->outputs()->Get(1),
                    &columnValues = *launch->outputs()->Get(2);
  if (k < 1 || k > n || column < 0 || column >= n ||
      elementsOf(*gemm->out()) != m * n ||
      !isDense(addend, tcx::DType::F32, n) ||
      !isDense(values, tcx::DType::F32, m * k) ||
      !isDense(indices, tcx::DType::I32, m * k) ||
      !isDense(columnValues, tcx::DType::F32, m))
    return std::nullopt;
  // The row blocks run at once: one block's results must not land on what
  // another block still reads (A, the bias, the addend, the logits of the
  // f32 fallback), as the memory plan may place them where the unfused
  // order had finished reading.
  std::vector<const tcx::Buffer *> read = {gemm->lhs(), &addend, gemm->out()};
  if (gemm->bias())
    read.push_back(gemm->bias());
  for (const tcx::Buffer *written : {&values, &indices, &columnValues})
    for (const tcx::Buffer *r : read)
      if (rangeOf(*written).overlaps(rangeOf(*r)))
        return std::nullopt;
  // The logits are read by the launch alone: no later step reads their
  // bytes before a step has written over them (the arena places later
  // tensors there), and no output holds them. A write covers its bytes
  // only where it is dense; the bytes still holding logits are kept as
  // ranges.
  std::vector<ByteRange> logits = {rangeOf(*gemm->out())};
  auto readsLogits = [&](const tcx::Buffer *buffer) {
    ByteRange read = rangeOf(*buffer);
    return std::any_of(logits.begin(), logits.end(),
                       [&](const ByteRange &r) { return r.overlaps(read); });
  };
  for (size_t s = i + 2; s < steps.size() && !logits.empty(); ++s) {
    for (const tcx::Buffer *read : readsOf(*steps.Get(s)))
      if (read && readsLogits(read))
        return std::nullopt;
    for (const tcx::Buffer *write : writesOf(*steps.Get(s))) {
      ByteRange w = rangeOf(*write);
      if (w.end - w.begin != elementsOf(*write) * tcx::sizeOf(write->dtype()))
        continue; // strided: not every byte of its span is written
      std::vector<ByteRange> left;
      for (const ByteRange &r : logits) {
        if (!r.overlaps(w)) {
          left.push_back(r);
          continue;
        }
        if (r.begin < w.begin)
          left.push_back({r.space, r.begin, w.begin});
        if (w.end < r.end)
          left.push_back({r.space, w.end, r.end});
      }
      logits = std::move(left);
    }
  }
  if (function.outputs())
    for (const tcx::Binding *output : *function.outputs())
      if (readsLogits(output->buffer()))
        return std::nullopt;
  return CandidatesAfterGemm{k, column};
}

} // namespace

std::vector<std::optional<CandidatesAfterGemm>>
findCandidatesAfterGemms(const tcx::Executable &executable,
                         const tcx::Function &function) {
  std::vector<std::optional<CandidatesAfterGemm>> found(
      function.steps()->size());
  for (size_t i = 0; i < found.size(); ++i)
    found[i] = fusionAt(executable, function, i);
  return found;
}

} // namespace tc::rt
