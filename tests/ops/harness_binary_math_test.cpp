// Harness rows of the binary math ops on the pointwise engine (kernels/
// binary_pointwise.h): Atan2, Remainder, FloorDivide, the shifts, the bitwise
// scalar forms and Not, Lerp, Addcmul, XLogY, LogAddExp, Rsub, IsClose. Each
// row gives the op's dtypes (CANN's Atlas A2 column), its promotion as CANN's
// A2 path computes it, and a float64 reference; the harness generates the
// dtype x view x shape x in-place x cache cases (harness/harness.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// Integer and bool promotions compute in FLOAT; floats keep their dtype.
aclDataType FloatOf(aclDataType dtype) { return IsRealFloat(dtype) ? dtype : ACL_FLOAT; }

// The dtype of input k, or input 0's when a case gives one dtype for all.
aclDataType InputDtype(const std::vector<aclDataType>& in, size_t k) { return in[k < in.size() ? k : 0]; }

// Values drawn for a divisor: away from zero for floats, zeros among integers
// (a zero integer divisor has a defined result in Canopy).
RangeRule DivisorRange() {
  return RangeRule([](aclDataType dtype, const CaseInfo&) {
    if (IsUnsigned(dtype)) return Range{0, 6, 0, 5};
    if (IsRealFloat(dtype)) return Range{-6, 6, 0.25};
    return Range{-6, 6, 0, 5};
  });
}
RangeRule DividendRange() {
  return RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 40} : Range{-20, 20};
  });
}

// ---- Atan2 ------------------------------------------------------------------------------------------

const std::vector<aclDataType> kAtan2Dtypes = {ACL_INT8, ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8,
                                               ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

OpRow Atan2Row() {
  OpRow row;
  row.name = "Atan2";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}, Arg{.name = "other", .range = Range{-3, 3}}};
  row.out = {[](Call& c) {
               return aclnnAtan2GetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnAtan2};
  row.inplace = {
      [](Call& c) { return aclnnInplaceAtan2GetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor); },
      aclnnInplaceAtan2};
  auto compute = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const auto p = Promote(in[0], InputDtype(in, 1));
    return p ? std::optional(FloatOf(*p)) : std::nullopt;
  };
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
    return dc.out == ACL_DT_UNDEFINED && IsRealFloat(dc.inputs[0]);
  };
  row.dtypes = Concat(EachDtype(kAtan2Dtypes), Singly({{{ACL_INT32, ACL_FLOAT16}},
                                                       {{ACL_FLOAT16, ACL_BF16}},
                                                       {{ACL_INT8, ACL_UINT8}},
                                                       {{ACL_BOOL, ACL_INT64}, ACL_DOUBLE},
                                                       {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  row.outDtype = compute;
  row.reference = ComputedIn(
      compute, [](const std::vector<Value>& x, const AttrSet&) { return Value(std::atan2(x[0].real(), x[1].real())); },
      4);
  return row;
}

// ---- Remainder ----------------------------------------------------------------------------------------

const std::vector<aclDataType> kRemainderCompute = {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};

// Python's %: the divisor's sign. Integers: a zero divisor gives the dividend.
double PythonMod(double a, double b, aclDataType compute) {
  a = ConvertValue(a, compute).real();
  b = ConvertValue(b, compute).real();
  if (!IsRealFloat(compute)) {
    if (b == 0) return a;
    const auto i = static_cast<int64_t>(a), j = static_cast<int64_t>(b);
    int64_t r = j == -1 ? 0 : i % j;
    if (r != 0 && ((r < 0) != (j < 0))) r += j;
    return static_cast<double>(r);
  }
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

enum class RemainderForm { kTensorTensor, kTensorScalar, kScalarTensor };

// CANN's A2 scalar rule for Remainder: a floating tensor keeps its dtype; a
// floating scalar (or a BOOL tensor) promotes with its own width.
std::optional<aclDataType> RemainderScalarPromotion(aclDataType tensor, aclDataType scalar) {
  if (IsRealFloat(tensor)) return tensor;
  if (IsRealFloat(scalar) || IsBool(tensor)) return Promote(tensor, scalar);
  return tensor;
}

OpRow RemainderRow(RemainderForm form) {
  OpRow row;
  const bool scalarOther = form == RemainderForm::kTensorScalar;
  const bool scalarSelf = form == RemainderForm::kScalarTensor;
  row.name = scalarSelf ? "RemainderScalarTensor" : scalarOther ? "RemainderTensorScalar" : "RemainderTensorTensor";
  row.inputs = {
      Arg{.name = "self", .kind = scalarSelf ? ArgKind::kScalar : ArgKind::kTensor, .range = DividendRange()},
      Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = DivisorRange()}};
  auto compute = [form](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const aclDataType a = in[0], b = InputDtype(in, 1);
    const auto p = form == RemainderForm::kTensorScalar ? RemainderScalarPromotion(a, b) : Promote(a, b);
    if (!p || std::find(kRemainderCompute.begin(), kRemainderCompute.end(), *p) == kRemainderCompute.end()) {
      return std::nullopt;
    }
    return p;
  };
  switch (form) {
    case RemainderForm::kTensorTensor:
      row.out = {[](Call& c) {
                   return aclnnRemainderTensorTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                                     c.executor);
                 },
                 aclnnRemainderTensorTensor};
      row.inplace = {[](Call& c) {
                       return aclnnInplaceRemainderTensorTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1),
                                                                                c.workspaceSize, c.executor);
                     },
                     aclnnInplaceRemainderTensorTensor};
      break;
    case RemainderForm::kTensorScalar:
      row.out = {[](Call& c) {
                   return aclnnRemainderTensorScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize,
                                                                     c.executor);
                 },
                 aclnnRemainderTensorScalar};
      row.inplace = {[](Call& c) {
                       return aclnnInplaceRemainderTensorScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1),
                                                                                c.workspaceSize, c.executor);
                     },
                     aclnnInplaceRemainderTensorScalar};
      row.shapes = SameShapes();
      row.outShape = ShapeOfInput(0);
      break;
    case RemainderForm::kScalarTensor:
      row.out = {[](Call& c) {
                   return aclnnRemainderScalarTensorGetWorkspaceSize(c.Scalar(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                                     c.executor);
                 },
                 aclnnRemainderScalarTensor};
      row.shapes = SameShapes();
      row.outShape = ShapeOfInput(1);
      break;
  }
  row.inplace.accepts = [compute](const DtypeCase& dc, aclDataType) {
    const auto p = compute(dc.inputs);
    return dc.out == ACL_DT_UNDEFINED && p && CanCast(*p, dc.inputs[0]);
  };
  if (scalarSelf) {
    // Everything computes in out's dtype: a FLOAT dividend into an INT32 out is truncated first.
    row.dtypes = Concat(EachDtype(kRemainderCompute), Singly({{{ACL_FLOAT, ACL_INT32}, ACL_INT32},
                                                              {{ACL_INT32, ACL_INT8}, ACL_INT64},
                                                              {{ACL_DOUBLE, ACL_FLOAT16}, ACL_FLOAT}}));
    row.outDtype = SameAsInput(1);
  } else {
    row.dtypes = Concat(EachDtype(kRemainderCompute), Singly({{{ACL_INT8, ACL_INT32}},
                                                              {{ACL_UINT8, ACL_INT64}},
                                                              {{ACL_INT32, ACL_FLOAT}},
                                                              {{ACL_INT32, ACL_DOUBLE}},
                                                              {{ACL_BOOL, ACL_INT64}},
                                                              {{ACL_INT32, ACL_INT32}, ACL_INT8},
                                                              {{ACL_FLOAT, ACL_FLOAT}, ACL_DOUBLE}}));
    row.outDtype = compute;
  }
  row.reference = [compute, scalarSelf](const RefCall& call) {
    const aclDataType c = scalarSelf ? call.out : *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    return ComputedIn(
        [c](const std::vector<aclDataType>&) { return std::optional(c); },
        [c](const std::vector<Value>& x, const AttrSet&) { return Value(PythonMod(x[0].real(), x[1].real(), c)); },
        2)(call);
  };
  return row;
}

// ---- Gcd ----------------------------------------------------------------------------------------------

// CANN's Atlas A2 code computes the gcd in these (the operands promote to one of them).
const std::vector<aclDataType> kGcdCompute = {ACL_INT16, ACL_INT32, ACL_INT64};

int64_t GcdOf(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y != 0) x = std::exchange(y, x % y);
  return static_cast<int64_t>(x);
}

OpRow GcdRow() {
  OpRow row;
  row.name = "Gcd";
  // Multiples of small primes, zeros and negatives: common divisors above 1 are frequent.
  const Range range{-120, 120, 0, 5};
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "other", .range = range}};
  row.out = {
      [](Call& c) { return aclnnGcdGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor); },
      aclnnGcd};
  auto compute = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const auto p = Promote(in[0], in[1]);
    if (!p || std::find(kGcdCompute.begin(), kGcdCompute.end(), *p) == kGcdCompute.end()) return std::nullopt;
    return p;
  };
  // The combinations CANN rejects are GcdRejects' (binary_math_test.cpp).
  row.dtypes = Concat(EachDtype(kGcdCompute), Singly({{{ACL_INT8, ACL_INT32}},
                                                      {{ACL_UINT8, ACL_INT8}},
                                                      {{ACL_BOOL, ACL_INT64}},
                                                      {{ACL_INT32, ACL_INT32}, ACL_INT8},
                                                      {{ACL_INT16, ACL_INT16}, ACL_UINT64}}));
  row.outDtype = compute;
  row.reference = [compute](const RefCall& call) {
    const aclDataType c = *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    return ComputedIn([c](const std::vector<aclDataType>&) { return std::optional(c); },
                      [](const std::vector<Value>& x, const AttrSet&) {
                        return Value(static_cast<double>(
                            GcdOf(static_cast<int64_t>(x[0].real()), static_cast<int64_t>(x[1].real()))));
                      },
                      2)(call);
  };
  return row;
}

// ---- FloorDivide --------------------------------------------------------------------------------------

const std::vector<aclDataType> kFloorDivideDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT64,  ACL_INT32, ACL_INT16,
                                                     ACL_INT8,    ACL_UINT8, ACL_DOUBLE, ACL_BOOL,  ACL_BF16};

double FloorQuotient(double a, double b, aclDataType compute) {
  a = ConvertValue(a, compute).real();
  b = ConvertValue(b, compute).real();
  if (IsRealFloat(compute)) return b == 0 ? a / b : std::floor(a / b);
  if (b == 0) return 0;
  const auto i = static_cast<int64_t>(a), j = static_cast<int64_t>(b);
  const int64_t q = i / j;
  return static_cast<double>((i % j != 0 && ((i < 0) != (j < 0))) ? q - 1 : q);
}

OpRow FloorDivideRow(bool scalarOther) {
  OpRow row;
  row.name = scalarOther ? "FloorDivides" : "FloorDivide";
  row.inputs = {
      Arg{.name = "self", .range = DividendRange()},
      Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = DivisorRange()}};
  if (scalarOther) {
    row.out = {[](Call& c) {
                 return aclnnFloorDividesGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize,
                                                          c.executor);
               },
               aclnnFloorDivides};
    row.inplace = {[](Call& c) {
                     return aclnnInplaceFloorDividesGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize,
                                                                     c.executor);
                   },
                   aclnnInplaceFloorDivides};
    row.shapes = SameShapes();
    row.outShape = ShapeOfInput(0);
  } else {
    row.out = {[](Call& c) {
                 return aclnnFloorDivideGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                         c.executor);
               },
               aclnnFloorDivide};
    row.inplace = {[](Call& c) {
                     return aclnnInplaceFloorDivideGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize,
                                                                    c.executor);
                   },
                   aclnnInplaceFloorDivide};
  }
  // The scalar promotes as a tensor would (a FLOAT scalar makes FLOAT16 data compute in FLOAT); BOOL computes in FLOAT.
  auto compute = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const auto p = Promote(in[0], InputDtype(in, 1));
    if (!p) return std::nullopt;
    return IsBool(*p) ? ACL_FLOAT : *p;
  };
  // No castability check: a floating quotient goes into an integer selfRef truncated (it is integral already).
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return dc.out == ACL_DT_UNDEFINED; };
  row.dtypes = Concat(EachDtype(kFloorDivideDtypes), Singly({{{ACL_INT32, ACL_FLOAT16}},
                                                             {{ACL_FLOAT16, ACL_FLOAT}},
                                                             {{ACL_INT8, ACL_UINT8}},
                                                             {{ACL_INT32, ACL_INT32}, ACL_DOUBLE},
                                                             {{ACL_FLOAT, ACL_FLOAT}, ACL_INT32}}));
  row.outDtype = compute;
  row.reference = [compute](const RefCall& call) {
    const aclDataType c = *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    return Pointwise([c](const std::vector<Value>& x, const AttrSet&) {
      return Value(ConvertValue(FloorQuotient(x[0].real(), x[1].real(), c), c));
    })(call);
  };
  return row;
}

// ---- Shifts ----------------------------------------------------------------------------------------

const std::vector<aclDataType> kShiftDtypes = {ACL_INT8,  ACL_INT16,  ACL_INT32,  ACL_INT64,
                                               ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64};

// self shifted in the promoted dtype: left shifts outside [0, width) give 0;
// right shifts clamp the count into [0, width - 1] (floor division by 2^s).
double ShiftValue(bool left, double self, double shift, aclDataType compute) {
  const double bits = static_cast<double>(ElementBytes(compute)) * 8;
  if (left) {
    if (shift < 0 || shift >= bits) return 0;
    // Modulo 2^64 through unsigned arithmetic, then wrapped to the dtype.
    const uint64_t bitsOut = static_cast<uint64_t>(static_cast<int64_t>(self)) << static_cast<int>(shift);
    return Wrapped(static_cast<int64_t>(bitsOut), compute);
  }
  const int s = static_cast<int>(std::clamp(shift, 0.0, bits - 1));
  return std::floor(self / std::ldexp(1.0, s));
}

OpRow ShiftRow(bool left, bool scalarShift) {
  OpRow row;
  row.name = left ? (scalarShift ? "LeftShifts" : "LeftShift") : "RightShift";
  auto valueRange = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 250} : Range{-100, 100};
  });
  auto shiftRange = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 20} : Range{-2, 20};
  });
  row.inputs = {
      Arg{.name = left ? "self" : "input", .range = valueRange},
      Arg{.name = "shiftBits", .kind = scalarShift ? ArgKind::kScalar : ArgKind::kTensor, .range = shiftRange}};
  if (scalarShift) {
    row.out = {[](Call& c) {
                 return aclnnLeftShiftsGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnLeftShifts};
    row.shapes = SameShapes();
    row.outShape = ShapeOfInput(0);
  } else if (left) {
    row.out = {[](Call& c) {
                 return aclnnLeftShiftGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnLeftShift};
  } else {
    row.out = {[](Call& c) {
                 return aclnnRightShiftGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnRightShift};
  }
  // An INT8 shift into an INT64 out wraps at 8 bits first; a UINT8 right shift by 20 clamps to 7.
  row.dtypes = Concat(EachDtype(kShiftDtypes), Singly({{{ACL_INT8, ACL_INT64}},
                                                       {{ACL_UINT8, ACL_INT32}},
                                                       {{ACL_INT8, ACL_INT8}, ACL_INT64},
                                                       {{ACL_INT16, ACL_INT16}, ACL_INT64}}));
  row.outDtype = PromotedDtype();
  row.reference = [left](const RefCall& call) {
    const aclDataType c = *Promote(call.inputs[0].dtype, call.inputs[1].dtype);
    return Pointwise([left, c](const std::vector<Value>& x, const AttrSet&) {
      return Value(ShiftValue(left, x[0].real(), x[1].real(), c));
    })(call);
  };
  return row;
}

// ---- Bitwise scalar forms and Not -------------------------------------------------------------------

const std::vector<aclDataType> kBitwiseXorDtypes = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL};

struct BitwiseScalarForms {
  const char* name;
  Phase1Fn out;
  Phase2 outPhase2;
  Phase1Fn inplace;
  Phase2 inplacePhase2;
};

#define BITWISE_SCALAR_FORMS(Op)                                                                             \
  BitwiseScalarForms {                                                                                       \
#Op,                                                                                                       \
        [](Call& c) {                                                                                          \
          return aclnn##Op##GetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor); \
        },                                                                                                     \
        aclnn##Op,                                                                                             \
        [](Call& c) {                                                                                          \
          return aclnnInplace##Op##GetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize, c.executor);   \
        },                                                                                                     \
        aclnnInplace##Op \
  }

// And promotes the scalar as a tensor; Or and Xor take an INT64 scalar whose value fits INT32 as INT32.
OpRow BitwiseScalarRow(const BitwiseScalarForms& forms, std::vector<aclDataType> dtypes, bool narrowsInt64,
                       int64_t (*fn)(int64_t, int64_t)) {
  OpRow row;
  row.name = forms.name;
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 250} : Range{-100, 100};
  });
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "other", .kind = ArgKind::kScalar, .range = range}};
  row.out = {forms.out, forms.outPhase2};
  row.inplace = {forms.inplace, forms.inplacePhase2};
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  auto compute = [narrowsInt64](const std::vector<aclDataType>& in) {
    const aclDataType scalar = InputDtype(in, 1);
    return Promote(in[0], narrowsInt64 && scalar == ACL_INT64 ? ACL_INT32 : scalar);
  };
  row.inplace.accepts = [compute](const DtypeCase& dc, aclDataType) {
    const auto p = compute(dc.inputs);
    return dc.out == ACL_DT_UNDEFINED && p && CanCast(*p, dc.inputs[0]);
  };
  row.dtypes = Concat(EachDtype(dtypes), Singly({{{ACL_INT8, ACL_INT64}},
                                                 {{ACL_BOOL, ACL_INT32}},
                                                 {{ACL_INT32, ACL_BOOL}},
                                                 {{ACL_INT16, ACL_INT16}, ACL_FLOAT}}));
  row.outDtype = compute;
  row.reference = Pointwise([fn](const std::vector<Value>& x, const AttrSet&) {
    return Value(static_cast<double>(fn(static_cast<int64_t>(x[0].real()), static_cast<int64_t>(x[1].real()))));
  });
  return row;
}

OpRow BitwiseNotRow() {
  OpRow row;
  row.name = "BitwiseNot";
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 250} : Range{-100, 100};
  });
  row.inputs = {Arg{.name = "self", .range = range}};
  row.out = {[](Call& c) { return aclnnBitwiseNotGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnBitwiseNot};
  row.dtypes = EachDtype(kBitwiseXorDtypes);
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const aclDataType dtype = call.inputs[0].dtype;
    return Pointwise([dtype](const std::vector<Value>& x, const AttrSet&) {
      const auto v = static_cast<int64_t>(x[0].real());
      return Value(IsBool(dtype) ? (v == 0 ? 1.0 : 0.0) : Wrapped(~v, dtype));
    })(call);
  };
  return row;
}

// ---- Lerp, Lerps, Addcmul ------------------------------------------------------------------------------

const std::vector<aclDataType> kLerpDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Weights on both sides of 0.5 (the two formulas) and outside [0, 1].
const Range kWeightRange{-0.5, 1.5};

OpRow LerpRow() {
  OpRow row;
  row.name = "Lerp";
  row.inputs = {Arg{.name = "self"}, Arg{.name = "end"}, Arg{.name = "weight", .range = kWeightRange}};
  row.out = {[](Call& c) {
               return aclnnLerpGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Out(), c.workspaceSize,
                                                c.executor);
             },
             aclnnLerp};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceLerpGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.workspaceSize,
                                                           c.executor);
                 },
                 aclnnInplaceLerp};
  row.dtypes = EachDtype(kLerpDtypes);
  row.reference = Pointwise([](const std::vector<Value>& x, const AttrSet&) {
    const double a = x[0].real(), b = x[1].real(), w = x[2].real();
    return Value(a + w * (b - a));
  });
  row.tolerance = {.ulps = 4, .minMagnitude = 4};  // |self| + |weight (end - self)|, not the result, sets the error
  return row;
}

OpRow LerpsRow() {
  OpRow row;
  row.name = "Lerps";
  row.inputs = {Arg{.name = "self"}, Arg{.name = "end"},
                Arg{.name = "weight", .kind = ArgKind::kScalar, .range = kWeightRange}};
  row.out = {[](Call& c) {
               return aclnnLerpsGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Scalar(2), c.Out(), c.workspaceSize,
                                                 c.executor);
             },
             aclnnLerps};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceLerpsGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Scalar(2), c.workspaceSize,
                                                            c.executor);
                 },
                 aclnnInplaceLerps};
  // A FLOAT weight on FLOAT16 data is rounded to FLOAT16; the result may go into a wider out.
  row.dtypes = Concat(EachDtype(kLerpDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT}},
                                                      {{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16}, ACL_FLOAT},
                                                      {{ACL_FLOAT, ACL_FLOAT, ACL_DOUBLE}, ACL_DOUBLE}}));
  row.shapes = ElementwiseShapes();
  row.reference = [](const RefCall& call) {
    const aclDataType self = call.inputs[0].dtype;
    const double w = ConvertValue(call.inputs[2].values[0], self).real();
    Expected want = Pointwise([w, self](const std::vector<Value>& x, const AttrSet&) {
      const double a = x[0].real(), b = x[1].real();
      return Value(ConvertValue(a + w * (b - a), self));
    })(call);
    // The terms' roundoff in self's dtype, not the out dtype's.
    const Values s = BroadcastTo(call.inputs[0].values, call.inputs[0].shape, call.outShape);
    want.tolerance.clear();
    for (size_t i = 0; i < want.values.size(); ++i) {
      want.values[i] = ConvertValue(want.values[i], call.out);
      want.tolerance.push_back(4 * UnitRoundoff(self) * (std::abs(s[i].real()) + 4));
    }
    return want;
  };
  return row;
}

const std::vector<aclDataType> kAddcmulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,
                                                 ACL_INT32, ACL_INT64,   ACL_INT8,   ACL_UINT8};

OpRow AddcmulRow() {
  OpRow row;
  row.name = "Addcmul";
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 5} : Range{-3, 3};
  });
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "tensor1", .range = range},
                Arg{.name = "tensor2", .range = range},
                Arg{.name = "value", .kind = ArgKind::kScalar, .range = Range{-2, 2, 0.25}}};
  row.out = {[](Call& c) {
               return aclnnAddcmulGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Scalar(3), c.Out(),
                                                   c.workspaceSize, c.executor);
             },
             aclnnAddcmul};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceAddcmulGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Scalar(3),
                                                              c.workspaceSize, c.executor);
                 },
                 aclnnInplaceAddcmul};
  auto promoted = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const auto q = Promote(InputDtype(in, 1), InputDtype(in, 2));
    const auto p = q ? Promote(in[0], *q) : std::nullopt;
    if (!p || *p == ACL_INT16 || *p == ACL_BOOL) return std::nullopt;
    return p;
  };
  row.inplace.accepts = [promoted](const DtypeCase& dc, aclDataType) {
    const auto p = promoted(dc.inputs);
    return dc.out == ACL_DT_UNDEFINED && p && CanCast(*p, dc.inputs[0]);
  };
  // value takes no part in the promotion: a FLOAT value on INT32 data is truncated.
  row.dtypes = Concat(EachDtype(kAddcmulDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}},
                                                         {{ACL_INT32, ACL_INT32, ACL_INT32, ACL_FLOAT}},
                                                         {{ACL_INT8, ACL_INT32, ACL_UINT8, ACL_INT32}},
                                                         {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, ACL_DOUBLE}}));
  row.outDtype = promoted;
  row.reference = [promoted](const RefCall& call) {
    const aclDataType p = *promoted({call.inputs[0].dtype, call.inputs[1].dtype, call.inputs[2].dtype});
    double value = ConvertValue(call.inputs[3].values[0], p).real();
    if (!IsRealFloat(p)) value = std::trunc(value);
    Expected want;
    const Values s = BroadcastTo(call.inputs[0].values, call.inputs[0].shape, call.outShape);
    const Values t1 = BroadcastTo(call.inputs[1].values, call.inputs[1].shape, call.outShape);
    const Values t2 = BroadcastTo(call.inputs[2].values, call.inputs[2].shape, call.outShape);
    const double u = IsRealFloat(p) ? std::max(UnitRoundoff(p), UnitRoundoff(call.out)) : 0;
    for (size_t i = 0; i < s.size(); ++i) {
      const double a = ConvertValue(s[i], p).real(),
                   term = value * ConvertValue(t1[i], p).real() * ConvertValue(t2[i], p).real();
      const double r = IsRealFloat(p) ? a + term : ConvertValue(a + term, p).real();
      want.values.push_back(ConvertValue(r, call.out));
      want.tolerance.push_back(4 * u * (std::abs(a) + std::abs(term)) + 2 * UnitRoundoff(call.out) * std::abs(r));
    }
    return want;
  };
  return row;
}

// ---- XLogY -----------------------------------------------------------------------------------------

const std::vector<aclDataType> kXLogYDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_INT16,
                                               ACL_INT8,  ACL_UINT8,   ACL_BOOL,  ACL_BF16};

double XLogY(double x, double y) {
  if (x == 0 && !std::isnan(y)) return 0;
  return x * std::log(y);
}

enum class XLogYForm { kTensor, kScalarOther, kScalarSelf };

OpRow XLogYRow(XLogYForm form) {
  OpRow row;
  const bool scalarOther = form == XLogYForm::kScalarOther, scalarSelf = form == XLogYForm::kScalarSelf;
  row.name = scalarSelf ? "XLogYScalarSelf" : scalarOther ? "XLogYScalarOther" : "XLogYTensor";
  // x with zeros (0 * log y is 0); y positive (a negative y gives NaN, which binary_pointwise_test covers elsewhere).
  auto xRange = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 4, 0, 4} : Range{-3, 3, 0, 4};
  });
  auto yRange = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsBool(dtype) ? Range{0, 1} : Range{0.25, 6};
  });
  row.inputs = {Arg{.name = "self", .kind = scalarSelf ? ArgKind::kScalar : ArgKind::kTensor, .range = xRange},
                Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = yRange}};
  switch (form) {
    case XLogYForm::kTensor:
      row.out = {[](Call& c) {
                   return aclnnXLogYTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                           c.executor);
                 },
                 aclnnXLogYTensor};
      row.inplace = {[](Call& c) {
                       return aclnnInplaceXLogYTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize,
                                                                      c.executor);
                     },
                     aclnnInplaceXLogYTensor};
      break;
    case XLogYForm::kScalarOther:
      row.out = {[](Call& c) {
                   return aclnnXLogYScalarOtherGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize,
                                                                c.executor);
                 },
                 aclnnXLogYScalarOther};
      row.inplace = {[](Call& c) {
                       return aclnnInplaceXLogYScalarOtherGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize,
                                                                           c.executor);
                     },
                     aclnnInplaceXLogYScalarOther};
      row.shapes = SameShapes();
      row.outShape = ShapeOfInput(0);
      break;
    case XLogYForm::kScalarSelf:
      row.out = {[](Call& c) {
                   return aclnnXLogYScalarSelfGetWorkspaceSize(c.Scalar(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                               c.executor);
                 },
                 aclnnXLogYScalarSelf};
      row.shapes = SameShapes();
      row.outShape = ShapeOfInput(1);
      break;
  }
  // Integer and bool promotions compute in FLOAT; the scalar forms compute DOUBLE in FLOAT as well.
  auto compute = [form](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const auto p = Promote(in[0], InputDtype(in, 1));
    if (!p) return std::nullopt;
    if (form != XLogYForm::kTensor && *p == ACL_DOUBLE) return ACL_FLOAT;
    return FloatOf(*p);
  };
  row.inplace.accepts = [compute](const DtypeCase& dc, aclDataType) {
    const auto p = compute(dc.inputs);
    return dc.out == ACL_DT_UNDEFINED && p && IsRealFloat(dc.inputs[0]) && CanCast(*p, dc.inputs[0]);
  };
  const std::vector<aclDataType> each =
      scalarSelf ? std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16} : kXLogYDtypes;
  row.dtypes =
      Concat(EachDtype(each),
             Singly({{{ACL_INT32, ACL_FLOAT16}}, {{ACL_FLOAT16, ACL_BF16}}, {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  if (scalarOther) row.dtypes.push_back({{ACL_FLOAT16, ACL_DOUBLE}});
  if (scalarSelf) row.dtypes.push_back({{ACL_INT32, ACL_INT64}});
  row.outDtype = compute;
  row.reference = [compute](const RefCall& call) {
    const aclDataType c = *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    return Pointwise([c](const std::vector<Value>& x, const AttrSet&) {
      return Value(XLogY(ConvertValue(x[0], c).real(), ConvertValue(x[1], c).real()));
    })(call);
  };
  row.tolerance = {.ulps = 4, .minMagnitude = 1};
  return row;
}

// ---- LogAddExp, LogAddExp2 -------------------------------------------------------------------------

OpRow LogAddExpRow(bool base2) {
  OpRow row;
  row.name = base2 ? "LogAddExp2" : "LogAddExp";
  row.inputs = {Arg{.name = "self", .range = Range{-4, 4}}, Arg{.name = "other", .range = Range{-4, 4}}};
  if (base2) {
    row.out = {[](Call& c) {
                 return aclnnLogAddExp2GetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnLogAddExp2};
  } else {
    row.out = {[](Call& c) {
                 return aclnnLogAddExpGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnLogAddExp};
  }
  // No promotion: each operand is converted to out's dtype (a DOUBLE operand narrowed, integers into a float out).
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16}), Singly({{{ACL_INT32, ACL_FLOAT}, ACL_FLOAT},
                                                                             {{ACL_DOUBLE, ACL_DOUBLE}, ACL_FLOAT},
                                                                             {{ACL_BOOL, ACL_UINT16}, ACL_FLOAT16},
                                                                             {{ACL_FLOAT, ACL_FLOAT16}, ACL_BF16}}));
  row.reference = [base2](const RefCall& call) {
    const aclDataType out = call.out;
    return Pointwise([base2, out](const std::vector<Value>& x, const AttrSet&) {
      const double a = ConvertValue(x[0], out).real(), b = ConvertValue(x[1], out).real();
      return Value(base2 ? std::log2(std::exp2(a) + std::exp2(b)) : std::log(std::exp(a) + std::exp(b)));
    })(call);
  };
  row.tolerance = {.ulps = 4, .minMagnitude = 1};
  return row;
}

// ---- Rsub, Rsubs ----------------------------------------------------------------------------------

const std::vector<aclDataType> kRsubDtypes = {ACL_FLOAT,     ACL_FLOAT16,    ACL_INT64, ACL_INT32,
                                              ACL_INT8,      ACL_UINT8,      ACL_INT16, ACL_DOUBLE,
                                              ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

// Rsubs on CANN's A2 path: a floating self keeps its dtype, else a floating scalar promotes with it.
std::optional<aclDataType> RsubsPromotion(aclDataType self, aclDataType other) {
  if (IsRealFloat(self)) return self;
  if (IsRealFloat(other)) return Promote(self, other);
  return self;
}

OpRow RsubRow(bool scalarOther) {
  OpRow row;
  row.name = scalarOther ? "Rsubs" : "Rsub";
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 20} : Range{-20, 20};
  });
  row.inputs = {Arg{.name = "self", .range = range},
                Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = range}};
  if (scalarOther) {
    row.out = {[](Call& c) {
                 return aclnnRsubsGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.ScalarAttr("alpha"), c.Out(),
                                                   c.workspaceSize, c.executor);
               },
               aclnnRsubs};
    row.shapes = SameShapes();
    row.outShape = ShapeOfInput(0);
  } else {
    row.out = {[](Call& c) {
                 return aclnnRsubGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.ScalarAttr("alpha"), c.Out(),
                                                  c.workspaceSize, c.executor);
               },
               aclnnRsub};
  }
  auto compute = [scalarOther](const std::vector<aclDataType>& in) {
    return scalarOther ? RsubsPromotion(in[0], InputDtype(in, 1)) : Promote(in[0], InputDtype(in, 1));
  };
  row.dtypes = Concat(EachDtype(kRsubDtypes), Singly({{{ACL_INT32, ACL_FLOAT}},
                                                      {{ACL_INT8, ACL_INT64}},
                                                      {{ACL_FLOAT16, ACL_FLOAT}},
                                                      {{ACL_INT32, ACL_INT32}, ACL_INT64},
                                                      {{ACL_FLOAT, ACL_FLOAT}, ACL_DOUBLE}}));
  row.outDtype = compute;
  auto computeOf = [compute](const DtypeCase& dc) { return compute(dc.inputs).value_or(ACL_FLOAT); };
  row.attrs = {{"", {{"alpha", ScalarAttr{ACL_INT32, 1.0}}}},
               {"alpha_s32_neg2",
                {{"alpha", ScalarAttr{ACL_INT32, -2.0}}},
                [computeOf](const DtypeCase& dc) { return !IsUnsigned(computeOf(dc)); }},
               {"alpha_f32", {{"alpha", ScalarAttr{ACL_FLOAT, 0.75}}}, [computeOf](const DtypeCase& dc) {
                  return IsFloating(computeOf(dc));
                }}};
  row.reference = [compute](const RefCall& call) {
    const aclDataType c = *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    const Value alpha = call.attrs.Scalar("alpha").value;
    Expected want;
    const Values s = BroadcastTo(call.inputs[0].values, call.inputs[0].shape, call.outShape);
    const Values o = BroadcastTo(call.inputs[1].values, call.inputs[1].shape, call.outShape);
    const double u = IsFloating(c) ? std::max(UnitRoundoff(c), UnitRoundoff(call.out)) : 0;
    for (size_t i = 0; i < s.size(); ++i) {
      const Value a = ConvertValue(s[i], c), b = ConvertValue(o[i], c);
      const Value term = ConvertValue(alpha, c) * a;
      const Value r = IsFloating(c)
                          ? b - term
                          : Value(Wrapped(static_cast<int64_t>(b.real()) -
                                              static_cast<int64_t>(alpha.real()) * static_cast<int64_t>(a.real()),
                                          c));
      want.values.push_back(ConvertValue(r, call.out));
      want.tolerance.push_back(4 * u * (std::abs(b) + std::abs(term)));
    }
    return want;
  };
  return row;
}

// ---- IsClose --------------------------------------------------------------------------------------

const std::vector<aclDataType> kIsCloseDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                                 ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};

OpRow IsCloseRow() {
  OpRow row;
  row.name = "IsClose";
  // Values on a coarse grid: many pairs are equal or within the tolerances, many are not.
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 3} : Range{-2, 2};
  });
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "other", .range = range}};
  row.out = {[](Call& c) {
               return aclnnIsCloseGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.DoubleAttr("rtol"), c.DoubleAttr("atol"),
                                                   c.BoolAttr("equalNan"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnIsClose};
  row.dtypes = Concat(EachDtype(kIsCloseDtypes), Singly({{{ACL_FLOAT, ACL_FLOAT}, ACL_INT32}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.attrs = {{"", {{"rtol", 1e-5}, {"atol", 1e-8}, {"equalNan", false}}},
               {"loose", {{"rtol", 0.25}, {"atol", 0.5}, {"equalNan", true}}}};
  row.reference = [](const RefCall& call) {
    const auto rtol = static_cast<double>(static_cast<float>(call.attrs.Double("rtol")));
    const auto atol = static_cast<double>(static_cast<float>(call.attrs.Double("atol")));
    return Pointwise([rtol, atol](const std::vector<Value>& x, const AttrSet&) {
      const double a = x[0].real(), b = x[1].real();
      return Value(a == b || std::abs(a - b) <= atol + rtol * std::abs(b) ? 1.0 : 0.0);
    })(call);
  };
  return row;
}

std::vector<OpRow> BinaryMathRows() {
  std::vector<OpRow> rows = {Atan2Row(),
                             RemainderRow(RemainderForm::kTensorTensor),
                             RemainderRow(RemainderForm::kTensorScalar),
                             RemainderRow(RemainderForm::kScalarTensor),
                             GcdRow(),
                             FloorDivideRow(false),
                             FloorDivideRow(true),
                             ShiftRow(true, false),
                             ShiftRow(true, true),
                             ShiftRow(false, false),
                             BitwiseNotRow(),
                             LerpRow(),
                             LerpsRow(),
                             AddcmulRow(),
                             XLogYRow(XLogYForm::kTensor),
                             XLogYRow(XLogYForm::kScalarOther),
                             XLogYRow(XLogYForm::kScalarSelf),
                             LogAddExpRow(false),
                             LogAddExpRow(true),
                             RsubRow(false),
                             RsubRow(true),
                             IsCloseRow()};
  std::vector<aclDataType> andOr = kBitwiseXorDtypes;
  andOr.push_back(ACL_UINT16);
  rows.push_back(BitwiseScalarRow(BITWISE_SCALAR_FORMS(BitwiseAndScalar), andOr, false,
                                  [](int64_t a, int64_t b) { return a & b; }));
  rows.push_back(
      BitwiseScalarRow(BITWISE_SCALAR_FORMS(BitwiseOrScalar), andOr, true, [](int64_t a, int64_t b) { return a | b; }));
  rows.push_back(BitwiseScalarRow(BITWISE_SCALAR_FORMS(BitwiseXorScalar), kBitwiseXorDtypes, true,
                                  [](int64_t a, int64_t b) { return a ^ b; }));
  return rows;
}
CANOPY_HARNESS_ROWS(BinaryMathRows);

}  // namespace
}  // namespace canopy_test
