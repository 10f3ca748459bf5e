// aclnnTurboQuantCompressLatent (CANN's experimental/quant/turbo_quant_compress_latent, Atlas A2 / A3):
// each token of latent [numTokens, headDim] becomes a slot of out [numTokens, slotSize] UINT8: with
// norm = sqrt(sum z^2 + 1e-16) and u = z * (1 / norm) in FLOAT, dim d's nibble is the number of midpoints
// (c[b] + c[b + 1]) / 2 that u reaches (the nearest centroid, ties up), two nibbles a byte (even dim low)
// in slot[0, headDim / 2), the norm as FLOAT16 in the next two bytes (little-endian), zeros after. NaN
// and infinities follow from that arithmetic as CANN documents. CANN generates the entry from its op
// definition: latent and centroids FLOAT, out UINT8 (161002); its tiling wants latent of rank 2 with
// headDim 512 and 16 centroids (561002). Its tiling reads no out shape; Canopy asks for
// [numTokens, slotSize] (561002), the slots it writes. An empty latent writes nothing.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "aclnnop/aclnn_turbo_quant_compress_latent.h"
#include "common/half.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kHeadDim = 512;  // the only headDim CANN's tiling takes (MLA's kv_lora_rank)
constexpr int64_t kCentroids = 16;
constexpr int64_t kSlotAlign = 64;
constexpr int64_t kNormBytes = 2;  // FLOAT16
constexpr float kNormEps = 1e-16F;

int64_t SlotSize(int64_t head_dim) {
  const int64_t used = head_dim / 2 + kNormBytes;
  return (used + kSlotAlign - 1) / kSlotAlign * kSlotAlign;
}

// latent and centroids contiguous FLOAT, slots contiguous UINT8 rows of `slot` bytes.
class CompressStep final : public Step {
 public:
  CompressStep(const TensorRef& latent, const TensorRef& centroids, const TensorRef& slots, int64_t tokens,
               int64_t head_dim, int64_t slot)
      : latent_(latent), centroids_(centroids), slots_(slots), tokens_(tokens), head_dim_(head_dim), slot_(slot) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* latent = reinterpret_cast<const float*>(context.Resolve(latent_.buffer));
    const auto* centroids = reinterpret_cast<const float*>(context.Resolve(centroids_.buffer));
    auto* slots = reinterpret_cast<uint8_t*>(context.Resolve(slots_.buffer));
    float bounds[kCentroids - 1];
    for (int64_t b = 0; b + 1 < kCentroids; ++b) bounds[b] = (centroids[b] + centroids[b + 1]) * 0.5F;
    const int64_t head_dim = head_dim_, slot = slot_;
    kernels::ParallelFor(tokens_, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const float* z = latent + t * head_dim;
        uint8_t* out = slots + t * slot;
        float squares = 0;
        for (int64_t d = 0; d < head_dim; ++d) squares += z[d] * z[d];
        const float norm = std::sqrt(squares + kNormEps);
        const float inverse = 1.0F / norm;
        std::memset(out, 0, static_cast<size_t>(slot));
        for (int64_t d = 0; d < head_dim; ++d) {
          const float u = z[d] * inverse;
          int nibble = 0;
          for (const float bound : bounds) nibble += u >= bound ? 1 : 0;
          out[d / 2] = static_cast<uint8_t>(out[d / 2] | (nibble << (d % 2 == 0 ? 0 : 4)));
        }
        const uint16_t bits = FloatToHalf(norm);
        out[head_dim / 2] = static_cast<uint8_t>(bits & 0xFFU);
        out[head_dim / 2 + 1] = static_cast<uint8_t>(bits >> 8);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "turbo quant " + std::to_string(tokens_) + " tokens of " + std::to_string(head_dim_);
  }

 private:
  TensorRef latent_, centroids_, slots_;
  int64_t tokens_, head_dim_, slot_;
};

aclnnStatus PlanTurboQuantCompressLatent(Plan& plan, const aclTensor* latent, const aclTensor* centroids,
                                         const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("latent", latent->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("centroids", centroids->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_UINT8}));
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  if (latent->rank() != 2) {
    return plan.Reject(kTiling, "argument 'latent' has rank %lld; it must be [numTokens, headDim]",
                       static_cast<long long>(latent->rank()));
  }
  const int64_t tokens = latent->view_shape[0], head_dim = latent->view_shape[1];
  if (head_dim != kHeadDim) {
    return plan.Reject(kTiling, "argument 'latent' has headDim %lld; only %lld is supported",
                       static_cast<long long>(head_dim), static_cast<long long>(kHeadDim));
  }
  if (centroids->NumElements() != kCentroids) {
    return plan.Reject(kTiling, "argument 'centroids' has %lld elements; it must have %lld",
                       static_cast<long long>(centroids->NumElements()), static_cast<long long>(kCentroids));
  }
  const int64_t slot = SlotSize(head_dim);
  const Shape out_shape = {tokens, slot};
  if (out->view_shape != out_shape) {
    return plan.Reject(kTiling, "argument 'out' has shape %s; it must be [numTokens, slotSize] = %s",
                       ShapeToString(out->view_shape).c_str(), ShapeToString(out_shape).c_str());
  }
  const TensorRef z = plan.Input(latent, "latent");
  const TensorRef c = plan.Input(centroids, "centroids");
  const TensorRef slots = plan.Output(out, "out");
  if (tokens == 0) return ACLNN_SUCCESS;
  const TensorRef dense_z = plan.Contiguous(z, ACL_FLOAT);
  const TensorRef dense_c = plan.Contiguous(c, ACL_FLOAT);
  const TensorRef dense_out = slots.IsContiguous() ? slots : plan.Temporary(ACL_UINT8, {tokens, slot});
  plan.AddStep(std::make_unique<CompressStep>(dense_z, dense_c, dense_out, tokens, head_dim, slot));
  if (!slots.IsContiguous()) plan.Copy(dense_out, slots);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(TurboQuantCompressLatent, PlanTurboQuantCompressLatent,
                (OpTraits{.header = "aclnnop/aclnn_turbo_quant_compress_latent.h",
                          .dtypes = DtypeSet{ACL_FLOAT},
                          .example = "f32[2,512] f32[16] u8[2,320]"}),
                (const aclTensor*, latent), (const aclTensor*, centroids), (const aclTensor*, out))
