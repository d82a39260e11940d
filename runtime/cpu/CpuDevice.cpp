//===- CpuDevice.cpp - runs an executable's functions on the host ---------===//

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/Bf16Instructions.h"
#include "runtime/cpu/PanelGemm.h"
#include "runtime/cpu/StepBuffers.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include <sys/mman.h>

namespace tc::rt {

namespace {
// Under AddressSanitizer every buffer comes from the allocator, whose
// redzones catch a kernel writing past a buffer's end; a mapping has none.
// (GCC 12 and clang 22, the project's compilers, both define the macro.)
#if defined(__SANITIZE_ADDRESS__)
constexpr int64_t kMappedFrom = INT64_MAX;
#else
constexpr int64_t kMappedFrom = int64_t(1) << 20;
#endif
} // namespace

void HostBuffer::Free::operator()(uint8_t *p) const {
  if (mappedBytes > 0)
    munmap(p, size_t(mappedBytes));
  else
    std::free(p);
}

HostBuffer::HostBuffer(int64_t bytes) : size_(bytes) {
  int64_t rounded = (std::max<int64_t>(bytes, 1) + 63) / 64 * 64;
  if (rounded >= kMappedFrom) {
    // Anonymous pages read as zeros; page-aligned, so 64-byte aligned.
    void *p = mmap(nullptr, size_t(rounded), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    data_ = std::unique_ptr<uint8_t, Free>(static_cast<uint8_t *>(p),
                                           Free{rounded});
    return;
  }
  data_.reset(static_cast<uint8_t *>(std::aligned_alloc(64, rounded)));
  if (!data_)
    throw std::bad_alloc();
  std::memset(data_.get(), 0, rounded);
}

std::unique_ptr<CpuDevice> CpuDevice::create(const Executable &executable,
                                             std::string &error,
                                             const CpuDeviceOptions &options) {
  try {
    return allocate(executable, options, error);
  } catch (const std::bad_alloc &) {
    error = "not enough memory for the executable's buffers (parameters, "
            "moments and the largest arena: see tc-inspect)";
    return nullptr;
  }
}

void registerCpuDevice(DeviceRegistry &registry,
                       const CpuDeviceOptions &options) {
  registry.add({"cpu",
                {tcx::CodeKind::Host},
                [options](const Executable &executable,
                          std::string &error) -> std::unique_ptr<Device> {
                  return CpuDevice::create(executable, error, options);
                }});
}

std::unique_ptr<CpuDevice> CpuDevice::allocate(const Executable &executable,
                                               const CpuDeviceOptions &options,
                                               std::string &error) {
  std::unique_ptr<CpuDevice> device(new CpuDevice(executable));
  if (!chooseSgemm(device->sgemm_, error) ||
      !tcx::checkGemmTypes(executable.root(), "CPU", cpuGemmTypes(), error) ||
      (!options.runsNoSteps &&
       !admitBf16Gemms(executable.root(), options.allowSlowBf16, error)))
    return nullptr;
  if (options.computeType == ComputeType::Bf16 && !options.runsNoSteps &&
      !cpuHasBf16Gemms()) {
    error = "--compute-type bf16 needs a CPU with bf16 GEMM instructions "
            "(AVX512-BF16 or AMX); this one has " +
            describeCpuIsa() + ": use --compute-type f32 or int8";
    return nullptr;
  }
  // The prepared path takes f32 GEMMs only: a bf16 executable's would keep
  // their types and the flag would change nothing.
  if (options.computeType != ComputeType::F32 &&
      countBf16Gemms(executable.root()) > 0) {
    error = std::string("--compute-type ") + nameOf(options.computeType) +
            " applies to an f32 executable, and this one's GEMMs are bf16 "
            "(tc-compile --precision=bf16): leave --compute-type out, or "
            "compile the model with --precision=f32";
    return nullptr;
  }
  device->prepared_ = std::make_unique<PreparedGemms>(options.computeType);
  device->computeType_ = options.computeType;
  if (countBf16Gemms(executable.root()) > 0)
    device->bf16_ =
        std::make_unique<Bf16Gemm>(device->sgemm_, Bf16Gemm::pathOfThisCpu());

  device->kernels_ = KernelLibrary::load(executable, error);
  if (!device->kernels_)
    return nullptr;
  const tcx::Executable &x = executable.root();
  SpaceSizes sizes = executable.sharedSpaceSizes();
  for (tcx::Space space : kSharedSpaces)
    device->shared_[int(space)] = HostBuffer(sizes[space]);
  device->paramCopyBytes_ = sizes[tcx::Space::ParamCopies];
  if (x.constants())
    std::memcpy(device->space(tcx::Space::Constants).data(),
                x.constants()->data(), x.constants()->size());
  return device;
}

HostBuffer &CpuDevice::space(tcx::Space space) { return shared_[int(space)]; }

std::string CpuDevice::describe() const {
  return std::string("cpu (") + std::to_string(omp_get_max_threads()) +
         " threads, " + describeSgemm(sgemm_) +
         (bf16_ ? ", " + bf16_->describe() : "") +
         (computeType_ != ComputeType::F32 ? ", " + prepared_->describe()
                                           : "") +
         ")";
}

void CpuDevice::writeSpace(tcx::Space space, int64_t offset, const void *data,
                           int64_t bytes) {
  if (space == tcx::Space::Params || space == tcx::Space::ParamCopies)
    prepared_->clear();
  std::memcpy(shared_[int(space)].data() + offset, data, bytes);
}

void CpuDevice::read(tcx::Space space, int64_t offset, void *data,
                     int64_t bytes) {
  std::memcpy(data, shared_[int(space)].data() + offset, bytes);
}

bool CpuDevice::writeInputAt(const tcx::Function &function,
                             std::string_view name, int64_t offset,
                             const void *data, int64_t bytes) {
  uint8_t *target = binding(function, name, false);
  if (!target || !inside(function, name, false, offset, bytes))
    return false;
  std::memcpy(target + offset, data, bytes);
  return true;
}

bool CpuDevice::readOutput(const tcx::Function &function, std::string_view name,
                           void *data, int64_t bytes) {
  uint8_t *source = binding(function, name, true);
  if (!source || bindingBytes(function, name, true) != bytes)
    return false;
  std::memcpy(data, source, bytes);
  return true;
}

bool CpuDevice::copyOutputToInput(const tcx::Function &from,
                                  std::string_view output, int64_t fromOffset,
                                  const tcx::Function &to,
                                  std::string_view input, int64_t toOffset,
                                  int64_t bytes) {
  return copyHostBytes(binding(from, output, true), from, output, fromOffset,
                       binding(to, input, false), to, input, toOffset, bytes);
}

CpuDevice::FunctionBuffers &
CpuDevice::buffersOf(const tcx::Function &function) {
  auto it = functions_.find(&function);
  if (it == functions_.end()) {
    SpaceSizes sizes = executable_.spaceSizes(function);
    it = functions_
             .emplace(&function,
                      FunctionBuffers{HostBuffer(sizes[tcx::Space::Inputs]),
                                      HostBuffer(sizes[tcx::Space::Outputs])})
             .first;
  }
  return it->second;
}

uint8_t *CpuDevice::address(const tcx::Function &function,
                            const tcx::Buffer &buffer) {
  uint8_t *base;
  switch (buffer.space()) {
  case tcx::Space::Inputs:
    base = buffersOf(function).inputs.data();
    break;
  case tcx::Space::Outputs:
    base = buffersOf(function).outputs.data();
    break;
  default:
    base = shared_[int(buffer.space())].data();
    break;
  }
  return base + buffer.offset();
}

uint8_t *CpuDevice::binding(const tcx::Function &function,
                            std::string_view name, bool output) {
  const tcx::Binding *b = findBinding(function, name, output);
  return b ? address(function, *b->buffer()) : nullptr;
}

bool CpuDevice::updatesParameters(const tcx::Function &function) {
  auto [it, added] = updatesParameters_.try_emplace(&function, false);
  if (!added)
    return it->second;
  for (const tcx::StepEntry *entry : *function.steps())
    for (const tcx::Buffer *written : writesOf(*entry))
      it->second =
          it->second || (written && written->space() == tcx::Space::Params);
  return it->second;
}

namespace {

/// The bytes of an element of A, B and C.
struct ElementSizes {
  int64_t a, b, c;
};

/// Runs the batched plan GEMM `g` (`whole` its one block of rank 0) on
/// `threads` threads, each a block of its run of batch indices: its outer
/// batch dimension split into `threads` parts. The bf16 kernel runs a block
/// as one oneDNN matmul (Bf16Matmuls.h).
void runInParts(const tcx::Gemm &g, GemmBlock whole, int threads,
                const ElementSizes &sizes, GemmKernel kernel,
                const GemmLibraries &libraries) {
  size_t rank = g.batch()->size();
  whole.batch.rank = int(rank);
  for (size_t i = 0; i < rank; ++i) {
    whole.batch.extent[i] = g.batch()->Get(i);
    whole.batch.strideA[i] = g.lhs_batch_strides()->Get(i);
    whole.batch.strideB[i] = g.rhs_batch_strides()->Get(i);
    whole.batch.strideC[i] = g.out_batch_strides()->Get(i);
  }
  int64_t outer = whole.batch.extent[0];
  int64_t perPart = (outer + threads - 1) / threads;
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int part = 0; part < threads; ++part) {
    int64_t first = part * perPart;
    if (first >= outer)
      continue;
    GemmBlock block = whole;
    block.batch.extent[0] = std::min(perPart, outer - first);
    block.a = static_cast<const uint8_t *>(whole.a) +
              first * whole.batch.strideA[0] * sizes.a;
    block.b = static_cast<const uint8_t *>(whole.b) +
              first * whole.batch.strideB[0] * sizes.b;
    block.c = static_cast<uint8_t *>(whole.c) +
              first * whole.batch.strideC[0] * sizes.c;
    kernel(libraries, block);
  }
}

} // namespace

GemmBlock CpuDevice::wholeBlock(const tcx::Function &function,
                                const tcx::Gemm &g) {
  return {.transposeA = g.transpose_lhs(),
          .transposeB = g.transpose_rhs(),
          .rows = g.m(),
          .cols = g.n(),
          .k = g.k(),
          .alpha = g.alpha(),
          .beta = g.beta(),
          .a = address(function, *g.lhs()),
          .lda = g.lda(),
          .b = address(function, *g.rhs()),
          .ldb = g.ldb(),
          .c = address(function, *g.out()),
          .ldc = g.ldc(),
          .bias = g.bias() ? address(function, *g.bias()) : nullptr,
          .relu = g.relu()};
}

bool CpuDevice::gemmWithCandidates(const tcx::Function &function,
                                   const tcx::Gemm &g,
                                   const tcx::Launch &launch,
                                   const CandidatesAfterGemm &fusion) {
  if (computeType_ != ComputeType::Int8 || updatesParameters(function))
    return false;
  auto at = [&](const tcx::Buffer *buffer) {
    return address(function, *buffer);
  };
  GemmBlock whole = wholeBlock(function, g);
  CandidatesBlock candidates{
      .addend = reinterpret_cast<const float *>(at(launch.inputs()->Get(1))),
      .columns = g.n(),
      .k = fusion.k,
      .column = fusion.column,
      .values = reinterpret_cast<float *>(at(launch.outputs()->Get(0))),
      .indices = reinterpret_cast<int32_t *>(at(launch.outputs()->Get(1))),
      .columnValues = reinterpret_cast<float *>(at(launch.outputs()->Get(2)))};
  if (g.m() < 1 || !prepared_->takesCandidates(whole, candidates))
    return false;
  // By rows, in blocks of 32 rows or more: a thread quantizes only its
  // rows, and takes only their candidates.
  int threads = omp_get_max_threads();
  int64_t blocks = std::min<int64_t>(threads, (g.m() + 31) / 32);
  int64_t perBlock = (g.m() + blocks - 1) / blocks;
  GemmLibraries libraries{sgemm_, bf16_.get()};
  GemmKernel f32Kernel = cpuGemmKernel(tcx::gemmTypesOf(g));
#pragma omp parallel for schedule(static) num_threads(threads) if (blocks > 1)
  for (int64_t block = 0; block < blocks; ++block) {
    int64_t first = block * perBlock;
    int64_t rows = std::min(perBlock, g.m() - first);
    if (rows <= 0)
      continue;
    GemmBlock part = whole;
    part.rows = rows;
    part.a = static_cast<const float *>(whole.a) +
             (whole.transposeA ? first : first * whole.lda);
    part.c = static_cast<float *>(whole.c) + first * whole.ldc;
    CandidatesBlock rowsOf = candidates;
    rowsOf.values += first * fusion.k;
    rowsOf.indices += first * fusion.k;
    rowsOf.columnValues += first;
    if (!prepared_->runWithCandidates(part, rowsOf)) {
      f32Kernel(libraries, part); // an activation int8 cannot carry
      candidatesOfRows(static_cast<const float *>(part.c), part.ldc, rows,
                       rowsOf);
    }
  }
  return true;
}

void CpuDevice::gemm(const tcx::Function &function, const tcx::Gemm &g) {
  // The device was made for these types (allocate checked them).
  tcx::GemmTypes types = tcx::gemmTypesOf(g);
  GemmKernel kernel = cpuGemmKernel(types);
  // Activations times a parameter that stays as it is while it runs.
  constexpr tcx::GemmTypes kF32{tcx::DType::F32, tcx::DType::F32,
                                tcx::DType::F32, tcx::GemmCompute::F32};
  bool prepared = types == kF32 && g.rhs()->space() == tcx::Space::Params &&
                  g.batch()->size() == 0 && !updatesParameters(function);
  GemmLibraries libraries{sgemm_, bf16_.get()};
  GemmBlock whole = wholeBlock(function, g);
  const auto *a = static_cast<const uint8_t *>(whole.a);
  const auto *b = static_cast<const uint8_t *>(whole.b);
  auto *c = static_cast<uint8_t *>(whole.c);
  const auto *bias = static_cast<const uint8_t *>(whole.bias);
  int64_t sizeA = tcx::sizeOf(g.lhs()->dtype()),
          sizeB = tcx::sizeOf(g.rhs()->dtype()),
          sizeC = tcx::sizeOf(g.out()->dtype());
  int64_t m = g.m(), n = g.n(), k = g.k(), ldc = g.ldc();
  size_t rank = g.batch()->size();
  int64_t count = 1;
  for (size_t i = 0; i < rank; ++i)
    count *= g.batch()->Get(i);
  // One thread pool for everything: OpenMP threads each run single-threaded
  // GEMM kernels (CpuGemm.h) on a batch index or a block of rows or columns
  // (OpenBLAS's own threads would fight the generated kernels' OpenMP
  // threads for the cores). Small products run on one thread: a parallel
  // region costs more (below 2^19 multiply-adds; a sentence's 4-row decoder
  // step reads its weights faster from two cores' caches from there: median
  // latency 10.0 -> 9.3 ms on a Zen 5 with 2^21). A short, wide product (a
  // decoder step's rows times a weight) is split by columns, so that each
  // thread packs only its part of the weight. Many small products
  // (attention's batch x heads) share the threads from a lower total than
  // one product does.
  double work = double(m) * n * k * count;
  bool large = work >= double(1 << 19) ||
               (count >= 2 * omp_get_max_threads() && work >= double(1 << 17));
  int threads = large ? omp_get_max_threads() : 1;
  bool ta = g.transpose_lhs(), tb = g.transpose_rhs();
  // A bf16 batch whose outermost dimension splits evenly over the threads
  // (or into many parts: at most a part's imbalance) runs as one block a
  // thread (runInParts), one oneDNN matmul each. f32 gains nothing from it
  // (an sgemm a product either way) and keeps the finer split of a task a
  // product. A bias is added one product at a time (addBiasBeforeProduct),
  // so a batch with one is not joined.
  int64_t outer = rank > 0 ? g.batch()->Get(0) : 0;
  if (!(types == kF32) && rank > 0 && rank <= size_t(GemmBatch::kMaxRank) &&
      !bias && (outer % threads == 0 || outer >= 4 * threads)) {
    runInParts(g, whole, threads, {sizeA, sizeB, sizeC}, kernel, libraries);
    return;
  }
  // Otherwise a task is a batch index, or a block of rows or columns.
  // In int8 and bf16 a weight GEMM's block converts its rows of A first
  // (quantized, or rounded): split by columns, every thread would convert
  // every row. From 64 rows (two blocks of 32) it is split by rows: the
  // demo's decoder step GEMMs over the test books on two Zen 5 threads,
  // int8 1.25 -> 1.17 s, bf16 1.95 -> 1.82 s; f32 converts nothing and
  // keeps the columns (3.15-3.29 s against 3.31-3.32 by rows).
  bool convertsRows = prepared && computeType_ != ComputeType::F32;
  bool byColumns = count < threads && n > m && !(convertsRows && m >= 64);
  int64_t blocks =
      count >= threads
          ? 1
          : std::min<int64_t>(threads, ((byColumns ? n : m) + 31) / 32);
  int64_t extent = byColumns ? n : m;
  int64_t perBlock = (extent + blocks - 1) / blocks;
  if (byColumns)
    perBlock = (perBlock + 15) / 16 * 16; // whole vectors of columns
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t task = 0; task < count * blocks; ++task) {
    int64_t flat = task / blocks, block = task % blocks;
    int64_t oa = 0, ob = 0, oc = 0;
    for (size_t i = rank; i-- > 0;) { // the batch index, row-major
      int64_t index = flat % g.batch()->Get(i);
      flat /= g.batch()->Get(i);
      oa += index * g.lhs_batch_strides()->Get(i);
      ob += index * g.rhs_batch_strides()->Get(i);
      oc += index * g.out_batch_strides()->Get(i);
    }
    int64_t first = block * perBlock;
    int64_t size = std::min(perBlock, extent - first);
    if (size <= 0)
      continue;
    int64_t row = byColumns ? 0 : first, rows = byColumns ? m : size;
    int64_t col = byColumns ? first : 0, cols = byColumns ? size : n;
    // Rows row .. row + rows of op(A) and C, columns col .. col + cols of
    // op(B) and C (element offsets, in bytes at each operand's size).
    GemmBlock part = whole;
    part.rows = rows;
    part.cols = cols;
    part.a = a + (oa + (ta ? row : row * g.lda())) * sizeA;
    part.b = b + (ob + (tb ? col * g.ldb() : col)) * sizeB;
    part.c = c + (oc + row * ldc + col) * sizeC;
    part.bias = bias ? bias + col * sizeC : nullptr;
    if (!(prepared && PreparedGemms::takes(part) && prepared_->run(part)))
      kernel(libraries, part);
  }
}

void CpuDevice::copy(const tcx::Function &function, const tcx::Copy &copy) {
  const tcx::Buffer &from = *copy.source(), &to = *copy.target();
  const uint8_t *source = address(function, from);
  uint8_t *target = address(function, to);
  int64_t size = tcx::sizeOf(from.dtype());
  size_t rank = from.shape()->size();
  int64_t count = 1;
  for (size_t d = 0; d < rank; ++d)
    count *= from.shape()->Get(d);
  if (isRowMajor(from) && isRowMajor(to)) { // one block of bytes
    std::memcpy(target, source, count * size);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t s = 0, t = 0;
    for (size_t d = 0; d < rank; ++d) {
      s += index[d] * from.strides()->Get(d);
      t += index[d] * to.strides()->Get(d);
    }
    std::memcpy(target + t * size, source + s * size, size);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < from.shape()->Get(d))
        break;
      index[d] = 0;
    }
  }
}

void CpuDevice::allReduce(const tcx::Function &function,
                          const tcx::Buffer &buffer) {
  int64_t count = 1;
  for (int64_t extent : *buffer.shape())
    count *= extent;
  ranks_->startAllReduce(address(function, buffer), count,
                         buffer.dtype() == tcx::DType::I32
                             ? ReduceElement::I32
                             : ReduceElement::F32);
}

void CpuDevice::addToProfile(const std::string &name, const std::string &kind,
                             std::chrono::steady_clock::time_point start) {
  ProfileEntry &p = profile_[name];
  p.name = name;
  p.kind = kind;
  ++p.calls;
  p.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
}

bool CpuDevice::startProfile() {
  profiling_ = true;
  profile_.clear();
  return true;
}

std::vector<ProfileEntry> CpuDevice::profile() const {
  std::vector<ProfileEntry> entries;
  for (const auto &[name, entry] : profile_)
    entries.push_back(entry);
  return entries;
}

void CpuDevice::run(const tcx::Function &function) {
  std::vector<void *> pointers;
  using Clock = std::chrono::steady_clock;
  auto [fusions, added] = candidatesAfterGemms_.try_emplace(&function);
  if (added)
    fusions->second = findCandidatesAfterGemms(executable_.root(), function);
  const auto &steps = *function.steps();
  for (size_t index = 0; index < steps.size(); ++index) {
    const tcx::StepEntry *entry = steps.Get(index);
    Clock::time_point start = profiling_ ? Clock::now() : Clock::time_point();
    if (const std::optional<CandidatesAfterGemm> &fusion =
            fusions->second[index];
        fusion &&
        gemmWithCandidates(function, *entry->step_as_Gemm(),
                           *steps.Get(index + 1)->step_as_Launch(), *fusion)) {
      if (profiling_)
        addToProfile(tcx::describe(*entry->step_as_Gemm()) +
                         " + tc.log_softmax_top_k",
                     "gemm + tc.log_softmax_top_k", start);
      ++index; // the launch's results are written
      continue;
    }
    switch (entry->step_type()) {
    case tcx::Step::Launch: {
      const tcx::Launch *launch = entry->step_as_Launch();
      pointers.clear();
      for (auto list : {launch->inputs(), launch->outputs()})
        if (list)
          for (const tcx::Buffer *buffer : *list)
            pointers.push_back(address(function, *buffer));
      kernels_->kernel(launch->kernel())(pointers.data());
      break;
    }
    case tcx::Step::Gemm:
      gemm(function, *entry->step_as_Gemm());
      break;
    case tcx::Step::Copy:
      copy(function, *entry->step_as_Copy());
      break;
    case tcx::Step::AllReduce:
      if (ranks_ && ranks_->size() > 1)
        allReduce(function, *entry->step_as_AllReduce()->buffer());
      break;
    case tcx::Step::Wait:
      if (ranks_ && ranks_->size() > 1)
        ranks_->wait(collectiveTimeout_);
      break;
    default:
      break;
    }
    if (profiling_ && entry->step_type() != tcx::Step::AllReduce) {
      const tcx::Kernel *kernel = entry->step_type() == tcx::Step::Launch
                                      ? executable_.root().kernels()->Get(
                                            entry->step_as_Launch()->kernel())
                                      : nullptr;
      std::string name = kernel ? kernel->name()->str()
                         : entry->step_type() == tcx::Step::Gemm
                             ? tcx::describe(*entry->step_as_Gemm())
                         : entry->step_type() == tcx::Step::Wait
                             ? "allreduce wait"
                             : "copy";
      addToProfile(name,
                   kernel && kernel->op()                  ? kernel->op()->str()
                   : kernel                                ? "kernel"
                   : entry->step_type() == tcx::Step::Gemm ? "gemm"
                                                           : name,
                   start);
    }
  }
  if (updatesParameters(function))
    prepared_->clear();
}

} // namespace tc::rt
