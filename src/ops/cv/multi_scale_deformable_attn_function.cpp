// aclnnMultiScaleDeformableAttnFunction (CANN's vfusion/multi_scale_deformable_attn_function, A2
// path): value [bs, numKeys, numHeads, channels] holds the levels' maps one after another (level l
// of spatialShape[l] = (H, W) starts at key levelStartIndex[l]); location [bs, numQueries,
// numHeads, numLevels, numPoints, 2] holds normalised (x, y) points, attnWeight [bs, numQueries,
// numHeads, numLevels, numPoints] their weights. output[b, q, h * channels + c] sums, over levels
// and points, weight times the bilinear read of level l's map at (x * W - 0.5, y * H - 0.5), zeros
// outside the map (kernels/bilinear_corners.h). Computed in f32, as CANN casts every float input.
// Checks: CANN's host code in order (161001, 161002); it compares only the level counts across
// tensors, so Canopy also requires the shapes to agree (bs, numHeads, numQueries, numPoints, output
// [bs, numQueries, numHeads * channels]) where CANN's kernel would read past them; a point whose
// read lands outside value's keys fails the run (a map may be declared larger than value, as CANN's
// own example does, as long as its points read inside). An empty input makes the call a no-op, as in
// CANN.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_multi_scale_deformable_attn_function.h"
#include "kernels/bilinear_corners.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kRunFault = ACL_ERROR_RT_AICORE_EXCEPTION;  // CANN's kernel would read past value
constexpr int64_t kMaxExtent = INT32_MAX;  // a map's height or width (CANN's kernel holds them in int32)
// CANN's A2 limits.
constexpr int64_t kMinQueries = 32;
constexpr int64_t kMaxHeads = 16, kMaxLevels = 16, kMaxPoints = 16;
constexpr int64_t kChannelAlign = 8, kMaxChannels = 256;
constexpr int64_t kQueryGrain = 4;

struct Desc {
  int64_t batch = 0, keys = 0, heads = 0, channels = 0, queries = 0, levels = 0, points = 0;
  BufferRef value{}, spatial{}, start{}, location{}, weight{}, out{};  // f32 / INT64, contiguous
};

class MultiScaleDeformableAttnStep final : public Step {
 public:
  explicit MultiScaleDeformableAttnStep(const Desc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* spatial = reinterpret_cast<const int64_t*>(context.Resolve(d_.spatial));
    const auto* start = reinterpret_cast<const int64_t*>(context.Resolve(d_.start));
    // A map's size only bounds where its points may read: CANN's own example
    // declares maps far larger than value and reads only inside it. What fails
    // the run is a read that lands outside value's keys (the NPU's kernel would
    // read past value there), or a size no int32 coordinate can hold.
    for (int64_t l = 0; l < d_.levels; ++l) {
      if (spatial[2 * l] > kMaxExtent || spatial[2 * l + 1] > kMaxExtent) {
        SetErrorMessage("aclnnMultiScaleDeformableAttnFunction: level %lld's spatialShape (%lld, %lld) is past %lld",
                        static_cast<long long>(l), static_cast<long long>(spatial[2 * l]),
                        static_cast<long long>(spatial[2 * l + 1]), static_cast<long long>(kMaxExtent));
        return kRunFault;
      }
    }
    const auto* value = reinterpret_cast<const float*>(context.Resolve(d_.value));
    const auto* location = reinterpret_cast<const float*>(context.Resolve(d_.location));
    const auto* weight = reinterpret_cast<const float*>(context.Resolve(d_.weight));
    auto* out = reinterpret_cast<float*>(context.Resolve(d_.out));
    const int64_t ch = d_.channels, samples = d_.levels * d_.points;
    std::atomic<int64_t> bad_level{-1}, bad_key{0};
    kernels::ParallelFor(d_.batch * d_.queries, kQueryGrain, [&](int64_t begin, int64_t end) {
      for (int64_t bq = begin; bq < end; ++bq) {
        const int64_t b = bq / d_.queries;
        for (int64_t head = 0; head < d_.heads; ++head) {
          float* acc = out + (bq * d_.heads + head) * ch;
          std::fill(acc, acc + ch, 0.0F);
          const int64_t sample0 = (bq * d_.heads + head) * samples;
          for (int64_t l = 0; l < d_.levels; ++l) {
            const int64_t h = spatial[2 * l], w = spatial[2 * l + 1];
            for (int64_t p = 0; p < d_.points; ++p) {
              const int64_t sample = sample0 + l * d_.points + p;
              const float x = location[2 * sample] * static_cast<float>(w) - 0.5F;
              const float y = location[2 * sample + 1] * static_cast<float>(h) - 0.5F;
              kernels::BilinearCorners corners;
              if (!kernels::BilinearAt(y, x, h, w, corners)) continue;
              for (size_t k = 0; k < corners.weight.size(); ++k) {
                const float factor = weight[sample] * corners.weight[k];
                if (factor == 0.0F) continue;
                const int64_t key = start[l] + corners.offset[k];
                if (key < 0 || key >= d_.keys) {
                  int64_t none = -1;
                  if (bad_level.compare_exchange_strong(none, l)) bad_key = key;
                  continue;
                }
                const float* v = value + ((b * d_.keys + key) * d_.heads + head) * ch;
                for (int64_t c = 0; c < ch; ++c) acc[c] += factor * v[c];
              }
            }
          }
        }
      }
    });
    if (const int64_t l = bad_level.load(); l >= 0) {
      SetErrorMessage(
          "aclnnMultiScaleDeformableAttnFunction: a point of level %lld (spatialShape (%lld, %lld), levelStartIndex "
          "%lld) reads key %lld, outside value's %lld keys",
          static_cast<long long>(l), static_cast<long long>(spatial[2 * l]), static_cast<long long>(spatial[2 * l + 1]),
          static_cast<long long>(start[l]), static_cast<long long>(bad_key.load()), static_cast<long long>(d_.keys));
      return kRunFault;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "multi-scale deformable attention bs=" + std::to_string(d_.batch) + " keys=" + std::to_string(d_.keys) +
           " heads=" + std::to_string(d_.heads) + " channels=" + std::to_string(d_.channels) +
           " queries=" + std::to_string(d_.queries) + " levels=" + std::to_string(d_.levels) +
           " points=" + std::to_string(d_.points);
  }

 private:
  Desc d_;
};

aclnnStatus RejectDim(Plan& plan, const char* name, const aclTensor* t, const char* what, int64_t got,
                      const char* want) {
  return plan.Reject(kInvalid, "argument '%s' of shape %s has %s %lld; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), what, static_cast<long long>(got), want);
}

aclnnStatus CheckMatches(Plan& plan, const char* name, const aclTensor* t, size_t dim, int64_t want, const char* what) {
  const int64_t got = t->view_shape[dim];
  if (got == want) return ACLNN_SUCCESS;
  return plan.Reject(kInvalid, "argument '%s' of shape %s has %lld at dim %zu; it must be %lld (%s)", name,
                     ShapeToString(t->view_shape).c_str(), static_cast<long long>(got), dim,
                     static_cast<long long>(want), what);
}

aclnnStatus PlanMultiScaleDeformableAttn(Plan& plan, const aclTensor* value, const aclTensor* spatialShape,
                                         const aclTensor* levelStartIndex, const aclTensor* location,
                                         const aclTensor* attnWeight, const aclTensor* output) {
  // CANN's dtype checks, then one dtype for value, location, attnWeight and output.
  CANOPY_CHECK(plan.CheckDtype("value", value->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("spatialShape", spatialShape->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("levelStartIndex", levelStartIndex->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("location", location->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("attnWeight", attnWeight->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kFloatDtypes));
  for (const auto& [name, t] :
       {std::pair{"location", location}, std::pair{"attnWeight", attnWeight}, std::pair{"output", output}}) {
    if (t->dtype != value->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s; it must be value's dtype %s", name, DtypeName(t->dtype),
                         DtypeName(value->dtype));
    }
  }
  // Ranks, the pairs' last dims, CANN's limits, the level counts.
  CANOPY_CHECK(plan.CheckRank("value", value, 4, 4));
  CANOPY_CHECK(plan.CheckRank("spatialShape", spatialShape, 2, 2));
  CANOPY_CHECK(plan.CheckRank("levelStartIndex", levelStartIndex, 1, 1));
  CANOPY_CHECK(plan.CheckRank("location", location, 6, 6));
  CANOPY_CHECK(plan.CheckRank("attnWeight", attnWeight, 5, 5));
  CANOPY_CHECK(plan.CheckRank("output", output, 3, 3));
  const Shape& vs = value->view_shape;
  const Shape& ls = location->view_shape;
  if (spatialShape->view_shape[1] != 2) {
    return RejectDim(plan, "spatialShape", spatialShape, "last dim", spatialShape->view_shape[1], "2 (H, W)");
  }
  if (ls[5] != 2) return RejectDim(plan, "location", location, "last dim", ls[5], "2 (x, y)");
  Desc d{.batch = vs[0],
         .keys = vs[1],
         .heads = ls[2],
         .channels = vs[3],
         .queries = ls[1],
         .levels = ls[3],
         .points = ls[4]};
  if (d.queries < kMinQueries) return RejectDim(plan, "location", location, "numQueries (dim 1)", d.queries, ">= 32");
  if (d.heads > kMaxHeads) return RejectDim(plan, "location", location, "numHeads (dim 2)", d.heads, "<= 16");
  if (d.levels > kMaxLevels) return RejectDim(plan, "location", location, "numLevels (dim 3)", d.levels, "<= 16");
  if (d.points > kMaxPoints) return RejectDim(plan, "location", location, "numPoints (dim 4)", d.points, "<= 16");
  if (d.channels % kChannelAlign != 0 || d.channels > kMaxChannels) {
    return RejectDim(plan, "value", value, "channels (dim 3)", d.channels, "a multiple of 8, at most 256");
  }
  if (spatialShape->view_shape[0] != d.levels || attnWeight->view_shape[3] != d.levels) {
    return plan.Reject(kInvalid,
                       "numLevels must agree: spatialShape[0] = %lld, location[3] = %lld, attnWeight[3] = %lld",
                       static_cast<long long>(spatialShape->view_shape[0]), static_cast<long long>(d.levels),
                       static_cast<long long>(attnWeight->view_shape[3]));
  }
  // Beyond CANN's checks: the shapes its kernel reads and writes by.
  CANOPY_CHECK(CheckMatches(plan, "levelStartIndex", levelStartIndex, 0, d.levels, "numLevels"));
  CANOPY_CHECK(CheckMatches(plan, "location", location, 0, d.batch, "value's batch"));
  CANOPY_CHECK(CheckMatches(plan, "value", value, 2, d.heads, "location's numHeads"));
  const Shape weight_shape(ls.begin(), ls.end() - 1);
  if (attnWeight->view_shape != weight_shape) {
    return plan.Reject(kInvalid, "argument 'attnWeight' has shape %s; it must be %s (location's without the last dim)",
                       ShapeToString(attnWeight->view_shape).c_str(), ShapeToString(weight_shape).c_str());
  }
  const Shape out_shape = {d.batch, d.queries, d.heads * d.channels};
  if (output->view_shape != out_shape) {
    return plan.Reject(kInvalid, "argument 'output' has shape %s; it must be %s (bs, numQueries, numHeads * channels)",
                       ShapeToString(output->view_shape).c_str(), ShapeToString(out_shape).c_str());
  }

  const TensorRef value_in = plan.Input(value, "value");
  const TensorRef spatial_in = plan.Input(spatialShape, "spatialShape");
  const TensorRef start_in = plan.Input(levelStartIndex, "levelStartIndex");
  const TensorRef location_in = plan.Input(location, "location");
  const TensorRef weight_in = plan.Input(attnWeight, "attnWeight");
  const TensorRef dst = plan.Output(output, "output");
  // CANN returns at once when an input is empty: output keeps what it held.
  for (const TensorRef* t : {&value_in, &spatial_in, &start_in, &location_in, &weight_in}) {
    if (t->NumElements() == 0) return ACLNN_SUCCESS;
  }
  d.value = plan.Contiguous(value_in, ACL_FLOAT).buffer;
  d.spatial = plan.Contiguous(spatial_in, ACL_INT64).buffer;
  d.start = plan.Contiguous(start_in, ACL_INT64).buffer;
  d.location = plan.Contiguous(location_in, ACL_FLOAT).buffer;
  d.weight = plan.Contiguous(weight_in, ACL_FLOAT).buffer;
  const bool direct = dst.dtype == ACL_FLOAT && dst.IsContiguous();
  const TensorRef result = direct ? dst : plan.Temporary(ACL_FLOAT, out_shape);
  d.out = result.buffer;
  plan.AddStep(std::make_unique<MultiScaleDeformableAttnStep>(d));
  if (!direct) plan.Copy(result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MultiScaleDeformableAttnFunction, PlanMultiScaleDeformableAttn,
                (OpTraits{.header = "aclnnop/aclnn_multi_scale_deformable_attn_function.h",
                          .dtypes = kFloatDtypes | kIndexDtypes,
                          .example = "f32[1,6,2,8] i32[2,2]{1:2} i32[2]{0:0} f32[1,32,2,2,2,2]{0:1} f32[1,32,2,2,2] "
                                     "f32[1,32,16]"}),
                (const aclTensor*, value), (const aclTensor*, spatialShape), (const aclTensor*, levelStartIndex),
                (const aclTensor*, location), (const aclTensor*, attnWeight), (aclTensor*, output))
