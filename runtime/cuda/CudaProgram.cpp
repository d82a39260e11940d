//===- CudaProgram.cpp - a function's steps, ready for a GPU --------------===//

#include "runtime/cuda/CudaProgram.h"
#include "runtime/Executable.h"

#include <tuple>

namespace tc::rt {
namespace {

/// The grid or block of a launch as three extents (missing ones are 1).
std::array<uint32_t, 3> extents(const flatbuffers::Vector<int64_t> *values,
                                bool &valid) {
  std::array<uint32_t, 3> out{1, 1, 1};
  if (!values || values->size() > 3) {
    valid = false;
    return out;
  }
  for (size_t i = 0; i < values->size(); ++i) {
    int64_t v = values->Get(i);
    valid &= v >= 1 && v <= int64_t(kMaxGridX);
    out[i] = uint32_t(v);
  }
  return out;
}

/// Whether a GPU launches it and tc's kernels run in it: their blocks are
/// whole warps along x only (the block reductions go by warps, and the
/// column sums by groups of 8 threads: docs/cuda.md).
bool geometryFits(const std::array<uint32_t, 3> &grid,
                  const std::array<uint32_t, 3> &block) {
  return block[0] <= kMaxBlockThreads && block[0] % 32 == 0 &&
         block[1] == 1 && block[2] == 1 && grid[1] <= kMaxGridYZ &&
         grid[2] <= kMaxGridYZ;
}

} // namespace

std::vector<CopyRectangle> copyRectangles(const tcx::Buffer &from,
                                          const tcx::Buffer &to,
                                          const SpaceAddresses &spaces) {
  const auto &shape = *from.shape();
  int64_t element = tcx::sizeOf(from.dtype());
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  std::vector<CopyRectangle> out;
  if (count == 0)
    return out;
  if (isRowMajor(from) && isRowMajor(to)) { // one block of bytes
    out.push_back({spaces.of(from), spaces.of(to), count * element,
                   count * element, count * element, 1});
    return out;
  }
  // The rectangle covers the last dimension (single elements down it) or,
  // when both views have unit stride there, whole rows down the one before.
  int64_t rank = int64_t(shape.size());
  bool rows =
      from.strides()->Get(rank - 1) == 1 && to.strides()->Get(rank - 1) == 1;
  int64_t across = rows ? rank - 2 : rank - 1; // the rectangle's height dim
  int64_t width = rows ? shape.Get(rank - 1) * element : element;
  int64_t height = across >= 0 ? shape.Get(across) : 1;
  int64_t sourcePitch =
      across >= 0 ? from.strides()->Get(across) * element : width;
  int64_t targetPitch =
      across >= 0 ? to.strides()->Get(across) * element : width;
  // Rows that overlap or run backwards (a stride of 0) go one at a time.
  bool split = sourcePitch < width || targetPitch < width;
  int64_t outer = 1;
  for (int64_t d = 0; d < across; ++d)
    outer *= shape.Get(d);
  std::vector<int64_t> index(std::max<int64_t>(across, 0), 0);
  for (int64_t o = 0; o < outer; ++o) {
    int64_t source = 0, target = 0;
    for (int64_t d = 0; d < across; ++d) {
      source += index[d] * from.strides()->Get(d);
      target += index[d] * to.strides()->Get(d);
    }
    uint64_t s = spaces.of(from) + source * element;
    uint64_t t = spaces.of(to) + target * element;
    if (split)
      for (int64_t r = 0; r < height; ++r)
        out.push_back(
            {s + r * sourcePitch, t + r * targetPitch, width, width, width, 1});
    else
      out.push_back({s, t, sourcePitch, targetPitch, width, height});
    for (int64_t d = across; d-- > 0;) {
      if (++index[d] < shape.Get(d))
        break;
      index[d] = 0;
    }
  }
  return out;
}

CudaProgram buildCudaProgram(const tcx::Function &function,
                             const SpaceAddresses &spaces, std::string &error) {
  CudaProgram program;
  int64_t stepIndex = 0;
  for (const tcx::StepEntry *entry : *function.steps()) {
    std::string where =
        function.name()->str() + " step " + std::to_string(stepIndex++);
    switch (entry->step_type()) {
    case tcx::Step::Launch: {
      const tcx::Launch *launch = entry->step_as_Launch();
      KernelLaunch k;
      k.kernel = launch->kernel();
      bool valid = true;
      k.grid = extents(launch->grid(), valid);
      k.block = extents(launch->block(), valid);
      if (!valid || !geometryFits(k.grid, k.block)) {
        error = where + ": no GPU launches a grid of " +
                std::to_string(k.grid[0]) + "x" + std::to_string(k.grid[1]) +
                "x" + std::to_string(k.grid[2]) + " blocks of " +
                std::to_string(k.block[0]) + "x" + std::to_string(k.block[1]) +
                "x" + std::to_string(k.block[2]) +
                " threads (tc's kernels take at most 1024 threads a block, "
                "whole warps along x only); the executable is damaged or "
                "from a newer tc-compile";
        return {};
      }
      k.arguments = int64_t(program.table.size());
      for (auto list : {launch->inputs(), launch->outputs()})
        if (list)
          for (const tcx::Buffer *buffer : *list)
            program.table.push_back(spaces.of(*buffer));
      program.steps.push_back(k);
      break;
    }
    case tcx::Step::Gemm: {
      const tcx::Gemm *g = entry->step_as_Gemm();
      GemmLaunch launch;
      launch.call = cublasGemmOf(*g);
      launch.types = tcx::gemmTypesOf(*g);
      launch.a = spaces.of(*g->rhs());
      launch.b = spaces.of(*g->lhs());
      launch.c = spaces.of(*g->out());
      launch.bias = g->bias() ? spaces.of(*g->bias()) : 0;
      launch.relu = g->relu();
      if (!launch.call.strided) {
        launch.pointerArrays = int64_t(program.table.size());
        for (auto [base, offsets, operand] :
             {std::tuple{launch.a, &launch.call.offsetsA, g->rhs()},
              std::tuple{launch.b, &launch.call.offsetsB, g->lhs()},
              std::tuple{launch.c, &launch.call.offsetsC, g->out()}})
          for (int64_t offset : *offsets)
            program.table.push_back(
                base + uint64_t(offset * tcx::sizeOf(operand->dtype())));
      }
      program.steps.push_back(std::move(launch));
      break;
    }
    case tcx::Step::Copy: {
      const tcx::Copy *copy = entry->step_as_Copy();
      program.steps.push_back(
          CopyLaunch{copyRectangles(*copy->source(), *copy->target(), spaces)});
      break;
    }
    case tcx::Step::AllReduce: {
      const tcx::Buffer &buffer = *entry->step_as_AllReduce()->buffer();
      int64_t count = 1;
      for (int64_t extent : *buffer.shape())
        count *= extent;
      program.steps.push_back(AllReduceLaunch{
          spaces.of(buffer), count, buffer.dtype() == tcx::DType::I32});
      break;
    }
    case tcx::Step::Wait:
      program.steps.push_back(WaitLaunch{});
      break;
    default:
      error = where + ": a step this runtime does not know";
      return {};
    }
  }
  return program;
}

} // namespace tc::rt
