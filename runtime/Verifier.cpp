//===- Verifier.cpp - what the flatbuffer verifier cannot check of a .tcx -===//

#include "runtime/Verifier.h"
#include "runtime/Executable.h"
#include "runtime/format/TcxBucket.h"
#include "support/HostCpu.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

namespace tc::rt {
namespace {

using Int = __int128; // sums of products of bounded int64s never overflow

using contract::kMaxBytes;
using contract::kMaxExtent;
constexpr int64_t kMaxBlas = (int64_t(1) << 31) - 1;

bool isReadOnly(tcx::Space space) {
  return space == tcx::Space::Inputs || space == tcx::Space::Constants;
}

bool sameView(const tcx::Buffer &a, const tcx::Buffer &b) {
  auto same = [](const flatbuffers::Vector<int64_t> *x,
                 const flatbuffers::Vector<int64_t> *y) {
    return std::equal(x->begin(), x->end(), y->begin(), y->end());
  };
  return a.space() == b.space() && a.offset() == b.offset() &&
         a.dtype() == b.dtype() && same(a.shape(), b.shape()) &&
         same(a.strides(), b.strides());
}

/// Every buffer a verified step reads or writes.
std::vector<const tcx::Buffer *> buffersOf(const tcx::StepEntry &entry) {
  std::vector<const tcx::Buffer *> buffers;
  switch (entry.step_type()) {
  case tcx::Step::Launch:
    for (auto list : {entry.step_as_Launch()->inputs(),
                      entry.step_as_Launch()->outputs()})
      if (list)
        buffers.insert(buffers.end(), list->begin(), list->end());
    break;
  case tcx::Step::Gemm: {
    const tcx::Gemm *g = entry.step_as_Gemm();
    for (const tcx::Buffer *b : {g->lhs(), g->rhs(), g->out(), g->bias()})
      if (b)
        buffers.push_back(b);
    break;
  }
  case tcx::Step::Copy:
    buffers = {entry.step_as_Copy()->source(), entry.step_as_Copy()->target()};
    break;
  case tcx::Step::AllReduce:
    buffers = {entry.step_as_AllReduce()->buffer()};
    break;
  default:
    break;
  }
  return buffers;
}

/// The sums over ranks of a verified function, in order: what the ranks
/// pair up (the element type and count; in Grads, also where).
std::vector<std::tuple<int64_t, int64_t, int>> sumsOf(const tcx::Function &f) {
  std::vector<std::tuple<int64_t, int64_t, int>> sums;
  for (const tcx::StepEntry *entry : *f.steps())
    if (entry->step_type() == tcx::Step::AllReduce) {
      const tcx::Buffer &b = *entry->step_as_AllReduce()->buffer();
      int64_t count = 1;
      for (int64_t extent : *b.shape())
        count *= extent;
      sums.emplace_back(b.space() == tcx::Space::Grads ? b.offset() : -1,
                        count, int(b.dtype()));
    }
  return sums;
}

/// Whether `b` lies in the state of `function`: an output bound in the
/// Inputs space (an input updated in place), which its steps may write.
bool isState(const tcx::Function &function, const tcx::Buffer &b) {
  if (b.space() != tcx::Space::Inputs || !function.outputs())
    return false;
  for (const tcx::Binding *out : *function.outputs())
    if (out->buffer()->space() == tcx::Space::Inputs &&
        out->buffer()->offset() <= b.offset() &&
        endOf(b) <= endOf(*out->buffer()))
      return true;
  return false;
}

/// Whether `entry` touches bytes of the allreduces still `summing`.
bool touchesSums(const tcx::StepEntry &entry,
                 const std::vector<const tcx::Buffer *> &summing) {
  for (const tcx::Buffer *touched : buffersOf(entry))
    for (const tcx::Buffer *sum : summing)
      if (touched->space() == sum->space() && touched->offset() < endOf(*sum) &&
          sum->offset() < endOf(*touched))
        return true;
  return false;
}

class Checker {
public:
  Checker(const tcx::Executable &x, std::string &error) : x(x), error(error) {}
  bool run();

private:
  /// (role, batch, source length, target length) of the functions seen.
  using Buckets = std::set<std::tuple<int, int64_t, int64_t, int64_t>>;

  bool fail(const std::string &what) {
    error = where + ": " + what;
    return false;
  }
  /// A well-formed view inside its space of `sizes`.
  bool buffer(const tcx::Buffer *b, const SpaceSizes &sizes,
              const std::string &role);
  bool vector(const flatbuffers::Vector<int64_t> *v, size_t size, int64_t low,
              int64_t high, const std::string &what);
  bool launch(const tcx::Launch &l, const SpaceSizes &sizes);
  bool gemm(const tcx::Gemm &g, const SpaceSizes &sizes);
  bool copy(const tcx::Copy &c, const SpaceSizes &sizes);
  bool allReduce(const tcx::AllReduce &r, const SpaceSizes &sizes);
  /// One step, of any kind, against the function's spaces `bound`.
  bool step(const tcx::StepEntry &entry, const SpaceSizes &bound);

  // The sections of run(), in order.
  /// Each kernel's name and argument types.
  bool kernels();
  /// Each code module's binary and target, and one when there are kernels.
  bool codeModules();
  /// Each parameter: a contiguous F32 view of the parameter space.
  bool parameters();
  /// Each function: its name, role and bucket (`buckets`: one function per
  /// role and bucket), its bindings and its steps.
  bool functions();
  bool function(const tcx::Function &f, Buckets &buckets);
  /// The bindings, which define the Inputs and Outputs spaces.
  bool bindings(const tcx::Function &f, const SpaceSizes &sizes);
  /// Each step, and no step that touches what an allreduce still sums.
  bool steps(const tcx::Function &f, const SpaceSizes &bound);
  /// A training step for every bucket of the run config.
  bool runConfig();
  /// The training steps of all buckets sum the same buffers over the ranks.
  bool trainingStepsPairUp();

  const tcx::Executable &x;
  std::string &error;
  std::string where;
  const tcx::Function *current = nullptr; ///< whose steps are checked
};

bool Checker::buffer(const tcx::Buffer *b, const SpaceSizes &sizes,
                     const std::string &role) {
  if (!b)
    return fail(role + " buffer is missing");
  if (int(b->space()) > int(tcx::Space::MAX) ||
      int(b->dtype()) > int(tcx::DType::MAX) || !b->shape() || !b->strides() ||
      b->shape()->size() != b->strides()->size() || b->shape()->size() > 16 ||
      b->offset() < 0 || b->offset() > kMaxBytes)
    return fail("a malformed " + role + " buffer view");
  Int last = 0, elements = 1;
  for (size_t d = 0; d < b->shape()->size(); ++d) {
    int64_t extent = b->shape()->Get(d), stride = b->strides()->Get(d);
    if (extent < 0 || extent > kMaxExtent || stride < 0 || stride > kMaxExtent)
      return fail("a malformed " + role + " buffer view");
    elements *= extent;
    last += Int(extent - 1) * stride;
  }
  Int end = elements == 0 ? Int(b->offset())
                          : b->offset() + (last + 1) * tcx::sizeOf(b->dtype());
  if (end > sizes[b->space()])
    return fail("the " + role + " buffer reaches byte " +
                std::to_string(int64_t(std::min<Int>(end, kMaxBytes))) +
                " of the " + tcx::EnumNameSpace(b->space()) +
                " space, which has " + std::to_string(sizes[b->space()]));
  return true;
}

bool Checker::vector(const flatbuffers::Vector<int64_t> *v, size_t size,
                     int64_t low, int64_t high, const std::string &what) {
  if (!v || v->size() != size)
    return fail(what + " has the wrong length");
  for (int64_t value : *v)
    if (value < low || value > high)
      return fail(what + " holds " + std::to_string(value) + ", outside [" +
                  std::to_string(low) + ", " + std::to_string(high) + "]");
  return true;
}

bool Checker::launch(const tcx::Launch &l, const SpaceSizes &sizes) {
  size_t kernels = x.kernels() ? x.kernels()->size() : 0;
  if (l.kernel() >= kernels)
    return fail("launches kernel " + std::to_string(l.kernel()) + " of " +
                std::to_string(kernels));
  const tcx::Kernel *kernel = x.kernels()->Get(l.kernel());
  size_t inputs = l.inputs() ? l.inputs()->size() : 0;
  size_t outputs = l.outputs() ? l.outputs()->size() : 0;
  if (inputs != kernel->inputs() || outputs != kernel->outputs())
    return fail("binds " + std::to_string(inputs) + " inputs and " +
                std::to_string(outputs) + " outputs to kernel '" +
                kernel->name()->str() + "', which takes " +
                std::to_string(kernel->inputs()) + " and " +
                std::to_string(kernel->outputs()));
  for (size_t i = 0; i < inputs + outputs; ++i) {
    bool output = i >= inputs;
    const tcx::Buffer *b =
        output ? l.outputs()->Get(i - inputs) : l.inputs()->Get(i);
    std::string role = (output ? "output " + std::to_string(i - inputs)
                               : "input " + std::to_string(i));
    if (!buffer(b, sizes, role))
      return false;
    const tcx::TensorType *type = kernel->signature()->Get(i);
    if (!isRowMajor(*b) || b->dtype() != type->dtype() ||
        !std::equal(b->shape()->begin(), b->shape()->end(),
                    type->shape()->begin(), type->shape()->end()))
      return fail(role + " is not the contiguous " +
                  tcx::EnumNameDType(type->dtype()) + " tensor kernel '" +
                  kernel->name()->str() + "' was generated for");
    if (output && isReadOnly(b->space()) && !isState(*current, *b))
      return fail(role + " writes the read-only " +
                  std::string(tcx::EnumNameSpace(b->space())) + " space");
  }
  return true;
}

bool Checker::gemm(const tcx::Gemm &g, const SpaceSizes &sizes) {
  if (!buffer(g.lhs(), sizes, "lhs") || !buffer(g.rhs(), sizes, "rhs") ||
      !buffer(g.out(), sizes, "out") ||
      (g.bias() && !buffer(g.bias(), sizes, "bias")))
    return false;
  // Which operand and compute types run is each device's decision
  // (runtime/format/GemmTypes.h), made when it opens the executable.
  if (isReadOnly(g.out()->space()))
    return fail("the GEMM writes the read-only " +
                std::string(tcx::EnumNameSpace(g.out()->space())) + " space");
  int64_t m = g.m(), n = g.n(), k = g.k();
  bool ta = g.transpose_lhs(), tb = g.transpose_rhs();
  for (int64_t value : {m, n, k, g.lda(), g.ldb(), g.ldc()})
    if (value < 1 || value > kMaxBlas)
      return fail("inconsistent GEMM parameters (m, n, k and the leading "
                  "dimensions must lie in [1, 2^31))");
  if (g.lda() < (ta ? m : k) || g.ldb() < (tb ? k : n) || g.ldc() < n)
    return fail("inconsistent GEMM parameters (a leading dimension is "
                "shorter than its row)");
  size_t rank = g.batch() ? g.batch()->size() : 0;
  if (!vector(g.batch(), rank, 1, kMaxBlas, "the GEMM batch") ||
      !vector(g.lhs_batch_strides(), rank, 0, kMaxExtent,
              "lhs_batch_strides") ||
      !vector(g.rhs_batch_strides(), rank, 0, kMaxExtent,
              "rhs_batch_strides") ||
      !vector(g.out_batch_strides(), rank, 0, kMaxExtent, "out_batch_strides"))
    return false;
  if (g.bias() &&
      (!isRowMajor(*g.bias()) || g.bias()->shape()->size() > 1 ||
       (g.bias()->shape()->size() == 1 && g.bias()->shape()->Get(0) != n)))
    return fail("the GEMM bias is not " + std::to_string(n) +
                " contiguous elements");
  // What the BLAS calls touch lies inside each operand's space.
  auto reaches = [&](const tcx::Buffer *b,
                     const flatbuffers::Vector<int64_t> *strides, int64_t rows,
                     int64_t ld, int64_t columns) {
    Int last = Int(rows - 1) * ld + columns - 1;
    for (size_t i = 0; i < rank; ++i)
      last += Int(g.batch()->Get(i) - 1) * strides->Get(i);
    return b->offset() + (last + 1) * tcx::sizeOf(b->dtype()) <=
           sizes[b->space()];
  };
  if (!reaches(g.lhs(), g.lhs_batch_strides(), ta ? k : m, g.lda(),
               ta ? m : k) ||
      !reaches(g.rhs(), g.rhs_batch_strides(), tb ? n : k, g.ldb(),
               tb ? k : n) ||
      !reaches(g.out(), g.out_batch_strides(), m, g.ldc(), n))
    return fail("the GEMM reaches past the end of an operand's space");
  // No element of the output is written twice (batch indices run in
  // parallel): ordered by stride, each dimension steps over all the inner.
  std::vector<std::pair<int64_t, int64_t>> dims = {{1, n}, {g.ldc(), m}};
  for (size_t i = 0; i < rank; ++i)
    dims.push_back({g.out_batch_strides()->Get(i), g.batch()->Get(i)});
  std::sort(dims.begin(), dims.end());
  Int span = 0; // elements covered by the inner dimensions, minus one
  for (auto [stride, extent] : dims) {
    if (extent == 1)
      continue;
    if (stride <= span)
      return fail("the GEMM writes some output elements twice");
    span += Int(extent - 1) * stride;
  }
  return true;
}

bool Checker::run() {
  where = "executable";
  if (x.param_bytes() < 0 || x.param_bytes() > kMaxBytes)
    return fail("a parameter size out of range");
  // The bf16 copies of the f32 parameters, or none.
  if (x.param_copy_bytes() != 0 &&
      (x.param_bytes() % 2 != 0 || x.param_copy_bytes() != x.param_bytes() / 2))
    return fail("a parameter copy size (" +
                std::to_string(x.param_copy_bytes()) +
                " bytes) that is neither 0 nor half the parameters' " +
                std::to_string(x.param_bytes()));
  if (!precisionOf(x))
    return fail("precision '" + x.precision()->str() + "', which is not " +
                support::precisionChoices());
  return kernels() && codeModules() && parameters() && functions() &&
         runConfig() && trainingStepsPairUp();
}

bool Checker::kernels() {
  size_t count = x.kernels() ? x.kernels()->size() : 0;
  for (size_t i = 0; i < count; ++i) {
    const tcx::Kernel *kernel = x.kernels()->Get(i);
    where = "kernel " + std::to_string(i);
    if (!kernel->name() || !kernel->signature() ||
        kernel->signature()->size() !=
            size_t(kernel->inputs()) + kernel->outputs())
      return fail("has no name or no signature for its arguments");
    for (const tcx::TensorType *type : *kernel->signature())
      if (!type->shape() || int(type->dtype()) > int(tcx::DType::MAX))
        return fail("a malformed argument type");
  }
  return true;
}

bool Checker::codeModules() {
  if (x.code())
    for (const tcx::CodeModule *module : *x.code()) {
      where = "code modules";
      if (!module->binary() || int(module->kind()) > int(tcx::CodeKind::MAX) ||
          (module->kind() == tcx::CodeKind::Host
               ? !module->host_level() || module->host_level()->size() == 0
               : module->cuda_arch() == 0))
        return fail("a code module without a binary or an architecture");
      if (module->kind() == tcx::CodeKind::Host) {
        const std::vector<std::string> &levels = support::cpuLevels();
        if (std::find(levels.begin(), levels.end(),
                      module->host_level()->str()) == levels.end())
          return fail("host code for '" + module->host_level()->str() +
                      "', which is not an x86-64 level");
      }
    }
  bool hasKernels = x.kernels() && x.kernels()->size() > 0;
  if (hasKernels && (!x.code() || x.code()->size() == 0)) {
    where = "code modules";
    return fail("kernels but no code module");
  }
  return true;
}

bool Checker::parameters() {
  if (x.parameters())
    for (const tcx::Parameter *p : *x.parameters()) {
      where = "parameter '" + (p->name() ? p->name()->str() : "?") + "'";
      SpaceSizes sizes;
      sizes[tcx::Space::Params] = x.param_bytes();
      if (!p->name() || !buffer(p->buffer(), sizes, "parameter"))
        return false;
      if (p->buffer()->space() != tcx::Space::Params ||
          p->buffer()->dtype() != tcx::DType::F32 || !isRowMajor(*p->buffer()))
        return fail("not a contiguous F32 view of the parameter buffer");
    }
  return true;
}

bool Checker::functions() {
  where = "functions";
  if (!x.functions() || x.functions()->size() == 0)
    return fail("the executable has none");
  Buckets buckets;
  for (const tcx::Function *f : *x.functions())
    if (!function(*f, buckets))
      return false;
  return true;
}

bool Checker::function(const tcx::Function &f, Buckets &buckets) {
  where = "function '" + (f.name() ? f.name()->str() : "?") + "'";
  if (!f.name() || f.arena_bytes() < 0 || f.arena_bytes() > kMaxBytes)
    return fail("has no name or an arena size out of range");
  if (int(f.role()) > int(tcx::FunctionRole::MAX) ||
      (f.role() != tcx::FunctionRole::Other) != (f.bucket() != nullptr))
    return fail("has an unknown role, or a role without its bucket");
  if (const tcx::Bucket *b = f.bucket()) {
    bool encoder = servesEveryTargetLength(f.role());
    if (b->batch() < 1 || b->source_length() < 1 ||
        (encoder ? b->target_length() != 0 : b->target_length() < 1) ||
        std::max({b->batch(), b->source_length(), b->target_length()}) >
            kMaxExtent)
      return fail("has a malformed bucket");
    if (!buckets
             .insert({int(f.role()), b->batch(), b->source_length(),
                      b->target_length()})
             .second)
      return fail("serves a bucket another function of its role serves");
  }
  SpaceSizes sizes = stateSpaceSizes(x);
  sizes[tcx::Space::Arena] = f.arena_bytes();
  if (!bindings(f, sizes))
    return false;
  if (!f.steps())
    return fail("has no steps");
  return steps(f, Executable::bindingSpaceSizes(f, sizes));
}

bool Checker::bindings(const tcx::Function &f, const SpaceSizes &sizes) {
  // Bindings define the Inputs and Outputs spaces.
  for (auto [list, space] : {std::pair(f.inputs(), tcx::Space::Inputs),
                             std::pair(f.outputs(), tcx::Space::Outputs)}) {
    if (!list)
      continue;
    for (const tcx::Binding *b : *list) {
      SpaceSizes open = sizes; // bindings define these two spaces
      open[tcx::Space::Inputs] = open[tcx::Space::Outputs] = kMaxBytes;
      std::string role = "binding";
      if (!b->name() || !buffer(b->buffer(), open, role))
        return b->name() ? false : fail("a binding has no name");
      // An output may be state: the input of its name, updated in place.
      const tcx::Binding *state =
          space == tcx::Space::Outputs &&
                  b->buffer()->space() == tcx::Space::Inputs
              ? findBinding(f, b->name()->string_view(), false)
              : nullptr;
      if (state && !sameView(*state->buffer(), *b->buffer()))
        return fail("output '" + b->name()->str() +
                    "' lies in the Inputs space but not exactly where the "
                    "input of its name does");
      if ((!state && b->buffer()->space() != space) ||
          !isRowMajor(*b->buffer()))
        return fail("binding '" + b->name()->str() +
                    "' is not a contiguous view of the " +
                    tcx::EnumNameSpace(space) + " space");
    }
  }
  return true;
}

bool Checker::steps(const tcx::Function &f, const SpaceSizes &bound) {
  std::string inFunction = where;
  current = &f;
  /// The buffers of the allreduces started and not yet waited for: no
  /// step may touch them (on a GPU the sums run beside the steps).
  std::vector<const tcx::Buffer *> summing;
  for (size_t s = 0; s < f.steps()->size(); ++s) {
    const tcx::StepEntry *entry = f.steps()->Get(s);
    where = inFunction + ", step " + std::to_string(s);
    if (!step(*entry, bound))
      return false;
    if (entry->step_type() == tcx::Step::Wait)
      summing.clear();
    if (touchesSums(*entry, summing))
      return fail("touches bytes an allreduce started before it is "
                  "still summing (no wait between them)");
    if (entry->step_type() == tcx::Step::AllReduce)
      summing.push_back(entry->step_as_AllReduce()->buffer());
  }
  where = inFunction;
  if (!summing.empty())
    return fail("an allreduce has no wait after it");
  return true;
}

bool Checker::step(const tcx::StepEntry &entry, const SpaceSizes &bound) {
  switch (entry.step_type()) {
  case tcx::Step::Launch:
    where += " (launch)";
    return entry.step_as_Launch() ? launch(*entry.step_as_Launch(), bound)
                                  : fail("an empty step");
  case tcx::Step::Gemm:
    where += " (gemm)";
    return entry.step_as_Gemm() ? gemm(*entry.step_as_Gemm(), bound)
                                : fail("an empty step");
  case tcx::Step::Copy:
    where += " (copy)";
    return entry.step_as_Copy() ? copy(*entry.step_as_Copy(), bound)
                                : fail("an empty step");
  case tcx::Step::AllReduce:
    where += " (allreduce)";
    return entry.step_as_AllReduce()
               ? allReduce(*entry.step_as_AllReduce(), bound)
               : fail("an empty step");
  case tcx::Step::Wait:
    where += " (wait)";
    return entry.step_as_Wait() != nullptr || fail("an empty step");
  default:
    return fail("an unknown kind of step");
  }
}

bool Checker::copy(const tcx::Copy &c, const SpaceSizes &sizes) {
  if (!buffer(c.source(), sizes, "source") ||
      !buffer(c.target(), sizes, "target"))
    return false;
  if (c.source()->dtype() != c.target()->dtype() ||
      !std::equal(c.source()->shape()->begin(), c.source()->shape()->end(),
                  c.target()->shape()->begin(), c.target()->shape()->end()))
    return fail("a copy between views of different shapes or types");
  if (isReadOnly(c.target()->space()))
    return fail("a copy into a read-only space");
  return true;
}

bool Checker::allReduce(const tcx::AllReduce &r, const SpaceSizes &sizes) {
  if (!buffer(r.buffer(), sizes, "buffer"))
    return false;
  tcx::Space space = r.buffer()->space();
  if (space != tcx::Space::Grads && space != tcx::Space::Arena)
    return fail("an allreduce outside the Grads space and the arena");
  if ((r.buffer()->dtype() != tcx::DType::F32 &&
       r.buffer()->dtype() != tcx::DType::I32) ||
      !isRowMajor(*r.buffer()))
    return fail("an allreduce of a view that is not contiguous F32 or I32");
  return true;
}

bool Checker::runConfig() {
  const tcx::RunConfig *config = x.run();
  if (!config)
    return true;
  where = "run config";
  if (config->buckets())
    for (const tcx::Bucket *b : *config->buckets()) {
      contract::BucketShape shape = tcx::shapeOf(*b);
      if (!findFunction(x, tcx::FunctionRole::TrainStep, shape))
        return fail("bucket " + std::to_string(shape.batch) + "x" +
                    std::to_string(shape.sourceLength) + "x" +
                    std::to_string(shape.targetLength) +
                    " has no training step");
    }
  return true;
}

bool Checker::trainingStepsPairUp() {
  // The ranks of a job may run the training steps of different buckets in
  // one update: their sums must pair up, in the same order.
  const tcx::Function *first = nullptr;
  std::vector<std::tuple<int64_t, int64_t, int>> firstSums;
  for (const tcx::Function *f : *x.functions()) {
    if (f->role() != tcx::FunctionRole::TrainStep)
      continue;
    if (!first) {
      first = f;
      firstSums = sumsOf(*f);
    } else if (sumsOf(*f) != firstSums) {
      where = "function '" + f->name()->str() + "'";
      return fail("sums other buffers over the ranks than '" +
                  first->name()->str() +
                  "' (the training steps of all buckets must pair up)");
    }
  }
  return true;
}

} // namespace

bool verifyExecutable(const tcx::Executable &executable, std::string &error) {
  return Checker(executable, error).run();
}

} // namespace tc::rt
