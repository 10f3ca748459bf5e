// aclnnExpandIntoJaggedPermute (fbgemm's expand_into_jagged_permute): for
// each table i of permute [L], the output segment [outputOffset[i],
// outputOffset[i + 1]) holds inputOffset[permute[i]], inputOffset[permute[i]]
// + 1, ... . All INT32; the offsets [L + 1] rise and end at outputSize. CANN
// generates this op's entry and checks shapes while tiling (561002); the
// values are checked when it runs (a permute index outside [0, L), offsets
// that fall or pass outputSize fail the run before anything is written).
#include <memory>
#include <string>

#include "aclnnop/aclnn_expand_into_jagged_permute.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// permute [L], input / output offsets [L + 1] dense INT32; writes out [outputSize] INT32.
class JaggedPermuteStep final : public Step {
 public:
  JaggedPermuteStep(const TensorRef& permute, const TensorRef& input_offsets, const TensorRef& output_offsets,
                    const TensorRef& out)
      : permute_(permute), input_offsets_(input_offsets), output_offsets_(output_offsets), out_(out) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* permute = reinterpret_cast<const int32_t*>(context.Resolve(permute_.buffer));
    const auto* in = reinterpret_cast<const int32_t*>(context.Resolve(input_offsets_.buffer));
    const auto* out_offsets = reinterpret_cast<const int32_t*>(context.Resolve(output_offsets_.buffer));
    auto* out = reinterpret_cast<int32_t*>(context.Resolve(out_.buffer));
    const int64_t tables = permute_.NumElements(), size = out_.NumElements();
    for (int64_t i = 0; i < tables; ++i) {
      if (permute[i] < 0 || permute[i] >= tables) {
        return Fail("permute[%lld] is %lld, outside [0, %lld)", i, permute[i], tables);
      }
      if (out_offsets[i] < 0 || out_offsets[i + 1] < out_offsets[i] || out_offsets[i + 1] > size) {
        return Fail("outputOffset[%lld .. %lld] do not rise within the %lld outputs", i, i + 1, size);
      }
    }
    for (int64_t i = 0; i < tables; ++i) {
      const int32_t start = in[permute[i]];
      for (int32_t j = out_offsets[i]; j < out_offsets[i + 1]; ++j) out[j] = start + (j - out_offsets[i]);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "expand into jagged permute " + std::to_string(permute_.NumElements()) + " tables";
  }

 private:
  static aclnnStatus Fail(const char* format, int64_t a, int64_t b, int64_t c) {
    const std::string message = std::string("aclnnExpandIntoJaggedPermute: ") + format;
    SetErrorMessage(message.c_str(), static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(c));
    return kIndexOutOfRangeStatus;
  }

  TensorRef permute_, input_offsets_, output_offsets_, out_;
};

aclnnStatus PlanExpandIntoJaggedPermute(Plan& plan, const aclTensor* permute, const aclTensor* inputOffset,
                                        const aclTensor* outputOffset, int64_t outputSize,
                                        const aclTensor* outputPermuteOut) {
  for (const auto& [name, t] :
       {std::pair{"permute", permute}, std::pair{"inputOffset", inputOffset}, std::pair{"outputOffset", outputOffset},
        std::pair{"outputPermuteOut", outputPermuteOut}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_INT32}));
  }
  for (const auto& [name, t] : {std::pair{"permute", permute}, std::pair{"inputOffset", inputOffset},
                                std::pair{"outputOffset", outputOffset}}) {
    if (t->rank() != 1) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; it must be 1-D", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }
  const int64_t tables = permute->view_shape[0];
  const int64_t offsets = tables + 1;
  if (inputOffset->view_shape[0] != offsets || outputOffset->view_shape[0] != offsets) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "inputOffset %s and outputOffset %s need %lld values (permute's "
                       "%lld + 1)",
                       ShapeToString(inputOffset->view_shape).c_str(), ShapeToString(outputOffset->view_shape).c_str(),
                       static_cast<long long>(offsets), static_cast<long long>(tables));
  }
  if (outputSize < 0 || outputPermuteOut->view_shape != Shape{outputSize}) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'outputPermuteOut' has shape %s; outputSize %lld needs [%lld]",
                       ShapeToString(outputPermuteOut->view_shape).c_str(), static_cast<long long>(outputSize),
                       static_cast<long long>(outputSize));
  }
  const TensorRef p = plan.Input(permute, "permute");
  const TensorRef in = plan.Input(inputOffset, "inputOffset");
  const TensorRef outs = plan.Input(outputOffset, "outputOffset");
  const TensorRef dst = plan.Output(outputPermuteOut, "outputPermuteOut");
  if (tables == 0 || outputSize == 0) return ACLNN_SUCCESS;
  const TensorRef pc = plan.Contiguous(p, ACL_INT32), ic = plan.Contiguous(in, ACL_INT32);
  const TensorRef oc = plan.Contiguous(outs, ACL_INT32);
  const TensorRef result = plan.Temporary(ACL_INT32, {outputSize});
  plan.Fill(result, ScalarValue::Integer(0));
  plan.AddStep(std::make_unique<JaggedPermuteStep>(pc, ic, oc, result), {pc, ic, oc}, result);
  plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ExpandIntoJaggedPermute, PlanExpandIntoJaggedPermute,
                (OpTraits{.header = "aclnnop/aclnn_expand_into_jagged_permute.h",
                          .dtypes = {ACL_INT32},
                          .example = "i32[1]{0:0} i32[2]{0:0} i32[2]{0:0} 0 i32[0]"}),
                (const aclTensor*, permute), (const aclTensor*, inputOffset), (const aclTensor*, outputOffset),
                (int64_t, outputSize), (const aclTensor*, outputPermuteOut))
