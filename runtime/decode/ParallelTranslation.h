//===- ParallelTranslation.h - sentences split among several decoders -----===//
//
// tc-run translate --workers N: N devices holding the same parameters, each
// translating every N-th source on a thread of its own (CTranslate2's
// inter_threads). On a small CPU, N single-threaded decoders keep the cores
// busier than one decoder whose every op is split among them: a step's ops
// are small. A sentence's translation does not depend on which sentences
// share its steps (Translator.h), so the output is the one decoder's.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_PARALLELTRANSLATION_H
#define TC_RUNTIME_DECODE_PARALLELTRANSLATION_H

#include "runtime/decode/Translator.h"

namespace tc::rt {

/// translate() of `sources` on `devices` (each holding the parameters), the
/// sources dealt out in turn; `onWorkerThread` runs first on each worker's
/// thread (the tool sets its OpenMP threads there); `progress` hears the
/// sum of the workers' counts, from one thread at a time. None with `error`
/// (the first worker's that failed) when one fails; an exception a worker
/// throws (a device's failure) is rethrown here once every worker has
/// ended (the others finish their shares first).
std::optional<Translations> translateInParallel(
    const Executable &executable, const std::vector<Device *> &devices,
    const std::vector<std::vector<int32_t>> &sources,
    const SearchOptions &options, std::string &error,
    const std::function<void()> &onWorkerThread,
    const std::function<void(size_t done, int64_t tokens)> &progress =
        nullptr);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_PARALLELTRANSLATION_H
