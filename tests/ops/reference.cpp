// Float64 references for the first aclnn ops; see reference.h.
#include "reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace canopy_test {
namespace {

// The fact sheet's promotion table, row (+) column, without c32 (not
// supported by any op under test). "x" means the pair does not promote.
constexpr const char* kPromotionTable = R"(
      f32  f16  f64  bf16 s8   u8   s16  u16 s32  u32 s64  u64 bool c64  c128
f32   f32  f32  f64  f32  f32  f32  f32  x   f32  x   f32  x   f32  c64  c128
f16   f32  f16  f64  f32  f16  f16  f16  x   f16  x   f16  x   f16  c64  c128
f64   f64  f64  f64  f64  f64  f64  f64  x   f64  x   f64  x   f64  c128 c128
bf16  f32  f32  f64  bf16 bf16 bf16 bf16 x   bf16 x   bf16 x   bf16 c64  c128
s8    f32  f16  f64  bf16 s8   s16  s16  x   s32  x   s64  x   s8   c64  c128
u8    f32  f16  f64  bf16 s16  u8   s16  x   s32  x   s64  x   u8   c64  c128
s16   f32  f16  f64  bf16 s16  s16  s16  x   s32  x   s64  x   s16  c64  c128
u16   x    x    x    x    x    x    x    u16 x    x   x    x   x    x    x
s32   f32  f16  f64  bf16 s32  s32  s32  x   s32  x   s64  x   s32  c64  c128
u32   x    x    x    x    x    x    x    x   x    u32 x    x   x    x    x
s64   f32  f16  f64  bf16 s64  s64  s64  x   s64  x   s64  x   s64  c64  c128
u64   x    x    x    x    x    x    x    x   x    x   x    u64 x    x    x
bool  f32  f16  f64  bf16 s8   u8   s16  x   s32  x   s64  x   bool c64  c128
c64   c64  c64  c128 c64  c64  c64  c64  x   c64  x   c64  x   c64  c64  c128
c128  c128 c128 c128 c128 c128 c128 c128 x   c128 x   c128 x   c128 c128 c128
)";

std::optional<aclDataType> DtypeFromName(const std::string& name) {
  for (aclDataType dtype : AllDtypes()) {
    if (name == Name(dtype)) return dtype;
  }
  return std::nullopt;
}

using PromotionMap = std::map<std::pair<aclDataType, aclDataType>, std::optional<aclDataType>>;

const PromotionMap& Promotions() {
  static const PromotionMap table = [] {
    PromotionMap map;
    std::istringstream in(kPromotionTable);
    std::string line;
    std::vector<aclDataType> columns;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::vector<std::string> cells;
      for (std::string cell; words >> cell;) cells.push_back(cell);
      if (cells.empty()) continue;
      if (columns.empty()) {
        for (const std::string& cell : cells) columns.push_back(*DtypeFromName(cell));
        continue;
      }
      const aclDataType row = *DtypeFromName(cells[0]);
      for (size_t c = 1; c < cells.size(); ++c) map[{row, columns[c - 1]}] = DtypeFromName(cells[c]);
    }
    return map;
  }();
  return table;
}

double Magnitude(Value v) { return std::abs(v); }

}  // namespace

std::optional<aclDataType> Promote(aclDataType a, aclDataType b) {
  const auto it = Promotions().find({a, b});
  if (it == Promotions().end()) {
    ADD_FAILURE() << "no promotion entry for " << Name(a) << " + " << Name(b);
    return std::nullopt;
  }
  return it->second;
}

bool CanCast(aclDataType from, aclDataType to) {
  if (IsComplex(from) && !IsComplex(to)) return false;
  if (IsFloating(from) && IsIntegral(to)) return false;
  if (from != ACL_BOOL && to == ACL_BOOL) return false;
  return true;
}

std::optional<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Values BroadcastTo(const Values& values, const Shape& from, const Shape& to) {
  const int64_t count = NumElements(to);
  Values out;
  if (count <= 0) return out;
  out.reserve(static_cast<size_t>(count));
  const size_t rank = to.size();
  const size_t pad = rank - from.size();
  Shape fromStrides(rank, 0);
  const Shape contiguous = ContiguousStrides(from);
  for (size_t i = 0; i < from.size(); ++i) fromStrides[i + pad] = from[i] == 1 ? 0 : contiguous[i];
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t position = 0;
    for (size_t d = 0; d < rank; ++d) position += index[d] * fromStrides[d];
    out.push_back(values[static_cast<size_t>(position)]);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < to[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

const char* BinaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "Add";
    case BinaryOp::kSub:
      return "Sub";
    case BinaryOp::kMul:
      return "Mul";
    case BinaryOp::kDiv:
      return "Div";
  }
  return "?";
}

Expected ReferenceBinary(BinaryOp op, const Values& self, const Shape& selfShape, const Values& other,
                         const Shape& otherShape, Value alpha, aclDataType compute, aclDataType out) {
  const std::optional<Shape> shape = BroadcastShapes(selfShape, otherShape);
  Expected expected;
  if (!shape) {
    ADD_FAILURE() << "reference: shapes do not broadcast";
    return expected;
  }
  const Values a = BroadcastTo(self, selfShape, *shape);
  const Values b = BroadcastTo(other, otherShape, *shape);
  const bool exact = !IsFloating(compute) && !IsFloating(out);
  const bool complex = IsComplex(compute);
  // Two roundings (compute, out) plus slack for the alpha product / complex arithmetic.
  const double roundoff = UnitRoundoff(compute) + UnitRoundoff(out);
  const double factor = complex ? (op == BinaryOp::kDiv ? 16.0 : 8.0) : 4.0;
  const Value alphaC = ConvertValue(alpha, compute);
  for (size_t i = 0; i < a.size(); ++i) {
    const Value x = ConvertValue(a[i], compute);
    const Value y = ConvertValue(b[i], compute);
    Value result = 0.0;
    double scale = 0.0;
    switch (op) {
      case BinaryOp::kAdd:
        result = x + alphaC * y;
        scale = Magnitude(x) + Magnitude(alphaC) * Magnitude(y);
        break;
      case BinaryOp::kSub:
        result = x - alphaC * y;
        scale = Magnitude(x) + Magnitude(alphaC) * Magnitude(y);
        break;
      case BinaryOp::kMul:
        result = complex ? x * y : Value(x.real() * y.real());
        scale = Magnitude(x) * Magnitude(y);
        break;
      case BinaryOp::kDiv:
        result = complex ? x / y : Value(x.real() / y.real());
        scale = Magnitude(x) / Magnitude(y);
        break;
    }
    expected.values.push_back(ConvertValue(ConvertValue(result, compute), out));
    expected.tolerance.push_back(exact || !IsFloating(out) ? 0.0 : factor * roundoff * scale);
  }
  return expected;
}

Expected ReferenceCast(const Values& src, aclDataType to) {
  Expected expected;
  for (Value v : src) {
    const Value converted = ConvertValue(v, to);
    expected.values.push_back(converted);
    expected.tolerance.push_back(IsFloating(to) ? 2.0 * UnitRoundoff(to) * Magnitude(converted) : 0.0);
  }
  return expected;
}

namespace {

// The K-dependent tolerance of one matmul result element.
double MatmulTolerance(const MatmulPrecision& precision, int64_t k, double value, double scale) {
  constexpr double kAccumulatorRoundoff = 0x1p-24;  // f32 accumulation
  const double outputRounding = 2.0 * (UnitRoundoff(precision.out) + UnitRoundoff(precision.resultRounding));
  return outputRounding * std::fabs(value) +
         (4.0 * precision.inputRoundoff + static_cast<double>(std::max<int64_t>(k, 1)) * kAccumulatorRoundoff) * scale +
         1e-300;
}

double RoundResult(double value, const MatmulPrecision& precision) {
  return ConvertValue(ConvertValue(value, precision.resultRounding), precision.out).real();
}

}  // namespace

MatmulPrecision MatmulPrecisionFor(aclDataType a, aclDataType b, aclDataType out, int8_t cubeMathType) {
  constexpr double kHf32Roundoff = 0x1p-11;  // HF32 keeps 10 mantissa bits, like f16
  const bool anyF32 = a == ACL_FLOAT || b == ACL_FLOAT;
  const aclDataType promoted = anyF32 ? ACL_FLOAT : (a == b ? a : ACL_FLOAT);
  MatmulPrecision precision{out, promoted, 0.0};
  if (promoted == ACL_FLOAT && (cubeMathType == kAllowFp32DownPrecision || cubeMathType == kUseHf32)) {
    precision.inputRoundoff = kHf32Roundoff;
  }
  if (cubeMathType == kUseFp16 && promoted != ACL_BF16) {
    precision.inputRoundoff = UnitRoundoff(ACL_FLOAT16);
    precision.resultRounding = ACL_FLOAT16;
  }
  return precision;
}

std::optional<Expected> ReferenceMatmul(const Values& a, const Shape& aShape, const Values& b, const Shape& bShape,
                                        const MatmulPrecision& precision, Shape* outShape) {
  if (aShape.empty() || bShape.empty()) return std::nullopt;
  const bool aVector = aShape.size() == 1, bVector = bShape.size() == 1;
  const Shape aMatrix = aVector ? Shape{1, aShape[0]} : aShape;
  const Shape bMatrix = bVector ? Shape{bShape[0], 1} : bShape;
  const int64_t m = aMatrix[aMatrix.size() - 2], k = aMatrix.back();
  const int64_t n = bMatrix.back();
  if (bMatrix[bMatrix.size() - 2] != k) return std::nullopt;
  const Shape aBatch(aMatrix.begin(), aMatrix.end() - 2), bBatch(bMatrix.begin(), bMatrix.end() - 2);
  const std::optional<Shape> batch = BroadcastShapes(aBatch, bBatch);
  if (!batch) return std::nullopt;

  // Expand both operands to the full batch, then multiply matrix by matrix.
  Shape aFull = *batch, bFull = *batch;
  aFull.insert(aFull.end(), {m, k});
  bFull.insert(bFull.end(), {k, n});
  const Values aExpanded = BroadcastTo(a, aMatrix, aFull);
  const Values bExpanded = BroadcastTo(b, bMatrix, bFull);
  const int64_t batches = NumElements(*batch);
  Expected expected;
  for (int64_t bi = 0; bi < batches; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0, scale = 0;
        for (int64_t p = 0; p < k; ++p) {
          const double x = aExpanded[static_cast<size_t>((bi * m + i) * k + p)].real();
          const double y = bExpanded[static_cast<size_t>((bi * k + p) * n + j)].real();
          sum += x * y;
          scale += std::fabs(x * y);
        }
        expected.values.push_back(RoundResult(sum, precision));
        expected.tolerance.push_back(MatmulTolerance(precision, k, sum, scale));
      }
    }
  }
  Shape shape = *batch;
  if (!aVector) shape.push_back(m);
  if (!bVector) shape.push_back(n);
  if (outShape != nullptr) *outShape = shape;
  return expected;
}

Expected ReferenceAddmm(const Values& self, const Shape& selfShape, const Values& mat1, const Shape& mat1Shape,
                        const Values& mat2, const Shape& mat2Shape, Value beta, Value alpha,
                        const MatmulPrecision& precision) {
  const int64_t m = mat1Shape[0], k = mat1Shape[1], n = mat2Shape[1];
  const Values bias = BroadcastTo(self, selfShape, {m, n});
  Expected expected;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, scale = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double x = mat1[static_cast<size_t>(i * k + p)].real();
        const double y = mat2[static_cast<size_t>(p * n + j)].real();
        sum += x * y;
        scale += std::fabs(x * y);
      }
      const double biasTerm = beta.real() * bias[static_cast<size_t>(i * n + j)].real();
      const double value = biasTerm + alpha.real() * sum;
      expected.values.push_back(RoundResult(value, precision));
      // beta * self and alpha * (mat1 @ mat2) may each be rounded to the
      // compute dtype before they are added.
      const double termScale = std::fabs(alpha.real()) * scale + std::fabs(biasTerm);
      const double termRounding = 2.0 * UnitRoundoff(precision.resultRounding) * termScale;
      expected.tolerance.push_back(MatmulTolerance(precision, k, value, termScale) + termRounding);
    }
  }
  return expected;
}

std::vector<double> RealParts(const Values& values) {
  std::vector<double> real(values.size());
  for (size_t i = 0; i < values.size(); ++i) real[i] = values[i].real();
  return real;
}

double ToHf32(double x) {
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);  // in [0.5, 1)
  return std::ldexp(std::nearbyint(std::ldexp(mantissa, 11)), exponent - 11);
}

double WorstScaledError(const std::vector<double>& c, const std::vector<double>& exact,
                        const std::vector<double>& magnitude) {
  double worst = 0;
  for (size_t i = 0; i < c.size(); ++i) worst = std::max(worst, std::abs(c[i] - exact[i]) / magnitude[i]);
  return worst;
}

}  // namespace canopy_test
