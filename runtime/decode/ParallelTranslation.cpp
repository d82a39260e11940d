//===- ParallelTranslation.cpp - sentences split among several decoders ---===//

#include "runtime/decode/ParallelTranslation.h"

#include <exception>
#include <mutex>
#include <thread>

namespace tc::rt {

std::optional<Translations> translateInParallel(
    const Executable &executable, const std::vector<Device *> &devices,
    const std::vector<std::vector<int32_t>> &sources,
    const SearchOptions &options, std::string &error,
    const std::function<void()> &onWorkerThread,
    const std::function<void(size_t, int64_t)> &progress) {
  size_t workers = devices.size();
  std::vector<std::vector<size_t>> dealt(workers); // worker -> source indices
  for (size_t i = 0; i < sources.size(); ++i)
    dealt[i % workers].push_back(i);
  std::vector<std::optional<Translations>> parts(workers);
  std::vector<std::string> errors(workers);
  // A device that fails throws (tc-run reports it); a worker's exception is
  // carried to this thread, after every worker has been joined.
  std::vector<std::exception_ptr> thrown(workers);
  std::vector<std::pair<size_t, int64_t>> counts(workers); // done, tokens
  std::mutex reporting;
  auto translateShare = [&](size_t w) {
    if (onWorkerThread)
      onWorkerThread();
    std::vector<std::vector<int32_t>> mine;
    for (size_t i : dealt[w])
      mine.push_back(sources[i]);
    parts[w] = translate(executable, *devices[w], mine, options, errors[w],
                         [&](size_t done, int64_t tokens) {
                           std::lock_guard<std::mutex> lock(reporting);
                           counts[w] = {done, tokens};
                           size_t allDone = 0;
                           int64_t allTokens = 0;
                           for (auto [d, t] : counts) {
                             allDone += d;
                             allTokens += t;
                           }
                           if (progress)
                             progress(allDone, allTokens);
                         });
  };
  auto work = [&](size_t w) {
    try {
      translateShare(w);
    } catch (...) {
      thrown[w] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w)
    threads.emplace_back(work, w);
  work(0);
  for (std::thread &t : threads)
    t.join();
  for (const std::exception_ptr &e : thrown)
    if (e)
      std::rethrow_exception(e);
  Translations all;
  all.nBest.resize(sources.size());
  for (size_t w = 0; w < workers; ++w) {
    if (!parts[w]) {
      error = errors[w];
      return std::nullopt;
    }
    all.truncated += parts[w]->truncated;
    all.unfinished += parts[w]->unfinished;
    all.targetTokens += parts[w]->targetTokens;
    for (size_t k = 0; k < dealt[w].size(); ++k)
      all.nBest[dealt[w][k]] = std::move(parts[w]->nBest[k]);
  }
  return all;
}

} // namespace tc::rt
