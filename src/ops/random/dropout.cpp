// The dropout family. aclnnDropoutGenMask (V2, V2Tensor): a bit mask of
// align128(prod(shape)) bits into a UINT8 out, bit 1 = keep with probability
// 1 - prob (LSB first; all ones for prob 0, all zeros for prob 1).
// aclnnDropoutDoMask: out = mask bit ? self / (1 - prob) : 0. aclnnDropout:
// both at once, into out and maskOut (train false or p 0: out = input and the
// mask untouched; p 1: out = 0, the mask untouched). Counter based
// (kernels/random.h): the same seed and offset give the same mask.
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "random_args.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDropoutDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kProbDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kSeedDtypes = {ACL_INT64};

// The mask's bytes for `count` elements: the bits rounded up to 128.
// Rounded up to whole 128-bit blocks, without overflow for any count.
int64_t MaskBytes(int64_t count) { return count / 128 * 16 + (count % 128 != 0 ? 16 : 0); }

aclnnStatus CheckProb(Plan& plan, const char* name, double p) {
  if (p >= 0 && p <= 1) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' is %g; it must lie in [0, 1]", name, p);
}

aclnnStatus CheckMaskBytes(Plan& plan, const char* name, const aclTensor* mask, int64_t count, bool at_least) {
  const int64_t want = MaskBytes(count), have = mask->NumElements();
  if (have == want || (at_least && have > want)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "'%s' has %lld bytes; %lld elements need %s%lld (their bits rounded up to 128)", name,
                     static_cast<long long>(have), static_cast<long long>(count), at_least ? "at least " : "",
                     static_cast<long long>(want));
}

// The mask's bytes (contiguous: a view of another layout is generated into a temporary and copied).
void AddMask(Plan& plan, double drop, const kernels::RandomSeed& seed, int64_t bytes, const TensorRef& mask,
             const std::vector<TensorRef>& reads) {
  if (bytes == 0) return;
  if (drop <= 0 || drop >= 1) {
    plan.Fill(mask, ScalarValue::Integer(drop <= 0 ? 0xFF : 0));
    return;
  }
  const bool direct = mask.IsContiguous();
  const TensorRef bits = direct ? mask : plan.Temporary(ACL_UINT8, mask.shape);
  kernels::DropoutMaskDesc desc;
  desc.drop = drop;
  desc.seed = seed;
  desc.bits = bytes * 8;
  desc.mask = bits.buffer;
  plan.AddStep(kernels::MakeDropoutMaskStep(desc), reads, bits);
  if (!direct) plan.Copy(bits, mask);
}

// out = mask bit ? in * (1 / (1 - drop)) : 0 (mask contiguous).
void AddApplyMask(Plan& plan, double drop, const TensorRef& mask, const TensorRef& in, const TensorRef& out) {
  if (out.NumElements() == 0) return;
  if (drop <= 0) return plan.Copy(in, out);
  if (drop >= 1) return plan.Fill(out, ScalarValue::Real(0));
  const TensorRef bits = mask.IsContiguous() ? mask : plan.Contiguous(mask, ACL_UINT8);
  kernels::ApplyMaskDesc desc;
  desc.scale = 1.0 / (1.0 - drop);
  desc.mask = bits.buffer;
  DescribeView(in, desc.in, desc.rank, desc.shape);
  int rank = 0;
  int64_t shape[kernels::kMaxRank];
  DescribeView(out, desc.out, rank, shape);
  plan.AddStep(kernels::MakeApplyMaskStep(desc), {in, bits}, out);
}

// The elements `shape` holds; -1 when an extent is negative or the product passes int64.
int64_t ShapeCount(const aclIntArray* shape) {
  int64_t count = 1;
  for (int64_t extent : shape->values) {
    if (extent < 0 || __builtin_mul_overflow(count, extent, &count)) return -1;
  }
  return count;
}

aclnnStatus PlanGenMaskCommon(Plan& plan, const aclIntArray* shape, double prob, const aclTensor* seedTensor,
                              const aclTensor* offsetTensor, int64_t seed, int64_t offset, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_UINT8}));
  CANOPY_CHECK(CheckProb(plan, "prob", prob));
  for (int64_t extent : shape->values) {
    if (extent < 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'shape' holds %lld", static_cast<long long>(extent));
  }
  const int64_t count = ShapeCount(shape);
  if (count < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'shape' has a negative extent or more than INT64_MAX elements");
  }
  CANOPY_CHECK(CheckMaskBytes(plan, "out", out, count, false));
  std::vector<TensorRef> reads;
  kernels::RandomSeed s = HostSeed(seed, offset);
  if (seedTensor != nullptr) {
    CANOPY_CHECK(CheckSeedTensors(plan, seedTensor, offsetTensor, kSeedDtypes));
    s = TensorSeed(plan, seedTensor, offsetTensor, offset, reads);
  }
  const TensorRef dst = plan.Output(out, "out");
  AddMask(plan, prob, s, dst.NumElements(), dst, reads);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGenMask(Plan& plan, const aclIntArray* shape, double prob, int64_t seed, int64_t offset,
                        const aclTensor* out) {
  return PlanGenMaskCommon(plan, shape, prob, nullptr, nullptr, seed, offset, out);
}

aclnnStatus CheckProbDataType(Plan& plan, int probDataType) {
  if (probDataType >= 0 && kProbDtypes.Contains(static_cast<aclDataType>(probDataType))) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'probDataType' is %d; supported: %s", probDataType,
                     kProbDtypes.ToString().c_str());
}

aclnnStatus PlanGenMaskV2(Plan& plan, const aclIntArray* shape, double prob, int64_t seed, int64_t offset,
                          int probDataType, const aclTensor* out) {
  if (prob > 0 && prob < 1) CANOPY_CHECK(CheckProbDataType(plan, probDataType));
  return PlanGenMaskCommon(plan, shape, prob, nullptr, nullptr, seed, offset, out);
}

aclnnStatus PlanGenMaskV2Tensor(Plan& plan, const aclIntArray* shape, double prob, const aclTensor* seedTensor,
                                const aclTensor* offsetTensor, int64_t offset, int probDataType, const aclTensor* out) {
  if (prob > 0 && prob < 1) CANOPY_CHECK(CheckProbDataType(plan, probDataType));
  return PlanGenMaskCommon(plan, shape, prob, seedTensor, offsetTensor, 0, offset, out);
}

aclnnStatus PlanDoMask(Plan& plan, const aclTensor* self, const aclTensor* mask, double prob, const aclTensor* out) {
  const TensorRef in = plan.Input(self, "self");
  const TensorRef bits = plan.Input(mask, "mask");
  const TensorRef dst = plan.Output(out, "out");
  if (self->NumElements() == 0 || mask->NumElements() == 0) return ACLNN_SUCCESS;  // before the checks, as in CANN
  CANOPY_CHECK(plan.CheckCastable(self->dtype, "out", out->dtype));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kDropoutDtypes));
  CANOPY_CHECK(plan.CheckDtype("mask", mask->dtype, DtypeSet{ACL_UINT8}));
  CANOPY_CHECK(CheckProb(plan, "prob", prob));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  CANOPY_CHECK(CheckMaskBytes(plan, "mask", mask, self->NumElements(), true));
  AddApplyMask(plan, prob, bits, in, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDropout(Plan& plan, const aclTensor* input, double p, bool train, int64_t seed, int64_t offset,
                        const aclTensor* out, const aclTensor* maskOut) {
  CANOPY_CHECK(plan.CheckCastable(input->dtype, "out", out->dtype));
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kDropoutDtypes));
  CANOPY_CHECK(plan.CheckDtype("maskOut", maskOut->dtype, DtypeSet{ACL_UINT8}));
  CANOPY_CHECK(CheckProb(plan, "p", p));
  CANOPY_CHECK(plan.CheckShape("out", out, input->view_shape));
  CANOPY_CHECK(CheckMaskBytes(plan, "maskOut", maskOut, input->NumElements(), false));
  const TensorRef in = plan.Input(input, "input");
  const TensorRef dst = plan.Output(out, "out");
  const TensorRef mask = plan.Output(maskOut, "maskOut");
  if (input->NumElements() == 0) return ACLNN_SUCCESS;
  if (!train || p <= 0 || p >= 1) {  // the mask is left as it is (CANN's documented behaviour)
    AddApplyMask(plan, train ? p : 0, mask, in, dst);
    return ACLNN_SUCCESS;
  }
  AddMask(plan, p, HostSeed(seed, offset), mask.NumElements(), mask, {});
  AddApplyMask(plan, p, mask, in, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(DropoutGenMask, PlanGenMask,
                (OpTraits{.header = "aclnnop/aclnn_dropout_gen_mask.h",
                          .dtypes = DtypeSet{ACL_UINT8},
                          .example = "ints[2,3] 0.5 7 0 u8[16]"}),
                (const aclIntArray*, shape), (double, prob), (int64_t, seed), (int64_t, offset), (aclTensor*, out))
CANOPY_ACLNN_OP(DropoutGenMaskV2, PlanGenMaskV2,
                (OpTraits{.header = "aclnnop/aclnn_dropout_gen_mask.h",
                          .dtypes = DtypeSet{ACL_UINT8},
                          .example = "ints[2,3] 0.5 7 0 0 u8[16]"}),
                (const aclIntArray*, shape), (double, prob), (int64_t, seed), (int64_t, offset),
                (aclDataType, probDataType), (aclTensor*, out))
CANOPY_ACLNN_OP(DropoutGenMaskV2Tensor, PlanGenMaskV2Tensor,
                (OpTraits{.header = "aclnnop/aclnn_dropout_gen_mask.h",
                          .dtypes = DtypeSet{ACL_UINT8},
                          .example = "ints[2,3] 0.5 i64[1] i64[1] 0 0 u8[16]"}),
                (const aclIntArray*, shape), (double, prob), (const aclTensor*, seedTensor),
                (const aclTensor*, offsetTensor), (int64_t, offset), (aclDataType, probDataType), (aclTensor*, out))
CANOPY_ACLNN_OP(DropoutDoMask, PlanDoMask,
                (OpTraits{.header = "aclnnop/aclnn_dropout_do_mask.h",
                          .dtypes = kDropoutDtypes,
                          .example = "f32[2,3] u8[16] 0.5 f32[2,3]"}),
                (const aclTensor*, self), (const aclTensor*, mask), (double, prob), (aclTensor*, out))
CANOPY_ACLNN_OP(Dropout, PlanDropout,
                (OpTraits{.header = "aclnnop/aclnn_dropout.h",
                          .dtypes = kDropoutDtypes,
                          .example = "f32[2,3] 0.5 true 7 0 f32[2,3] u8[16]"}),
                (const aclTensor*, input), (double, p), (bool, train), (int64_t, seed), (int64_t, offset),
                (aclTensor*, out), (aclTensor*, maskOut))
