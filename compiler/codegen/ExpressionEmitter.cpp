//===- ExpressionEmitter.cpp - tc ops as C++ expressions -------------------===//

#include "compiler/codegen/ExpressionEmitter.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;

namespace tc::codegen {

namespace {

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// A splat constant as a C++ literal of its type (`cpp`, as the target
/// spells it).
std::string literal(ConstantOp constant, const std::string &cpp) {
  auto dense = cast<DenseElementsAttr>(constant.getValue());
  Type type = dense.getElementType();
  if (isa<FloatType>(type)) {
    double v = dense.getSplatValue<APFloat>().convertToDouble();
    if (std::isnan(v))
      return "std::numeric_limits<" + cpp + ">::quiet_NaN()";
    if (std::isinf(v))
      return std::string(v < 0 ? "-" : "") + "std::numeric_limits<" + cpp +
             ">::infinity()";
    return cpp + "(" + llvm::formatv("{0:e17}", v).str() + ")";
  }
  APInt v = dense.getSplatValue<APInt>();
  if (type.isInteger(1))
    return v.isZero() ? "false" : "true";
  return "int64_t(" + std::to_string(v.getSExtValue()) + ")";
}

} // namespace

LogicalResult ExpressionEmitter::emitOps(ArrayRef<Operation *> ops,
                                         StringRef index, raw_ostream &os,
                                         std::string &error) {
  for (Operation *opPointer : ops) {
    Operation &op = *opPointer;
    if (op.hasTrait<tc::OpTrait::Reduction>())
      continue; // accumulated by the skeleton, which knows the loop
    Value result = op.getResult(0);
    // Locals, literals and templates are of the compute type (f32 for a
    // bf16 value, which is rounded to bf16 below).
    std::optional<std::string> spelled = backend.spellCompute(result);
    if (!spelled) {
      error = "element type of '" + op.getName().getStringRef().str() +
              "' has no C++ type here";
      return failure();
    }
    const std::string &type = *spelled;
    auto in = [&](unsigned i) { return names.at(op.getOperand(i)); };
    std::string expr =
        TypeSwitch<Operation *, std::string>(&op)
            .Case<ConstantOp>([&](ConstantOp c) {
              auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
              return dense && dense.isSplat() ? literal(c, type)
                                              : std::string();
            })
            .Case<AddOp>([&](auto) { return in(0) + " + " + in(1); })
            .Case<SubOp>([&](auto) { return in(0) + " - " + in(1); })
            .Case<MulOp>([&](auto) { return in(0) + " * " + in(1); })
            .Case<DivOp>([&](auto) { return in(0) + " / " + in(1); })
            .Case<MaxOp>([&](auto) {
              return "tc::maximum<" + type + ">(" + in(0) + ", " + in(1) + ")";
            })
            .Case<MinOp>([&](auto) {
              return "tc::minimum<" + type + ">(" + in(0) + ", " + in(1) + ")";
            })
            .Case<NegOp>([&](auto) { return "-" + in(0); })
            .Case<ExpOp>([&](auto) { return "std::exp(" + in(0) + ")"; })
            .Case<LogOp>([&](auto) { return "std::log(" + in(0) + ")"; })
            .Case<SqrtOp>([&](auto) { return "std::sqrt(" + in(0) + ")"; })
            .Case<RsqrtOp>(
                [&](auto) { return type + "(1) / std::sqrt(" + in(0) + ")"; })
            .Case<TanhOp>([&](auto) { return "std::tanh(" + in(0) + ")"; })
            .Case<ReluOp>([&](auto) {
              return in(0) + " > " + type + "(0) ? " + in(0) + " : " + type +
                     "(0)";
            })
            .Case<CompareOp>([&](CompareOp c) {
              const char *ops[] = {"==", "!=", "<", "<=", ">", ">="};
              return in(0) + " " + ops[int(c.getPredicate())] + " " + in(1);
            })
            .Case<SelectOp>(
                [&](auto) { return in(0) + " ? " + in(1) + " : " + in(2); })
            .Case<ConvertOp>([&](ConvertOp c) {
              bool toInt =
                  !isa<FloatType>(elementOf(c.getResult())) &&
                  !c.getResult().getType().getElementType().isInteger(1);
              bool fromFloat = isa<FloatType>(elementOf(c.getInput()));
              return toInt && fromFloat
                         ? "tc::toInteger<" + type + ">(" + in(0) + ")"
                         : "static_cast<" + type + ">(" + in(0) + ")";
            })
            .Case<BroadcastToOp>([&](auto) { return in(0); })
            .Case<DropoutOp>([&](DropoutOp d) {
              double rate = d.getRate().convertToDouble();
              // The kernel declares mask<key> (TC_DROPOUT_MASK) and has
              // `seed` and `step` in scope.
              return llvm::formatv("TC_KEEPS(mask{0}, {0}, {1:e17}, {2}) ? "
                                   "{3} * {4}({5:e17}) : {4}(0)",
                                   int64_t(d.getKey()), rate, index, in(0),
                                   type, 1.0 / (1.0 - rate))
                  .str();
            })
            .Default([](Operation *) { return std::string(); });
    if (expr.empty()) {
      error =
          "no C++ expression for '" + op.getName().getStringRef().str() + "'";
      return failure();
    }
    std::string name = "v" + std::to_string(next++);
    if (std::optional<std::string> storage = backend.spellStorage(result)) {
      // Rounded once, into a local of the element type that a store of the
      // value writes as it is; the compute-type local widens it (exact).
      std::string stored = name + "s";
      os << "    const " << *storage << " " << stored << " = "
         << backend.stored(result, expr) << ";\n";
      storedNames[result] = stored;
      expr = type + "(" + stored + ")";
      if (llvm::none_of(result.getUsers(), [&](Operation *user) {
            return llvm::is_contained(ops, user);
          })) { // only stored: no local to leave unused
        names[result] = expr;
        continue;
      }
    }
    os << "    const " << type << " " << name << " = " << expr << ";\n";
    names[result] = name;
  }
  return success();
}

std::string ExpressionEmitter::storedValueOf(Value v) const {
  auto it = storedNames.find(v);
  return it != storedNames.end() ? it->second
                                 : backend.stored(v, names.at(v));
}

} // namespace tc::codegen
