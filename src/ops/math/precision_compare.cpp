// aclnnPrecisionCompare: out (a 0-d UINT32) = 0 when realdata holds exactly
// golden's data, else 503 (CANN's "mismatch, no fault report" code). CANN runs
// it on an AI CPU kernel ("DataCompare", offline detection) whose source is not
// public; its purpose is catching silently corrupted results by comparing a
// recomputation, so "the same" is bit for bit here: any differing bit, -0 for
// +0, or another NaN payload is a mismatch. Empty tensors compare nothing and
// leave out alone, as CANN's code does.
#include <cstring>
#include <string>

#include "aclnnop/aclnn_precision_compare.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_UINT32};
constexpr uint32_t kMatch = 0;
constexpr uint32_t kMismatch = 503;

// golden and realdata are contiguous copies (or views) of one dtype and shape.
class CompareStep final : public Step {
 public:
  CompareStep(const TensorRef& golden, const TensorRef& realdata, const TensorRef& out)
      : golden_(golden), realdata_(realdata), out_(out) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t bytes = golden_.NumElements() * static_cast<int64_t>(DtypeSize(golden_.dtype));
    const bool same = std::memcmp(context.Resolve(golden_.buffer), context.Resolve(realdata_.buffer),
                                  static_cast<size_t>(bytes)) == 0;
    const uint32_t code = same ? kMatch : kMismatch;
    std::memcpy(context.Resolve(out_.buffer), &code, sizeof code);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "precision compare " + ShapeToString(golden_.shape); }

 private:
  TensorRef golden_;
  TensorRef realdata_;
  TensorRef out_;
};

aclnnStatus PlanPrecisionCompare(Plan& plan, const aclTensor* golden, const aclTensor* realdata, const aclTensor* out) {
  if (golden->dtype != realdata->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'realdata' has dtype %s; it must be golden's %s",
                       DtypeName(realdata->dtype), DtypeName(golden->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("golden", golden->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  CANOPY_CHECK(plan.CheckShape("realdata", realdata, golden->view_shape));
  CANOPY_CHECK(plan.CheckRank("out", out, 0, 0));
  const TensorRef golden_ref = plan.Input(golden, "golden");
  const TensorRef realdata_ref = plan.Input(realdata, "realdata");
  const TensorRef out_ref = plan.Output(out, "out");
  if (golden->NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef golden_dense = plan.Contiguous(golden_ref, golden->dtype);
  const TensorRef realdata_dense = plan.Contiguous(realdata_ref, realdata->dtype);
  plan.AddStep(std::make_unique<CompareStep>(golden_dense, realdata_dense, out_ref), {golden_dense, realdata_dense},
               out_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(PrecisionCompare, PlanPrecisionCompare,
                (OpTraits{.header = "aclnnop/aclnn_precision_compare.h",
                          .dtypes = kInputDtypes | kOutDtypes,
                          .example = "f32[4,2] f32[4,2] u32[]"}),
                (const aclTensor*, golden), (const aclTensor*, realdata), (aclTensor*, out))
