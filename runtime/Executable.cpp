//===- Executable.cpp - a loaded and verified .tcx ------------------------===//

#include "runtime/Executable.h"
#include "runtime/format/TcxFile.h"

#include <algorithm>
#include <fstream>
#include <iterator>

namespace tc::rt {

int64_t elementBytes(tcx::DType dtype) {
  switch (dtype) {
  case tcx::DType::F64:
  case tcx::DType::I64:
    return 8;
  case tcx::DType::F16:
  case tcx::DType::BF16:
    return 2;
  case tcx::DType::I1:
    return 1;
  default:
    return 4;
  }
}

namespace {

/// One byte past the last byte `buffer` touches, or -1 when the view is
/// malformed (negative extents or strides, rank mismatch).
int64_t endOf(const tcx::Buffer &buffer) {
  if (!buffer.shape() || !buffer.strides() ||
      buffer.shape()->size() != buffer.strides()->size() || buffer.offset() < 0)
    return -1;
  int64_t last = 0, elements = 1;
  for (size_t d = 0; d < buffer.shape()->size(); ++d) {
    int64_t extent = buffer.shape()->Get(d), stride = buffer.strides()->Get(d);
    if (extent < 0 || stride < 0)
      return -1;
    elements *= extent;
    last += (extent - 1) * stride;
  }
  if (elements == 0)
    return buffer.offset();
  return buffer.offset() + (last + 1) * elementBytes(buffer.dtype());
}

const char *spaceName(tcx::Space space) { return tcx::EnumNameSpace(space); }

} // namespace

std::unique_ptr<Executable> Executable::load(const std::string &path,
                                             std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open the file";
    return nullptr;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return fromBytes(std::move(bytes), path, error);
}

std::unique_ptr<Executable> Executable::fromBytes(std::vector<uint8_t> bytes,
                                                  const std::string &name,
                                                  std::string &error) {
  std::unique_ptr<Executable> executable(new Executable);
  executable->bytes_ = std::move(bytes);
  std::string why;
  std::string_view payload = tcx::unwrapPayload(executable->bytes_, why);
  if (payload.empty()) {
    error = name + ": " + why;
    return nullptr;
  }
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(payload.data()), payload.size(),
      /*max_depth=*/64, /*max_tables=*/100'000'000);
  if (!tcx::VerifyExecutableBuffer(verifier)) {
    error = name + ": malformed executable: the flatbuffer does not verify "
                   "against runtime/format/tcx.fbs; rebuild it with tc-compile";
    return nullptr;
  }
  executable->root_ = tcx::GetExecutable(payload.data());
  if (!executable->verify(name, error))
    return nullptr;
  return executable;
}

const tcx::Function *Executable::function(const std::string &name) const {
  if (!root_->functions())
    return nullptr;
  for (const tcx::Function *f : *root_->functions())
    if (f->name() && f->name()->str() == name)
      return f;
  return nullptr;
}

SpaceSizes Executable::spaceSizes(const tcx::Function &function) const {
  SpaceSizes sizes;
  sizes[tcx::Space::Arena] = function.arena_bytes();
  for (tcx::Space space : {tcx::Space::Params, tcx::Space::Grads,
                           tcx::Space::AdamM, tcx::Space::AdamV})
    sizes[space] = root_->param_bytes();
  sizes[tcx::Space::Constants] =
      root_->constants() ? root_->constants()->size() : 0;
  for (auto [bindings, space] :
       {std::pair(function.inputs(), tcx::Space::Inputs),
        std::pair(function.outputs(), tcx::Space::Outputs)}) {
    if (!bindings)
      continue;
    for (const tcx::Binding *binding : *bindings)
      if (binding->buffer())
        sizes[space] = std::max(sizes[space], endOf(*binding->buffer()));
  }
  return sizes;
}

bool Executable::verify(const std::string &name, std::string &error) const {
  auto fail = [&](const std::string &where, const std::string &what) {
    error = name + ": " + where + ": " + what +
            "; the file is inconsistent, rebuild it with tc-compile";
    return false;
  };
  const tcx::Executable &x = *root_;
  size_t kernels = x.kernels() ? x.kernels()->size() : 0;
  for (size_t i = 0; i < kernels; ++i)
    if (!x.kernels()->Get(i)->name())
      return fail("kernel " + std::to_string(i), "has no name");
  if (x.param_bytes() < 0)
    return fail("parameters", "negative size");
  if (x.parameters())
    for (const tcx::Parameter *p : *x.parameters()) {
      if (!p->name() || !p->buffer() || p->buffer()->space() != tcx::Space::Params ||
          endOf(*p->buffer()) < 0 || endOf(*p->buffer()) > x.param_bytes())
        return fail("parameter '" + (p->name() ? p->name()->str() : "?") + "'",
                    "lies outside the parameter buffer");
    }
  if (!x.functions() || x.functions()->size() == 0)
    return fail("functions", "the executable has none");
  for (const tcx::Function *f : *x.functions()) {
    std::string where = "function '" + (f->name() ? f->name()->str() : "?") + "'";
    if (!f->name() || f->arena_bytes() < 0)
      return fail(where, "has no name or a negative arena size");
    SpaceSizes sizes = spaceSizes(*f);
    auto check = [&](const tcx::Buffer *buffer, const std::string &at) {
      if (!buffer)
        return fail(where + ", " + at, "a buffer is missing");
      int64_t end = endOf(*buffer);
      if (int(buffer->space()) > int(tcx::Space::MAX) || end < 0)
        return fail(where + ", " + at, "a malformed buffer view");
      if (end > sizes[buffer->space()])
        return fail(where + ", " + at,
                    "a buffer reaches byte " + std::to_string(end) + " of the " +
                        spaceName(buffer->space()) + " space, which has " +
                        std::to_string(sizes[buffer->space()]));
      return true;
    };
    for (auto bindings : {f->inputs(), f->outputs()}) {
      if (!bindings)
        continue;
      for (const tcx::Binding *b : *bindings) {
        if (!b->name())
          return fail(where, "a binding has no name");
        if (!check(b->buffer(), "binding '" + b->name()->str() + "'"))
          return false;
      }
    }
    if (!f->steps())
      return fail(where, "has no steps");
    for (size_t s = 0; s < f->steps()->size(); ++s) {
      const tcx::StepEntry *entry = f->steps()->Get(s);
      std::string at = "step " + std::to_string(s);
      switch (entry->step_type()) {
      case tcx::Step::Launch: {
        const tcx::Launch *launch = entry->step_as_Launch();
        if (launch->kernel() >= kernels)
          return fail(where + ", " + at, "launches kernel " +
                                             std::to_string(launch->kernel()) +
                                             " of " + std::to_string(kernels));
        const tcx::Kernel *kernel = x.kernels()->Get(launch->kernel());
        auto count = [](auto *list) { return list ? list->size() : 0u; };
        if (count(launch->inputs()) != kernel->inputs() ||
            count(launch->outputs()) != kernel->outputs())
          return fail(where + ", " + at,
                      "binds " + std::to_string(count(launch->inputs())) +
                          " inputs and " + std::to_string(count(launch->outputs())) +
                          " outputs to kernel '" + kernel->name()->str() +
                          "', which takes " + std::to_string(kernel->inputs()) +
                          " and " + std::to_string(kernel->outputs()));
        for (auto list : {launch->inputs(), launch->outputs()})
          if (list)
            for (const tcx::Buffer *buffer : *list)
              if (!check(buffer, at + " (launch)"))
                return false;
        break;
      }
      case tcx::Step::Gemm: {
        const tcx::Gemm *g = entry->step_as_Gemm();
        if (!check(g->lhs(), at + " (gemm lhs)") ||
            !check(g->rhs(), at + " (gemm rhs)") ||
            !check(g->out(), at + " (gemm out)") ||
            (g->bias() && !check(g->bias(), at + " (gemm bias)")))
          return false;
        for (const tcx::Buffer *operand : {g->lhs(), g->rhs(), g->out()})
          if (operand->dtype() != tcx::DType::F32)
            return fail(where + ", " + at, "a GEMM operand is not f32");
        size_t rank = g->batch() ? g->batch()->size() : 0;
        for (size_t i = 0; i < rank; ++i)
          if (g->batch()->Get(i) < 1 || g->lhs_batch_strides()->Get(i) < 0 ||
              g->rhs_batch_strides()->Get(i) < 0 ||
              g->out_batch_strides()->Get(i) < 0)
            return fail(where + ", " + at,
                        "a GEMM batch extent below 1 or a negative batch stride");
        auto sized = [&](const flatbuffers::Vector<int64_t> *v) {
          return (v ? v->size() : 0) == rank;
        };
        if (g->m() < 1 || g->n() < 1 || g->k() < 1 ||
            !sized(g->lhs_batch_strides()) || !sized(g->rhs_batch_strides()) ||
            !sized(g->out_batch_strides()) ||
            g->lda() < (g->transpose_lhs() ? g->m() : g->k()) ||
            g->ldb() < (g->transpose_rhs() ? g->k() : g->n()) ||
            g->ldc() < g->n())
          return fail(where + ", " + at, "inconsistent GEMM parameters");
        // What the BLAS calls touch must lie inside each operand's space.
        auto reaches = [&](const tcx::Buffer *buffer,
                           const flatbuffers::Vector<int64_t> *strides,
                           int64_t rows, int64_t ld, int64_t columns) {
          int64_t last = (rows - 1) * ld + columns - 1;
          for (size_t i = 0; i < rank; ++i)
            last += (g->batch()->Get(i) - 1) * strides->Get(i);
          return buffer->offset() + (last + 1) * 4 <= sizes[buffer->space()];
        };
        bool ta = g->transpose_lhs(), tb = g->transpose_rhs();
        if (!reaches(g->lhs(), g->lhs_batch_strides(), ta ? g->k() : g->m(),
                     g->lda(), ta ? g->m() : g->k()) ||
            !reaches(g->rhs(), g->rhs_batch_strides(), tb ? g->n() : g->k(),
                     g->ldb(), tb ? g->k() : g->n()) ||
            !reaches(g->out(), g->out_batch_strides(), g->m(), g->ldc(),
                     g->n()))
          return fail(where + ", " + at,
                      "the GEMM reaches past the end of an operand's space");
        break;
      }
      case tcx::Step::Copy: {
        const tcx::Copy *c = entry->step_as_Copy();
        if (!check(c->source(), at + " (copy)") ||
            !check(c->target(), at + " (copy)"))
          return false;
        auto same = [](const flatbuffers::Vector<int64_t> *a,
                       const flatbuffers::Vector<int64_t> *b) {
          return a->size() == b->size() &&
                 std::equal(a->begin(), a->end(), b->begin());
        };
        if (!same(c->source()->shape(), c->target()->shape()) ||
            c->source()->dtype() != c->target()->dtype())
          return fail(where + ", " + at,
                      "a copy between views of different shapes or types");
        break;
      }
      case tcx::Step::AllReduce:
        if (!check(entry->step_as_AllReduce()->buffer(), at + " (allreduce)"))
          return false;
        break;
      default:
        return fail(where + ", " + at, "an unknown kind of step");
      }
    }
  }
  return true;
}

} // namespace tc::rt
