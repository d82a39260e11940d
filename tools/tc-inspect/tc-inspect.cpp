//===- tc-inspect.cpp - prints what a .tcx executable holds ---------------===//
//
//   tc-inspect model.tcx              # summary: parameters, functions, kernels
//   tc-inspect model.tcx --steps      # and every step of every function
//   tc-inspect model.tcx --params     # and the parameter table
//   tc-inspect model.tcx --kernel=NAME  # the source of one kernel
//   tc-inspect train.tok              # a token file: pairs, lengths, vocabulary
//   tc-inspect train.tok --text       # its pairs decoded, source TAB target
//
// Links only the runtime (no MLIR, no LLVM): what it prints is exactly what
// tc-run sees. Exit codes: 0 success, 2 bad usage or an unreadable file.
//
//===----------------------------------------------------------------------===//

#include "InspectTokenFile.h"
#include "runtime/Executable.h"
#include "runtime/format/GemmTypes.h"
#include "runtime/format/TcxFile.h"
#include "runtime/format/TokenFile.h"
#include "support/FileBytes.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

using namespace tc;

namespace {

const char *kUsage =
    "usage: tc-inspect FILE.tcx [--steps] [--params] [--kernel=NAME]\n"
    "  Prints what a tc executable holds: its precision, its parameters, its\n"
    "  functions (one per shape bucket: train_step, encode, decode) with\n"
    "  their arena size, inputs, outputs and steps, and its kernels.\n"
    "  --steps        every step of every function\n"
    "  --params       the parameter table (name, shape, offset, initializer)\n"
    "  --kernel=NAME  the generated source of kernel NAME\n"
    "usage: tc-inspect FILE.tok [--text]\n"
    "  Prints what a token file (tc-run prepare) holds: pairs, lengths and\n"
    "  its vocabulary.\n"
    "  --text         every pair decoded: source, a tab, target\n"
    "Exit codes: 0 printed; 2 bad input (a file that is not one of these,\n"
    "  a bad flag); 3 standard output could not be written.\n";

std::string shapeOf(const tcx::Buffer &b) {
  std::string text;
  for (int64_t extent : *b.shape())
    text += std::to_string(extent) + "x";
  return text + tcx::EnumNameDType(b.dtype());
}

std::string describe(const tcx::Buffer &b) {
  std::string text = std::string(tcx::EnumNameSpace(b.space())) + "+" +
                     std::to_string(b.offset()) + ":" + shapeOf(b);
  bool contiguous = true;
  int64_t expected = 1;
  for (size_t d = b.shape()->size(); d-- > 0;) {
    if (b.shape()->Get(d) != 1 && b.strides()->Get(d) != expected)
      contiguous = false;
    expected *= b.shape()->Get(d);
  }
  if (!contiguous) {
    text += " strides[";
    for (size_t d = 0; d < b.strides()->size(); ++d)
      text += (d ? "," : "") + std::to_string(b.strides()->Get(d));
    text += "]";
  }
  return text;
}

std::string list(const flatbuffers::Vector<int64_t> *values) {
  std::string text = "[";
  for (size_t i = 0; values && i < values->size(); ++i)
    text += (i ? "," : "") + std::to_string(values->Get(i));
  return text + "]";
}

void printStep(const tcx::Executable &x, size_t index,
               const tcx::StepEntry &entry) {
  std::printf("    %4zu ", index);
  switch (entry.step_type()) {
  case tcx::Step::Launch: {
    const tcx::Launch *l = entry.step_as_Launch();
    std::printf("launch %s grid%s block%s\n",
                x.kernels()->Get(l->kernel())->name()->c_str(),
                list(l->grid()).c_str(), list(l->block()).c_str());
    for (auto [buffers, label] :
         {std::pair(l->inputs(), "in "), std::pair(l->outputs(), "out")})
      if (buffers)
        for (const tcx::Buffer *b : *buffers)
          std::printf("           %s %s\n", label, describe(*b).c_str());
    break;
  }
  case tcx::Step::Gemm: {
    const tcx::Gemm *g = entry.step_as_Gemm();
    std::printf("%s\n", tcx::describe(*g).c_str());
    std::printf("           lhs %s\n           rhs %s\n           out %s\n",
                describe(*g->lhs()).c_str(), describe(*g->rhs()).c_str(),
                describe(*g->out()).c_str());
    break;
  }
  case tcx::Step::Copy:
    std::printf("copy %s -> %s\n",
                describe(*entry.step_as_Copy()->source()).c_str(),
                describe(*entry.step_as_Copy()->target()).c_str());
    break;
  case tcx::Step::AllReduce:
    std::printf("allreduce %s\n",
                describe(*entry.step_as_AllReduce()->buffer()).c_str());
    break;
  case tcx::Step::Wait:
    std::printf("wait\n");
    break;
  default:
    std::printf("?\n");
  }
}

/// What main does, with its exit code; main checks that stdout took it.
int inspect(int argc, char **argv) {
  std::string path, kernel;
  bool steps = false, params = false, text = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--steps") {
      steps = true;
    } else if (arg == "--params") {
      params = true;
    } else if (arg == "--text") {
      text = true;
    } else if (arg.rfind("--kernel=", 0) == 0) {
      kernel = arg.substr(9);
    } else if (arg.rfind("-", 0) == 0 || !path.empty()) {
      std::fprintf(stderr, "tc-inspect: error: unexpected argument '%s'\n%s",
                   arg.c_str(), kUsage);
      return 2;
    } else {
      path = arg;
    }
  }
  if (path.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (support::fileStartsWith(path, rt::kTokenFileMagic)) {
    if (steps || params || !kernel.empty()) {
      std::fprintf(stderr, "tc-inspect: error: --steps, --params and "
                           "--kernel apply to executables (.tcx)\n");
      return 2;
    }
    return inspectTokenFile(path, text);
  }
  if (text) {
    std::fprintf(stderr, "tc-inspect: error: --text applies to token files "
                         "(tc-run prepare)\n");
    return 2;
  }
  std::string error;
  std::unique_ptr<rt::Executable> executable =
      rt::Executable::load(path, error);
  if (!executable) {
    std::fprintf(stderr, "tc-inspect: error: %s\n", error.c_str());
    return 2;
  }
  const tcx::Executable &x = executable->root();

  if (!kernel.empty()) {
    if (x.kernels())
      for (const tcx::Kernel *k : *x.kernels())
        if (k->name()->str() == kernel) {
          std::fputs(k->source() ? k->source()->c_str() : "", stdout);
          return 0;
        }
    std::fprintf(stderr,
                 "tc-inspect: error: %s has no kernel '%s' (see the "
                 "launches of --steps for the names)\n",
                 path.c_str(), kernel.c_str());
    return 2;
  }

  std::printf("%s: tc executable, format version %u, by %s\n", path.c_str(),
              tcx::kFormatVersion, x.producer() ? x.producer()->c_str() : "?");
  const support::PrecisionInfo &precision =
      support::info(executable->precision());
  std::printf("precision: %.*s - %.*s\n", int(precision.name.size()),
              precision.name.data(), int(precision.meaning.size()),
              precision.meaning.data());
  size_t paramCount = x.parameters() ? x.parameters()->size() : 0;
  std::printf("parameters: %zu tensors, %lld bytes (%lld floats)", paramCount,
              (long long)x.param_bytes(), (long long)x.param_bytes() / 4);
  if (x.param_copy_bytes() > 0) // tc-use-param-copies
    std::printf(", and their bf16 copies: %lld bytes",
                (long long)x.param_copy_bytes());
  std::printf("\n");
  if (params && x.parameters())
    for (const tcx::Parameter *p : *x.parameters())
      std::printf("  %-50s %-14s params+%-10lld %s(%g)\n", p->name()->c_str(),
                  shapeOf(*p->buffer()).c_str(),
                  (long long)p->buffer()->offset(),
                  tcx::EnumNameInitKind(p->init()), p->scale());
  std::printf("constants: %u bytes\n",
              x.constants() ? x.constants()->size() : 0);
  std::printf("functions: %u\n", x.functions()->size());
  for (const tcx::Function *f : *x.functions()) {
    std::map<std::string, int> counts;
    for (const tcx::StepEntry *entry : *f->steps())
      ++counts[tcx::EnumNameStep(entry->step_type())];
    std::printf("  %s: arena %lld bytes, %u steps (", f->name()->c_str(),
                (long long)f->arena_bytes(), f->steps()->size());
    bool first = true;
    for (auto &[kind, count] : counts) {
      std::printf("%s%d %s", first ? "" : ", ", count, kind.c_str());
      first = false;
    }
    std::printf(")\n");
    for (auto [bindings, label] :
         {std::pair(f->inputs(), "input "), std::pair(f->outputs(), "output")})
      if (bindings)
        for (const tcx::Binding *b : *bindings)
          std::printf("    %s %-14s %s\n", label, b->name()->c_str(),
                      describe(*b->buffer()).c_str());
    if (steps)
      for (size_t i = 0; i < f->steps()->size(); ++i)
        printStep(x, i, *f->steps()->Get(i));
  }
  std::printf("kernels: %u\n", x.kernels() ? x.kernels()->size() : 0);
  if (x.code())
    for (const tcx::CodeModule *m : *x.code())
      std::printf("code: %s, %u bytes, built with: %s\n",
                  tc::rt::codeModuleName(*m).c_str(),
                  m->binary() ? m->binary()->size() : 0,
                  m->options() ? m->options()->c_str() : "");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  int status = inspect(argc, argv);
  // A listing cut short (a full disk) is a failure, not a success.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr,
                 "tc-inspect: error: cannot write to standard output: %s\n",
                 std::strerror(errno));
    return status == 0 ? 3 : status;
  }
  return status;
}
