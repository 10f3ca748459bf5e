// aclnnMoeComputeExpertTokens: for the ascending expert numbers of the
// expanded token rows (sortedExperts, int32, 1-D, e.g. MoeInitRouting's
// expandedExpertIdxOut), out[e] (int32, [numExperts]) is the number of rows
// whose expert is at most e: the end of expert e's rows, found by binary
// search as CANN's kernel does. CANN's limits: sortedExperts at most 2^24
// rows, numExperts in [1, 2048]; shape and attribute errors are its tiling
// faults (561002), dtypes 161002.
#include "aclnnop/aclnn_moe_compute_expert_tokens.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr aclnnStatus kTilingError = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kMaxRows = int64_t{1} << 24;
constexpr int64_t kMaxExperts = 2048;

// out[e] = the count of sorted[i] <= e, by binary search in the ascending int32 list.
class ExpertEndsStep final : public Step {
 public:
  ExpertEndsStep(BufferRef sorted, int64_t rows, BufferRef out, int64_t experts)
      : sorted_(sorted), rows_(rows), out_(out), experts_(experts) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* sorted = reinterpret_cast<const int32_t*>(context.Resolve(sorted_));
    auto* out = reinterpret_cast<int32_t*>(context.Resolve(out_));
    // Our own search, not std::upper_bound: an unsorted list gives some count, not undefined behaviour.
    for (int64_t e = 0; e < experts_; ++e) {
      int64_t low = 0, high = rows_;  // the first row with an expert above e is in [low, high]
      while (low < high) {
        const int64_t middle = low + (high - low) / 2;
        if (sorted[middle] <= e) {
          low = middle + 1;
        } else {
          high = middle;
        }
      }
      out[e] = static_cast<int32_t>(low);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "moe expert token ends rows=" + std::to_string(rows_) + " experts=" + std::to_string(experts_);
  }

 private:
  BufferRef sorted_;
  int64_t rows_;
  BufferRef out_;
  int64_t experts_;
};

aclnnStatus PlanMoeComputeExpertTokens(Plan& plan, const aclTensor* sorted_experts, int64_t num_experts,
                                       const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("sortedExperts", sorted_experts->dtype, DtypeSet{ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_INT32}));
  if (sorted_experts->rank() != 1) {
    return plan.Reject(kTilingError, "argument 'sortedExperts' has rank %lld; it must be 1",
                       static_cast<long long>(sorted_experts->rank()));
  }
  if (num_experts <= 0 || num_experts > kMaxExperts) {
    return plan.Reject(kTilingError, "argument 'numExperts' is %lld; it must be in [1, %lld]",
                       static_cast<long long>(num_experts), static_cast<long long>(kMaxExperts));
  }
  const int64_t rows = sorted_experts->view_shape[0];
  if (rows > kMaxRows) {
    return plan.Reject(kTilingError, "argument 'sortedExperts' has %lld rows; at most 2^24",
                       static_cast<long long>(rows));
  }
  if (out->view_shape != Shape{num_experts}) {
    return plan.Reject(kTilingError, "argument 'out' has shape %s; it must be [numExperts] = [%lld]",
                       ShapeToString(out->view_shape).c_str(), static_cast<long long>(num_experts));
  }
  const TensorRef sorted_ref = plan.Input(sorted_experts, "sortedExperts");
  const TensorRef out_ref = plan.Output(out, "out");
  const BufferRef sorted = plan.Contiguous(sorted_ref, ACL_INT32).buffer;
  const TensorRef dense = out_ref.IsContiguous() ? out_ref : plan.Temporary(ACL_INT32, out_ref.shape);
  plan.AddStep(std::make_unique<ExpertEndsStep>(sorted, rows, dense.buffer, num_experts));
  if (!out_ref.IsContiguous()) plan.Copy(dense, out_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MoeComputeExpertTokens, PlanMoeComputeExpertTokens,
                (OpTraits{.header = "aclnnop/aclnn_moe_compute_expert_tokens.h",
                          .dtypes = DtypeSet{ACL_INT32},
                          .example = "i32[6]{0:2} 3 i32[3]"}),
                (const aclTensor*, sortedExperts), (int64_t, numExperts), (const aclTensor*, out))
