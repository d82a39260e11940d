//===- Executable.cpp - a loaded and verified .tcx ------------------------===//

#include "runtime/Executable.h"
#include "runtime/Verifier.h"
#include "runtime/format/TcxBucket.h"
#include "runtime/format/TcxFile.h"
#include "support/FileBytes.h"

#include <algorithm>
#include <fstream>
#include <iterator>

namespace tc::rt {

bool isRowMajor(const tcx::Buffer &buffer) {
  int64_t expected = 1;
  for (size_t d = buffer.shape()->size(); d-- > 0;) {
    if (buffer.shape()->Get(d) != 1 && buffer.strides()->Get(d) != expected)
      return false;
    expected *= buffer.shape()->Get(d);
  }
  return true;
}

bool servesEveryTargetLength(tcx::FunctionRole role) {
  return role == tcx::FunctionRole::Encode ||
         role == tcx::FunctionRole::DecodeStart;
}

int64_t endOf(const tcx::Buffer &buffer) {
  int64_t last = 0, elements = 1;
  for (size_t d = 0; d < buffer.shape()->size(); ++d) {
    elements *= buffer.shape()->Get(d);
    last += (buffer.shape()->Get(d) - 1) * buffer.strides()->Get(d);
  }
  if (elements == 0)
    return buffer.offset();
  return buffer.offset() + (last + 1) * tcx::sizeOf(buffer.dtype());
}

std::unique_ptr<Executable> Executable::load(const std::string &path,
                                             std::string &error) {
  std::optional<std::vector<uint8_t>> bytes =
      support::readFileBytes(path, tcx::kMaxFileBytes, error);
  if (!bytes) {
    error += " (an executable, written by tc-compile -o FILE.tcx)";
    return nullptr;
  }
  return fromBytes(std::move(*bytes), path, error);
}

std::optional<support::Precision>
precisionOf(const tcx::Executable &executable) {
  if (!executable.precision())
    return support::Precision::F32;
  return support::precisionNamed(executable.precision()->string_view());
}

uint64_t Executable::fingerprint() const {
  return tcx::checksum(bytes_.data(), bytes_.size());
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
  if (!verifyExecutable(*executable->root_, why)) {
    error = name + ": " + why +
            "; the file is inconsistent, rebuild it with tc-compile";
    return nullptr;
  }
  return executable;
}

const tcx::Function *findFunction(const tcx::Executable &executable,
                                  tcx::FunctionRole role,
                                  const contract::BucketShape &bucket) {
  contract::BucketShape key = bucket;
  if (servesEveryTargetLength(role))
    key.targetLength = 0;
  if (executable.functions())
    for (const tcx::Function *f : *executable.functions())
      if (f->role() == role && f->bucket() && tcx::shapeOf(*f->bucket()) == key)
        return f;
  return nullptr;
}

std::string codeModuleName(const tcx::CodeModule &module) {
  if (module.kind() == tcx::CodeKind::Host)
    return "host-" + (module.host_level() ? module.host_level()->str() : "?");
  return contract::cudaArchitectureName(module.cuda_arch(),
                                        module.kind() == tcx::CodeKind::Ptx);
}

const tcx::Function *Executable::function(const std::string &name) const {
  if (!root_->functions())
    return nullptr;
  for (const tcx::Function *f : *root_->functions())
    if (f->name() && f->name()->str() == name)
      return f;
  return nullptr;
}

SpaceSizes Executable::bindingSpaceSizes(const tcx::Function &function,
                                         SpaceSizes sizes) {
  for (auto [bindings, space] :
       {std::pair(function.inputs(), tcx::Space::Inputs),
        std::pair(function.outputs(), tcx::Space::Outputs)}) {
    sizes[space] = 0;
    if (bindings)
      for (const tcx::Binding *binding : *bindings)
        if (binding->buffer()->space() == space) // not state (see tcx.fbs)
          sizes[space] = std::max(sizes[space], endOf(*binding->buffer()));
  }
  return sizes;
}

SpaceSizes stateSpaceSizes(const tcx::Executable &x) {
  SpaceSizes sizes;
  for (tcx::Space space : {tcx::Space::Params, tcx::Space::Grads,
                           tcx::Space::AdamM, tcx::Space::AdamV})
    sizes[space] = x.param_bytes();
  sizes[tcx::Space::ParamCopies] = x.param_copy_bytes();
  sizes[tcx::Space::Constants] = x.constants() ? x.constants()->size() : 0;
  return sizes;
}

SpaceSizes Executable::sharedSpaceSizes() const {
  SpaceSizes sizes = stateSpaceSizes(*root_);
  for (const tcx::Function *f : *root_->functions())
    sizes[tcx::Space::Arena] =
        std::max(sizes[tcx::Space::Arena], f->arena_bytes());
  return sizes;
}

SpaceSizes Executable::spaceSizes(const tcx::Function &function) const {
  SpaceSizes sizes = sharedSpaceSizes();
  sizes[tcx::Space::Arena] = function.arena_bytes();
  return bindingSpaceSizes(function, sizes);
}

const tcx::Binding *findBinding(const tcx::Function &function,
                                std::string_view name, bool output) {
  auto bindings = output ? function.outputs() : function.inputs();
  if (bindings)
    for (const tcx::Binding *b : *bindings)
      if (b->name()->string_view() == name)
        return b;
  return nullptr;
}

int64_t bindingBytes(const tcx::Function &function, std::string_view name,
                     bool output) {
  const tcx::Binding *b = findBinding(function, name, output);
  if (!b)
    return 0;
  int64_t bytes = tcx::sizeOf(b->buffer()->dtype());
  for (int64_t extent : *b->buffer()->shape())
    bytes *= extent;
  return bytes;
}

} // namespace tc::rt
