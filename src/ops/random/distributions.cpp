// The in-place distributions: aclnnInplaceNormal (mean, standard deviation
// std >= 0), aclnnInplaceUniform ([from, to), from <= to; from == to gives
// from), aclnnInplaceRandom (integers in [from, to), from < to), their *Tensor
// forms (seed and offset from one-element device tensors read on the stream),
// and aclnnSimThreadExponential (rate lambda > 0, count = the element count).
// Values are drawn in double (Normal, Uniform in FLOAT as CANN's generator
// does) and converted into selfRef's dtype. Counter based (kernels/random.h).
#include <cmath>
#include <cstdlib>

#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_sim_thread_exponential.h"
#include "aclnnop/aclnn_uniform.h"
#include "random_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNormalDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT16, ACL_INT32,
                                    ACL_INT64,   ACL_INT8,  ACL_UINT8,  ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kUniformDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT32, ACL_INT64,
                                     ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_DOUBLE};
constexpr DtypeSet kRandomDtypes = {ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32,     ACL_INT64,
                                    ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeSet kExponentialDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
constexpr DtypeSet kSeedDtypes = {ACL_INT64};
constexpr DtypeSet kUniformSeedDtypes = {ACL_INT64, ACL_UINT64};

// selfRef registered (input 0 and output 0), then the seed's tensors, then the fill.
aclnnStatus Fill(Plan& plan, const aclTensor* selfRef, kernels::RandomDesc desc, const aclTensor* seedTensor,
                 const aclTensor* offsetTensor, int64_t offset) {
  plan.Input(selfRef, "selfRef");
  std::vector<TensorRef> reads;
  if (seedTensor != nullptr) desc.seed = TensorSeed(plan, seedTensor, offsetTensor, offset, reads);
  AddRandomFill(plan, desc, plan.Output(selfRef, "selfRef"), reads);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanNormalCommon(Plan& plan, const aclTensor* selfRef, float mean, float std, const aclTensor* seedTensor,
                             const aclTensor* offsetTensor, int64_t seed, int64_t offset) {
  if (seedTensor != nullptr) CANOPY_CHECK(CheckSeedTensors(plan, seedTensor, offsetTensor, kSeedDtypes));
  if (!(std >= 0)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'std' is %g; it must be 0 or more", std);
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kNormalDtypes));
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kNormal;
  desc.a = mean;
  desc.b = std;
  desc.seed = HostSeed(seed, offset);
  return Fill(plan, selfRef, desc, seedTensor, offsetTensor, offset);
}

aclnnStatus PlanInplaceNormal(Plan& plan, const aclTensor* selfRef, float mean, float std, int64_t seed,
                              int64_t offset) {
  return PlanNormalCommon(plan, selfRef, mean, std, nullptr, nullptr, seed, offset);
}
aclnnStatus PlanInplaceNormalTensor(Plan& plan, const aclTensor* selfRef, float mean, float std,
                                    const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset) {
  return PlanNormalCommon(plan, selfRef, mean, std, seedTensor, offsetTensor, 0, offset);
}

aclnnStatus PlanUniformCommon(Plan& plan, const aclTensor* selfRef, double from, double to, const aclTensor* seedTensor,
                              const aclTensor* offsetTensor, uint64_t seed, uint64_t offset) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kUniformDtypes));
  if (!(from <= to)) {  // NaN too
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'from' %g is not at most 'to' %g", from, to);
  }
  if (seedTensor != nullptr) CANOPY_CHECK(CheckSeedTensors(plan, seedTensor, offsetTensor, kUniformSeedDtypes));
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kUniform;
  desc.a = from;
  desc.b = to;
  desc.seed = HostSeed(static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return Fill(plan, selfRef, desc, seedTensor, offsetTensor, static_cast<int64_t>(offset));
}

aclnnStatus PlanInplaceUniform(Plan& plan, const aclTensor* selfRef, double from, double to, uint64_t seed,
                               uint64_t offset) {
  return PlanUniformCommon(plan, selfRef, from, to, nullptr, nullptr, seed, offset);
}
aclnnStatus PlanInplaceUniformTensor(Plan& plan, const aclTensor* selfRef, double from, double to,
                                     const aclTensor* seedTensor, const aclTensor* offsetTensor, uint64_t offset) {
  return PlanUniformCommon(plan, selfRef, from, to, seedTensor, offsetTensor, 0, offset);
}

// The integer `value` as a float of `digits` significand digits holds it (to nearest, ties to even).
int64_t RoundedTo(int64_t value, int digits) {
  const int64_t magnitude = value < 0 ? -value : value;
  const int bits = magnitude == 0 ? 0 : 64 - __builtin_clzll(static_cast<uint64_t>(magnitude));
  if (bits <= digits) return value;
  const double significand = std::nearbyint(std::ldexp(static_cast<double>(value), digits - bits));
  return static_cast<int64_t>(std::ldexp(significand, bits - digits));
}

// from and to moved inwards until every integer drawn in [from, to) stays in
// it once rounded to the float dtype (PyTorch's update_from / update_to,
// which CANN's host code applies before its kernels): BF16 [0, 1000) draws
// from [0, 996), since 999 rounds to 1000 there.
void KeepDrawsInside(int digits, int64_t& from, int64_t& to) {
  const int64_t from_plus_1 = RoundedTo(from + 1, digits);
  if (from_plus_1 < from) {
    const int n = 63 - __builtin_clzll(static_cast<uint64_t>(std::abs(from + 1)) | 1);
    from = from_plus_1 + (int64_t{1} << (n - digits + 1));
  }
  const int64_t to_minus_1 = RoundedTo(to - 1, digits);
  if (to_minus_1 >= to) {
    const int n = 63 - __builtin_clzll(static_cast<uint64_t>(std::abs(to - 1)) | 1);
    to = to_minus_1 - (int64_t{1} << (n - digits + 1));
  }
}

aclnnStatus PlanRandomCommon(Plan& plan, const aclTensor* selfRef, int64_t from, int64_t to,
                             const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t seed, int64_t offset) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kRandomDtypes));
  if (from >= to) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'from' %lld is not below 'to' %lld", static_cast<long long>(from),
                       static_cast<long long>(to));
  }
  // [from, to - 1] within selfRef's dtype (CANN: "to beyond the range of
  // selfRef's dtype" is 161002): an integer out holds every value drawn.
  // A complex selfRef takes the draws as real parts.
  const aclDataType part = PartDtype(selfRef->dtype);
  const auto [lowest, highest] = DtypeRange(part);
  if (static_cast<double>(from) < lowest || static_cast<double>(to - 1) > highest) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "[from, to) = [%lld, %lld) is outside the range of selfRef's dtype %s",
                       static_cast<long long>(from), static_cast<long long>(to), DtypeName(selfRef->dtype));
  }
  if (const int digits = SignificandDigits(part); digits > 0) {
    const int64_t asked_from = from, asked_to = to;
    KeepDrawsInside(digits, from, to);
    if (from >= to) {  // as PyTorch refuses it: no integer of the range survives the rounding
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "[from, to) = [%lld, %lld) holds no value %s can take below 'to'",
                         static_cast<long long>(asked_from), static_cast<long long>(asked_to),
                         DtypeName(selfRef->dtype));
    }
  }
  if (seedTensor != nullptr) CANOPY_CHECK(CheckSeedTensors(plan, seedTensor, offsetTensor, kSeedDtypes));
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kInteger;
  desc.from = from;
  desc.to = to;
  desc.seed = HostSeed(seed, offset);
  return Fill(plan, selfRef, desc, seedTensor, offsetTensor, offset);
}

aclnnStatus PlanInplaceRandom(Plan& plan, const aclTensor* selfRef, int64_t from, int64_t to, int64_t seed,
                              int64_t offset) {
  return PlanRandomCommon(plan, selfRef, from, to, nullptr, nullptr, seed, offset);
}
aclnnStatus PlanInplaceRandomTensor(Plan& plan, const aclTensor* selfRef, int64_t from, int64_t to,
                                    const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset) {
  return PlanRandomCommon(plan, selfRef, from, to, seedTensor, offsetTensor, 0, offset);
}

aclnnStatus PlanExponential(Plan& plan, const aclTensor* selfRef, int64_t count, double lambda, int64_t seed,
                            int64_t offset) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", selfRef->dtype, kExponentialDtypes));
  if (!(lambda > 0)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'lambda' is %g; it must be above 0", lambda);
  if (count != selfRef->NumElements()) {  // CANN's tiling check
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'count' is %lld; selfRef has %lld elements",
                       static_cast<long long>(count), static_cast<long long>(selfRef->NumElements()));
  }
  kernels::RandomDesc desc;
  desc.kind = kernels::RandomKind::kExponential;
  desc.a = lambda;
  desc.seed = HostSeed(seed, offset);
  return Fill(plan, selfRef, desc, nullptr, nullptr, offset);
}

}  // namespace

CANOPY_ACLNN_OP(
    InplaceNormal, PlanInplaceNormal,
    (OpTraits{
        .header = "aclnnop/aclnn_normal.h", .dtypes = kNormalDtypes, .in_place = true, .example = "f32[2,3] 0 1 7 0"}),
    (const aclTensor*, selfRef), (float, mean), (float, std), (int64_t, seed), (int64_t, offset))
CANOPY_ACLNN_OP(InplaceNormalTensor, PlanInplaceNormalTensor,
                (OpTraits{.header = "aclnnop/aclnn_normal.h",
                          .dtypes = kNormalDtypes,
                          .in_place = true,
                          .example = "f32[2,3] 0 1 i64[1] i64[1] 0"}),
                (const aclTensor*, selfRef), (float, mean), (float, std), (const aclTensor*, seedTensor),
                (const aclTensor*, offsetTensor), (int64_t, offset))
CANOPY_ACLNN_OP(InplaceUniform, PlanInplaceUniform,
                (OpTraits{.header = "aclnnop/aclnn_uniform.h",
                          .dtypes = kUniformDtypes,
                          .in_place = true,
                          .example = "f32[2,3] 0 1 7 0"}),
                (const aclTensor*, selfRef), (double, from), (double, to), (uint64_t, seed), (uint64_t, offset))
CANOPY_ACLNN_OP(InplaceUniformTensor, PlanInplaceUniformTensor,
                (OpTraits{.header = "aclnnop/aclnn_uniform.h",
                          .dtypes = kUniformDtypes,
                          .in_place = true,
                          .example = "f32[2,3] 0 1 i64[1] i64[1] 0"}),
                (const aclTensor*, selfRef), (double, from), (double, to), (const aclTensor*, seedTensor),
                (const aclTensor*, offsetTensor), (uint64_t, offset))
CANOPY_ACLNN_OP(
    InplaceRandom, PlanInplaceRandom,
    (OpTraits{
        .header = "aclnnop/aclnn_random.h", .dtypes = kRandomDtypes, .in_place = true, .example = "f32[2,3] 0 10 7 0"}),
    (const aclTensor*, selfRef), (int64_t, from), (int64_t, to), (int64_t, seed), (int64_t, offset))
CANOPY_ACLNN_OP(InplaceRandomTensor, PlanInplaceRandomTensor,
                (OpTraits{.header = "aclnnop/aclnn_random.h",
                          .dtypes = kRandomDtypes,
                          .in_place = true,
                          .example = "f32[2,3] 0 10 i64[1] i64[1] 0"}),
                (const aclTensor*, selfRef), (int64_t, from), (int64_t, to), (const aclTensor*, seedTensor),
                (const aclTensor*, offsetTensor), (int64_t, offset))
CANOPY_ACLNN_OP(SimThreadExponential, PlanExponential,
                (OpTraits{.header = "aclnnop/aclnn_sim_thread_exponential.h",
                          .dtypes = kExponentialDtypes,
                          .in_place = true,
                          .example = "f32[2,3] 6 1.5 7 0"}),
                (aclTensor*, selfRef), (int64_t, count), (double, lambda), (int64_t, seed), (int64_t, offset))
