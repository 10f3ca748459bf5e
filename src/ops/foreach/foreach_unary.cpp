// The Foreach unary ops (ops-nn foreach/): out[i] = f(x[i]) for each tensor of
// the list x, and the in-place forms x[i] = f(x[i]). Dtypes: the Atlas A2
// column of each op's CANN document; out has x's dtypes and shapes.
#include "aclnnop/aclnn_foreach_a_cos_inplace.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_acos.h"
#include "aclnnop/aclnn_foreach_asin.h"
#include "aclnnop/aclnn_foreach_atan.h"
#include "aclnnop/aclnn_foreach_cos.h"
#include "aclnnop/aclnn_foreach_cosh.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_erfc.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_expm1.h"
#include "aclnnop/aclnn_foreach_log.h"
#include "aclnnop/aclnn_foreach_log10.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_log2.h"
#include "aclnnop/aclnn_foreach_log_inplace.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_reciprocal.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sin.h"
#include "aclnnop/aclnn_foreach_sinh.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_tanh.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// Exp and Expm1 of an integer list compute in FLOAT and cast the result back into its dtype.
constexpr DtypeSet kExpDtypes = kFloats | DtypeSet{ACL_INT16, ACL_INT8, ACL_UINT8};
constexpr DtypeSet kNegDtypes = kFloats | DtypeSet{ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
constexpr DtypeSet kSignDtypes = kFloats | DtypeSet{ACL_INT8, ACL_INT32, ACL_INT64};

constexpr const char* kExample = "(f32[2,3],f32[4]) (f32[2,3],f32[4])";
constexpr const char* kPositiveExample = "(f32[2,3]{0.1:0.9},f32[4]{0.1:0.9}) (f32[2,3],f32[4])";
constexpr const char* kInplaceExample = "(f32[2,3]{0.1:0.9},f32[4]{0.1:0.9})";

aclnnStatus PlanForeachAbs(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kAbs, kFloats, false}, x, out);
}
aclnnStatus PlanForeachAcos(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kAcos, kFloats, false}, x, out);
}
aclnnStatus PlanForeachAsin(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kAsin, kFloats, false}, x, out);
}
aclnnStatus PlanForeachAtan(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kAtan, kFloats, false}, x, out);
}
aclnnStatus PlanForeachCos(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kCos, kFloats, false}, x, out);
}
aclnnStatus PlanForeachCosh(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kCosh, kFloats, false}, x, out);
}
aclnnStatus PlanForeachErf(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kErf, kFloats, false}, x, out);
}
aclnnStatus PlanForeachErfc(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kErfc, kFloats, false}, x, out);
}
aclnnStatus PlanForeachExp(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kExp, kExpDtypes, true}, x, out);
}
aclnnStatus PlanForeachExpm1(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kExpm1, kExpDtypes, true}, x, out);
}
aclnnStatus PlanForeachLog(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kLog, kFloats, false}, x, out);
}
aclnnStatus PlanForeachLog10(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kLog10, kFloats, false}, x, out);
}
aclnnStatus PlanForeachLog1p(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kLog1p, kFloats, false}, x, out);
}
aclnnStatus PlanForeachLog2(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kLog2, kFloats, false}, x, out);
}
aclnnStatus PlanForeachNeg(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kNeg, kNegDtypes, false}, x, out);
}
aclnnStatus PlanForeachReciprocal(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kReciprocal, kFloats, false}, x, out);
}
aclnnStatus PlanForeachSigmoid(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kSigmoid, kFloats, false}, x, out);
}
aclnnStatus PlanForeachSign(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kSign, kSignDtypes, false}, x, out);
}
aclnnStatus PlanForeachSin(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kSin, kFloats, false}, x, out);
}
aclnnStatus PlanForeachSinh(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kSinh, kFloats, false}, x, out);
}
aclnnStatus PlanForeachSqrt(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kSqrt, kFloats, false}, x, out);
}
aclnnStatus PlanForeachTan(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kTan, kFloats, false}, x, out);
}
aclnnStatus PlanForeachTanh(Plan& plan, const aclTensorList* x, const aclTensorList* out) {
  return PlanForeachUnary(plan, {UnaryOp::kTanh, kFloats, false}, x, out);
}
aclnnStatus PlanForeachACosInplace(Plan& plan, const aclTensorList* x) {
  return PlanForeachUnary(plan, {UnaryOp::kAcos, kFloats}, x, nullptr);
}
aclnnStatus PlanForeachLogInplace(Plan& plan, const aclTensorList* x) {
  return PlanForeachUnary(plan, {UnaryOp::kLog, kFloats}, x, nullptr);
}

}  // namespace

CANOPY_ACLNN_OP(ForeachAbs, PlanForeachAbs,
                (OpTraits{.header = "aclnnop/aclnn_foreach_abs.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAcos, PlanForeachAcos,
                (OpTraits{.header = "aclnnop/aclnn_foreach_acos.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAsin, PlanForeachAsin,
                (OpTraits{.header = "aclnnop/aclnn_foreach_asin.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAtan, PlanForeachAtan,
                (OpTraits{.header = "aclnnop/aclnn_foreach_atan.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachCos, PlanForeachCos,
                (OpTraits{.header = "aclnnop/aclnn_foreach_cos.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachCosh, PlanForeachCosh,
                (OpTraits{.header = "aclnnop/aclnn_foreach_cosh.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachErf, PlanForeachErf,
                (OpTraits{.header = "aclnnop/aclnn_foreach_erf.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachErfc, PlanForeachErfc,
                (OpTraits{.header = "aclnnop/aclnn_foreach_erfc.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachExp, PlanForeachExp,
                (OpTraits{.header = "aclnnop/aclnn_foreach_exp.h", .dtypes = kExpDtypes, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachExpm1, PlanForeachExpm1,
                (OpTraits{.header = "aclnnop/aclnn_foreach_expm1.h", .dtypes = kExpDtypes, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachLog, PlanForeachLog,
                (OpTraits{.header = "aclnnop/aclnn_foreach_log.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachLog10, PlanForeachLog10,
                (OpTraits{.header = "aclnnop/aclnn_foreach_log10.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachLog1p, PlanForeachLog1p,
                (OpTraits{.header = "aclnnop/aclnn_foreach_log1p.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachLog2, PlanForeachLog2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_log2.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachNeg, PlanForeachNeg,
                (OpTraits{.header = "aclnnop/aclnn_foreach_neg.h", .dtypes = kNegDtypes, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachReciprocal, PlanForeachReciprocal,
                (OpTraits{.header = "aclnnop/aclnn_foreach_reciprocal.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSigmoid, PlanForeachSigmoid,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sigmoid.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSign, PlanForeachSign,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sign.h", .dtypes = kSignDtypes, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSin, PlanForeachSin,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sin.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSinh, PlanForeachSinh,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sinh.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSqrt, PlanForeachSqrt,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sqrt.h", .dtypes = kFloats, .example = kPositiveExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachTan, PlanForeachTan,
                (OpTraits{.header = "aclnnop/aclnn_foreach_tan.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachTanh, PlanForeachTanh,
                (OpTraits{.header = "aclnnop/aclnn_foreach_tanh.h", .dtypes = kFloats, .example = kExample}),
                (const aclTensorList*, x), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachACosInplace, PlanForeachACosInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_a_cos_inplace.h",
                          .dtypes = kFloats,
                          .in_place = true,
                          .example = kInplaceExample}),
                (const aclTensorList*, x))
CANOPY_ACLNN_OP(ForeachLogInplace, PlanForeachLogInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_log_inplace.h",
                          .dtypes = kFloats,
                          .in_place = true,
                          .example = kInplaceExample}),
                (const aclTensorList*, x))
