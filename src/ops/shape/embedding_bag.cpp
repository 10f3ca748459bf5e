// aclnnEmbeddingBag (torch.nn.functional.embedding_bag, the forward of
// torch._embedding_bag): bag b holds indices[offsets[b] .. offsets[b + 1])
// (the last bag runs to the end, unless includeLastOffset makes offsets' last
// value its end); output[b] is the sum (each row times perSampleWeights[j]
// when given), the mean or the elementwise maximum of weight's rows at those
// indices, paddingIdx's rows left out (and not counted). An empty bag gives
// zeros. offset2bag[j] is index j's bag (when offset2bag is not empty; past
// includeLastOffset's last offset, one past the last bag, as PyTorch),
// bagSize[b] the rows counted, maxIndices[b, d] (max mode) the row each
// maximum came from (the first, -1 for an empty bag). Indices outside
// weight's rows and offsets that do not start at 0, run backwards or past the
// end fail the run before anything is written. Computed in FLOAT.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding_bag.h"
#include "common/dtype.h"
#include "gather.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kWeightDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kPositionDtypes = {ACL_INT64, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
constexpr DtypeSet kCountDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kSum = 0, kMean = 1;

struct BagParams {
  int64_t mode = kSum;
  int64_t padding_idx = -1;  // outside [0, rows): none
  int64_t bags = 0;
};

// weight [R, D] as given (any of its dtypes and strides: only the rows the bags
// name are read, each converted to FLOAT when read); the rest dense: indices [n]
// and offsets [m] INT64, per-sample [n] FLOAT (optional);
// writes output [B, D] FLOAT and offset2bag [n], bag_size [B], max_indices [B, D] INT64.
class EmbeddingBagStep final : public Step {
 public:
  struct Operands {
    TensorRef weight, indices, offsets;
    std::optional<TensorRef> per_sample;
    TensorRef output, offset2bag, bag_size, max_indices;
  };
  EmbeddingBagStep(Operands operands, BagParams params) : o_(std::move(operands)), p_(params) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* weight = context.Resolve(o_.weight.buffer);
    const int64_t weight_bytes = static_cast<int64_t>(DtypeSize(o_.weight.dtype));
    const auto* indices = reinterpret_cast<const int64_t*>(context.Resolve(o_.indices.buffer));
    const auto* offsets = reinterpret_cast<const int64_t*>(context.Resolve(o_.offsets.buffer));
    const float* per_sample =
        o_.per_sample ? reinterpret_cast<const float*>(context.Resolve(o_.per_sample->buffer)) : nullptr;
    const int64_t rows = o_.weight.shape[0], dim = o_.weight.shape[1];
    const int64_t n = o_.indices.NumElements(), m = o_.offsets.NumElements();
    for (int64_t j = 0; j < n; ++j) {
      if (indices[j] < 0 || indices[j] >= rows) {
        return Fail("indices[%lld] is %lld, outside weight's %lld rows", j, indices[j], rows);
      }
    }
    if (offsets[0] != 0) return Fail("offsets[0] is %lld; the first bag must start at 0", offsets[0], 0, 0);
    for (int64_t b = 1; b < m; ++b) {
      if (offsets[b] < offsets[b - 1] || offsets[b] > n) {
        return Fail("offsets[%lld] is %lld; offsets must not decrease nor pass the %lld indices", b, offsets[b], n);
      }
    }
    auto* output = reinterpret_cast<float*>(context.Resolve(o_.output.buffer));
    auto* offset2bag = reinterpret_cast<int64_t*>(context.Resolve(o_.offset2bag.buffer));
    auto* bag_size = reinterpret_cast<int64_t*>(context.Resolve(o_.bag_size.buffer));
    auto* max_indices = reinterpret_cast<int64_t*>(context.Resolve(o_.max_indices.buffer));
    const bool max_mode = p_.mode != kSum && p_.mode != kMean;
    std::vector<float> row(static_cast<size_t>(dim));
    for (int64_t b = 0; b < p_.bags; ++b) {
      const int64_t begin = offsets[b];
      const int64_t end = b + 1 < m ? offsets[b + 1] : n;
      float* out = output + b * dim;
      int64_t* chosen = max_indices + (max_mode ? b * dim : b);
      std::fill(out, out + dim, 0.0F);
      if (max_mode) std::fill(chosen, chosen + dim, -1);
      int64_t count = 0;
      for (int64_t j = begin; j < end; ++j) {
        offset2bag[j] = b;
        if (indices[j] == p_.padding_idx) continue;
        const int64_t row_at = indices[j] * o_.weight.strides[0] * weight_bytes;
        kernels::Load(o_.weight.dtype, weight + row_at, o_.weight.strides[1], dim, row.data());
        const float scale = per_sample != nullptr ? per_sample[j] : 1.0F;
        for (int64_t d = 0; d < dim; ++d) {
          const float value = row[static_cast<size_t>(d)];
          if (!max_mode) {
            out[d] += scale * value;
          } else if (count == 0 || value > out[d]) {
            out[d] = value;
            chosen[d] = indices[j];
          }
        }
        ++count;
      }
      if (p_.mode == kMean && count > 0) {
        for (int64_t d = 0; d < dim; ++d) out[d] /= static_cast<float>(count);
      }
      if (!max_mode) chosen[0] = 0;
      bag_size[b] = count;
    }
    // With includeLastOffset the indices from the last offset on are in no bag:
    // PyTorch's offset2bag (a cumulative count of the offsets passed) numbers
    // them one past the last bag. They were left unwritten (the workspace's bytes).
    if (p_.bags < m) std::fill(offset2bag + offsets[p_.bags], offset2bag + n, p_.bags);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "embedding bag " + ShapeToString(o_.weight.shape) + " x " + std::to_string(p_.bags) + " bags";
  }

 private:
  static aclnnStatus Fail(const char* format, int64_t a, int64_t b, int64_t c) {
    std::string message = std::string("aclnnEmbeddingBag: ") + format;
    SetErrorMessage(message.c_str(), static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(c));
    return kIndexOutOfRangeStatus;  // nothing written
  }

  Operands o_;
  BagParams p_;
};

aclnnStatus CheckRankAtMost(Plan& plan, const char* name, const aclTensor* t, int64_t max) {
  return plan.CheckRank(name, t, 0, max);
}

aclnnStatus PlanEmbeddingBag(Plan& plan, const aclTensor* weight, const aclTensor* indices, const aclTensor* offsets,
                             bool /*scaleGradByFreq*/, int64_t mode, bool /*sparse*/, const aclTensor* perSampleWeights,
                             bool includeLastOffset, int64_t paddingIdx, const aclTensor* output,
                             const aclTensor* offset2bag, const aclTensor* bagSize, const aclTensor* maxIndices) {
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kWeightDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kPositionDtypes));
  CANOPY_CHECK(plan.CheckDtype("offsets", offsets->dtype, kPositionDtypes));
  if (!kCountDtypes.Contains(indices->dtype) && !kCountDtypes.Contains(offsets->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'indices' (%s) or 'offsets' (%s) must be INT32 or INT64",
                       DtypeName(indices->dtype), DtypeName(offsets->dtype));
  }
  for (const auto& [name, t] : {std::pair{"perSampleWeights", perSampleWeights}, std::pair{"output", output}}) {
    if (t != nullptr && t->dtype != weight->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be weight's (%s)", name,
                         DtypeName(t->dtype), DtypeName(weight->dtype));
    }
  }
  for (const auto& [name, t] :
       {std::pair{"offset2bag", offset2bag}, std::pair{"bagSize", bagSize}, std::pair{"maxIndices", maxIndices}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kCountDtypes));
  }
  const bool max_mode = mode != kSum && mode != kMean;
  CANOPY_CHECK(plan.CheckRank("weight", weight, 2, 2));
  CANOPY_CHECK(CheckRankAtMost(plan, "indices", indices, 1));
  CANOPY_CHECK(CheckRankAtMost(plan, "offsets", offsets, 1));
  if (perSampleWeights != nullptr) CANOPY_CHECK(plan.CheckRank("perSampleWeights", perSampleWeights, 1, 1));
  CANOPY_CHECK(plan.CheckRank("output", output, 2, 2));
  CANOPY_CHECK(CheckRankAtMost(plan, "offset2bag", offset2bag, 1));
  CANOPY_CHECK(CheckRankAtMost(plan, "bagSize", bagSize, 1));
  if (max_mode) {
    CANOPY_CHECK(plan.CheckRank("maxIndices", maxIndices, 2, 2));
  } else {
    CANOPY_CHECK(CheckRankAtMost(plan, "maxIndices", maxIndices, 1));
  }
  const int64_t n = indices->NumElements();
  if (perSampleWeights != nullptr && (mode != kSum || perSampleWeights->NumElements() != n)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "'perSampleWeights' (%lld values) needs mode 0 (sum) and one value per index (%lld)",
                       static_cast<long long>(perSampleWeights->NumElements()), static_cast<long long>(n));
  }
  const int64_t bags = offsets->NumElements() - (includeLastOffset ? 1 : 0);
  const Shape out_shape = {bags, weight->view_shape[1]};
  CANOPY_CHECK(plan.CheckShape("output", output, out_shape));
  if (offset2bag->NumElements() != 0 && offset2bag->NumElements() != n) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'offset2bag' holds %lld values; it needs 0 or one per index (%lld)",
                       static_cast<long long>(offset2bag->NumElements()), static_cast<long long>(n));
  }
  if (bagSize->NumElements() != bags) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'bagSize' holds %lld values; it needs one per bag (%lld)",
                       static_cast<long long>(bagSize->NumElements()), static_cast<long long>(bags));
  }
  if (max_mode) {
    CANOPY_CHECK(plan.CheckShape("maxIndices", maxIndices, out_shape));
  } else if (maxIndices->NumElements() != bags) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'maxIndices' holds %lld values; it needs one per bag (%lld)",
                       static_cast<long long>(maxIndices->NumElements()), static_cast<long long>(bags));
  }
  const TensorRef table = plan.Input(weight, "weight");
  const TensorRef positions = plan.Input(indices, "indices");
  const TensorRef starts = plan.Input(offsets, "offsets");
  std::optional<TensorRef> scales;
  if (perSampleWeights != nullptr) {
    scales = plan.Input(perSampleWeights, "perSampleWeights");
  } else {
    plan.SkipInput();
  }
  const TensorRef out = plan.Output(output, "output");
  const TensorRef bag_of = plan.Output(offset2bag, "offset2bag");
  const TensorRef sizes = plan.Output(bagSize, "bagSize");
  const TensorRef chosen = plan.Output(maxIndices, "maxIndices");
  // As CANN: an empty weight, indices or offsets writes nothing.
  if (table.NumElements() == 0 || n == 0 || starts.NumElements() == 0 || bags <= 0) return ACLNN_SUCCESS;
  EmbeddingBagStep::Operands o{.weight = table,
                               .indices = plan.Contiguous(Flat(plan, positions), ACL_INT64),
                               .offsets = plan.Contiguous(Flat(plan, starts), ACL_INT64),
                               .per_sample = std::nullopt,
                               .output = plan.Temporary(ACL_FLOAT, out_shape),
                               .offset2bag = plan.Temporary(ACL_INT64, {n}),
                               .bag_size = plan.Temporary(ACL_INT64, {bags}),
                               .max_indices = plan.Temporary(ACL_INT64, max_mode ? out_shape : Shape{bags})};
  std::vector<TensorRef> reads = {o.weight, o.indices, o.offsets};
  if (scales) {
    o.per_sample = plan.Contiguous(Flat(plan, *scales), ACL_FLOAT);
    reads.push_back(*o.per_sample);
  }
  const BagParams params{.mode = mode, .padding_idx = paddingIdx, .bags = bags};
  const EmbeddingBagStep::Operands written = o;
  plan.AddStep(std::make_unique<EmbeddingBagStep>(std::move(o), params), reads, written.output);
  plan.Copy(written.output, out);
  if (bag_of.NumElements() != 0) plan.Copy(written.offset2bag, *Reshape(bag_of, {n}));
  plan.Copy(written.bag_size, *Reshape(sizes, {bags}));
  plan.Copy(written.max_indices, *Reshape(chosen, written.max_indices.shape));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(EmbeddingBag, PlanEmbeddingBag,
                (OpTraits{.header = "aclnnop/aclnn_embedding_bag.h",
                          .dtypes = kWeightDtypes | kPositionDtypes,
                          .example = "f32[3,3] i64[6]{0:2} i64[4]{0:0} false 0 false f32[6] false 1 f32[4,3] i64[6] "
                                     "i64[4] i64[4]"}),
                (const aclTensor*, weight), (const aclTensor*, indices), (const aclTensor*, offsets),
                (bool, scaleGradByFreq), (int64_t, mode), (bool, sparse),
                (const aclTensor*, perSampleWeights, optional), (bool, includeLastOffset), (int64_t, paddingIdx),
                (aclTensor*, output), (aclTensor*, offset2bag), (aclTensor*, bagSize), (aclTensor*, maxIndices))
