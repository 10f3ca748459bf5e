// The Foreach family (ops-nn foreach/) through the public C API, one table row
// per op: lists of three tensors of different shapes (a transposed and a stepped
// view, an empty tensor) in each documented dtype against a float64 reference,
// the in-place forms in place, and the list rejections with CANN's codes (a
// dtype outside the op's list, lists of different lengths, a list mixing
// dtypes, an out list of another dtype or shape, a scalar list of the wrong
// length, a scalar of a dtype the list's dtype does not pair with).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_foreach_a_cos_inplace.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_acos.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_list_inplace.h"
#include "aclnnop/aclnn_foreach_add_list_v2.h"
#include "aclnnop/aclnn_foreach_add_scalar.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_asin.h"
#include "aclnnop/aclnn_foreach_atan.h"
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_cos.h"
#include "aclnnop/aclnn_foreach_cosh.h"
#include "aclnnop/aclnn_foreach_div_list.h"
#include "aclnnop/aclnn_foreach_div_list_inplace.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_div_scalar_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_erfc.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_expm1.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_log.h"
#include "aclnnop/aclnn_foreach_log10.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_log2.h"
#include "aclnnop/aclnn_foreach_log_inplace.h"
#include "aclnnop/aclnn_foreach_maximum_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_mul_list_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar.h"
#include "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h"
#include "aclnnop/aclnn_foreach_pow_scalar_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_v2.h"
#include "aclnnop/aclnn_foreach_reciprocal.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sin.h"
#include "aclnnop/aclnn_foreach_sinh.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_sub_list.h"
#include "aclnnop/aclnn_foreach_sub_list_inplace.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "aclnnop/aclnn_foreach_sub_scalar.h"
#include "aclnnop/aclnn_foreach_sub_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_sub_scalar_list.h"
#include "aclnnop/aclnn_foreach_sub_scalar_v2.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_tanh.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

enum class Form {
  kUnary,                // (x, out)
  kUnaryInplace,         // (x)
  kList,                 // (x1, x2, out)
  kListInplace,          // (x1, x2)
  kAlphaTensor,          // (x1, x2, alpha tensor, out)
  kAlphaTensorInplace,   // (x1, x2, alpha tensor)
  kAlphaScalar,          // (x1, x2, alpha scalar, out)
  kTensorScalar,         // (x, scalar tensor, out)
  kTensorScalarInplace,  // (x, scalar tensor)
  kScalar,               // (x, scalar, out)
  kScalarList,           // (x, scalars, out)
  kScalarAndTensor,      // (scalar, x, out): out = scalar (op) x
  kTernaryPerTensor,     // (x1, x2, x3, scalars tensor of one value per tensor, out)
  kTernaryScalar,        // (x1, x2, x3, scalar tensor, out)
  kTernaryHost,          // (x1, x2, x3, scalar, out)
  kLerpList,             // (x1, x2, weight list, out)
  kLerpScalar,           // (x1, x2, weight scalar, out)
};

bool HasOut(Form f) {
  return f != Form::kUnaryInplace && f != Form::kListInplace && f != Form::kAlphaTensorInplace &&
         f != Form::kTensorScalarInplace;
}
bool IsTernary(Form f) { return f == Form::kTernaryPerTensor || f == Form::kTernaryScalar || f == Form::kTernaryHost; }
bool HasThirdList(Form f) { return IsTernary(f) || f == Form::kLerpList; }
bool HasSecondList(Form f) {
  return f == Form::kList || f == Form::kListInplace || f == Form::kAlphaTensor || f == Form::kAlphaTensorInplace ||
         f == Form::kAlphaScalar || HasThirdList(f) || f == Form::kLerpScalar;
}
// One scalar per tensor of the list (a scalar list or a device tensor of them).
bool PerTensorScalars(Form f) { return f == Form::kScalarList || f == Form::kTernaryPerTensor; }
bool HasScalarTensor(Form f) {
  return f == Form::kAlphaTensor || f == Form::kAlphaTensorInplace || f == Form::kTensorScalar ||
         f == Form::kTensorScalarInplace || f == Form::kTernaryPerTensor || f == Form::kTernaryScalar;
}
bool HasHostScalar(Form f) {
  return f == Form::kAlphaScalar || f == Form::kScalar || f == Form::kScalarAndTensor || f == Form::kTernaryHost ||
         f == Form::kLerpScalar;
}
bool IsAlpha(Form f) { return f == Form::kAlphaTensor || f == Form::kAlphaTensorInplace || f == Form::kAlphaScalar; }

// One call's descriptors.
struct Args {
  aclTensorList* x1 = nullptr;
  aclTensorList* x2 = nullptr;
  aclTensorList* x3 = nullptr;
  aclTensorList* out = nullptr;
  aclTensor* scalarTensor = nullptr;
  aclScalar* scalar = nullptr;
  aclScalarList* scalars = nullptr;
};
using CallFn = aclnnStatus (*)(const Args&, uint64_t*, aclOpExecutor**);
// out = f(x, other, alpha): other is x2's element, the scalar or scalars[i] (alpha 1 where there is none).
using Reference = double (*)(double x, double other, double alpha);
// The three-list forms: out = f(x1, x2, x3, s) (x3 0 where there is no third list).
using TernaryReference = double (*)(double x1, double x2, double x3, double s);

struct ForeachOpRow {
  const char* name;
  Form form;
  CallFn call;
  Phase2 run;
  std::vector<aclDataType> dtypes;
  Reference reference;
  Range x = {-3, 3};
  Range other = {-3, 3};
  Range xInt = {-9, 9};
  Range otherInt = {-9, 9};
  TernaryReference ternary = nullptr;
};

#define CALL(Name, ...)                                                                \
  [](const Args& a, uint64_t* workspaceSize, aclOpExecutor** executor) {               \
    return aclnnForeach##Name##GetWorkspaceSize(__VA_ARGS__, workspaceSize, executor); \
  },                                                                                   \
      aclnnForeach##Name

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kExp = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT8, ACL_UINT8};
const std::vector<aclDataType> kNeg = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16, ACL_INT8};
const std::vector<aclDataType> kSign = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_INT64};
const std::vector<aclDataType> kZero = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_INT32};
const std::vector<aclDataType> kCopy = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,   ACL_INT8,
                                        ACL_UINT16, ACL_INT64,   ACL_DOUBLE, ACL_BOOL};
const std::vector<aclDataType> kArith7 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
const std::vector<aclDataType> kArith4 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};

const std::vector<ForeachOpRow>& Rows() {
  static const std::vector<ForeachOpRow> rows = {
      {"Abs",
       Form::kUnary,
       CALL(Abs, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::fabs(x); },
       {-3, 3}},
      {"Acos",
       Form::kUnary,
       CALL(Acos, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::acos(x); },
       {-0.9, 0.9}},
      {"Asin",
       Form::kUnary,
       CALL(Asin, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::asin(x); },
       {-0.9, 0.9}},
      {"Atan",
       Form::kUnary,
       CALL(Atan, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::atan(x); },
       {-3, 3}},
      {"Cos",
       Form::kUnary,
       CALL(Cos, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::cos(x); },
       {-3, 3}},
      {"Cosh",
       Form::kUnary,
       CALL(Cosh, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::cosh(x); },
       {-3, 3}},
      {"Erf",
       Form::kUnary,
       CALL(Erf, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::erf(x); },
       {-2, 2}},
      {"Erfc",
       Form::kUnary,
       CALL(Erfc, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::erfc(x); },
       {-2, 2}},
      {"Exp",
       Form::kUnary,
       CALL(Exp, a.x1, a.out),
       kExp,
       [](double x, double, double) { return std::exp(x); },
       {-3, 3}},
      {"Expm1",
       Form::kUnary,
       CALL(Expm1, a.x1, a.out),
       kExp,
       [](double x, double, double) { return std::expm1(x); },
       {-3, 3}},
      {"Log",
       Form::kUnary,
       CALL(Log, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::log(x); },
       {0.1, 4}},
      {"Log10",
       Form::kUnary,
       CALL(Log10, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::log10(x); },
       {0.1, 4}},
      {"Log1p",
       Form::kUnary,
       CALL(Log1p, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::log1p(x); },
       {-0.5, 3}},
      {"Log2",
       Form::kUnary,
       CALL(Log2, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::log2(x); },
       {0.1, 4}},
      {"Neg", Form::kUnary, CALL(Neg, a.x1, a.out), kNeg, [](double x, double, double) { return -x; }, {-3, 3}},
      {"Reciprocal",
       Form::kUnary,
       CALL(Reciprocal, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return 1 / x; },
       {-3, 3, 0.25}},
      {"Sigmoid",
       Form::kUnary,
       CALL(Sigmoid, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return 1 / (1 + std::exp(-x)); },
       {-4, 4}},
      {"Sign",
       Form::kUnary,
       CALL(Sign, a.x1, a.out),
       kSign,
       [](double x, double, double) { return double((x > 0) - (x < 0)); },
       {-3, 3}},
      {"Sin",
       Form::kUnary,
       CALL(Sin, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::sin(x); },
       {-3, 3}},
      {"Sinh",
       Form::kUnary,
       CALL(Sinh, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::sinh(x); },
       {-3, 3}},
      {"Sqrt",
       Form::kUnary,
       CALL(Sqrt, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::sqrt(x); },
       {0, 4}},
      {"Tan",
       Form::kUnary,
       CALL(Tan, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::tan(x); },
       {-1.2, 1.2}},
      {"Tanh",
       Form::kUnary,
       CALL(Tanh, a.x1, a.out),
       kFloats,
       [](double x, double, double) { return std::tanh(x); },
       {-3, 3}},
      {"ACosInplace",
       Form::kUnaryInplace,
       CALL(ACosInplace, a.x1),
       kFloats,
       [](double x, double, double) { return std::acos(x); },
       {-0.9, 0.9}},
      {"LogInplace",
       Form::kUnaryInplace,
       CALL(LogInplace, a.x1),
       kFloats,
       [](double x, double, double) { return std::log(x); },
       {0.1, 4}},
      {"ZeroInplace", Form::kUnaryInplace, CALL(ZeroInplace, a.x1), kZero, [](double, double, double) { return 0.0; }},
      {"Copy", Form::kUnary, CALL(Copy, a.x1, a.out), kCopy, [](double x, double, double) { return x; }},
      {"AddList",  // the A2 host code's list (the doc's also names INT16, INT8, UINT8)
       Form::kAlphaTensor,
       CALL(AddList, a.x1, a.x2, a.scalarTensor, a.out),
       kArith4,
       [](double x, double o, double alpha) { return x + alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"AddListV2",
       Form::kAlphaScalar,
       CALL(AddListV2, a.x1, a.x2, a.scalar, a.out),
       kArith7,
       [](double x, double o, double alpha) { return x + alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"AddListInplace",
       Form::kAlphaTensorInplace,
       CALL(AddListInplace, a.x1, a.x2, a.scalarTensor),
       kArith4,
       [](double x, double o, double alpha) { return x + alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubList",
       Form::kAlphaTensor,
       CALL(SubList, a.x1, a.x2, a.scalarTensor, a.out),
       kArith7,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubListV2",
       Form::kAlphaScalar,
       CALL(SubListV2, a.x1, a.x2, a.scalar, a.out),
       kArith7,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubListInplace",
       Form::kAlphaTensorInplace,
       CALL(SubListInplace, a.x1, a.x2, a.scalarTensor),
       kArith4,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MulList",
       Form::kList,
       CALL(MulList, a.x1, a.x2, a.out),
       kArith7,
       [](double x, double o, double) { return x * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MulListInplace",
       Form::kListInplace,
       CALL(MulListInplace, a.x1, a.x2),
       kArith4,
       [](double x, double o, double) { return x * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"DivList",
       Form::kList,
       CALL(DivList, a.x1, a.x2, a.out),
       kFloats,
       [](double x, double o, double) { return x / o; },
       {-3, 3},
       {-3, 3, 0.25},
       {-9, 9},
       {-9, 9}},
      {"DivListInplace",
       Form::kListInplace,
       CALL(DivListInplace, a.x1, a.x2),
       kFloats,
       [](double x, double o, double) { return x / o; },
       {-3, 3},
       {-3, 3, 0.25},
       {-9, 9},
       {-9, 9}},
      {"MaximumList",
       Form::kList,
       CALL(MaximumList, a.x1, a.x2, a.out),
       kArith4,
       [](double x, double o, double) { return std::max(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MinimumList",
       Form::kList,
       CALL(MinimumList, a.x1, a.x2, a.out),
       kArith4,
       [](double x, double o, double) { return std::min(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"PowList",
       Form::kList,
       CALL(PowList, a.x1, a.x2, a.out),
       kArith4,
       [](double x, double o, double) { return std::pow(x, o); },
       {0.5, 2},
       {-2, 2},
       {0, 4},
       {0, 4}},
      {"AddScalar",
       Form::kTensorScalar,
       CALL(AddScalar, a.x1, a.scalarTensor, a.out),
       kArith7,
       [](double x, double o, double alpha) { return x + alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"AddScalarV2",
       Form::kScalar,
       CALL(AddScalarV2, a.x1, a.scalar, a.out),
       kArith7,
       [](double x, double o, double alpha) { return x + alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"AddScalarList",
       Form::kScalarList,
       CALL(AddScalarList, a.x1, a.scalars, a.out),
       kArith4,
       [](double x, double o, double alpha) { return x + alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubScalar",
       Form::kTensorScalar,
       CALL(SubScalar, a.x1, a.scalarTensor, a.out),
       kArith4,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubScalarV2",
       Form::kScalar,
       CALL(SubScalarV2, a.x1, a.scalar, a.out),
       kArith4,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubScalarList",
       Form::kScalarList,
       CALL(SubScalarList, a.x1, a.scalars, a.out),
       kArith4,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"SubScalarInplace",
       Form::kTensorScalarInplace,
       CALL(SubScalarInplace, a.x1, a.scalarTensor),
       kArith4,
       [](double x, double o, double alpha) { return x - alpha * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MulScalar",
       Form::kTensorScalar,
       CALL(MulScalar, a.x1, a.scalarTensor, a.out),
       kArith4,
       [](double x, double o, double) { return x * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MulScalarV2",
       Form::kScalar,
       CALL(MulScalarV2, a.x1, a.scalar, a.out),
       kArith4,
       [](double x, double o, double) { return x * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MulScalarList",
       Form::kScalarList,
       CALL(MulScalarList, a.x1, a.scalars, a.out),
       kArith4,
       [](double x, double o, double) { return x * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MulScalarInplace",
       Form::kTensorScalarInplace,
       CALL(MulScalarInplace, a.x1, a.scalarTensor),
       kArith4,
       [](double x, double o, double) { return x * o; },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"DivScalar",
       Form::kTensorScalar,
       CALL(DivScalar, a.x1, a.scalarTensor, a.out),
       kFloats,
       [](double x, double o, double) { return x / o; },
       {-3, 3},
       {-3, 3, 0.25},
       {-9, 9},
       {-9, 9}},
      {"DivScalarV2",
       Form::kScalar,
       CALL(DivScalarV2, a.x1, a.scalar, a.out),
       kFloats,
       [](double x, double o, double) { return x / o; },
       {-3, 3},
       {-3, 3, 0.25},
       {-9, 9},
       {-9, 9}},
      {"DivScalarList",
       Form::kScalarList,
       CALL(DivScalarList, a.x1, a.scalars, a.out),
       kFloats,
       [](double x, double o, double) { return x / o; },
       {-3, 3},
       {-3, 3, 0.25},
       {-9, 9},
       {-9, 9}},
      {"MaximumScalar",
       Form::kTensorScalar,
       CALL(MaximumScalar, a.x1, a.scalarTensor, a.out),
       kArith4,
       [](double x, double o, double) { return std::max(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MaximumScalarV2",
       Form::kScalar,
       CALL(MaximumScalarV2, a.x1, a.scalar, a.out),
       kArith4,
       [](double x, double o, double) { return std::max(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MaximumScalarList",
       Form::kScalarList,
       CALL(MaximumScalarList, a.x1, a.scalars, a.out),
       kArith4,
       [](double x, double o, double) { return std::max(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MinimumScalar",
       Form::kTensorScalar,
       CALL(MinimumScalar, a.x1, a.scalarTensor, a.out),
       kArith4,
       [](double x, double o, double) { return std::min(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MinimumScalarV2",
       Form::kScalar,
       CALL(MinimumScalarV2, a.x1, a.scalar, a.out),
       kArith4,
       [](double x, double o, double) { return std::min(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"MinimumScalarList",
       Form::kScalarList,
       CALL(MinimumScalarList, a.x1, a.scalars, a.out),
       kArith4,
       [](double x, double o, double) { return std::min(x, o); },
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9}},
      {"PowScalar",
       Form::kTensorScalar,
       CALL(PowScalar, a.x1, a.scalarTensor, a.out),
       kArith4,
       [](double x, double o, double) { return std::pow(x, o); },
       {0.5, 2},
       {-2, 2},
       {0, 4},
       {0, 4}},
      {"PowScalarV2",  // INT32 too: CANN's A2 host code and kernel (the doc's table lists the floats)
       Form::kScalar,
       CALL(PowScalarV2, a.x1, a.scalar, a.out),
       kArith4,
       [](double x, double o, double) { return std::pow(x, o); },
       {0.5, 2},
       {-2, 2},
       {0, 4},
       {0, 4}},
      {"PowScalarList",
       Form::kScalarList,
       CALL(PowScalarList, a.x1, a.scalars, a.out),
       kArith4,
       [](double x, double o, double) { return std::pow(x, o); },
       {0.5, 2},
       {-2, 2},
       {0, 4},
       {0, 4}},
      {"PowScalarAndTensor",
       Form::kScalarAndTensor,
       CALL(PowScalarAndTensor, a.scalar, a.x1, a.out),
       kArith4,
       [](double x, double o, double) { return std::pow(x, o); },
       {-2, 2},
       {0.5, 2},
       {0, 4},
       {-3, 3}},
      {"AddcdivList",
       Form::kTernaryPerTensor,
       CALL(AddcdivList, a.x1, a.x2, a.x3, a.scalarTensor, a.out),
       kFloats,
       nullptr,
       {-3, 3},
       {-3, 3, 0.25},
       {},
       {},
       [](double a, double b, double c, double s) { return a + s * b / c; }},
      {"AddcdivScalar",
       Form::kTernaryScalar,
       CALL(AddcdivScalar, a.x1, a.x2, a.x3, a.scalarTensor, a.out),
       kFloats,
       nullptr,
       {-3, 3},
       {-3, 3, 0.25},
       {},
       {},
       [](double a, double b, double c, double s) { return a + s * b / c; }},
      {"AddcdivScalarList",
       Form::kTernaryPerTensor,
       CALL(AddcdivScalarList, a.x1, a.x2, a.x3, a.scalarTensor, a.out),
       kFloats,
       nullptr,
       {-3, 3},
       {-3, 3, 0.25},
       {},
       {},
       [](double a, double b, double c, double s) { return a + s * b / c; }},
      {"AddcdivScalarV2",
       Form::kTernaryHost,
       CALL(AddcdivScalarV2, a.x1, a.x2, a.x3, a.scalar, a.out),
       kFloats,
       nullptr,
       {-3, 3},
       {-3, 3, 0.25},
       {},
       {},
       [](double a, double b, double c, double s) { return a + s * b / c; }},
      {"AddcmulList",
       Form::kTernaryPerTensor,
       CALL(AddcmulList, a.x1, a.x2, a.x3, a.scalarTensor, a.out),
       kArith4,
       nullptr,
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9},
       [](double a, double b, double c, double s) { return a + s * b * c; }},
      {"AddcmulScalar",
       Form::kTernaryScalar,
       CALL(AddcmulScalar, a.x1, a.x2, a.x3, a.scalarTensor, a.out),
       kArith4,
       nullptr,
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9},
       [](double a, double b, double c, double s) { return a + s * b * c; }},
      {"AddcmulScalarList",
       Form::kTernaryPerTensor,
       CALL(AddcmulScalarList, a.x1, a.x2, a.x3, a.scalarTensor, a.out),
       kArith4,
       nullptr,
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9},
       [](double a, double b, double c, double s) { return a + s * b * c; }},
      {"AddcmulScalarV2",
       Form::kTernaryHost,
       CALL(AddcmulScalarV2, a.x1, a.x2, a.x3, a.scalar, a.out),
       kArith4,
       nullptr,
       {-3, 3},
       {-3, 3},
       {-9, 9},
       {-9, 9},
       [](double a, double b, double c, double s) { return a + s * b * c; }},
      {"LerpList",
       Form::kLerpList,
       CALL(LerpList, a.x1, a.x2, a.x3, a.out),
       kFloats,
       nullptr,
       {-3, 3},
       {-3, 3},
       {},
       {},
       [](double a, double b, double w, double) { return a + w * (b - a); }},
      {"LerpScalar",
       Form::kLerpScalar,
       CALL(LerpScalar, a.x1, a.x2, a.scalar, a.out),
       kFloats,
       nullptr,
       {-3, 3},
       {-3, 3},
       {},
       {},
       [](double a, double b, double, double w) { return a + w * (b - a); }},
  };
  return rows;
}

// The dtype of a one-element tensor, a host scalar or alpha for lists of `dtype`.
aclDataType ScalarDtypeFor(Form form, aclDataType dtype) {
  if (form == Form::kTernaryPerTensor) return dtype;
  if (form == Form::kLerpScalar) return ACL_FLOAT;
  const bool listScalar = form == Form::kScalarList || form == Form::kScalarAndTensor;
  if (!IsFloating(dtype)) return listScalar ? ACL_INT64 : ACL_INT32;
  return dtype == ACL_FLOAT16 && !listScalar ? ACL_FLOAT16 : ACL_FLOAT;
}

// `value` stored into an integer dtype: truncated, then wrapped to its width.
double Wrap(double value, aclDataType dtype) {
  const auto bits = static_cast<int>(ElementBytes(dtype) * 8);
  const int64_t truncated = static_cast<int64_t>(std::trunc(value));
  if (bits >= 64) return static_cast<double>(truncated);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  const uint64_t raw = static_cast<uint64_t>(truncated) & mask;
  if (IsUnsigned(dtype)) return static_cast<double>(raw);
  const int64_t sign = int64_t{1} << (bits - 1);
  return static_cast<double>(static_cast<int64_t>(raw ^ static_cast<uint64_t>(sign)) - sign);
}

const std::vector<Shape> kShapes = {{3, 4}, {5}, {0, 3}};
const std::vector<View> kXViews = {View::kTransposed, View::kContiguous, View::kContiguous};
const std::vector<View> kOtherViews = {View::kStepped, View::kOffset, View::kContiguous};

struct Param {
  size_t row;
  aclDataType dtype;
};

void PrintTo(const Param& param, std::ostream* os) { *os << Rows()[param.row].name << " " << Name(param.dtype); }

class ForeachOpTest : public ::testing::TestWithParam<Param> {};

TEST_P(ForeachOpTest, MatchesReference) {
  const ForeachOpRow& row = Rows()[GetParam().row];
  const aclDataType dtype = GetParam().dtype;
  // Copy widens FLOAT16 and BFLOAT16 into FLOAT (the A2 host code's BFLOAT16 pair, beyond the doc's).
  const aclDataType outDtype =
      std::string(row.name) == "Copy" && (dtype == ACL_FLOAT16 || dtype == ACL_BF16) ? ACL_FLOAT : dtype;
  const bool integer = !IsFloating(dtype);
  Rng rng = Rng::ForCurrentTest();
  const Range xRange = integer ? row.xInt : row.x;
  const Range otherRange = integer ? row.otherInt : row.other;
  const aclDataType scalarDtype = ScalarDtypeFor(row.form, dtype);

  std::vector<std::unique_ptr<DeviceTensor>> x, other, third, out;
  std::vector<Values> xValues, otherValues, thirdValues;
  for (size_t i = 0; i < kShapes.size(); ++i) {
    x.push_back(std::make_unique<DeviceTensor>(dtype, MakeLayout(kShapes[i], kXViews[i])));
    xValues.push_back(x.back()->FillRandom(rng, xRange));
    if (HasSecondList(row.form)) {
      other.push_back(std::make_unique<DeviceTensor>(dtype, MakeLayout(kShapes[i], kOtherViews[i])));
      otherValues.push_back(other.back()->FillRandom(rng, otherRange));
    }
    if (HasThirdList(row.form)) {
      third.push_back(std::make_unique<DeviceTensor>(dtype, MakeLayout(kShapes[i], kXViews[2 - i])));
      thirdValues.push_back(third.back()->FillRandom(rng, row.form == Form::kLerpList ? Range{0, 1} : otherRange));
    }
    if (HasOut(row.form)) {
      out.push_back(std::make_unique<DeviceTensor>(outDtype, kShapes[i]));
      out.back()->Poison();
    }
  }
  // The scalar operand (or alpha): one value, or one per tensor for a scalar list.
  const Range scalarRange = IsAlpha(row.form) ? (integer ? Range{-3, 3, 1} : Range{-2, 2, 0.25}) : otherRange;
  std::vector<Value> scalars;
  for (size_t i = 0; i < (PerTensorScalars(row.form) ? kShapes.size() : 1); ++i) {
    scalars.push_back(ConvertValue(rng.Draw(scalarDtype, scalarRange), scalarDtype));
  }
  DeviceTensor scalarTensor(scalarDtype, Shape{static_cast<int64_t>(scalars.size())});
  if (HasScalarTensor(row.form)) scalarTensor.WriteView(scalars);

  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        auto list = [&](const std::vector<std::unique_ptr<DeviceTensor>>& tensors) {
          std::vector<aclTensor*> descriptors;
          for (const auto& t : tensors) descriptors.push_back(args.Tensor(*t));
          return args.TensorList(descriptors);
        };
        Args a;
        a.x1 = list(x);
        if (HasSecondList(row.form)) a.x2 = list(other);
        if (HasThirdList(row.form)) a.x3 = list(third);
        if (HasOut(row.form)) a.out = list(out);
        if (HasScalarTensor(row.form)) a.scalarTensor = args.Tensor(scalarTensor);
        if (HasHostScalar(row.form)) a.scalar = args.Scalar(scalarDtype, scalars[0]);
        if (row.form == Form::kScalarList) a.scalars = args.ScalarList(scalarDtype, scalars);
        return row.call(a, workspaceSize, executor);
      },
      row.run);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const double u = UnitRoundoff(outDtype);
  for (size_t i = 0; i < kShapes.size(); ++i) {
    const DeviceTensor& result = HasOut(row.form) ? *out[i] : *x[i];
    Expected want;
    for (size_t k = 0; k < xValues[i].size(); ++k) {
      const double xv = xValues[i][k].real();
      const double alpha = IsAlpha(row.form) ? scalars[0].real() : 1.0;
      double value = 0;
      if (row.ternary != nullptr) {
        const double s = PerTensorScalars(row.form) ? scalars[i].real() : scalars[0].real();
        value = row.ternary(xv, otherValues[i][k].real(), HasThirdList(row.form) ? thirdValues[i][k].real() : 0.0, s);
      } else if (HasSecondList(row.form)) {
        value = row.reference(xv, otherValues[i][k].real(), alpha);
      } else if (row.form == Form::kScalarAndTensor) {
        value = row.reference(scalars[0].real(), xv, 1.0);
      } else if (row.form == Form::kScalarList) {
        value = row.reference(xv, scalars[i].real(), 1.0);
      } else {
        value = row.reference(xv, scalars[0].real(), 1.0);
      }
      if (integer && !IsBool(outDtype)) value = Wrap(value, outDtype);
      want.values.push_back(value);
      want.tolerance.push_back(integer ? 0.0 : 8 * u * (std::fabs(value) + 1));
    }
    ExpectNear(result.ReadView(), want, std::string(row.name) + " tensor " + std::to_string(i));
  }
}

std::vector<Param> AllParams() {
  std::vector<Param> params;
  for (size_t r = 0; r < Rows().size(); ++r) {
    for (aclDataType dtype : Rows()[r].dtypes) params.push_back({r, dtype});
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(Foreach, ForeachOpTest, ::testing::ValuesIn(AllParams()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::string(Rows()[info.param.row].name) + "_" + Name(info.param.dtype);
                         });

// ---- rejections -----------------------------------------------------------------------------------

// The lists of a rejected call: each element's dtype and shape.
struct ListSpec {
  std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT};
  std::vector<Shape> shapes = {{2, 3}, {4}};
};
struct CallSpec {
  ListSpec x, other, out;
  aclDataType scalarDtype = ACL_FLOAT;
  Shape scalarShape = {1};
  size_t scalarCount = 2;
};

OpRun RunSpec(const ForeachOpRow& row, const CallSpec& spec) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        auto list = [&](const ListSpec& l) {
          std::vector<aclTensor*> descriptors;
          for (size_t i = 0; i < l.dtypes.size(); ++i) descriptors.push_back(args.NewTensor(l.dtypes[i], l.shapes[i]));
          return args.TensorList(descriptors);
        };
        Args a;
        a.x1 = list(spec.x);
        if (HasSecondList(row.form)) a.x2 = list(spec.other);
        if (HasThirdList(row.form)) a.x3 = list(spec.other);
        if (HasOut(row.form)) a.out = list(spec.out);
        if (row.form == Form::kTernaryPerTensor) {
          a.scalarTensor = args.NewTensor(spec.scalarDtype, {static_cast<int64_t>(spec.scalarCount)});
        } else if (HasScalarTensor(row.form)) {
          a.scalarTensor = args.NewTensor(spec.scalarDtype, spec.scalarShape);
        }
        if (HasHostScalar(row.form)) a.scalar = args.Scalar(spec.scalarDtype, 2.0);
        if (row.form == Form::kScalarList) {
          a.scalars = args.ScalarList(spec.scalarDtype, std::vector<Value>(spec.scalarCount, 2.0));
        }
        return row.call(a, workspaceSize, executor);
      },
      row.run);
}

void ExpectStatus(const OpRun& run, aclnnStatus status, const std::string& what) {
  EXPECT_EQ(run.phase1, status) << what << ": " << Describe(run);
  if (run.phase1 != ACLNN_SUCCESS) {
    EXPECT_NE(run.message.find("Foreach"), std::string::npos) << run.message;
  }
}

class ForeachRejectionTest : public ::testing::TestWithParam<size_t> {};

TEST_P(ForeachRejectionTest, RejectsAsCannDoes) {
  const ForeachOpRow& row = Rows()[GetParam()];
  const bool copy = std::string(row.name) == "Copy";
  ASSERT_TRUE(RunSpec(row, CallSpec{}).ok()) << "the valid call";
  {
    CallSpec spec;
    spec.x.dtypes = spec.other.dtypes = spec.out.dtypes = {ACL_COMPLEX64, ACL_COMPLEX64};
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, "a dtype outside the op's list");
  }
  {
    CallSpec spec;
    spec.x.dtypes = spec.other.dtypes = spec.out.dtypes = {ACL_FLOAT, ACL_FLOAT16};
    if (copy) spec.out.dtypes = {ACL_FLOAT16, ACL_FLOAT};
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_INNER_TILING_ERROR, "a list mixing dtypes");
  }
  if (HasOut(row.form) || HasSecondList(row.form)) {
    CallSpec spec;
    ListSpec& second = HasOut(row.form) ? spec.out : spec.other;
    second.dtypes = {copy ? ACL_INT32 : ACL_FLOAT16, copy ? ACL_INT32 : ACL_FLOAT16};
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, "a second list of another dtype");
    second = ListSpec{};
    second.dtypes = {ACL_FLOAT};
    second.shapes = {{2, 3}};
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_INNER_TILING_ERROR, "lists of different lengths");
    second = ListSpec{};
    second.shapes = {{2, 3}, {5}};
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_INNER_TILING_ERROR, "tensors of different shapes");
  }
  if (PerTensorScalars(row.form)) {
    CallSpec spec;
    spec.scalarCount = 3;
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, "a scalar list of the wrong length");
  }
  if (HasScalarTensor(row.form) && !PerTensorScalars(row.form)) {
    CallSpec spec;
    spec.scalarShape = {2};
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, "a scalar tensor of two elements");
  }
  if (HasScalarTensor(row.form) || HasHostScalar(row.form) || row.form == Form::kScalarList) {
    CallSpec spec;
    spec.scalarDtype = ACL_BOOL;
    ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, "a BOOL scalar");
  }
}

INSTANTIATE_TEST_SUITE_P(Foreach, ForeachRejectionTest, ::testing::Range<size_t>(0, Rows().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) { return Rows()[info.param].name; });

// Where CANN pairs the scalar's dtype with the list's: a BFLOAT16 list takes a FLOAT
// scalar tensor, not a FLOAT16 one; an INT32 list takes INT64 list scalars, not FLOAT.
TEST(ForeachScalarPairing, RejectsScalarsThatDoNotPairWithTheList) {
  for (const ForeachOpRow& row : Rows()) {
    const std::string name = row.name;
    if (name == "SubScalar" || name == "DivScalar") {
      CallSpec spec;
      spec.x.dtypes = spec.out.dtypes = {ACL_BF16, ACL_BF16};
      spec.scalarDtype = ACL_FLOAT16;
      ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, name + " bf16 list, f16 scalar");
      spec.scalarDtype = ACL_FLOAT;
      ExpectStatus(RunSpec(row, spec), ACLNN_SUCCESS, name + " bf16 list, f32 scalar");
    }
    if (name == "AddScalarList") {
      CallSpec spec;
      spec.x.dtypes = spec.out.dtypes = {ACL_INT32, ACL_INT32};
      ExpectStatus(RunSpec(row, spec), ACLNN_ERR_PARAM_INVALID, name + " s32 list, f32 scalars");
      spec.scalarDtype = ACL_INT64;
      ExpectStatus(RunSpec(row, spec), ACLNN_SUCCESS, name + " s32 list, s64 scalars");
    }
  }
}

// ---- ForeachNorm: one norm per tensor ---------------------------------------------------------------

struct NormCase {
  aclDataType dtype;
  aclDataType pDtype;
  double p;
};

class ForeachNormTest : public ::testing::TestWithParam<NormCase> {};

TEST_P(ForeachNormTest, MatchesReference) {
  const NormCase c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  std::vector<std::unique_ptr<DeviceTensor>> x, out;
  std::vector<Values> values;
  const std::vector<Shape> outShapes = {{1}, {1, 1}, {}};
  for (size_t i = 0; i < kShapes.size(); ++i) {
    x.push_back(std::make_unique<DeviceTensor>(c.dtype, MakeLayout(kShapes[i], kXViews[i])));
    values.push_back(x.back()->FillRandom(rng, Range{-3, 3}));
    out.push_back(std::make_unique<DeviceTensor>(c.dtype, outShapes[i]));
    out.back()->Poison();
  }
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        std::vector<aclTensor*> xs, outs;
        for (size_t i = 0; i < x.size(); ++i) {
          xs.push_back(args.Tensor(*x[i]));
          outs.push_back(args.Tensor(*out[i]));
        }
        return aclnnForeachNormGetWorkspaceSize(args.TensorList(xs), args.Scalar(c.pDtype, c.p), args.TensorList(outs),
                                                workspaceSize, executor);
      },
      aclnnForeachNorm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  for (size_t i = 0; i < x.size(); ++i) {
    double norm = 0;
    for (Value v : values[i]) {
      const double a = std::fabs(v.real());
      norm = std::isinf(c.p) ? std::max(norm, a) : norm + std::pow(a, c.p);
    }
    if (!std::isinf(c.p) && !values[i].empty()) norm = std::pow(norm, 1 / c.p);
    const double u = std::max(UnitRoundoff(c.dtype), 1e-6);
    ExpectNear(out[i]->ReadView(), Expected{{norm}, {8 * u * (norm + 1)}}, "ForeachNorm tensor " + std::to_string(i));
  }
}

INSTANTIATE_TEST_SUITE_P(Foreach, ForeachNormTest,
                         ::testing::Values(NormCase{ACL_FLOAT, ACL_FLOAT, 2}, NormCase{ACL_FLOAT16, ACL_INT64, 1},
                                           NormCase{ACL_BF16, ACL_DOUBLE, 3}, NormCase{ACL_FLOAT, ACL_FLOAT, INFINITY}),
                         [](const ::testing::TestParamInfo<NormCase>& info) {
                           return std::string(Name(info.param.dtype)) + "_p" +
                                  (std::isinf(info.param.p) ? std::string("inf")
                                                            : std::to_string(static_cast<int>(info.param.p)));
                         });

TEST(ForeachNorm, Rejections) {
  auto call = [](aclDataType xDtype, aclDataType outDtype, const Shape& outShape, aclDataType pDtype) {
    return RunOp(
        [=](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          aclTensorList* x = args.TensorList({args.NewTensor(xDtype, {2, 3}), args.NewTensor(xDtype, {4})});
          aclTensorList* out = args.TensorList({args.NewTensor(outDtype, {1}), args.NewTensor(outDtype, outShape)});
          return aclnnForeachNormGetWorkspaceSize(x, args.Scalar(pDtype, 2), out, workspaceSize, executor);
        },
        aclnnForeachNorm);
  };
  EXPECT_TRUE(call(ACL_FLOAT, ACL_FLOAT, {1}, ACL_FLOAT).ok());
  ExpectStatus(call(ACL_DOUBLE, ACL_DOUBLE, {1}, ACL_FLOAT), ACLNN_ERR_PARAM_INVALID, "f64 x");
  ExpectStatus(call(ACL_FLOAT, ACL_FLOAT16, {1}, ACL_FLOAT), ACLNN_ERR_PARAM_INVALID, "out of another dtype");
  ExpectStatus(call(ACL_FLOAT, ACL_FLOAT, {1}, ACL_BOOL), ACLNN_ERR_PARAM_INVALID, "a BOOL p");
  ExpectStatus(call(ACL_FLOAT, ACL_FLOAT, {2}, ACL_FLOAT), ACLNN_ERR_INNER_TILING_ERROR, "an out of two elements");
}

// ---- ForeachNonFiniteCheckAndUnscale ---------------------------------------------------------------

struct UnscaleCase {
  const char* name;
  aclDataType dtype;
  double foundBefore;
  Value special;  // written into grad 1 element 2 (0: none)
  double foundAfter;
};

class ForeachUnscaleTest : public ::testing::TestWithParam<UnscaleCase> {};

TEST_P(ForeachUnscaleTest, ChecksThenUnscalesInPlace) {
  const UnscaleCase c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  std::vector<std::unique_ptr<DeviceTensor>> grads;
  std::vector<Values> values;
  for (size_t i = 0; i < kShapes.size(); ++i) {
    grads.push_back(std::make_unique<DeviceTensor>(c.dtype, MakeLayout(kShapes[i], kXViews[i])));
    values.push_back(grads.back()->FillRandom(rng, Range{-300, 300}));
  }
  if (c.special != 0.0) {
    values[1][2] = c.special;
    grads[1]->WriteView(values[1]);
  }
  DeviceTensor found(ACL_FLOAT, Shape{1});
  found.WriteView({c.foundBefore});
  DeviceTensor inv(ACL_FLOAT, Shape{1});
  const double invScale = 1.0 / 256;
  inv.WriteView({invScale});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        std::vector<aclTensor*> descriptors;
        for (const auto& g : grads) descriptors.push_back(args.Tensor(*g));
        return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(args.TensorList(descriptors), args.Tensor(found),
                                                                    args.Tensor(inv), workspaceSize, executor);
      },
      aclnnForeachNonFiniteCheckAndUnscale);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(found.ReadView(), {c.foundAfter}, "foundInf");
  for (size_t i = 0; i < grads.size(); ++i) {
    Values want;
    for (Value v : values[i]) want.push_back(ConvertValue(v.real() * invScale, c.dtype));  // a power of two: exact
    ExpectExact(grads[i]->ReadView(), want, "scaledGrads[" + std::to_string(i) + "]");
  }
}

INSTANTIATE_TEST_SUITE_P(Foreach, ForeachUnscaleTest,
                         ::testing::Values(UnscaleCase{"f32_finite", ACL_FLOAT, 0, 0.0, 0},
                                           UnscaleCase{"f16_inf", ACL_FLOAT16, 0, INFINITY, 1},
                                           UnscaleCase{"bf16_nan", ACL_BF16, 0, NAN, 1},
                                           UnscaleCase{"f32_neg_inf", ACL_FLOAT, 0, -INFINITY, 1},
                                           UnscaleCase{"f16_found_before", ACL_FLOAT16, 1, 0.0, 1}),
                         [](const ::testing::TestParamInfo<UnscaleCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(ForeachNonFiniteCheckAndUnscale, Rejections) {
  auto call = [](aclDataType gradDtype, size_t count, const Shape& foundShape, aclDataType invDtype) {
    return RunOp(
        [=](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          std::vector<aclTensor*> grads;
          for (size_t i = 0; i < count; ++i) grads.push_back(args.NewTensor(gradDtype, {2}));
          return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(
              args.TensorList(grads), args.NewTensor(ACL_FLOAT, foundShape), args.NewTensor(invDtype, {1}),
              workspaceSize, executor);
        },
        aclnnForeachNonFiniteCheckAndUnscale);
  };
  EXPECT_TRUE(call(ACL_FLOAT, 2, {1}, ACL_FLOAT).ok());
  ExpectStatus(call(ACL_DOUBLE, 2, {1}, ACL_FLOAT), ACLNN_ERR_PARAM_INVALID, "f64 grads");
  ExpectStatus(call(ACL_FLOAT, 2, {1}, ACL_FLOAT16), ACLNN_ERR_PARAM_INVALID, "an f16 invScale");
  ExpectStatus(call(ACL_FLOAT, 2, {2}, ACL_FLOAT), ACLNN_ERR_PARAM_INVALID, "a foundInf of two elements");
  ExpectStatus(call(ACL_FLOAT, 257, {1}, ACL_FLOAT), ACLNN_ERR_INNER_TILING_ERROR, "257 grads");
}

// An empty list is a call with nothing to do; an out list that is an input list runs in place.
TEST(ForeachLists, EmptyListAndOutIsAnInput) {
  const OpRun empty = RunOp(
      [](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnForeachExpGetWorkspaceSize(args.TensorList({}), args.TensorList({}), workspaceSize, executor);
      },
      aclnnForeachExp);
  EXPECT_TRUE(empty.ok()) << Describe(empty);

  Rng rng = Rng::ForCurrentTest();
  DeviceTensor t(ACL_FLOAT, Shape{2, 5});
  const Values before = t.FillRandom(rng, Range{-2, 2});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnForeachNegGetWorkspaceSize(args.TensorList({args.Tensor(t)}), args.TensorList({args.Tensor(t)}),
                                               workspaceSize, executor);
      },
      aclnnForeachNeg);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values negated;
  for (Value v : before) negated.push_back(-v);
  ExpectExact(t.ReadView(), negated, "ForeachNeg with out = x");

  // out is x2: x2's values are read before they are overwritten.
  DeviceTensor a(ACL_FLOAT, Shape{3, 2});
  DeviceTensor b(ACL_FLOAT, Shape{3, 2});
  const Values aValues = a.FillRandom(rng, Range{-2, 2});
  const Values bValues = b.FillRandom(rng, Range{-2, 2});
  const OpRun mul = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnForeachMulListGetWorkspaceSize(args.TensorList({args.Tensor(a)}), args.TensorList({args.Tensor(b)}),
                                                   args.TensorList({args.Tensor(b)}), workspaceSize, executor);
      },
      aclnnForeachMulList);
  ASSERT_TRUE(mul.ok()) << Describe(mul);
  Values product;
  for (size_t i = 0; i < aValues.size(); ++i) product.push_back(ConvertValue(aValues[i] * bValues[i], ACL_FLOAT));
  ExpectExact(b.ReadView(), product, "ForeachMulList with out = x2");
}

// Lists of hundreds of tensors (an optimizer's parameters): phase 1 and each
// run stay linear in the list length (an adversarial pass measured 13 s of
// phase 1 at 1000 tensors: each input and output pair scanned every step),
// and an output that is an input past the first 32 arguments (where the plan
// key looks tensors up by address, not by a scan) is told apart from a
// distinct one in either order, so the cache never hands one's plan to the other.
TEST(ForeachLists, LongListsWithAnOutputThatIsAnInput) {
  constexpr size_t kCount = 600, kAliased = 450;
  Rng rng = Rng::ForCurrentTest();
  for (const bool aliased : {false, true, false, true}) {
    SCOPED_TRACE(aliased ? "out[450] is x2[450]" : "distinct outputs");
    std::vector<std::unique_ptr<DeviceTensor>> x1, x2, out;
    std::vector<Values> v1, v2;
    for (size_t k = 0; k < kCount; ++k) {
      x1.push_back(std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3}));
      x2.push_back(std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3}));
      out.push_back(std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3}));
      v1.push_back(x1.back()->FillRandom(rng, Range{-2, 2}));
      v2.push_back(x2.back()->FillRandom(rng, Range{-2, 2}));
      out.back()->Poison();
    }
    for (int call = 0; call < 2; ++call) {  // the second call is a plan-cache hit
      for (size_t k = 0; k < kCount; ++k) x2[k]->WriteView(v2[k]);
      const OpRun run = RunOp(
          [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            std::vector<aclTensor*> a, b, o;
            for (size_t k = 0; k < kCount; ++k) {
              a.push_back(args.Tensor(*x1[k]));
              b.push_back(args.Tensor(*x2[k]));
              o.push_back(aliased && k == kAliased ? b.back() : args.Tensor(*out[k]));
            }
            return aclnnForeachMulListGetWorkspaceSize(args.TensorList(a), args.TensorList(b), args.TensorList(o),
                                                       workspaceSize, executor);
          },
          aclnnForeachMulList);
      ASSERT_TRUE(run.ok()) << Describe(run);
      for (size_t k = 0; k < kCount; ++k) {
        Values product;
        for (size_t i = 0; i < 3; ++i) product.push_back(ConvertValue(v1[k][i] * v2[k][i], ACL_FLOAT));
        const DeviceTensor& written = aliased && k == kAliased ? *x2[k] : *out[k];
        ExpectExact(written.ReadView(), product, "element " + std::to_string(k));
      }
    }
  }
}

}  // namespace
}  // namespace canopy_test
