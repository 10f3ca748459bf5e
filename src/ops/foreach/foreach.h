// The building block of CANN's Foreach family (ops-nn foreach/): one pointwise
// op applied to each tensor of an aclTensorList, with a second list, a
// one-element tensor, a host scalar or a scalar list as the other operand. The
// lists are checked here in CANN's order (161002 for a dtype outside the op's
// list or differing from the first list's, 561002 for a list whose tensors mix
// dtypes, lists of different lengths or shapes that differ), then each element
// is one step of the existing pointwise engines (unary, elementwise, binary
// pointwise). An op is a rule and a few lines.
#pragma once

#include <initializer_list>

#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// One list argument as the prototype names it.
struct ForeachList {
  const char* name;
  const aclTensorList* list;
};

// Every list's tensors have a dtype of `dtypes` (161002) and the dtype of the
// first list's tensor at the same position (161002); the first list's tensors
// share one dtype (561002, returned in `dtype`; ACL_DT_UNDEFINED for an empty
// list); every list has the first one's length and its tensors' shapes (561002).
aclnnStatus CheckForeachLists(Plan& plan, std::initializer_list<ForeachList> lists, DtypeSet dtypes,
                              aclDataType& dtype);
// The two lists have one length and their tensors the same shapes (561002).
aclnnStatus CheckForeachShapes(Plan& plan, const ForeachList& a, const ForeachList& b);

// ---- x (op) nothing ---------------------------------------------------------------------------

struct ForeachUnaryRule {
  UnaryOp op = UnaryOp::kAbs;
  DtypeSet dtypes = {};
  // Integer tensors compute in FLOAT and the result is cast back (Exp of INT8 into INT8).
  bool integers_in_float = false;
};

// out[i] = f(x[i]); out null: in place (x[i] = f(x[i])).
aclnnStatus PlanForeachUnary(Plan& plan, const ForeachUnaryRule& rule, const aclTensorList* x,
                             const aclTensorList* out);

// ---- x (op) other -------------------------------------------------------------------------------

enum class ForeachOp : uint8_t { kAdd, kSub, kMul, kDiv, kMaximum, kMinimum, kPow };

// Which dtypes a scalar (or alpha) may have for the list's dtype, within the op's own list.
enum class ScalarPairing : uint8_t {
  kAny,      // any of the op's scalar dtypes
  kLikeX,    // FLOAT16 tensors: FLOAT16 (or DOUBLE); FLOAT and BFLOAT16: FLOAT (or DOUBLE);
             // integer tensors: INT32 (or INT64)
  kForList,  // floating tensors: FLOAT (or DOUBLE); integer tensors: INT64 (or INT32)
  kSameAsX   // the list's own dtype
};

struct ForeachBinaryRule {
  ForeachOp op = ForeachOp::kAdd;
  DtypeSet dtypes = {};         // every tensor list's
  DtypeSet scalar_dtypes = {};  // the scalar's, scalar list's or alpha's
  ScalarPairing pairing = ScalarPairing::kAny;
};

// out[i] = x1[i] (op) alpha * x2[i]. alpha: a one-element tensor (`alpha_tensor`),
// a host scalar (`alpha_scalar`) or neither (1). out null: in place into x1.
aclnnStatus PlanForeachList(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x1, const aclTensorList* x2,
                            const aclTensor* alpha_tensor, const aclScalar* alpha_scalar, const aclTensorList* out);
// out[i] = x[i] (op) scalar, scalar a one-element device tensor; out null: in place.
aclnnStatus PlanForeachTensorScalar(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x,
                                    const aclTensor* scalar, const aclTensorList* out);
// out[i] = x[i] (op) scalar, a host scalar.
aclnnStatus PlanForeachScalar(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x,
                              const aclScalar* scalar, const aclTensorList* out);
// out[i] = x[i] (op) scalars[i].
aclnnStatus PlanForeachScalarList(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x,
                                  const aclScalarList* scalars, const aclTensorList* out);
// out[i] = scalar (op) x[i] (PowScalarAndTensor).
aclnnStatus PlanForeachScalarAndTensor(Plan& plan, const ForeachBinaryRule& rule, const aclScalar* scalar,
                                       const aclTensorList* x, const aclTensorList* out);

// ---- x1 + scalar * (x2 (op) x3) ----------------------------------------------------------------

enum class ForeachCombine : uint8_t { kAddcmul, kAddcdiv };

struct ForeachTernaryRule {
  ForeachCombine op = ForeachCombine::kAddcmul;
  DtypeSet dtypes = {};
  DtypeSet scalar_dtypes = {};
  ScalarPairing pairing = ScalarPairing::kAny;
};

// out[i] = x1[i] + s * x2[i] (op) x3[i] (torch.addcmul, torch.addcdiv). s: element i of
// `scalars` (one per tensor, 161002 otherwise), the one element of `scalar`, or the host
// scalar `value`; exactly one of them is given.
aclnnStatus PlanForeachTernary(Plan& plan, const ForeachTernaryRule& rule, const aclTensorList* x1,
                               const aclTensorList* x2, const aclTensorList* x3, const aclTensor* scalars,
                               const aclTensor* scalar, const aclScalar* value, const aclTensorList* out);

// ---- lerp ---------------------------------------------------------------------------------------

// out[i] = x1[i] + w * (x2[i] - x1[i]) (torch.lerp), w the list `weights`' element i or the host
// scalar `weight` (one of them given; its dtype one of `weight_dtypes`).
aclnnStatus PlanForeachLerp(Plan& plan, DtypeSet dtypes, DtypeSet weight_dtypes, const aclTensorList* x1,
                            const aclTensorList* x2, const aclTensorList* weights, const aclScalar* weight,
                            const aclTensorList* out);

// ---- norm ---------------------------------------------------------------------------------------

// out[i] = (sum |x[i]|^p)^(1/p) (p 0 counts non-zeros, +-inf the largest / smallest |x|;
// an empty tensor's norm is 0), each out[i] one element of x's dtype (561002 otherwise).
aclnnStatus PlanForeachNorm(Plan& plan, DtypeSet dtypes, DtypeSet p_dtypes, const aclTensorList* x, const aclScalar* p,
                            const aclTensorList* out);

// ---- unscaling -----------------------------------------------------------------------------------

// found_inf = 1 where some scaledGrads[i] holds an inf or NaN (kept otherwise), then
// scaledGrads[i] *= inv_scale in place (torch._amp_foreach_non_finite_check_and_unscale_).
aclnnStatus PlanForeachNonFiniteCheckAndUnscale(Plan& plan, DtypeSet dtypes, const aclTensorList* scaled_grads,
                                                const aclTensor* found_inf, const aclTensor* inv_scale);

}  // namespace canopy::ops
