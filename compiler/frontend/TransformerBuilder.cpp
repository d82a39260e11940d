//===- TransformerBuilder.cpp - model description -> tc IR ----------------===//
//
// The model, as in "Attention Is All You Need" (section 3):
//   embeddings * sqrt(d_model) + positions, dropout
//   encoder layer: x = LayerNorm(x + Dropout(SelfAttention(x)))
//                  x = LayerNorm(x + Dropout(FFN(x)))
//   decoder layer: the same with causal self-attention, then attention over
//                  the encoder's memory, then the FFN
//   logits = y E^T with E the (shared) embedding; label-smoothed
//   cross-entropy over the target tokens that are not padding.
// Weights are stored [out, in], as PyTorch's nn.Linear stores them.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/TransformerBuilder.h"
#include "dialects/tc/TcDialect.h"
#include "runtime/format/Contract.h"
#include "support/PositionalEncoding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <cmath>
#include <set>

using namespace mlir;

namespace tc {
namespace {

using contract::FunctionRole;
namespace binding = contract::binding;

/// A parameter: its name, shape and initializer.
struct Param {
  std::string name;
  SmallVector<int64_t> shape;
  InitKind init;
  double scale = 0.0;
};

/// Every parameter of the model, in argument order.
std::vector<Param> modelParams(const ModelConfig &m) {
  std::vector<Param> params;
  int64_t d = m.dModel;
  double embeddingStd = 1.0 / std::sqrt(double(d));
  auto weight = [&](std::string name, int64_t out, int64_t in) {
    params.push_back({name + ".weight", {out, in}, InitKind::xavier_uniform});
  };
  auto bias = [&](std::string name, int64_t size) {
    params.push_back({name + ".bias", {size}, InitKind::zeros});
  };
  auto linear = [&](const std::string &name, int64_t out, int64_t in) {
    weight(name, out, in);
    bias(name, out);
  };
  auto layerNorm = [&](const std::string &name) {
    params.push_back({name + ".weight", {d}, InitKind::ones});
    bias(name, d);
  };
  auto attention = [&](const std::string &name) {
    // The Q, K and V weights are adjacent (then their biases), so that one
    // [3 h d_k, d_model] block holds them (see tc-fuse-qkv).
    weight(name + ".q", m.heads * m.dK, d);
    weight(name + ".k", m.heads * m.dK, d);
    weight(name + ".v", m.heads * m.dV, d);
    bias(name + ".q", m.heads * m.dK);
    bias(name + ".k", m.heads * m.dK);
    bias(name + ".v", m.heads * m.dV);
    linear(name + ".out", d, m.heads * m.dV);
    layerNorm(name + "_norm");
  };
  auto ffn = [&](const std::string &name) {
    linear(name + ".fc1", m.dFF, d);
    linear(name + ".fc2", d, m.dFF);
    layerNorm(name + "_norm");
  };
  auto embedding = [&](const std::string &name, int64_t rows) {
    params.push_back(
        {name + ".weight", {rows, d}, InitKind::normal, embeddingStd});
  };

  if (m.shareEmbeddings) {
    embedding("embedding", m.vocabSize);
  } else {
    embedding("source_embedding", m.vocabSize);
    embedding("target_embedding", m.vocabSize);
  }
  if (!m.tieOutput)
    weight("output_projection", m.vocabSize, d);
  if (m.positionalEncoding == PositionalEncoding::Learned) {
    embedding("source_positions", m.maxLength);
    embedding("target_positions", m.maxLength);
  }
  for (int64_t i = 0; i < m.encoderLayers; ++i) {
    std::string layer = "encoder.layers." + std::to_string(i);
    attention(layer + ".self_attn");
    ffn(layer + ".ffn");
  }
  for (int64_t i = 0; i < m.decoderLayers; ++i) {
    std::string layer = "decoder.layers." + std::to_string(i);
    attention(layer + ".self_attn");
    attention(layer + ".cross_attn");
    ffn(layer + ".ffn");
  }
  return params;
}

/// Builds the body of one function; `train` adds dropout and the loss.
class GraphBuilder {
public:
  GraphBuilder(OpBuilder &b, const ModelConfig &m,
               const std::vector<Param> &params, func::FuncOp function,
               bool train)
      : b(b), m(m), train(train), loc(function.getLoc()), f32(b.getF32Type()) {
    for (auto [param, arg] : llvm::zip(params, function.getArguments()))
      paramValues[param.name] = arg;
    if (train)
      rng = function.getArguments().back();
  }

  Value param(const std::string &name) { return paramValues.at(name); }

  /// [B, L] ids -> [B, L, d] scaled embeddings plus positions, dropout.
  Value embed(Value ids, const std::string &side) {
    auto idsType = cast<RankedTensorType>(ids.getType());
    int64_t batch = idsType.getDimSize(0), length = idsType.getDimSize(1);
    std::string table = m.shareEmbeddings ? "embedding" : side + "_embedding";
    // Padding's positions are masked from every path to the loss: no
    // gradient to add (padding_id).
    Value x = EmbeddingOp::create(b, loc, type({batch, length, m.dModel}),
                                  param(table + ".weight"), ids,
                                  b.getI64IntegerAttr(m.padId));
    x = mul(x, scalar(std::sqrt(double(m.dModel))));
    Value positions;
    if (m.positionalEncoding == PositionalEncoding::Sinusoid)
      positions =
          PositionalEncodingOp::create(b, loc, type({length, m.dModel}));
    else
      positions = SliceOp::create(b, loc, type({length, m.dModel}),
                                  param(side + "_positions.weight"),
                                  ArrayRef<int64_t>{0, 0});
    return dropout(add(x, positions), m.dropout);
  }

  /// The encoder stack over [B, S, d] with the key mask [B, 1, 1, S].
  Value encoder(Value x, Value sourceMask) {
    for (int64_t i = 0; i < m.encoderLayers; ++i) {
      std::string layer = "encoder.layers." + std::to_string(i);
      x = residual(x, attention(layer + ".self_attn", x, x, sourceMask),
                   layer + ".self_attn_norm");
      x = residual(x, feedForward(layer + ".ffn", x), layer + ".ffn_norm");
    }
    return x;
  }

  /// The decoder stack over [B, T, d], attending to memory [B, S, d].
  Value decoder(Value y, Value memory, Value sourceMask) {
    int64_t length = shape(y)[1];
    Value causal = CausalMaskOp::create(
        b, loc, RankedTensorType::get({length, length}, b.getI1Type()));
    for (int64_t i = 0; i < m.decoderLayers; ++i) {
      std::string layer = "decoder.layers." + std::to_string(i);
      y = residual(y, attention(layer + ".self_attn", y, y, causal),
                   layer + ".self_attn_norm");
      y = residual(y, attention(layer + ".cross_attn", y, memory, sourceMask),
                   layer + ".cross_attn_norm");
      y = residual(y, feedForward(layer + ".ffn", y), layer + ".ffn_norm");
    }
    return y;
  }

  /// The self-attention caches of one decoder layer, as decodeStep reads
  /// and returns them.
  struct LayerCaches {
    Value keys, values;
  };

  /// One incremental step of the decoder stack: `token` [R] at `position`
  /// [R] of each row, continuing the hypothesis of row `origin[r]`, whose
  /// earlier positions' self-attention keys and values are in `self` in
  /// the cache rows that `history` [R, T] names (the beam's parent table),
  /// attending to the cross-attention keys and values `cross` [R, S, d] of
  /// row `crossRow[r]` (its sentence's one copy) under that row's
  /// `sourceMask` [R, S]. Returns the output [R, 1, d]; `self` and
  /// `history` become the updated state.
  Value decodeStep(Value token, Value position, Value origin, Value crossRow,
                   ArrayRef<LayerCaches> cross,
                   MutableArrayRef<LayerCaches> self, Value &history,
                   Value sourceMask) {
    int64_t rows = shape(token)[0], length = shape(self[0].keys)[1];
    auto column = [&](Value v) {
      return ReshapeOp::create(
          b, loc, RankedTensorType::get({rows, 1}, b.getI32Type()), v);
    };
    std::string table = m.shareEmbeddings ? "embedding" : "target_embedding";
    Value x = EmbeddingOp::create(b, loc, type({rows, 1, m.dModel}),
                                  param(table + ".weight"), column(token));
    x = mul(x, scalar(std::sqrt(double(m.dModel))));
    Value positions = m.positionalEncoding == PositionalEncoding::Sinusoid
                          ? sinusoidTable(length)
                          : param("target_positions.weight");
    Value y = add(x, EmbeddingOp::create(b, loc, type({rows, 1, m.dModel}),
                                         positions, column(position)));
    // Beam reselection moves the parent table, not the caches.
    history = BeamHistoryOp::create(b, loc, history, origin, position);
    for (int64_t i = 0; i < m.decoderLayers; ++i) {
      std::string layer = "decoder.layers." + std::to_string(i);
      std::string name = layer + ".self_attn";
      Value q = linear(name + ".q", y);
      LayerCaches &cache = self[i];
      Value k = linear(name + ".k", y);
      Value v = linear(name + ".v", y);
      cache.keys = CacheUpdateOp::create(b, loc, cache.keys, k, position);
      cache.values = CacheUpdateOp::create(b, loc, cache.values, v, position);
      // Over the row's filled prefix only: positions 0..position, each in
      // the cache row the history names.
      Value context = CachedAttentionOp::create(
          b, loc, type({rows, 1, m.heads * m.dV}), q, cache.keys, cache.values,
          /*slot=*/Value(), history, position, /*key_mask=*/Value(), m.heads);
      y = residual(y, linear(name + ".out", context),
                   layer + ".self_attn_norm");
      name = layer + ".cross_attn";
      Value crossQuery = linear(name + ".q", y);
      context = CachedAttentionOp::create(
          b, loc, type({rows, 1, m.heads * m.dV}), crossQuery, cross[i].keys,
          cross[i].values, crossRow, /*history=*/Value(), /*limit=*/Value(),
          sourceMask, m.heads);
      y = residual(y, linear(name + ".out", context),
                   layer + ".cross_attn_norm");
      y = residual(y, feedForward(layer + ".ffn", y), layer + ".ffn_norm");
    }
    return y;
  }

  /// Every decoder layer's cross-attention keys and values of `memory`.
  std::vector<LayerCaches> crossKeysValues(Value memory) {
    std::vector<LayerCaches> caches;
    for (int64_t i = 0; i < m.decoderLayers; ++i) {
      std::string name =
          "decoder.layers." + std::to_string(i) + ".cross_attn";
      Value keys = linear(name + ".k", memory);
      caches.push_back({keys, linear(name + ".v", memory)});
    }
    return caches;
  }

  /// log softmax over the last dimension, one row kernel.
  Value logSoftmax(Value x) { return LogSoftmaxOp::create(b, loc, x); }

  /// [B, S] ids -> the key mask [B, 1, 1, S], true at real tokens.
  Value sourceMask(Value ids) {
    ArrayRef<int64_t> s = shape(ids);
    Value mask = PaddingMaskOp::create(
        b, loc, RankedTensorType::get(s, b.getI1Type()), ids, m.padId);
    return ReshapeOp::create(
        b, loc, RankedTensorType::get({s[0], 1, 1, s[1]}, b.getI1Type()), mask);
  }

  /// [B, T, d] -> [B, T, vocab] through the (tied) output projection.
  Value logits(Value y) {
    std::string weight = !m.tieOutput        ? "output_projection.weight"
                         : m.shareEmbeddings ? "embedding.weight"
                                             : "target_embedding.weight";
    ArrayRef<int64_t> s = shape(y);
    return MatmulOp::create(b, loc, type({s[0], s[1], m.vocabSize}), y,
                            param(weight), false, true);
  }

  std::pair<Value, Value> loss(Value logits, Value targets) {
    auto op = CrossEntropyOp::create(
        b, loc, type({}), RankedTensorType::get({}, b.getI32Type()), logits,
        targets, b.getF64FloatAttr(m.labelSmoothing),
        b.getI64IntegerAttr(m.padId));
    return {op.getLoss(), op.getTokens()};
  }

private:
  RankedTensorType type(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, f32);
  }
  static ArrayRef<int64_t> shape(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  /// The sinusoids of positions [0, length) as a constant: a decoder step
  /// reads its rows' positions from it (computing the [length, d] table at
  /// every step was 6.5% of a translation's time).
  Value sinusoidTable(int64_t length) {
    std::vector<float> table(length * m.dModel);
    for (int64_t pos = 0; pos < length; ++pos)
      for (int64_t c = 0; c < m.dModel; ++c)
        table[pos * m.dModel + c] =
            float(support::positionalEncoding(pos, c, m.dModel));
    auto tableType = cast<RankedTensorType>(type({length, m.dModel}));
    return ConstantOp::create(
        b, loc, DenseElementsAttr::get(tableType, ArrayRef<float>(table)));
  }

  Value scalar(double value) {
    return ConstantOp::create(b, loc, type({}), value);
  }
  Value add(Value x, Value y) {
    return AddOp::create(b, loc, x.getType(), x, y);
  }
  Value mul(Value x, Value y) {
    return MulOp::create(b, loc, x.getType(), x, y);
  }

  /// x W^T + bias for a weight [out, in]: [.., in] -> [.., out].
  Value linear(const std::string &name, Value x) {
    Value w = param(name + ".weight");
    SmallVector<int64_t> s(shape(x));
    s.back() = shape(w)[0];
    Value y = MatmulOp::create(b, loc, type(s), x, w, false, true);
    return add(y, param(name + ".bias"));
  }

  Value dropout(Value x, double rate) {
    if (!train || rate == 0.0)
      return x;
    return DropoutOp::create(b, loc, x, rng, b.getF64FloatAttr(rate),
                             b.getI64IntegerAttr(nextDropoutKey++));
  }

  /// LayerNorm(x + Dropout(sublayer)).
  Value residual(Value x, Value sublayer, const std::string &norm) {
    Value sum = add(x, dropout(sublayer, m.dropout));
    return LayerNormOp::create(b, loc, sum, param(norm + ".weight"),
                               param(norm + ".bias"),
                               b.getF64FloatAttr(m.layerNormEpsilon));
  }

  Value feedForward(const std::string &name, Value x) {
    Value hidden = ReluOp::create(b, loc, linear(name + ".fc1", x));
    return linear(name + ".fc2", dropout(hidden, m.reluDropout));
  }

  /// [B, L, h * dh] -> [B, h, L, dh]
  Value splitHeads(Value x, int64_t headDim) {
    ArrayRef<int64_t> s = shape(x);
    Value r =
        ReshapeOp::create(b, loc, type({s[0], s[1], m.heads, headDim}), x);
    return TransposeOp::create(b, loc, type({s[0], m.heads, s[1], headDim}), r,
                               ArrayRef<int64_t>{0, 2, 1, 3});
  }

  /// Multi-head attention of `query` [B, T, d] over `keyValue` [B, S, d];
  /// `mask` (i1, broadcastable to [B, h, T, S]) is true where attention is
  /// allowed.
  Value attention(const std::string &name, Value query, Value keyValue,
                  Value mask) {
    // One statement each: the IR's order must not depend on the order in
    // which a compiler evaluates function arguments.
    Value q = linear(name + ".q", query);
    Value k = linear(name + ".k", keyValue);
    Value v = linear(name + ".v", keyValue);
    return attend(name, q, k, v, mask);
  }

  /// Attention's heads and output projection over projected queries
  /// [B, T, h * dk], keys [B, S, h * dk] and values [B, S, h * dv].
  Value attend(const std::string &name, Value queries, Value keys,
               Value values, Value mask) {
    int64_t batch = shape(queries)[0], t = shape(queries)[1],
            s = shape(keys)[1];
    Value q = splitHeads(queries, m.dK);
    Value k = splitHeads(keys, m.dK);
    Value v = splitHeads(values, m.dV);
    auto scoresType = type({batch, m.heads, t, s});
    Value scores = MatmulOp::create(b, loc, scoresType, q, k, false, true);
    scores = mul(scores, scalar(1.0 / std::sqrt(double(m.dK))));
    scores = SelectOp::create(b, loc, scoresType, mask, scores, scalar(-1e9));
    Value weights = SoftmaxOp::create(b, loc, scores, 3);
    weights = dropout(weights, m.attentionDropout);
    Value context = MatmulOp::create(b, loc, type({batch, m.heads, t, m.dV}),
                                     weights, v, false, false);
    Value merged = TransposeOp::create(b, loc, type({batch, t, m.heads, m.dV}),
                                       context, ArrayRef<int64_t>{0, 2, 1, 3});
    merged =
        ReshapeOp::create(b, loc, type({batch, t, m.heads * m.dV}), merged);
    return linear(name + ".out", merged);
  }

  OpBuilder &b;
  const ModelConfig &m;
  bool train;
  Location loc;
  Type f32;
  Value rng;
  int64_t nextDropoutKey = 0;
  std::map<std::string, Value> paramValues;
};

/// A function whose leading arguments are the parameters and whose other
/// arguments are named data inputs.
func::FuncOp createFunction(OpBuilder &b, Location loc, const std::string &name,
                            const std::vector<Param> &params,
                            ArrayRef<std::pair<std::string, Type>> inputs,
                            ArrayRef<Type> results) {
  SmallVector<Type> argTypes;
  for (const Param &p : params)
    argTypes.push_back(RankedTensorType::get(p.shape, b.getF32Type()));
  for (auto &[inputName, type] : inputs)
    argTypes.push_back(type);
  auto function =
      func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, results));
  // All argument attributes at once: setArgAttr rebuilds the whole list
  // each time, quadratic in the number of arguments (parameters grow with
  // the layers).
  SmallVector<DictionaryAttr> argAttrs;
  for (const Param &p : params)
    argAttrs.push_back(b.getDictionaryAttr(
        {b.getNamedAttr(kParamAttrName, b.getStringAttr(p.name)),
         b.getNamedAttr(
             kInitAttrName,
             InitAttr::get(b.getContext(), p.init, llvm::APFloat(p.scale)))}));
  for (auto &[inputName, type] : inputs)
    argAttrs.push_back(b.getDictionaryAttr(
        {b.getNamedAttr(kInputAttrName, b.getStringAttr(inputName))}));
  function.setAllArgAttrs(argAttrs);
  function.addEntryBlock();
  return function;
}

/// decode_start_RxS (sources -> every decoder layer's cross-attention keys
/// and values) and decode_step_RxSxT (one token per row -> the next token's
/// most probable continuations and EOS's log-probability, the
/// self-attention caches updated in place) of `shape`.
void buildIncrementalDecoder(OpBuilder &b, Location loc, const ModelConfig &m,
                             const DecodingConfig &decoding,
                             const std::vector<Param> &params,
                             const contract::BucketShape &shape) {
  using contract::binding::Cache;
  using contract::binding::cacheName;
  int64_t R = shape.batch, S = shape.sourceLength, T = shape.targetLength;
  Type rowIds = RankedTensorType::get({R}, b.getI32Type());
  Type sourceIds = RankedTensorType::get({R, S}, b.getI32Type());
  auto f32 = [&](ArrayRef<int64_t> s) -> Type {
    return RankedTensorType::get(s, b.getF32Type());
  };
  // Every layer's cache names of two kinds, layer by layer.
  auto cacheInputs = [&](Cache keys, Cache values, int64_t length) {
    std::vector<std::pair<std::string, Type>> inputs;
    for (int64_t i = 0; i < m.decoderLayers; ++i)
      for (Cache cache : {keys, values})
        inputs.push_back(
            {cacheName(cache, i),
             f32({R, length, m.heads * (cache == keys ? m.dK : m.dV)})});
    return inputs;
  };
  auto cross = cacheInputs(Cache::CrossKeys, Cache::CrossValues, S);
  auto self = cacheInputs(Cache::SelfKeys, Cache::SelfValues, T);

  {
    SmallVector<Type> results;
    for (auto &[name, type] : cross)
      results.push_back(type);
    func::FuncOp fn = createFunction(
        b, loc, contract::functionName(FunctionRole::DecodeStart, shape),
        params, {{std::string(binding::kSourceIds), sourceIds}}, results);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fn.getBody().front());
    GraphBuilder g(b, m, params, fn, /*train=*/false);
    Value source = fn.getArguments().back();
    Value memory = g.encoder(g.embed(source, "source"), g.sourceMask(source));
    SmallVector<Value> values;
    for (const GraphBuilder::LayerCaches &c : g.crossKeysValues(memory)) {
      values.push_back(c.keys);
      values.push_back(c.values);
    }
    func::ReturnOp::create(b, loc, values);
    for (auto [i, entry] : llvm::enumerate(cross))
      fn.setResultAttr(i, kOutputAttrName, b.getStringAttr(entry.first));
  }

  std::vector<std::pair<std::string, Type>> inputs = {
      {std::string(binding::kToken), rowIds},
      {std::string(binding::kPosition), rowIds},
      {std::string(binding::kBeamOrigin), rowIds},
      {std::string(binding::kCrossRow), rowIds},
      {std::string(binding::kSourceIds), sourceIds}};
  inputs.insert(inputs.end(), cross.begin(), cross.end());
  inputs.insert(inputs.end(), self.begin(), self.end());
  Type historyType = RankedTensorType::get({R, T}, b.getI32Type());
  inputs.push_back({std::string(binding::kBeamHistory), historyType});
  // Each row's 2 x beam most probable tokens (all of them in a smaller
  // vocabulary) and EOS's log-probability, which the last position needs.
  int64_t K = std::min(2 * decoding.beam, m.vocabSize);
  SmallVector<Type> results = {f32({R, K}),
                               RankedTensorType::get({R, K}, b.getI32Type()),
                               f32({R, 1})};
  for (auto &[name, type] : self)
    results.push_back(type);
  results.push_back(historyType);
  func::FuncOp fn = createFunction(
      b, loc, contract::functionName(FunctionRole::DecodeStep, shape), params,
      inputs, results);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&fn.getBody().front());
  GraphBuilder g(b, m, params, fn, /*train=*/false);
  auto args = fn.getArguments().drop_front(params.size());
  std::vector<GraphBuilder::LayerCaches> crossCaches, selfCaches;
  const int64_t caches = 5; // the first cache's argument
  for (int64_t i = 0; i < m.decoderLayers; ++i) {
    crossCaches.push_back({args[caches + 2 * i], args[caches + 1 + 2 * i]});
    int64_t at = caches + 2 * m.decoderLayers + 2 * i;
    selfCaches.push_back({args[at], args[at + 1]});
  }
  Value sourceMask = PaddingMaskOp::create(
      b, loc, RankedTensorType::get({R, S}, b.getI1Type()), args[4], m.padId);
  Value history = args.back();
  Value y = g.decodeStep(args[0], args[1], args[2], args[3], crossCaches,
                         selfCaches, history, sourceMask);
  auto rowsOfVocabulary = cast<RankedTensorType>(f32({R, m.vocabSize}));
  Value logProbs = ReshapeOp::create(b, loc, rowsOfVocabulary,
                                     g.logSoftmax(g.logits(y)));
  // Padding and BOS are never continuations: -inf before the top-k.
  std::vector<float> never(m.vocabSize, 0.0f);
  never[m.padId] = never[m.bosId] = -INFINITY;
  Value candidates = AddOp::create(
      b, loc, rowsOfVocabulary, logProbs,
      ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(cast<RankedTensorType>(f32({m.vocabSize})),
                                 ArrayRef<float>(never))));
  auto top = TopKOp::create(b, loc, results[0], results[1], candidates, K);
  SmallVector<Value> returned = {
      top.getValues(), top.getIndices(),
      SliceOp::create(b, loc, results[2], candidates, // EOS is not masked
                      ArrayRef<int64_t>{0, m.eosId})};
  for (const GraphBuilder::LayerCaches &c : selfCaches) {
    returned.push_back(c.keys);
    returned.push_back(c.values);
  }
  returned.push_back(history);
  func::ReturnOp::create(b, loc, returned);
  std::string_view candidateNames[] = {
      binding::kTopLogProbs, binding::kTopTokens, binding::kEosLogProb};
  for (auto [i, name] : llvm::enumerate(candidateNames))
    fn.setResultAttr(i, kOutputAttrName, b.getStringAttr(name));
  for (auto [i, entry] : llvm::enumerate(self))
    fn.setResultAttr(i + 3, kOutputAttrName, b.getStringAttr(entry.first));
  fn.setResultAttr(3 + self.size(), kOutputAttrName,
                   b.getStringAttr(binding::kBeamHistory));
}

} // namespace

OwningOpRef<ModuleOp> buildTransformer(MLIRContext &context,
                                       const ModelDescription &description) {
  context.loadDialect<TcDialect, func::FuncDialect>();
  const ModelConfig &m = description.model;
  OpBuilder b(&context);
  Location loc = FileLineColLoc::get(&context, description.path, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  std::vector<Param> params = modelParams(m);

  auto ids = [&](int64_t batch, int64_t length) -> Type {
    return RankedTensorType::get({batch, length}, b.getI32Type());
  };
  auto f32 = [&](ArrayRef<int64_t> shape) -> Type {
    return RankedTensorType::get(shape, b.getF32Type());
  };
  Type rngType = RankedTensorType::get({2}, b.getI64Type());

  std::set<std::pair<int64_t, int64_t>> encoders; // one @encode per (B, S)
  for (const Bucket &bucket : description.training.buckets) {
    int64_t B = bucket.batch, S = bucket.sourceLength, T = bucket.targetLength;
    contract::BucketShape shape{B, S, T};
    auto input = [](std::string_view name, Type type) {
      return std::pair<std::string, Type>(name, type);
    };

    {
      func::FuncOp fn = createFunction(
          b, loc, contract::functionName(FunctionRole::Forward, shape), params,
          {input(binding::kSourceIds, ids(B, S)),
           input(binding::kTargetIn, ids(B, T)),
           input(binding::kTargetOut, ids(B, T)),
           input(binding::kRng, rngType)},
          {f32({}), RankedTensorType::get({}, b.getI32Type())});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&fn.getBody().front());
      GraphBuilder g(b, m, params, fn, /*train=*/true);
      auto args = fn.getArguments().drop_front(params.size());
      Value sourceMask = g.sourceMask(args[0]);
      Value memory = g.encoder(g.embed(args[0], "source"), sourceMask);
      Value y = g.decoder(g.embed(args[1], "target"), memory, sourceMask);
      auto [loss, tokens] = g.loss(g.logits(y), args[2]);
      func::ReturnOp::create(b, loc, ValueRange{loss, tokens});
    }
    if (encoders.insert({B, S}).second) {
      func::FuncOp fn = createFunction(
          b, loc, contract::functionName(FunctionRole::Encode, shape), params,
          {input(binding::kSourceIds, ids(B, S))}, {f32({B, S, m.dModel})});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&fn.getBody().front());
      GraphBuilder g(b, m, params, fn, /*train=*/false);
      Value source = fn.getArguments().back();
      Value memory = g.encoder(g.embed(source, "source"), g.sourceMask(source));
      func::ReturnOp::create(b, loc, memory);
      fn.setResultAttr(0, kOutputAttrName, b.getStringAttr(binding::kMemory));
    }
    {
      func::FuncOp fn = createFunction(
          b, loc, contract::functionName(FunctionRole::Decode, shape), params,
          {input(binding::kMemory, f32({B, S, m.dModel})),
           input(binding::kSourceIds, ids(B, S)),
           input(binding::kTargetPrefix, ids(B, T))},
          {f32({B, T, m.vocabSize})});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&fn.getBody().front());
      GraphBuilder g(b, m, params, fn, /*train=*/false);
      auto args = fn.getArguments().drop_front(params.size());
      Value y =
          g.decoder(g.embed(args[2], "target"), args[0], g.sourceMask(args[1]));
      func::ReturnOp::create(b, loc, g.logits(y));
      fn.setResultAttr(0, kOutputAttrName, b.getStringAttr(binding::kLogits));
    }
  }
  for (const Bucket &bucket : decodingBuckets(description)) {
    contract::BucketShape shape{bucket.batch, bucket.sourceLength,
                                bucket.targetLength};
    buildIncrementalDecoder(b, loc, m, description.decoding, params, shape);
  }
  return module;
}

} // namespace tc
