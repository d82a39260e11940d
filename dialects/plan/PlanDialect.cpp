//===- PlanDialect.cpp - the plan dialect and #plan.buf -------------------===//

#include "dialects/plan/PlanDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace tc::plan;

#include "dialects/plan/PlanDialect.cpp.inc"
#include "dialects/plan/PlanEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/plan/PlanAttrs.cpp.inc"

void PlanDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/plan/PlanOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/plan/PlanAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #plan.buf<space + offset : shape x type[, strides [...]]>
//===----------------------------------------------------------------------===//

SmallVector<int64_t> BufferAttr::contiguousStrides(ArrayRef<int64_t> shape) {
  // Saturated: a parsed shape may be any size; the verifier then refuses
  // a buffer beyond kMaxBufferBytes.
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    if (llvm::MulOverflow(strides[d + 1], shape[d + 1], strides[d]))
      strides[d] = std::numeric_limits<int64_t>::max();
  return strides;
}

bool BufferAttr::isContiguous() const {
  // Dimensions of extent 1 may have any stride.
  SmallVector<int64_t> dense = contiguousStrides(getShape());
  for (size_t d = 0; d < dense.size(); ++d)
    if (getShape()[d] != 1 && getStrides()[d] != dense[d])
      return false;
  return true;
}

int64_t BufferAttr::numElements() const {
  int64_t n = 1;
  for (int64_t extent : getShape())
    n *= extent;
  return n;
}

int64_t BufferAttr::elementBytes() const {
  return std::max<int64_t>(getElementType().getIntOrFloatBitWidth() / 8, 1);
}

int64_t BufferAttr::endOffset() const {
  int64_t last = 0; // the element farthest from the start
  for (size_t d = 0; d < getShape().size(); ++d)
    last += (getShape()[d] - 1) * getStrides()[d];
  return getOffset() + (numElements() == 0 ? 0 : (last + 1) * elementBytes());
}

Attribute BufferAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef spaceName;
  int64_t offset = 0;
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() || parser.parseKeyword(&spaceName) ||
      parser.parsePlus() || parser.parseInteger(offset) ||
      parser.parseColon() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  std::optional<Space> space = symbolizeSpace(spaceName);
  if (!space) {
    parser.emitError(loc) << "unknown buffer space '" << spaceName
                          << "'; expected arena, params, grads, adam_m, "
                             "adam_v, inputs, outputs, constants or "
                             "param_copies";
    return {};
  }
  SmallVector<int64_t> strides = contiguousStrides(shape);
  if (succeeded(parser.parseOptionalComma())) {
    strides.clear();
    if (parser.parseKeyword("strides") ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          return parser.parseInteger(strides.emplace_back());
        }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BufferAttr>(loc, parser.getContext(), *space, offset,
                                       shape, strides, elementType);
}

void BufferAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifySpace(getSpace()) << " + " << getOffset() << " : ";
  for (int64_t extent : getShape())
    printer << extent << "x";
  printer << getElementType();
  // Strides are left out only when they are exactly the row-major ones, so
  // that what is printed parses back to the same attribute.
  if (getStrides() != ArrayRef<int64_t>(contiguousStrides(getShape()))) {
    printer << ", strides [";
    llvm::interleaveComma(getStrides(), printer);
    printer << "]";
  }
  printer << ">";
}

LogicalResult BufferAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Space, int64_t offset, ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> strides, Type elementType) {
  if (offset < 0)
    return emitError() << "buffer offset " << offset << " is negative";
  if (shape.size() != strides.size())
    return emitError() << "buffer of rank " << shape.size() << " has "
                       << strides.size() << " strides";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0 || strides[d] < 0)
      return emitError() << "buffer dimension " << d << " has extent "
                         << shape[d] << " and stride " << strides[d]
                         << "; both must be >= 0";
  }
  if (!elementType.isIntOrFloat())
    return emitError() << "buffer element type " << elementType
                       << " is not an integer or float type";
  // Bounded, so that element counts and byte offsets never overflow: the
  // last byte the view touches, and its element count, in 128 bits.
  // Extents first: an oversized extent saturates the default strides of
  // the dimensions before it.
  for (int pass = 0; pass < 2; ++pass)
    for (size_t d = 0; d < shape.size(); ++d)
      if ((pass == 0 ? shape[d] : strides[d]) > kMaxBufferBytes)
        return emitError() << "buffer dimension " << d << " has extent "
                           << shape[d] << " and stride " << strides[d]
                           << "; a buffer spans at most 2^50 bytes";
  // Each product of bounded factors fits, and is checked before the next.
  int64_t bytes = std::max<int64_t>(elementType.getIntOrFloatBitWidth() / 8, 1);
  __int128 last = 0, elements = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    elements *= shape[d];
    last += __int128(std::max<int64_t>(shape[d] - 1, 0)) * strides[d];
    if (elements > kMaxBufferBytes ||
        offset + (last + 1) * bytes > __int128(kMaxBufferBytes))
      return emitError() << "buffer at byte " << offset
                         << " spans beyond 2^50 bytes";
  }
  if (offset + bytes > kMaxBufferBytes)
    return emitError() << "buffer at byte " << offset
                       << " spans beyond 2^50 bytes";
  return success();
}
