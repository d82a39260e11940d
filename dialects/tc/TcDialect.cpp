//===- TcDialect.cpp - the tc dialect, its attributes and arg attributes --===//

#include "dialects/tc/TcDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tc;

#include "dialects/tc/TcDialect.cpp.inc"
#include "dialects/tc/TcEnums.cpp.inc"
#include "dialects/tc/TcInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tc/TcAttrs.cpp.inc"

void TcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/tc/TcOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/tc/TcAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #tc.init<kind> and #tc.init<kind(scale)>
//===----------------------------------------------------------------------===//

static bool initKindTakesScale(InitKind kind) {
  return kind == InitKind::normal || kind == InitKind::uniform;
}

Attribute InitAttr::parse(AsmParser &parser, Type) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&keyword))
    return {};
  std::optional<InitKind> kind = symbolizeInitKind(keyword);
  if (!kind) {
    parser.emitError(loc) << "unknown initializer '" << keyword
                          << "'; expected zeros, ones, xavier_uniform, "
                             "normal(std) or uniform(bound)";
    return {};
  }
  double scale = 0.0;
  if (initKindTakesScale(*kind) &&
      (parser.parseLParen() || parser.parseFloat(scale) ||
       parser.parseRParen()))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<InitAttr>(loc, parser.getContext(), *kind,
                                     APFloat(scale));
}

void InitAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyInitKind(getKind());
  if (initKindTakesScale(getKind()))
    printer << "(" << getScale().convertToDouble() << ")";
  printer << ">";
}

LogicalResult InitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               InitKind kind, APFloat scaleValue) {
  double scale = scaleValue.convertToDouble();
  if (initKindTakesScale(kind) && !(scale > 0.0))
    return emitError() << "initializer " << stringifyInitKind(kind)
                       << " needs a positive scale, got " << scale;
  if (!initKindTakesScale(kind) && scale != 0.0)
    return emitError() << "initializer " << stringifyInitKind(kind)
                       << " takes no scale";
  return success();
}

//===----------------------------------------------------------------------===//
// Parameter argument attributes: tc.param = "name", tc.init = #tc.init<...>
//===----------------------------------------------------------------------===//

LogicalResult TcDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' is only valid on function arguments";
  if (attr.getName() == kInputAttrName) {
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!name || name.getValue().empty())
      return op->emitError() << "argument #" << argIndex
                             << ": 'tc.input' must be a non-empty string";
    if (function.getArgAttr(argIndex, kParamAttrName))
      return op->emitError()
             << "argument #" << argIndex << " is both a parameter and an input";
    return success();
  }
  if (attr.getName() != kInitAttrName && attr.getName() != kParamAttrName)
    return op->emitError() << "unknown tc argument attribute '"
                           << attr.getName().getValue()
                           << "'; expected 'tc.param', 'tc.init' or 'tc.input'";
  Type argType = function.getArgumentTypes()[argIndex];
  auto tensor = dyn_cast<RankedTensorType>(argType);
  Type element = tensor ? tensor.getElementType() : Type();
  if (!tensor || !tensor.hasStaticShape() ||
      !(element.isF32() || element.isF16() || element.isBF16() ||
        element.isF64()))
    return op->emitError() << "argument #" << argIndex << " carries '"
                           << attr.getName().getValue() << "' but has type "
                           << argType
                           << "; parameters are statically shaped tensors of "
                              "f32, f16, bf16 or f64";

  if (attr.getName() == kInitAttrName) {
    if (!isa<InitAttr>(attr.getValue()))
      return op->emitError() << "argument #" << argIndex
                             << ": 'tc.init' must be an initializer such as "
                                "#tc.init<xavier_uniform>";
    if (!function.getArgAttr(argIndex, kParamAttrName))
      return op->emitError() << "argument #" << argIndex
                             << " has 'tc.init' but no 'tc.param' name";
    return success();
  }

  if (attr.getName() == kParamAttrName) {
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!name || name.getValue().empty())
      return op->emitError() << "argument #" << argIndex
                             << ": 'tc.param' must be a non-empty string";
    // Names are unique. The first parameter argument checks them all, in
    // one pass: a check per argument against all others was quadratic in
    // the number of parameters (minutes for a few hundred layers).
    for (unsigned other = argIndex; other-- > 0;)
      if (function.getArgAttr(other, kParamAttrName))
        return success(); // not the first
    llvm::DenseMap<Attribute, unsigned> firstNamed;
    for (unsigned index = argIndex; index < function.getNumArguments();
         ++index) {
      Attribute named = function.getArgAttr(index, kParamAttrName);
      if (!named)
        continue;
      auto [first, inserted] = firstNamed.try_emplace(named, index);
      if (!inserted)
        return op->emitError() << "arguments #" << first->second << " and #"
                               << index << " are both named parameter " << named
                               << "; parameter names must be unique";
    }
    return success();
  }
  return success();
}
