//===- CudaDevice.cpp - runs an executable on an NVIDIA GPU ---------------===//
//
// The CUDA device, built as a plug-in (tc-cuda-device.so) that tc-run loads
// when asked for a GPU, so that tc-run itself needs no CUDA library and
// starts fast on machines without one. It resolves the runtime's own
// symbols (CudaProgram, CublasGemm, Executable) from tc-run, which exports
// them.
//
// Loading: the code module for this GPU (CUBIN of the same major
// architecture, else PTX for an older virtual one) through the CUDA
// runtime's library management (cudaLibraryLoadData), every kernel looked
// up once. Memory: one allocation per space, as the CPU device. Running:
// every step on one stream — kernels with cudaLaunchKernel and their
// pointer arrays from the function's table (runtime/cuda/CudaProgram.h),
// GEMMs through cuBLAS (strided batched or pointer arrays) or cuBLASLt when
// the plan fuses a bias or ReLU epilogue, copies with cudaMemcpy2DAsync.
// Reads synchronise the stream; writes are asynchronous copies.
//
// Each GEMM's cuBLAS data and compute types come from its operand and
// compute types (CublasTypes.h: f32; bf16 operands with an f32 result and
// bias; f32 with TF32 compute), on every path (strided, pointer arrays,
// cuBLASLt); an executable with GEMMs of other types, or of types the GPU is
// too old for (bf16 and TF32 need sm_80), is refused when the device opens
// it.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"
#include "runtime/cuda/CublasTypes.h"
#include "runtime/cuda/CudaDeviceLoader.h"
#include "runtime/cuda/CudaProgram.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdlib>
#include <map>
#include <stdexcept>

namespace tc::rt {
namespace {

/// Workspace cuBLAS and cuBLASLt may use (one, as both run on one stream);
/// 32 MiB is what cuBLAS asks for on Hopper.
constexpr size_t kWorkspaceBytes = 32 << 20;

void check(cudaError_t status, const std::string &what) {
  if (status != cudaSuccess)
    throw std::runtime_error("CUDA: " + what + ": " +
                             cudaGetErrorString(status));
}

void check(ncclResult_t status, const std::string &what) {
  if (status != ncclSuccess)
    throw std::runtime_error("NCCL: " + what + ": " +
                             ncclGetErrorString(status));
}

/// This process's GPU: one per rank on a host (mpirun's local rank, modulo
/// the GPUs there are), else the first.
int gpuOfThisRank(int gpus) {
  for (const char *name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char *rank = std::getenv(name))
      return std::atoi(rank) % gpus;
  return 0;
}

void check(cublasStatus_t status, const std::string &what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cuBLAS: " + what + ": " +
                             cublasGetStatusString(status));
}

/// The device allocation of one space; freed with the device.
struct DeviceMemory {
  void *pointer = nullptr;
  int64_t bytes = 0;
  DeviceMemory() = default;
  /// Cleared on `stream`, the one that uses it: cudaMemset would clear it
  /// on the legacy stream, which the device's non-blocking stream does not
  /// wait for (the stand-in CUDA runtime's late-legacy order caught copies
  /// to it overtaken by the clearing: test/Runtime/cuda-standin.test).
  DeviceMemory(int64_t size, cudaStream_t stream) : bytes(size) {
    check(cudaMalloc(&pointer, std::max<int64_t>(size, 1)),
          "allocating " + std::to_string(size) + " bytes");
    check(cudaMemsetAsync(pointer, 0, std::max<int64_t>(size, 1), stream),
          "clearing memory");
  }
  DeviceMemory(DeviceMemory &&other) noexcept { *this = std::move(other); }
  DeviceMemory &operator=(DeviceMemory &&other) noexcept {
    std::swap(pointer, other.pointer);
    std::swap(bytes, other.bytes);
    return *this;
  }
  ~DeviceMemory() {
    if (pointer)
      cudaFree(pointer);
  }
  uint64_t address() const { return reinterpret_cast<uint64_t>(pointer); }
};

/// cuBLASLt descriptors for one GEMM with an epilogue, made once.
struct LtGemm {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
};

class CudaDevice : public Device {
public:
  CudaDevice(const Executable &executable, const CudaDeviceOptions &options)
      : executable_(executable), options_(options) {}
  ~CudaDevice() override;

  void open(std::string &error);
  std::string describe() const override { return description_; }
  // A copy from pageable host memory returns once it is staged: the
  // caller's bytes may go (Device::write's rounded copies do).
  void writeSpace(tcx::Space space, int64_t offset, const void *data,
                  int64_t bytes) override {
    check(cudaMemcpyAsync(static_cast<uint8_t *>(shared_[int(space)].pointer) +
                              offset,
                          data, bytes, cudaMemcpyHostToDevice, stream_),
          "copying to the GPU");
  }
  void read(tcx::Space space, int64_t offset, void *data,
            int64_t bytes) override {
    check(cudaMemcpyAsync(data,
                          static_cast<uint8_t *>(shared_[int(space)].pointer) +
                              offset,
                          bytes, cudaMemcpyDeviceToHost, stream_),
          "copying from the GPU");
    check(cudaStreamSynchronize(stream_), "running the executable");
  }
  bool writeInputAt(const tcx::Function &function, std::string_view name,
                    int64_t offset, const void *data, int64_t bytes) override;
  bool readOutput(const tcx::Function &function, std::string_view name,
                  void *data, int64_t bytes) override;
  bool copyOutputToInput(const tcx::Function &from, std::string_view output,
                         int64_t fromOffset, const tcx::Function &to,
                         std::string_view input, int64_t toOffset,
                         int64_t bytes) override;
  void run(const tcx::Function &function) override;
  bool joinRanks(Communicator &ranks, double timeoutSeconds,
                 std::string &error) override;

private:
  struct FunctionState {
    DeviceMemory inputs, outputs, table;
    SpaceAddresses spaces;
    CudaProgram program;
    std::map<size_t, LtGemm> lt; ///< by step index
    bool ranEagerly = false;         ///< its first run, outside a capture
    cudaGraphExec_t graph = nullptr; ///< its steps, from the second run
  };
  FunctionState &stateOf(const tcx::Function &function);
  /// Every step of a function on the stream, one call each.
  void launchSteps(FunctionState &state);
  /// `function`'s steps captured from the stream as a graph (state.graph).
  void capture(const tcx::Function &function, FunctionState &state);
  /// The device address of binding `name`, or 0.
  uint64_t binding(const tcx::Function &function, std::string_view name,
                   bool output);
  void gemm(FunctionState &state, size_t step, const GemmLaunch &g);

  const Executable &executable_;
  CudaDeviceOptions options_;
  std::string description_;
  cudaStream_t stream_ = nullptr;
  /// Of a data-parallel job: NCCL's communicator, the stream its sums run
  /// on, and the events that order the two streams (CudaDevice::run).
  ncclComm_t nccl_ = nullptr;
  cudaStream_t sums_ = nullptr;
  cudaEvent_t computed_ = nullptr, summed_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  cublasLtHandle_t lt_ = nullptr;
  std::vector<cudaLibrary_t> libraries_;
  std::vector<cudaKernel_t> kernels_; ///< by kernel index
  DeviceMemory shared_[int(tcx::Space::MAX) + 1], workspace_;
  std::map<const tcx::Function *, FunctionState> functions_;
};

CudaDevice::~CudaDevice() {
  if (stream_)
    cudaStreamSynchronize(stream_);
  if (nccl_)
    ncclCommDestroy(nccl_);
  for (cudaEvent_t event : {computed_, summed_})
    if (event)
      cudaEventDestroy(event);
  if (sums_)
    cudaStreamDestroy(sums_);
  for (auto &[function, state] : functions_) {
    if (state.graph)
      cudaGraphExecDestroy(state.graph);
    for (auto &[step, g] : state.lt) {
      cublasLtMatrixLayoutDestroy(g.a);
      cublasLtMatrixLayoutDestroy(g.b);
      cublasLtMatrixLayoutDestroy(g.c);
      cublasLtMatmulDescDestroy(g.desc);
    }
  }
  if (lt_)
    cublasLtDestroy(lt_);
  if (blas_)
    cublasDestroy(blas_);
  for (cudaLibrary_t library : libraries_)
    cudaLibraryUnload(library);
  if (stream_)
    cudaStreamDestroy(stream_);
}

/// Empty, or why this GPU (compute capability `capability`, named `gpu`)
/// cannot run a GEMM of `x`: bf16 and TF32 need tensor cores of sm_80 on.
/// Every GEMM's types have a row (tcx::checkGemmTypes ran first).
std::string gpuTooOldForGemms(const tcx::Executable &x, int capability,
                              const std::string &gpu) {
  if (!x.functions())
    return "";
  for (const tcx::Function *function : *x.functions())
    for (size_t step = 0; step < function->steps()->size(); ++step) {
      const tcx::Gemm *gemm = function->steps()->Get(step)->step_as_Gemm();
      if (!gemm)
        continue;
      tcx::GemmTypes types = tcx::gemmTypesOf(*gemm);
      const CublasTypes &row = *tcx::rowFor(kCublasTypes, types);
      if (row.capability <= capability)
        continue;
      return function->name()->str() + " step " + std::to_string(step) +
             ": a GEMM of " + tcx::describe(types) + " needs " + row.why +
             " (" + contract::cudaArchitectureName(row.capability, false) +
             " or newer), and this GPU is " + gpu +
             "; recompile the model with --precision=f32, or run it on a "
             "newer GPU";
    }
  return "";
}

/// The code modules to load on a GPU of compute capability `capability`
/// (major * 10 + minor): CUBINs of the newest architecture of the same
/// major version not above it, else PTX of the newest virtual one not
/// above it (the driver compiles that). Empty with `error` when none fits.
std::vector<const tcx::CodeModule *> modulesFor(const tcx::Executable &x,
                                                int capability,
                                                std::string &chosen,
                                                std::string &error) {
  int bestCubin = -1, bestPtx = -1;
  std::string available;
  if (x.code())
    for (const tcx::CodeModule *module : *x.code()) {
      bool cubin = module->kind() == tcx::CodeKind::Cubin,
           ptx = module->kind() == tcx::CodeKind::Ptx;
      if (!cubin && !ptx)
        continue;
      std::string name = codeModuleName(*module);
      if (available.find(name) == std::string::npos)
        available += (available.empty() ? "" : ", ") + name;
      int arch = int(module->cuda_arch());
      if (cubin && arch / 10 == capability / 10 && arch <= capability)
        bestCubin = std::max(bestCubin, arch);
      if (ptx && arch <= capability)
        bestPtx = std::max(bestPtx, arch);
    }
  std::string gpu = contract::cudaArchitectureName(capability, false);
  if (available.empty()) {
    error = "the executable has no CUDA code (it was compiled for the CPU); "
            "recompile it with tc-compile --target=cuda --arch=" +
            gpu;
    return {};
  }
  if (bestCubin < 0 && bestPtx < 0) {
    error = "the executable's CUDA code (" + available +
            ") does not run on "
            "this GPU (" +
            gpu + "); recompile it with --arch=" + gpu;
    return {};
  }
  tcx::CodeKind kind =
      bestCubin >= 0 ? tcx::CodeKind::Cubin : tcx::CodeKind::Ptx;
  unsigned arch = unsigned(bestCubin >= 0 ? bestCubin : bestPtx);
  chosen = contract::cudaArchitectureName(arch, kind == tcx::CodeKind::Ptx);
  std::vector<const tcx::CodeModule *> modules;
  for (const tcx::CodeModule *module : *x.code())
    if (module->kind() == kind && module->cuda_arch() == arch)
      modules.push_back(module);
  return modules;
}

void CudaDevice::open(std::string &error) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    error = status == cudaErrorInsufficientDriver
                ? "no usable NVIDIA driver (" +
                      std::string(cudaGetErrorString(status)) +
                      "); use --device=cpu with an executable compiled "
                      "for the CPU"
                : "no CUDA GPU found (" +
                      std::string(status == cudaSuccess
                                      ? "the driver reports none"
                                      : cudaGetErrorString(status)) +
                      "); use --device=cpu with an executable compiled "
                      "for the CPU";
    return;
  }
  if (!tcx::checkGemmTypes(executable_.root(), "CUDA",
                           tcx::typesOf(kCublasTypes), error))
    return;
  int gpu = gpuOfThisRank(count);
  std::string which = "GPU " + std::to_string(gpu);
  cudaDeviceProp properties;
  check(cudaGetDeviceProperties(&properties, gpu), "querying " + which);
  int capability = properties.major * 10 + properties.minor;
  error = gpuTooOldForGemms(executable_.root(), capability,
                            contract::cudaArchitectureName(capability, false) +
                                " (" + properties.name + ")");
  if (!error.empty())
    return;
  std::string chosen;
  std::vector<const tcx::CodeModule *> modules =
      modulesFor(executable_.root(), capability, chosen, error);
  if (modules.empty())
    return;
  check(cudaSetDevice(gpu), "selecting " + which);
  for (const tcx::CodeModule *module : modules) {
    // PTX is text and must end in a NUL; CUBIN carries its own size.
    std::string code(module->binary()->begin(), module->binary()->end());
    cudaLibrary_t library;
    status = cudaLibraryLoadData(&library, code.c_str(), nullptr, nullptr, 0,
                                 nullptr, nullptr, 0);
    if (status != cudaSuccess) {
      error = "cannot load the executable's " + chosen +
              " code on this GPU: " + cudaGetErrorString(status);
      return;
    }
    libraries_.push_back(library);
  }
  for (const tcx::Kernel *kernel : *executable_.root().kernels()) {
    cudaKernel_t found = nullptr;
    for (cudaLibrary_t library : libraries_)
      if (cudaLibraryGetKernel(&found, library, kernel->name()->c_str()) ==
          cudaSuccess)
        break;
    cudaGetLastError(); // the misses above are expected
    if (!found) {
      error = "the executable's " + chosen + " code has no kernel '" +
              kernel->name()->str() + "'; the file is damaged";
      return;
    }
    kernels_.push_back(found);
  }
  check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
        "creating a stream");
  check(cublasCreate(&blas_), "creating a handle");
  check(cublasSetStream(blas_, stream_), "setting the stream");
  check(cublasLtCreate(&lt_), "creating a cuBLASLt handle");
  const tcx::Executable &x = executable_.root();
  SpaceSizes sizes = executable_.sharedSpaceSizes();
  for (tcx::Space space : kSharedSpaces)
    shared_[int(space)] = DeviceMemory(sizes[space], stream_);
  paramCopyBytes_ = sizes[tcx::Space::ParamCopies];
  if (x.constants())
    write(tcx::Space::Constants, 0, x.constants()->data(),
          x.constants()->size());
  workspace_ = DeviceMemory(kWorkspaceBytes, stream_);
  check(cublasSetWorkspace(blas_, workspace_.pointer, kWorkspaceBytes),
        "giving cuBLAS its workspace");
  description_ = "cuda:" + std::to_string(gpu) + " (" +
                 std::string(properties.name) + ", sm_" +
                 std::to_string(capability) + ", " +
                 std::to_string(properties.totalGlobalMem >> 30) + " GiB; " +
                 chosen + " code)";
}

CudaDevice::FunctionState &CudaDevice::stateOf(const tcx::Function &function) {
  auto it = functions_.find(&function);
  if (it != functions_.end())
    return it->second;
  FunctionState &state = functions_[&function];
  SpaceSizes sizes = executable_.spaceSizes(function);
  state.inputs = DeviceMemory(sizes[tcx::Space::Inputs], stream_);
  state.outputs = DeviceMemory(sizes[tcx::Space::Outputs], stream_);
  for (int space = 0; space <= int(tcx::Space::MAX); ++space)
    state.spaces.base[space] = shared_[space].address();
  state.spaces.base[int(tcx::Space::Inputs)] = state.inputs.address();
  state.spaces.base[int(tcx::Space::Outputs)] = state.outputs.address();
  std::string error;
  state.program = buildCudaProgram(function, state.spaces, error);
  if (!error.empty())
    throw std::runtime_error(error);
  int64_t tableBytes = int64_t(state.program.table.size()) * 8;
  state.table = DeviceMemory(tableBytes, stream_);
  check(cudaMemcpyAsync(state.table.pointer, state.program.table.data(),
                        tableBytes, cudaMemcpyHostToDevice, stream_),
        "copying the launch table");
  return state;
}

uint64_t CudaDevice::binding(const tcx::Function &function,
                             std::string_view name, bool output) {
  const tcx::Binding *b = findBinding(function, name, output);
  return b ? stateOf(function).spaces.of(*b->buffer()) : 0;
}

bool CudaDevice::writeInputAt(const tcx::Function &function,
                              std::string_view name, int64_t offset,
                              const void *data, int64_t bytes) {
  uint64_t target = binding(function, name, false);
  if (!target || !inside(function, name, false, offset, bytes))
    return false;
  check(cudaMemcpyAsync(reinterpret_cast<void *>(target + offset), data, bytes,
                        cudaMemcpyHostToDevice, stream_),
        "copying input " + std::string(name));
  return true;
}

bool CudaDevice::readOutput(const tcx::Function &function,
                            std::string_view name, void *data, int64_t bytes) {
  uint64_t source = binding(function, name, true);
  if (!source || bindingBytes(function, name, true) != bytes)
    return false;
  check(cudaMemcpyAsync(data, reinterpret_cast<const void *>(source), bytes,
                        cudaMemcpyDeviceToHost, stream_),
        "copying output " + std::string(name));
  check(cudaStreamSynchronize(stream_), "running " + function.name()->str());
  return true;
}

bool CudaDevice::copyOutputToInput(const tcx::Function &from,
                                   std::string_view output, int64_t fromOffset,
                                   const tcx::Function &to,
                                   std::string_view input, int64_t toOffset,
                                   int64_t bytes) {
  uint64_t source = binding(from, output, true);
  uint64_t target = binding(to, input, false);
  if (!source || !target ||
      !copyFits(from, output, fromOffset, to, input, toOffset, bytes))
    return false;
  check(cudaMemcpyAsync(reinterpret_cast<void *>(target + toOffset),
                        reinterpret_cast<const void *>(source + fromOffset),
                        bytes, cudaMemcpyDeviceToDevice, stream_),
        "copying output " + std::string(output) + " into input " +
            std::string(input));
  return true;
}

void CudaDevice::gemm(FunctionState &state, size_t step, const GemmLaunch &g) {
  const CublasGemm &call = g.call;
  // open() refused the executable unless every GEMM's types have a row.
  const CublasTypes &types = *tcx::rowFor(kCublasTypes, g.types);
  cublasOperation_t opA = call.transposeA ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opB = call.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N;
  std::string what = "GEMM of step " + std::to_string(step);
  if (!g.bias && !g.relu) {
    if (call.strided) {
      check(cublasGemmStridedBatchedEx(
                blas_, opA, opB, call.m, call.n, call.k, &call.alpha,
                reinterpret_cast<const void *>(g.a), types.rhs, call.lda,
                call.strideA, reinterpret_cast<const void *>(g.b), types.lhs,
                call.ldb, call.strideB, &call.beta,
                reinterpret_cast<void *>(g.c), types.out, call.ldc,
                call.strideC, call.batchCount, types.compute,
                CUBLAS_GEMM_DEFAULT),
            what);
    } else {
      auto *table = static_cast<void **>(state.table.pointer) + g.pointerArrays;
      check(cublasGemmBatchedEx(
                blas_, opA, opB, call.m, call.n, call.k, &call.alpha, table,
                types.rhs, call.lda, table + call.batchCount, types.lhs,
                call.ldb, &call.beta, table + 2 * call.batchCount, types.out,
                call.ldc, call.batchCount, types.compute, CUBLAS_GEMM_DEFAULT),
            what);
    }
    return;
  }
  // An epilogue: cuBLASLt, D = alpha op(A) op(B) + beta C + bias, then ReLU;
  // the bias runs along the column-major rows (the plan's columns).
  LtGemm &lt = state.lt[step];
  if (!lt.desc) {
    check(cublasLtMatmulDescCreate(&lt.desc, types.compute, types.scale), what);
    check(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                         &opA, sizeof opA),
          what);
    check(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                         &opB, sizeof opB),
          what);
    cublasLtEpilogue_t epilogue = g.bias && g.relu ? CUBLASLT_EPILOGUE_RELU_BIAS
                                  : g.bias         ? CUBLASLT_EPILOGUE_BIAS
                                                   : CUBLASLT_EPILOGUE_RELU;
    check(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                         &epilogue, sizeof epilogue),
          what);
    if (g.bias) {
      const void *bias = reinterpret_cast<const void *>(g.bias);
      check(cublasLtMatmulDescSetAttribute(
                lt.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias),
            what);
      // Said, not left to the default (D's type): the row's bias type.
      int32_t biasType = types.bias;
      check(cublasLtMatmulDescSetAttribute(lt.desc,
                                           CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                           &biasType, sizeof biasType),
            what);
    }
    check(cublasLtMatrixLayoutCreate(
              &lt.a, types.rhs, call.transposeA ? call.k : call.m,
              call.transposeA ? call.m : call.k, call.lda),
          what);
    check(cublasLtMatrixLayoutCreate(
              &lt.b, types.lhs, call.transposeB ? call.n : call.k,
              call.transposeB ? call.k : call.n, call.ldb),
          what);
    check(
        cublasLtMatrixLayoutCreate(&lt.c, types.out, call.m, call.n, call.ldc),
        what);
  }
  // One call per batch entry (the plan's epilogue GEMMs are linear layers:
  // one entry).
  int64_t sizeA = tcx::sizeOf(g.types.rhs), sizeB = tcx::sizeOf(g.types.lhs),
          sizeC = tcx::sizeOf(g.types.out);
  for (int64_t batch = 0; batch < call.batchCount; ++batch) {
    auto *a =
        reinterpret_cast<const void *>(g.a + call.offsetsA[batch] * sizeA);
    auto *b =
        reinterpret_cast<const void *>(g.b + call.offsetsB[batch] * sizeB);
    auto *c = reinterpret_cast<void *>(g.c + call.offsetsC[batch] * sizeC);
    check(cublasLtMatmul(lt_, lt.desc, &call.alpha, a, lt.a, b, lt.b,
                         &call.beta, c, lt.c, c, lt.c, nullptr,
                         workspace_.pointer, kWorkspaceBytes, stream_),
          what);
  }
}

void CudaDevice::run(const tcx::Function &function) {
  FunctionState &state = stateOf(function);
  if (options_.eagerLaunches || nccl_ || !state.ranEagerly) {
    launchSteps(state);
    state.ranEagerly = true;
    return;
  }
  if (!state.graph)
    capture(function, state);
  check(cudaGraphLaunch(state.graph, stream_),
        "replaying " + function.name()->str() + "'s graph");
}

void CudaDevice::capture(const tcx::Function &function, FunctionState &state) {
  std::string what = "capturing " + function.name()->str() + "'s graph";
  // Thread-local: another thread's CUDA calls (none today) cannot break it.
  check(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal),
        what);
  cudaGraph_t graph = nullptr;
  try {
    launchSteps(state);
  } catch (...) {
    // A failed launch invalidates the capture; ending it frees the stream.
    if (cudaStreamEndCapture(stream_, &graph) == cudaSuccess && graph)
      cudaGraphDestroy(graph);
    throw;
  }
  check(cudaStreamEndCapture(stream_, &graph), what);
  cudaGraphExec_t instantiated = nullptr;
  cudaError_t status = cudaGraphInstantiate(&instantiated, graph, 0);
  cudaGraphDestroy(graph);
  check(status, what);
  state.graph = instantiated; // only once it exists
}

void CudaDevice::launchSteps(FunctionState &state) {
  auto **table = static_cast<void **>(state.table.pointer);
  for (size_t step = 0; step < state.program.steps.size(); ++step) {
    const CudaStep &s = state.program.steps[step];
    if (const auto *k = std::get_if<KernelLaunch>(&s)) {
      void **buffers = table + k->arguments;
      void *arguments[] = {&buffers};
      check(
          cudaLaunchKernel(reinterpret_cast<const void *>(kernels_[k->kernel]),
                           dim3(k->grid[0], k->grid[1], k->grid[2]),
                           dim3(k->block[0], k->block[1], k->block[2]),
                           arguments, 0, stream_),
          "launching " +
              executable_.root().kernels()->Get(k->kernel)->name()->str());
    } else if (const auto *g = std::get_if<GemmLaunch>(&s)) {
      gemm(state, step, *g);
    } else if (const auto *c = std::get_if<CopyLaunch>(&s)) {
      for (const CopyRectangle &r : c->rectangles)
        check(cudaMemcpy2DAsync(
                  reinterpret_cast<void *>(r.target), r.targetPitch,
                  reinterpret_cast<const void *>(r.source), r.sourcePitch,
                  r.width, r.height, cudaMemcpyDeviceToDevice, stream_),
              "copy of step " + std::to_string(step));
    } else if (const auto *r = std::get_if<AllReduceLaunch>(&s)) {
      // After every step before it on the compute stream, the sum runs on
      // its own stream beside the steps after it (which the verifier made
      // sure do not touch its bytes) until the next wait.
      if (!nccl_)
        continue; // one rank holds the whole sum already
      check(cudaEventRecord(computed_, stream_), "ordering a sum");
      check(cudaStreamWaitEvent(sums_, computed_, 0), "ordering a sum");
      void *data = reinterpret_cast<void *>(r->buffer);
      check(ncclAllReduce(data, data, size_t(r->count),
                          r->integer ? ncclInt32 : ncclFloat32, ncclSum,
                          nccl_, sums_),
            "the sum of step " + std::to_string(step));
    } else if (std::holds_alternative<WaitLaunch>(s) && nccl_) {
      check(cudaEventRecord(summed_, sums_), "waiting for the sums");
      check(cudaStreamWaitEvent(stream_, summed_, 0), "waiting for the sums");
    }
  }
}

bool CudaDevice::joinRanks(Communicator &ranks, double timeoutSeconds,
                           std::string &error) {
  if (ranks.size() > 1 && !nccl_) {
    // One communicator for the job, bootstrapped through MPI: rank 0's
    // unique id, broadcast.
    try {
      ncclUniqueId id{};
      if (ranks.rank() == 0)
        check(ncclGetUniqueId(&id), "making the job's id");
      ranks.broadcast(&id, sizeof id, timeoutSeconds);
      check(ncclCommInitRank(&nccl_, ranks.size(), id, ranks.rank()),
            "joining the other ranks");
      check(cudaStreamCreateWithFlags(&sums_, cudaStreamNonBlocking),
            "creating the sums' stream");
      for (cudaEvent_t *event : {&computed_, &summed_})
        check(cudaEventCreateWithFlags(event, cudaEventDisableTiming),
              "creating an event");
    } catch (const std::exception &e) {
      error = e.what();
      return false;
    }
  }
  return Device::joinRanks(ranks, timeoutSeconds, error);
}

} // namespace
} // namespace tc::rt

/// The plug-in's entry point (CudaDeviceLoader.cpp loads it; named anew
/// when its arguments change, so that a stale plug-in is refused as having
/// none): a device for `executable` on this rank's GPU (the first, alone),
/// made as `options` ask, or null with `error` saying why.
extern "C" tc::rt::Device *
tc_open_cuda_device(const tc::rt::Executable &executable,
                      const tc::rt::CudaDeviceOptions &options,
                      std::string &error) {
  try {
    auto device = std::make_unique<tc::rt::CudaDevice>(executable, options);
    device->open(error);
    return error.empty() ? device.release() : nullptr;
  } catch (const std::exception &e) {
    error = e.what();
    return nullptr;
  }
}
