//===- CudaRuntime.cpp - a stand-in for the CUDA runtime (libcudart) -------===//
//
// The CUDA runtime calls of tc's CUDA plug-in on host memory, with streams
// and events kept in order, kernels run by the SIMT harness, and injected
// faults (Standin.h). Also the stand-ins' shared pieces (Standin.h), which
// the other stand-in libraries link to.
//
//===----------------------------------------------------------------------===//

#include "Standin.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

/// A stream capture's work, in the order captured (cudaStreamEndCapture
/// makes it a cudaGraph_t).
struct CUgraph_st {
  std::vector<std::function<void()>> work;
};
/// An instantiated graph: the captured work, replayed as one item on the
/// stream it is launched on.
struct CUgraphExec_st {
  std::vector<std::function<void()>> work;
};
struct CUstream_st {
  std::deque<std::function<void()>> pending;
  uint64_t enqueued = 0, done = 0;
  /// While a capture is under way: what its work goes to instead of
  /// running (cudaStreamBeginCapture).
  std::unique_ptr<CUgraph_st> capture;
  /// A call the capture forbids was made: cudaStreamEndCapture fails.
  bool captureInvalidated = false;
};
struct CUevent_st {
  CUstream_st *stream = nullptr;
  uint64_t position = 0; ///< the stream's work up to here
};
/// The SIMT harness's launcher: a kernel (tc's ABI, `void **buffers`),
/// grid, block and buffers.
using SimtLaunch = void (*)(void (*)(void **), unsigned, unsigned, void **);
/// A looked-up kernel: cudaKernel_t, which the plug-in launches.
struct CUkern_st {
  void (*function)(void **) = nullptr;
  SimtLaunch launch = nullptr; ///< its library's simt_launch
};
struct CUlib_st {
  void *kernels = nullptr; ///< $TC_STANDIN_KERNELS, dlopen'ed
  SimtLaunch launch = nullptr;
  std::vector<std::unique_ptr<CUkern_st>> lookedUp;
};

namespace standin {
namespace {

/// Every call runs on the caller's thread; one lock over all the state.
std::recursive_mutex lock;
CUstream_st legacyStream; // stream 0
std::vector<CUstream_st *> streams; // live, in the order made
/// Destroyed streams, kept: an event or a queued wait may still name one
/// (its work is done, so waiting for it is a no-op).
std::vector<std::unique_ptr<CUstream_st>> destroyedStreams;
std::map<uintptr_t, size_t> allocations; // address -> bytes
cudaError_t lastError = cudaSuccess;

/// Whether work on `stream` waits until something forces it
/// (TC_STANDIN_ORDER: late, every stream; late-first, the first stream
/// made (the plug-in's compute stream) only: the work of the others
/// overtakes what it is not ordered after).
bool runsLate(const CUstream_st *stream) {
  static const std::string order = [] {
    const char *value = std::getenv("TC_STANDIN_ORDER");
    std::string o = value ? value : "immediate";
    if (o != "immediate" && o != "late" && o != "late-first") {
      std::fprintf(stderr, "stand-in: TC_STANDIN_ORDER=%s: expected "
                           "immediate, late or late-first\n",
                   value);
      std::exit(2);
    }
    return o;
  }();
  return order == "late" ||
         (order == "late-first" && !streams.empty() && stream == streams[0]);
}

CUstream_st *streamOf(cudaStream_t stream) {
  return stream ? stream : &legacyStream;
}

/// Runs `stream`'s work up to (not past) its `position`-th item.
void runUntil(CUstream_st *stream, uint64_t position) {
  while (stream->done < position) {
    std::function<void()> work = std::move(stream->pending.front());
    stream->pending.pop_front();
    ++stream->done;
    work();
  }
}
void runAll(CUstream_st *stream) { runUntil(stream, stream->enqueued); }

void synchroniseDevice() {
  runAll(&legacyStream);
  for (CUstream_st *s : streams)
    runAll(s);
}

/// isDeviceRange, the lock held.
bool inAllocation(const void *pointer, size_t bytes) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return false;
  --it;
  return address + bytes <= it->first + it->second;
}

/// $TC_STANDIN_CAPABILITY (major * 10 + minor: 75 is a Turing GPU), else
/// 90, an H100's.
int capability() {
  const char *value = std::getenv("TC_STANDIN_CAPABILITY");
  return value ? std::atoi(value) : 90;
}

/// $TC_STANDIN_GPUS, else 1.
int gpuCount() {
  const char *gpus = std::getenv("TC_STANDIN_GPUS");
  return gpus ? std::atoi(gpus) : 1;
}

cudaError_t fail(cudaError_t error) {
  lastError = error;
  return error;
}

/// A call that a capture under way on `stream` forbids: the capture is
/// invalidated (its end then fails), and so is the call.
cudaError_t refuseInCapture(CUstream_st *stream) {
  stream->captureInvalidated = true;
  return fail(cudaErrorStreamCaptureUnsupported);
}

/// The result of a call that an injected fault may fail: `injected` for
/// the call's own fault, or the lost device's.
cudaError_t faultOf(const char *name, cudaError_t injected) {
  switch (countCall(name)) {
  case Fault::None:
    return cudaSuccess;
  case Fault::Injected:
    return fail(injected);
  case Fault::DeviceLost:
    return fail(cudaErrorDevicesUnavailable);
  }
  return cudaSuccess;
}

/// Whether a copy's device side(s) lie in allocations.
bool copyInBounds(void *dst, const void *src, size_t bytes,
                  cudaMemcpyKind kind) {
  bool deviceDst = kind == cudaMemcpyHostToDevice ||
                   kind == cudaMemcpyDeviceToDevice;
  bool deviceSrc = kind == cudaMemcpyDeviceToHost ||
                   kind == cudaMemcpyDeviceToDevice;
  return kind != cudaMemcpyHostToHost && kind != cudaMemcpyDefault &&
         (!deviceDst || inAllocation(dst, bytes)) &&
         (!deviceSrc || inAllocation(src, bytes));
}

} // namespace

/// Every entry point's calls, appended to $TC_STANDIN_CALLS at exit as
/// "NAME COUNT" lines: what a test run reached of the stand-ins.
struct CallLog {
  std::map<std::string, long> calls;
  ~CallLog() {
    const char *path = std::getenv("TC_STANDIN_CALLS");
    if (!path)
      return;
    if (FILE *file = std::fopen(path, "a")) {
      for (const auto &[name, count] : calls)
        std::fprintf(file, "%s %ld\n", name.c_str(), count);
      std::fclose(file);
    }
  }
};

Fault countCall(const char *name) {
  // TC_STANDIN_FAIL: NAME@N (the N-th call of NAME) or lost@N (every call
  // from the N-th of any entry point on).
  static std::string failing;
  static long failAt = 0;
  static bool parsed = false;
  static long calls = 0;
  static CallLog log;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (!parsed) {
    parsed = true;
    if (const char *spec = std::getenv("TC_STANDIN_FAIL")) {
      std::string s = spec;
      size_t at = s.find('@');
      failing = s.substr(0, at);
      failAt = at == std::string::npos ? 0 : std::atol(s.c_str() + at + 1);
      if (failAt <= 0) {
        std::fprintf(stderr, "stand-in: TC_STANDIN_FAIL=%s: expected NAME@N "
                             "or lost@N, N >= 1\n", spec);
        std::exit(2);
      }
    }
  }
  ++calls;
  long calledBefore = log.calls[name]++;
  if (failing == "lost" && calls >= failAt)
    return Fault::DeviceLost;
  if (failing == name && calledBefore + 1 == failAt) {
    std::fprintf(stderr, "stand-in: failing call %ld of %s\n", failAt, name);
    return Fault::Injected;
  }
  return Fault::None;
}

bool isDeviceMatrix(const void *pointer, int64_t rows, int64_t cols, int64_t ld,
                    size_t elementBytes) {
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (rows <= 0 || cols <= 0)
    return true; // nothing is read or written
  // cuBLAS reads elements at addresses aligned to their size.
  bool aligned = reinterpret_cast<uintptr_t>(pointer) % elementBytes == 0;
  return ld >= rows && aligned &&
         inAllocation(pointer, size_t((cols - 1) * ld + rows) * elementBytes);
}

bool isDeviceRange(const void *pointer, size_t bytes) {
  std::lock_guard<std::recursive_mutex> guard(lock);
  return inAllocation(pointer, bytes);
}

void synchronise() {
  std::lock_guard<std::recursive_mutex> guard(lock);
  synchroniseDevice();
}

bool callFails(const char *name) { return countCall(name) != Fault::None; }

bool isCapturing(cudaStream_t stream) {
  std::lock_guard<std::recursive_mutex> guard(lock);
  return streamOf(stream)->capture != nullptr;
}

void enqueue(cudaStream_t stream, std::function<void()> work) {
  std::lock_guard<std::recursive_mutex> guard(lock);
  CUstream_st *s = streamOf(stream);
  if (s->capture) { // recorded, not run
    s->capture->work.push_back(std::move(work));
    return;
  }
  s->pending.push_back(std::move(work));
  ++s->enqueued;
  if (!runsLate(s))
    runAll(s);
}

} // namespace standin

using namespace standin;

extern "C" {

cudaError_t cudaGetDeviceCount(int *count) {
  if (cudaError_t e = faultOf("cudaGetDeviceCount", cudaErrorNoDevice))
    return e;
  *count = gpuCount();
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (cudaError_t e = faultOf("cudaGetDeviceProperties", cudaErrorInvalidDevice))
    return e;
  if (device < 0 || device >= gpuCount())
    return fail(cudaErrorInvalidDevice);
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "tc stand-in");
  // Runs the CUBINs of its architecture (of which it reads nothing).
  prop->major = capability() / 10;
  prop->minor = capability() % 10;
  prop->totalGlobalMem = size_t(16) << 30;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (cudaError_t e = faultOf("cudaSetDevice", cudaErrorInvalidDevice))
    return e;
  return device >= 0 && device < gpuCount() ? cudaSuccess
                                            : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetLastError(void) {
  countCall("cudaGetLastError"); // never fails
  std::lock_guard<std::recursive_mutex> guard(lock);
  cudaError_t error = lastError;
  lastError = cudaSuccess;
  return error;
}

const char *cudaGetErrorString(cudaError_t error) {
  countCall("cudaGetErrorString"); // never fails
  switch (error) {
  case cudaSuccess:
    return "no error";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorNoDevice:
    return "no CUDA-capable device is detected";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorLaunchFailure:
    return "unspecified launch failure";
  case cudaErrorSymbolNotFound:
    return "named symbol not found";
  case cudaErrorInvalidSource:
    return "device kernel image is invalid";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorDevicesUnavailable:
    return "CUDA-capable device(s) is/are busy or unavailable";
  default:
    return "unknown error";
  }
}

cudaError_t cudaMalloc(void **pointer, size_t bytes) {
  if (cudaError_t e = faultOf("cudaMalloc", cudaErrorMemoryAllocation))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (!pointer || bytes == 0)
    return fail(cudaErrorInvalidValue);
  // Aligned as cudaMalloc's (256 bytes); 0xff bytes: NaNs until written.
  size_t rounded = (bytes + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded);
  if (!memory)
    return fail(cudaErrorMemoryAllocation);
  std::memset(memory, 0xff, rounded);
  allocations[reinterpret_cast<uintptr_t>(memory)] = bytes;
  *pointer = memory;
  return cudaSuccess;
}

cudaError_t cudaFree(void *pointer) {
  if (cudaError_t e = faultOf("cudaFree", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (!pointer)
    return cudaSuccess;
  auto it = allocations.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == allocations.end())
    return fail(cudaErrorInvalidValue);
  synchroniseDevice(); // cudaFree waits for the work that may use it
  allocations.erase(it);
  std::free(pointer);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *pointer, int value, size_t bytes,
                            cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaMemsetAsync", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (!inAllocation(pointer, bytes))
    return fail(cudaErrorInvalidValue);
  enqueue(stream, [=] { std::memset(pointer, value, bytes); });
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaMemcpyAsync", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (!copyInBounds(dst, src, bytes, kind))
    return fail(cudaErrorInvalidValue);
  // A copy from or to pageable host memory cannot be captured.
  if (kind != cudaMemcpyDeviceToDevice && streamOf(stream)->capture)
    return refuseInCapture(streamOf(stream));
  switch (kind) {
  case cudaMemcpyHostToDevice: {
    // From pageable memory: staged now, so the caller may reuse its buffer.
    auto staged = std::make_shared<std::vector<uint8_t>>(
        static_cast<const uint8_t *>(src),
        static_cast<const uint8_t *>(src) + bytes);
    enqueue(stream, [=] { std::memcpy(dst, staged->data(), bytes); });
    break;
  }
  case cudaMemcpyDeviceToHost:
    // To pageable memory: returns once the copy is done.
    enqueue(stream, [=] { std::memcpy(dst, src, bytes); });
    runAll(streamOf(stream));
    break;
  default:
    enqueue(stream, [=] { std::memcpy(dst, src, bytes); });
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaMemcpy2DAsync", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (kind != cudaMemcpyDeviceToDevice || width > dpitch || width > spitch)
    return fail(cudaErrorInvalidValue); // the plug-in copies on the device
  for (size_t row = 0; row < height; ++row)
    if (!copyInBounds(static_cast<uint8_t *>(dst) + row * dpitch,
                      static_cast<const uint8_t *>(src) + row * spitch, width,
                      kind))
      return fail(cudaErrorInvalidValue);
  enqueue(stream, [=] {
    for (size_t row = 0; row < height; ++row)
      std::memmove(static_cast<uint8_t *>(dst) + row * dpitch,
                   static_cast<const uint8_t *>(src) + row * spitch, width);
  });
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream,
                                      unsigned int flags) {
  if (cudaError_t e = faultOf("cudaStreamCreateWithFlags",
                              cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  // Blocking streams would also order themselves with the legacy stream;
  // the plug-in makes only non-blocking ones, all the stand-in models.
  if (flags != cudaStreamNonBlocking) {
    std::fprintf(stderr, "stand-in: only non-blocking streams are modelled\n");
    return fail(cudaErrorInvalidValue);
  }
  auto *s = new CUstream_st;
  streams.push_back(s);
  *stream = s;
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaStreamDestroy", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  auto it = std::find(streams.begin(), streams.end(), stream);
  if (it == streams.end())
    return fail(cudaErrorInvalidResourceHandle);
  runAll(stream); // its work completes, then it goes
  streams.erase(it);
  destroyedStreams.emplace_back(stream);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaStreamSynchronize", cudaErrorLaunchFailure))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (streamOf(stream)->capture)
    return refuseInCapture(streamOf(stream));
  runAll(streamOf(stream));
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int) {
  if (cudaError_t e = faultOf("cudaEventCreateWithFlags",
                              cudaErrorInvalidValue))
    return e;
  *event = new CUevent_st;
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (cudaError_t e = faultOf("cudaEventDestroy", cudaErrorInvalidValue))
    return e;
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaEventRecord", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  // Events inside a capture (a fork onto another stream) are not modelled;
  // the plug-in captures only a step on one stream.
  if (streamOf(stream)->capture)
    return refuseInCapture(streamOf(stream));
  event->stream = streamOf(stream);
  event->position = event->stream->enqueued;
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int) {
  if (cudaError_t e = faultOf("cudaStreamWaitEvent", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (streamOf(stream)->capture)
    return refuseInCapture(streamOf(stream));
  if (event->stream && event->stream->capture)
    return refuseInCapture(event->stream);
  CUstream_st *recorded = event->stream;
  uint64_t position = event->position;
  if (recorded) // the work after this waits for the event's
    enqueue(stream, [=] { runUntil(recorded, position); });
  return cudaSuccess;
}

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                cudaJitOption *, void **, unsigned int,
                                cudaLibraryOption *, void **, unsigned int) {
  if (cudaError_t e = faultOf("cudaLibraryLoadData", cudaErrorInvalidSource))
    return e;
  const char *path = std::getenv("TC_STANDIN_KERNELS");
  if (!code || !path) {
    std::fprintf(stderr, "stand-in: set TC_STANDIN_KERNELS to the kernels "
                         "built with the SIMT harness\n");
    return fail(cudaErrorInvalidSource);
  }
  void *kernels = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  auto launch = kernels ? reinterpret_cast<SimtLaunch>(
                              dlsym(kernels, "simt_launch"))
                        : nullptr;
  if (!launch) {
    std::fprintf(stderr, "stand-in: %s\n",
                 kernels ? "TC_STANDIN_KERNELS has no simt_launch"
                         : dlerror());
    if (kernels)
      dlclose(kernels);
    return fail(cudaErrorInvalidSource);
  }
  *library = new CUlib_st{kernels, launch, {}};
  return cudaSuccess;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library,
                                 const char *name) {
  if (cudaError_t e = faultOf("cudaLibraryGetKernel", cudaErrorSymbolNotFound))
    return e;
  void *function = dlsym(library->kernels, name);
  if (!function)
    return fail(cudaErrorSymbolNotFound);
  library->lookedUp.push_back(std::make_unique<CUkern_st>(CUkern_st{
      reinterpret_cast<void (*)(void **)>(function), library->launch}));
  *kernel = library->lookedUp.back().get();
  return cudaSuccess;
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  if (cudaError_t e = faultOf("cudaLibraryUnload", cudaErrorInvalidValue))
    return e;
  synchroniseDevice();
  dlclose(library->kernels);
  delete library;
  return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *function, dim3 grid, dim3 block,
                             void **arguments, size_t sharedBytes,
                             cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaLaunchKernel", cudaErrorLaunchFailure)) {
    std::lock_guard<std::recursive_mutex> guard(lock);
    if (streamOf(stream)->capture) // a failed launch invalidates a capture
      streamOf(stream)->captureInvalidated = true;
    return e;
  }
  std::lock_guard<std::recursive_mutex> guard(lock);
  // The harness runs one-dimensional launches (all tc's kernels are).
  if (grid.x == 0 || grid.y != 1 || grid.z != 1 || block.x == 0 ||
      block.x > 1024 || block.y != 1 || block.z != 1 || sharedBytes != 0)
    return fail(cudaErrorInvalidConfiguration);
  // `function` is a cudaKernel_t of cudaLibraryGetKernel, as the plug-in
  // passes it. tc's kernel ABI: one argument, the device address of the
  // launch's buffer pointers (read now: `arguments` is the caller's).
  const CUkern_st kernel = *static_cast<const CUkern_st *>(function);
  void **buffers = *static_cast<void ***>(arguments[0]);
  unsigned blocks = grid.x, threads = block.x;
  enqueue(stream, [=] {
    kernel.launch(kernel.function, blocks, threads, buffers);
  });
  return cudaSuccess;
}

// Stream capture (CUDA graphs): between cudaStreamBeginCapture and
// cudaStreamEndCapture, the work enqueued on the stream is recorded instead
// of run; cudaGraphLaunch enqueues all of it as one item. Calls a capture
// forbids (a synchronisation, a copy with host memory, events) fail with
// cudaErrorStreamCaptureUnsupported and invalidate it: its end fails with
// cudaErrorStreamCaptureInvalidated and no graph.

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                   cudaStreamCaptureMode) {
  if (cudaError_t e = faultOf("cudaStreamBeginCapture", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  CUstream_st *s = streamOf(stream);
  if (s == &legacyStream || s->capture)
    return fail(cudaErrorIllegalState);
  s->capture = std::make_unique<CUgraph_st>();
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
  if (cudaError_t e = faultOf("cudaStreamEndCapture", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  CUstream_st *s = streamOf(stream);
  if (!s->capture)
    return fail(cudaErrorIllegalState);
  std::unique_ptr<CUgraph_st> captured = std::move(s->capture);
  *graph = nullptr;
  if (std::exchange(s->captureInvalidated, false))
    return fail(cudaErrorStreamCaptureInvalidated);
  *graph = captured.release();
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long) {
  if (cudaError_t e = faultOf("cudaGraphInstantiate", cudaErrorInvalidValue))
    return e;
  *exec = new CUgraphExec_st{graph->work};
  return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (cudaError_t e = faultOf("cudaGraphLaunch", cudaErrorLaunchFailure))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  if (streamOf(stream)->capture) // a graph launched inside a capture
    return refuseInCapture(streamOf(stream));
  enqueue(stream, [exec] {
    for (const std::function<void()> &work : exec->work)
      work();
  });
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (cudaError_t e = faultOf("cudaGraphDestroy", cudaErrorInvalidValue))
    return e;
  delete graph;
  return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  if (cudaError_t e = faultOf("cudaGraphExecDestroy", cudaErrorInvalidValue))
    return e;
  std::lock_guard<std::recursive_mutex> guard(lock);
  synchroniseDevice(); // a launch of it may be queued
  delete exec;
  return cudaSuccess;
}

} // extern "C"
