//===- OpKernels.cpp - host C++ for the optimizer, embedding and data ops --===//
//
// The ops with a kernel of their own: tc.adam over every parameter, the
// embedding lookup (plain, or with scale, positions and dropout), its
// scatter-add gradient, the incremental decoder's cache update and top-k,
// the data movement ops that are copies (transpose, concat, a
// non-contiguous slice) and the mask and position generators; emitOpKernel
// picks the body by op.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/OpKernels.h"
#include "compiler/codegen/ElementTypes.h"
#include "compiler/codegen/KernelText.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace tc::codegen {

namespace {

int64_t elements(Value v) {
  return cast<RankedTensorType>(v.getType()).getNumElements();
}

/// A copy of a strided part of in0 (a transpose's or a slice's) into out0,
/// contiguous, of shape `out`: result dimension d steps `steps[d]` input
/// elements and starts at `offsets[d]`. On the host a row of the last
/// dimension per iteration, its column k a loop of its own (contiguous
/// where that dimension is the input's last: a vector copy; a flat loop
/// with a division per dimension and element copied a decoder step's
/// 64 x 768 Q/K/V split at 44 us on two Zen 5 threads); on CUDA a thread
/// per element.
std::string copyLoop(ArrayRef<int64_t> out, ArrayRef<int64_t> steps,
                     ArrayRef<int64_t> offsets, Target target) {
  int64_t columns = out.empty() ? 1 : out.back(), count = 1;
  for (int64_t extent : out)
    count *= extent;
  std::string source;
  int64_t rowStride = 1; // of dimension d among the rows' dimensions
  for (size_t d = out.size(); d-- > 0;) {
    std::string coordinate =
        d + 1 == out.size()
            ? std::string("k")
            : llvm::formatv("o / {0} % {1}", rowStride, out[d]).str();
    if (d + 1 < out.size())
      rowStride *= out[d];
    source += llvm::formatv("{0}({1} + {2}) * {3}", source.empty() ? "" : " + ",
                            coordinate, offsets[d], steps[d])
                  .str();
  }
  if (source.empty())
    source = "0";
  if (count == 0) // nothing to copy (and no row length to divide by)
    return "";
  if (target == Target::Cuda)
    return fill(R"cpp(  TC_FOR(i, @0) {
    const int64_t o = i / @1, k = i % @1;
    out0[i] = in0[@2];
  }
)cpp",
                {std::to_string(count), std::to_string(columns), source});
  return fill(
      R"cpp(  TC_FOR(o, @0)
    for (int64_t k = 0; k < @1; ++k)
      out0[o * @1 + k] = in0[@2];
)cpp",
      {std::to_string(count / columns), std::to_string(columns), source});
}

/// tc.transpose: result dimension d is input dimension perm[d].
std::string transposeBody(TransposeOp transpose, Target target) {
  ArrayRef<int64_t> in = shapeOf(transpose.getInput());
  SmallVector<int64_t> inStrides = plan::BufferAttr::contiguousStrides(in), out,
                       steps;
  for (int64_t p : transpose.getPermutation()) {
    out.push_back(in[p]);
    steps.push_back(inStrides[p]);
  }
  return copyLoop(out, steps, SmallVector<int64_t>(out.size(), 0), target);
}

/// tc.slice: the input's strides, from its offsets.
std::string sliceBody(SliceOp slice, Target target) {
  return copyLoop(
      shapeOf(slice.getResult()),
      plan::BufferAttr::contiguousStrides(shapeOf(slice.getInput())),
      slice.getOffsets(), target);
}

/// tc.cache_update in place (out0 is in0): each row's new value written at
/// its position; on the host a row per iteration (a contiguous copy), on
/// CUDA a thread per (row, channel). A position outside the cache (which
/// the runtime never passes) writes nothing.
std::string cacheUpdateBody(ArrayRef<int64_t> cache, Target target) {
  std::string sizes = fill(R"cpp(  const int64_t R = @0, T = @1, C = @2;
  const int32_t *position = in2;
  @E *cache = out0; // in0 too: the update is in place
  (void)in0;
)cpp",
                           {std::to_string(cache[0]), std::to_string(cache[1]),
                            std::to_string(cache[2])});
  if (target == Target::Cuda)
    return sizes + R"cpp(  TC_FOR(i, R * C) {
    const int64_t r = i / C, c = i % C;
    if (position[r] >= 0 && position[r] < T)
      cache[(r * T + position[r]) * C + c] = in1[i];
  }
)cpp";
  return sizes + R"cpp(  TC_FOR(r, R)
    if (position[r] >= 0 && position[r] < T)
      std::memcpy(cache + (r * T + position[r]) * C, in1 + r * C,
                  C * sizeof(@E));
)cpp";
}

/// tc.beam_history in place (out0 is in0), a thread per position j: it
/// reads column j of every row's origin before writing any (the R x T
/// integers of the parent table are what beam reselection moves). A row
/// whose origin or position lies outside the table is left alone.
std::string beamHistoryBody(ArrayRef<int64_t> history) {
  return fill(R"cpp(  const int64_t R = @0, T = @1;
  const int32_t *origin = in1, *position = in2;
  int32_t *history = out0; // in0 too: the update is in place
  (void)in0;
  TC_FOR(j, T) {
    int32_t column[R];
    for (int64_t r = 0; r < R; ++r) {
      const bool inside = origin[r] >= 0 && origin[r] < R &&
                          position[r] >= 0 && position[r] < T;
      column[r] = !inside            ? history[r * T + j]
                  : j < position[r]  ? history[origin[r] * T + j]
                  : j == position[r] ? int32_t(r)
                                     : history[r * T + j];
    }
    for (int64_t r = 0; r < R; ++r)
      history[r * T + j] = column[r];
  }
)cpp",
              {std::to_string(history[0]), std::to_string(history[1])});
}

/// tc.top_k: a row per iteration (an OpenMP thread's on the host, a
/// thread's on CUDA), selected by the prelude's tc::topKOfRow.
std::string topKBody(TopKOp top) {
  ArrayRef<int64_t> shape = shapeOf(top.getInput());
  int64_t n = shape.back();
  return fill(R"cpp(  TC_FOR(r, @2) {
    const @E *row = in0 + r * @0;
    tc::topKOfRow<@E>(@0, @1, [&](int64_t j) { return row[j]; }, out0 + r * @1,
                      out1 + r * @1);
  }
)cpp",
              {std::to_string(n), std::to_string(top.getK()),
               std::to_string(elements(top.getInput()) / n)});
}

/// Both forms' positions of task (r, ...): j's cache row and whether j is
/// scored (fill's @7 and @9, substituted after this fragment, @11).
const char kAttentionPositions[] =
    R"cpp(    // Position j's cache row; one outside the cache is not read.
    auto row = [&](int64_t j) -> int64_t { return @7; };
    auto allowed = [&](int64_t j) {
      const int64_t c = row(j);
      return c >= 0 && c < C && @9;
    };)cpp";

/// tc.cached_attention: the scores of the allowed positions only (up to the
/// row's limit, where the key mask allows), their softmax, then the context,
/// accumulated over the positions a vector of dv at a time. The dot products
/// keep `lanes` partial sums (tc::dotInLanes), so that the host compiler
/// vectorises them without reordering a sum itself; the exponentials are
/// the row kernels' tc::rowExp in a loop of their own (vectorised on the
/// host, where std::exp was a libm call per position), a masked position's
/// 0, then summed in order. With a history, position j is read from cache row history[r, j]
/// (the beam's parent table), else from the row's slot.
/// A task per (row, head) (on CUDA a warp each, below); on the host, where there
/// are at least 64 rows (a decoder step's, a task for each of 64 threads),
/// a task per row, which scores a position for all its heads one after the
/// other: their chains of dependent adds overlap, where a head alone waited
/// on its own (the demo decoder's attention on a Zen 3, two threads: 126 ->
/// 105 us a call for the self-attention, 141 -> 108 for the cross-attention;
/// the same bits, each head's sums in the same order). One sentence's few
/// rows keep a task per head, for the threads to share.
/// On CUDA a warp per (row, head) (kCudaAttentionBody): its lanes score
/// positions lane, lane + 32, ... into shared memory, each dot product in
/// the host's order; the maximum through shuffles (order-free); every lane
/// sums the exponentials in position order, so the sum is the host's; then
/// each lane its channels of the context (lane, lane + 32, ...), over the
/// positions in order, a position's weight computed once for them: the host's
/// arithmetic in the host's order (NVRTC's --fmad=true may fuse its
/// multiply-adds, as it did in the thread per (row, head) this replaces,
/// which kept the scores in local memory and walked every position and
/// channel alone: 512 threads for a decoder step of 64 rows and 8 heads).
/// `lane` is threadIdx.x: blocks of one warp (CudaBackend's launchGeometry).
const char kCudaAttentionBody[] = R"cpp(  const int64_t R = @0, C = @1, L = @2, H = @3, DK = @4, DV = @5,
                LANES = @6;
  const @E scale = @E(1.0 / std::sqrt(double(DK)));
  __shared__ @E score[L];
  const int64_t lane = threadIdx.x;
  for (int64_t task = blockIdx.x; task < R * H; task += gridDim.x) {
    const int64_t r = task / H, h = task % H, last = @8;
@11
    const @E *q = in0 + r * H * DK + h * DK;
    @E top = -3.0e38f;
    for (int64_t j = lane; j <= last; j += 32) {
      @E s = -3.0e38f; // a masked position's exponential is 0
      if (allowed(j)) {
        const @E *k = in1 + (row(j) * L + j) * H * DK + h * DK;
        s = tc::dotInLanes<LANES>(DK, q, k) * scale;
      }
      score[j] = s;
      top = s > top ? s : top;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      const @E other = __shfl_xor_sync(0xffffffffu, top, offset);
      top = other > top ? other : top;
    }
    for (int64_t j = lane; j <= last; j += 32)
      score[j] = tc::rowExp(score[j] - top);
    __syncwarp();
    @E sum = 0;
    for (int64_t j = 0; j <= last; ++j)
      sum += score[j];
    // Lane `lane` keeps channels lane, lane + 32, ...: each position's
    // weight is computed once for all of them.
    @E context[(DV + 31) / 32] = {};
    for (int64_t j = 0; j <= last; ++j) {
      if (!allowed(j))
        continue;
      const @E weight = score[j] / sum,
               *v = in2 + (row(j) * L + j) * H * DV + h * DV;
      for (int64_t e = 0; lane + 32 * e < DV; ++e)
        context[e] += weight * v[lane + 32 * e];
    }
    @E *out = out0 + r * H * DV + h * DV;
    for (int64_t e = 0; lane + 32 * e < DV; ++e)
      out[lane + 32 * e] = context[e];
    __syncwarp(); // every lane has read the scores before the next task's
  }
)cpp";

} // namespace

bool cachedAttentionOnWarps(CachedAttentionOp attention) {
  constexpr int64_t kSharedBytes = 48 * 1024;
  return shapeOf(attention.getKeys())[1] * int64_t(sizeof(float)) <=
         kSharedBytes;
}

namespace {

std::string cachedAttentionBody(CachedAttentionOp attention, Target target) {
  ArrayRef<int64_t> keys = shapeOf(attention.getKeys());
  int64_t heads = attention.getHeads();
  int64_t dk = keys[2] / heads, dv = shapeOf(attention.getValues())[2] / heads;
  // The optional operands' buffers follow the query, keys and values.
  int64_t next = 3;
  auto buffer = [&](Value v) { return v ? "in" + std::to_string(next++) : ""; };
  std::string slot = buffer(attention.getSlot());
  std::string history = buffer(attention.getHistory());
  std::string limit = buffer(attention.getLimit());
  std::string mask = buffer(attention.getKeyMask());
  int64_t lanes = dk % 8 == 0 ? 8 : 1;
  int64_t rows = shapeOf(attention.getQuery())[0];
  int64_t headsPerTask = target == Target::Host && rows >= 64 ? heads : 1;
  return fill(
      target == Target::Cuda && cachedAttentionOnWarps(attention)
          ? kCudaAttentionBody
          : R"cpp(  const int64_t R = @0, C = @1, L = @2, H = @3, DK = @4, DV = @5,
                LANES = @6, HT = @10; // HT: heads per task
  const @E scale = @E(1.0 / std::sqrt(double(DK)));
  TC_FOR(task, R * (H / HT)) {
    const int64_t r = task / (H / HT), first = task % (H / HT) * HT,
                  last = @8;
@11
    const @E *q = in0 + r * H * DK + first * DK;
    @E score[HT][L], top[HT];
    for (int64_t t = 0; t < HT; ++t)
      top[t] = -3.0e38f;
    for (int64_t j = 0; j <= last; ++j) {
      if (!allowed(j)) {
        for (int64_t t = 0; t < HT; ++t)
          score[t][j] = -3.0e38f; // its exponential is 0
        continue;
      }
      const @E *k = in1 + (row(j) * L + j) * H * DK + first * DK;
      for (int64_t t = 0; t < HT; ++t) {
        score[t][j] = tc::dotInLanes<LANES>(DK, q + t * DK, k + t * DK) * scale;
        top[t] = score[t][j] > top[t] ? score[t][j] : top[t];
      }
    }
    for (int64_t t = 0; t < HT; ++t) {
      const int64_t h = first + t;
      @E context[DV], sum = 0;
      for (int64_t d = 0; d < DV; ++d)
        context[d] = 0;
      for (int64_t j = 0; j <= last; ++j)
        score[t][j] = tc::rowExp(score[t][j] - top[t]);
      for (int64_t j = 0; j <= last; ++j)
        sum += score[t][j];
      for (int64_t j = 0; j <= last; ++j) {
        if (!allowed(j))
          continue;
        const @E weight = score[t][j] / sum,
                 *v = in2 + (row(j) * L + j) * H * DV + h * DV;
        for (int64_t d = 0; d < DV; ++d)
          context[d] += weight * v[d];
      }
      @E *out = out0 + r * H * DV + h * DV;
      for (int64_t d = 0; d < DV; ++d)
        out[d] = context[d];
    }
  }
)cpp",
      {std::to_string(rows), std::to_string(keys[0]),
       std::to_string(keys[1]), std::to_string(heads),
       std::to_string(dk), std::to_string(dv), std::to_string(lanes),
       !history.empty() ? "int64_t(" + history + "[r * L + j])"
       : !slot.empty()  ? "int64_t(" + slot + "[r])"
                        : "r",
       limit.empty()
           ? "L - 1"
           : "(" + limit + "[r] < L ? int64_t(" + limit + "[r]) : L - 1)",
       mask.empty() ? "true" : "bool(" + mask + "[c * L + j])",
       std::to_string(headsPerTask), kAttentionPositions});
}

/// tc.adam over every parameter. Operands: p..., g..., m..., v...,
/// step_size, rsqrt_correction2, grad_scale, then the bf16 copies c... (or
/// none); results p'..., m'..., v'..., c'... One loop over the tensors,
/// their sizes in a table: the text stays the same size however many
/// parameters there are (a block of code per tensor made a 16 + 16-layer
/// model's kernel one function of 12,000 lines, most of the compile's time
/// and memory). Each parameter's pointers are declared inside the loop, so
/// that they are live one tensor at a time (all of them at once spill
/// registers on the GPU). Each loop starts on the grid's first thread: on
/// an H100 (2026-11-27, the 253 tensors of transformer_base), starting each
/// where the one before ended took the per-tensor kernel from 1.5 to 2.4 ms
/// with a division per tensor, and to 3.1 ms without one (not understood;
/// perhaps the two more registers live across the loops).
/// The update computes in kOptimizerType (@C); a copy is the stored new
/// parameter, rounded once.
std::string adamBody(AdamOp adam, const TargetBackend &backend) {
  size_t n = adam.getParams().size();
  bool copies = !adam.getParamCopies().empty();
  double beta1 = adam.getBeta1().convertToDouble();
  double beta2 = adam.getBeta2().convertToDouble();
  std::string compute = *backend.spell(kOptimizerType);
  std::string body = spellTypes(
      fill(R"cpp(  const @C stepSize = static_cast<const @S *>(buffers[@0])[0],
              c2 = static_cast<const @S *>(buffers[@1])[0],
              scale = static_cast<const @S *>(buffers[@2])[0];
  const @C b1 = @3f, oneMinusB1 = @4f, b2 = @5f, oneMinusB2 = @6f,
              eps = @7f;
)cpp",
           {std::to_string(4 * n), std::to_string(4 * n + 1),
            std::to_string(4 * n + 2), number(beta1), number(1 - beta1),
            number(beta2), number(1 - beta2),
            number(adam.getEpsilon().convertToDouble())}),
      {{"@C", compute}, {"@S", *backend.spell(adam->getOperand(4 * n))}});
  if (n == 0)
    return body; // nothing to update (no zero-length table: NVRTC refuses)
  size_t outputs = 4 * n + 3 + adam.getParamCopies().size();
  // The tensors share their element types (checked where the kernel is
  // asked for; the copies are bf16 by tc.adam's verifier).
  std::string sizes;
  for (size_t p = 0; p < n; ++p)
    sizes += (p ? ", " : "") + std::to_string(elements(adam.getParams()[p]));
  body += spellTypes(
      fill(R"cpp(  static constexpr int64_t kElements[@0] = {@1};
  for (int64_t p = 0; p < @0; ++p) {
    const @E *param = static_cast<const @E *>(buffers[p]);
    const @E *grad = static_cast<const @E *>(buffers[@0 + p]);
    const @E *first = static_cast<const @E *>(buffers[@2 + p]);
    const @E *second = static_cast<const @E *>(buffers[@3 + p]);
    @E *newParam = static_cast<@E *>(buffers[@4 + p]);
    @E *newFirst = static_cast<@E *>(buffers[@5 + p]);
    @E *newSecond = static_cast<@E *>(buffers[@6 + p]);
@7    TC_FOR_LANES(i, kElements[p]) {
      @C g = grad[i] * scale;
      @C m = b1 * first[i] + oneMinusB1 * g;
      @C v = b2 * second[i] + oneMinusB2 * (g * g);
      newFirst[i] = m;
      newSecond[i] = v;
      @E updated = param[i] - stepSize * m / (std::sqrt(v) * c2 + eps);
      newParam[i] = updated;
@8    }
  }
)cpp",
           {std::to_string(n), sizes, std::to_string(2 * n),
            std::to_string(3 * n), std::to_string(outputs),
            std::to_string(outputs + n), std::to_string(outputs + 2 * n),
            copies ? "    @B *newCopy = static_cast<@B *>(buffers[" +
                         std::to_string(outputs + 3 * n) + " + p]);\n"
                   : "",
            copies ? "      tc::storeBits(newCopy + i, @B(updated));\n"
                   : ""}),
      {{"@E", *backend.spell(adam.getParams()[0])},
       {"@C", compute},
       {"@B", copies ? *backend.spell(adam.getParamCopies()[0]) : ""}});
  return body;
}

/// tc.embed: the lookup scaled, plus the positions, with dropout; without
/// dropout (inference), no mask and no RNG read. Host: a token per
/// iteration, its row vectorised; CUDA: an element per thread (a thread per
/// token, looping over its row, took 30x the kernel's bytes on an H100).
std::string embedBody(EmbedOp embed, Target target) {
  ArrayRef<int64_t> table = shapeOf(embed.getTable());
  double rate = embed.getRate().convertToDouble();
  std::string key = std::to_string(int64_t(embed.getKey()));
  std::string mask = rate > 0
                         ? "  const uint64_t seed = in3[0], step = in3[1];\n"
                           "  TC_DROPOUT_MASK(mask, " +
                               key + ", " + number(rate) + ", tokens * D)\n"
                         : "  (void)in3;\n";
  std::string keep = rate > 0 ? "(TC_KEEPS(mask, " + key + ", " + number(rate) +
                                    ", i) ? " + number(1.0 / (1.0 - rate)) +
                                    " : 0.0)"
                              : "1.0";
  std::string loop = target == Target::Cuda ? R"cpp(  TC_FOR(i, tokens * D) {
    int64_t t = i / D, d = i % D, id = in1[t];
    {
)cpp"
                                            : R"cpp(  TC_FOR(t, tokens) {
    int64_t id = in1[t];
    for (int64_t d = 0; d < D; ++d) {
      int64_t i = t * D + d;
)cpp";
  return fill(R"cpp(  const int64_t V = @0, D = @1, T = @2, tokens = @3;
@5@7      @A x = (id >= 0 && id < V ? @A(in0[id * D + d]) : 0.0) * @4 +
                 @A(in2[(t % T) * D + d]);
      out0[i] = @E(x * @6);
    }
  }
)cpp",
              {std::to_string(table[0]), std::to_string(table[1]),
               std::to_string(shapeOf(embed.getIds())[1]),
               std::to_string(elements(embed.getIds())),
               number(embed.getScale().convertToDouble()), mask, keep, loop});
}

/// tc.embedding_grad: the table's gradient, each row the sum of the rows of
/// `dy` whose token has its id, in token order from zero (the interpreter's
/// sums); tc.embedding_grad_add: the same sums onto its base, in place (its
/// rows not zeroed first). Tokens of the op's padding_id are skipped (as
/// ids outside the table are): at the paper's batch they were half of the
/// tokens, added in turn by padding row's owner block, 82x the kernel's
/// bytes on an H200. Deterministic, no atomics: an element has one writer. Host:
/// blocks of columns across threads, each scanning every token. CUDA: block
/// b owns the table rows id = b (mod the grid) and zeroes them; it reads the
/// ids a chunk of blockDim tokens at a time, each warp's owned tokens a bit
/// of a word (__ballot_sync), and adds their rows in token order, a thread
/// per column, into a running sum in registers while the row stays the
/// same. The rows of up to kBatch owned tokens are loaded before they are
/// added (in order), so that a row owning many tokens (padding: half of a
/// batch) waits for one load per batch rather than per token. Each
/// thread keeps kSlots columns, a pass over the ids per kSlots x blockDim
/// columns. (A tile of 8 columns per block, a thread scanning every token,
/// took 1.7 ms for 4096 tokens into 37000 x 512 on an H100, and so did
/// owned rows adding a token at a time: the owner of padding's row waited
/// for ~2,000 loads and stores in turn.)
std::string embeddingGradBody(Operation *op, Value ids, Value outputGrad,
                              std::optional<int64_t> paddingId, Target target) {
  ArrayRef<int64_t> table = shapeOf(op->getResult(0));
  // tc.embedding_grad_add's table is its base's buffer (out0 is in0): its
  // rows are not zeroed first.
  bool zeroFirst = isa<EmbeddingGradOp>(op);
  auto input = [&](Value v) {
    return "in" + std::to_string(llvm::find(op->getOperands(), v) -
                                 op->operand_begin());
  };
  // -1 where there is no padding: an id outside the table, skipped anyway.
  std::string sizes =
      fill("  const int64_t V = @0, D = @1, tokens = @2, padding = @5;\n"
           "  const auto *ids = @3;\n  const auto *dy = @4;\n",
           {std::to_string(table[0]), std::to_string(table[1]),
            std::to_string(elements(ids)), input(ids), input(outputGrad),
            std::to_string(paddingId.value_or(-1))}) +
      (zeroFirst ? "" : "  (void)in0; // the base: out0 is its buffer\n");
  if (target == Target::Cuda) {
    // Enough slots for the whole row in one pass of a 256-thread block, up
    // to 4 (ptxas for sm_90: 8 slots put the batch of loads in local
    // memory, a 640-byte stack frame at D = 2048).
    int64_t slots = std::clamp<int64_t>((table[1] + 255) / 256, 1, 4);
    return sizes + fill(R"cpp(  constexpr int kSlots = @0, kBatch = 16;
  __shared__ unsigned owned[32]; // a word per warp, a bit per token
  for (int64_t base = 0; base < D; base += kSlots * blockDim.x) {
    auto column = [&](int s) { return base + s * blockDim.x + threadIdx.x; };
    for (int64_t id = blockIdx.x; id < V && @1; id += gridDim.x)
      for (int s = 0; s < kSlots; ++s)
        if (column(s) < D)
          out0[id * D + column(s)] = 0.0f;
    float run[kSlots];
    int64_t current = -1; // the row `run` holds
    auto flush = [&]() {
      if (current >= 0)
        for (int s = 0; s < kSlots; ++s)
          if (column(s) < D)
            out0[current * D + column(s)] = run[s];
    };
    for (int64_t chunk = 0; chunk < tokens; chunk += blockDim.x) {
      const int64_t t = chunk + threadIdx.x;
      const int64_t id = t < tokens ? ids[t] : -1;
      const unsigned bits = __ballot_sync(
          0xffffffffu, id >= 0 && id < V && id != padding &&
                           id % gridDim.x == blockIdx.x);
      if (threadIdx.x % 32 == 0)
        owned[threadIdx.x / 32] = bits;
      __syncthreads();
      unsigned warp = 0, left = owned[0];
      for (;;) {
        int64_t u[kBatch];
        int n = 0;
        for (; n < kBatch; ++n) {
          while (!left && warp + 1 < blockDim.x / 32)
            left = owned[++warp];
          if (!left)
            break;
          u[n] = chunk + warp * 32 + __ffs(int(left)) - 1;
          left &= left - 1;
        }
        if (n == 0)
          break;
        float x[kBatch][kSlots];
        for (int b = 0; b < kBatch; ++b)
          for (int s = 0; s < kSlots; ++s)
            x[b][s] = b < n && column(s) < D ? dy[u[b] * D + column(s)] : 0.0f;
        for (int b = 0; b < kBatch && b < n; ++b) {
          const int64_t row = ids[u[b]];
          if (row != current) {
            flush();
            current = row;
            for (int s = 0; s < kSlots; ++s)
              run[s] = column(s) < D ? out0[row * D + column(s)] : 0.0f;
          }
          for (int s = 0; s < kSlots; ++s)
            run[s] += x[b][s];
        }
      }
      __syncthreads(); // every thread has read `owned`
    }
    flush();
  }
)cpp",
                        {std::to_string(slots), zeroFirst ? "true" : "false"});
  }
  return sizes + fill(R"cpp(  TC_COLUMN_BLOCKS(k0, k1) {
    for (int64_t id = 0; id < V && @0; ++id)
      for (int64_t d = k0; d < k1; ++d)
        out0[id * D + d] = 0.0f;
    for (int64_t t = 0; t < tokens; ++t) {
      int64_t id = ids[t];
      if (id >= 0 && id < V && id != padding)
        for (int64_t d = k0; d < k1; ++d)
          out0[id * D + d] += dy[t * D + d];
    }
  }
)cpp",
                      {zeroFirst ? "true" : "false"});
}

/// tc.embedding, the plain gather (tc-fuse-embedding makes most lookups
/// tc.embed); an id outside the table reads zeros, as tc.embed does.
std::string embeddingBody(EmbeddingOp lookup, Target target) {
  ArrayRef<int64_t> table = shapeOf(lookup.getTable());
  std::string sizes =
      fill("  const int64_t V = @0, D = @1;\n",
           {std::to_string(table[0]), std::to_string(table[1])});
  int64_t count = elements(lookup.getResult());
  if (target == Target::Cuda)
    return sizes + fill(R"cpp(  TC_FOR(i, @0) {
    int64_t id = in1[i / D];
    out0[i] = id >= 0 && id < V ? in0[id * D + i % D] : @E(0);
  }
)cpp",
                        {std::to_string(count)});
  // A row per iteration on the host: a copy, not a gather an element.
  return sizes + fill(R"cpp(  TC_FOR(r, @0) {
    int64_t id = in1[r];
    if (id >= 0 && id < V)
      std::memcpy(out0 + r * D, in0 + id * D, D * sizeof(@E));
    else
      for (int64_t d = 0; d < D; ++d)
        out0[r * D + d] = @E(0);
  }
)cpp",
                      {std::to_string(count / table[1])});
}

/// tc.concat: each input copied into its place along the axis.
std::string concatBody(ConcatOp concat) {
  ArrayRef<int64_t> out = shapeOf(concat.getResult());
  int64_t axis = concat.getAxis(), inner = 1, start = 0;
  for (size_t d = axis + 1; d < out.size(); ++d)
    inner *= out[d];
  std::string body;
  for (auto [k, input] : llvm::enumerate(concat.getInputs())) {
    int64_t extent = shapeOf(input)[axis];
    body += fill(R"cpp(  TC_FOR(i, @0) {
    int64_t outer = i / (@1 * @2), rest = i % (@1 * @2);
    out0[(outer * @3 + @4) * @2 + rest] = in@5[i];
  }
)cpp",
                 {std::to_string(elements(input)), std::to_string(extent),
                  std::to_string(inner), std::to_string(out[axis]),
                  std::to_string(start), std::to_string(k)});
    start += extent;
  }
  return body;
}

/// The generators: tc.prefix_mask, tc.causal_mask, tc.padding_mask and
/// tc.positional_encoding; none for another op.
std::optional<std::string> generatorBody(Operation *op) {
  if (auto mask = dyn_cast<PrefixMaskOp>(op)) {
    int64_t t = shapeOf(mask.getResult())[1];
    return fill(
        R"cpp(  TC_FOR(i, @0)
    out0[i] = i % @1 <= in0[i / @1];
)cpp",
        {std::to_string(elements(mask.getResult())), std::to_string(t)});
  }
  if (auto mask = dyn_cast<CausalMaskOp>(op)) {
    int64_t t = shapeOf(mask.getResult())[0];
    return fill(R"cpp(  TC_FOR(i, @0)
    out0[i] = i % @1 <= i / @1;
)cpp",
                {std::to_string(t * t), std::to_string(t)});
  }
  if (auto mask = dyn_cast<PaddingMaskOp>(op))
    return fill(R"cpp(  TC_FOR(i, @0)
    out0[i] = in0[i] != @1;
)cpp",
                {std::to_string(elements(mask.getIds())),
                 std::to_string(int64_t(mask.getPadId()))});
  if (auto pe = dyn_cast<PositionalEncodingOp>(op)) {
    ArrayRef<int64_t> shape = shapeOf(pe.getResult());
    return fill(
        R"cpp(  TC_FOR(i, @0) {
    int64_t pos = i / @1, c = i % @1;
    @A angle = pos / std::pow(10000.0, @A(c - c % 2) / @1);
    out0[i] = @E(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
  }
)cpp",
        {std::to_string(shape[0] * shape[1]), std::to_string(shape[1])});
  }
  return std::nullopt;
}

/// The body of `op`'s kernel after the declarations of its buffers, its
/// types still marked (spellTypes); none for an op with no kernel here.
std::optional<std::string> opBody(Operation *op, Target target) {
  if (auto embed = dyn_cast<EmbedOp>(op))
    return embedBody(embed, target);
  if (auto grad = dyn_cast<EmbeddingGradOp>(op))
    return embeddingGradBody(op, grad.getIds(), grad.getOutputGrad(),
                             grad.getPaddingId(), target);
  if (auto grad = dyn_cast<EmbeddingGradAddOp>(op))
    return embeddingGradBody(op, grad.getIds(), grad.getOutputGrad(),
                             grad.getPaddingId(), target);
  if (auto lookup = dyn_cast<EmbeddingOp>(op))
    return embeddingBody(lookup, target);
  if (auto update = dyn_cast<CacheUpdateOp>(op))
    return cacheUpdateBody(shapeOf(update.getCache()), target);
  if (auto history = dyn_cast<BeamHistoryOp>(op))
    return beamHistoryBody(shapeOf(history.getHistory()));
  if (auto top = dyn_cast<TopKOp>(op))
    return topKBody(top);
  if (auto attention = dyn_cast<CachedAttentionOp>(op))
    return cachedAttentionBody(attention, target);
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return transposeBody(transpose, target);
  if (auto slice = dyn_cast<SliceOp>(op))
    return sliceBody(slice, target);
  if (auto concat = dyn_cast<ConcatOp>(op))
    return concatBody(concat);
  return generatorBody(op);
}

} // namespace

FailureOr<std::string> emitOpKernel(Operation *op, StringRef name,
                                    const TargetBackend &backend,
                                    std::string &error) {
  if (!hasCppTypes(op, backend, error))
    return failure();
  // Adam's update and the embedding gradient's sums compute in their
  // tensors' type, which is f32 (master weights, moments and gradients);
  // Adam's bf16 copies are only stored, each rounded from its new f32
  // parameter.
  auto adam = dyn_cast<AdamOp>(op);
  auto copy = [&](Value v) {
    return adam && (llvm::is_contained(adam.getParamCopies(), v) ||
                    llvm::is_contained(adam.getNewParamCopies(), v));
  };
  if (std::optional<std::string> bf16 = firstComputedWider(op, copy);
      bf16 && isa<AdamOp, EmbeddingGradOp, EmbeddingGradAddOp>(op)) {
    error = "'" + op->getName().getStringRef().str() + "': " + *bf16 +
            ", but its kernel updates f32 tensors only (parameters, Adam's "
            "moments and gradients stay f32 in every precision)";
    return failure();
  }
  // Adam declares its buffers itself, in one loop over its tensors, which
  // share one element type.
  if (adam)
    for (auto [i, param] : llvm::enumerate(adam.getParams()))
      if (elementTypeOf(param) != elementTypeOf(adam.getParams()[0])) {
        llvm::raw_string_ostream os(error);
        os << "'tc.adam': parameter #" << i << " is "
           << cast<RankedTensorType>(param.getType()).getElementType()
           << " and parameter #0 "
           << cast<RankedTensorType>(adam.getParams()[0].getType())
                  .getElementType()
           << ", but its kernel updates parameters of one element type; "
              "give them one type (f32)";
        return failure();
      }
  if (adam)
    return backend.kernel(name, adamBody(adam, backend));
  std::optional<std::string> body = opBody(op, backend.target());
  if (!body) {
    error = "no kernel for '" + op->getName().getStringRef().str() + "'";
    return failure();
  }
  return backend.kernel(
      name, bufferDeclarations(op, backend) +
                spellTypes(*body, {{"@E", *backend.spell(op->getResult(0))},
                                   {"@A", *backend.spell(kAccumulatorType)}}));
}

} // namespace tc::codegen
