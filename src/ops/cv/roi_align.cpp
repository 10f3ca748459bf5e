// aclnnRoiAlign (ONNX opset 10's RoiAlign) and aclnnRoiAlignV2 (torchvision's
// roi_align), one kernel as CANN's: each region, scaled by spatialScale,
// split into pooled bins of grid x grid bilinear samples (samplingRatio, or
// ceil(extent / pooled) when it is 0), each bin the average (or, RoiAlign's
// "max", the largest) of its samples. Without alignment (RoiAlign always,
// V2 unless aligned) a region is at least 1 x 1; aligned shifts coordinates
// by half a pixel. A sample more than a pixel outside the image is 0, one at
// a NaN position NaN; a region whose grid is NaN or would take more than 2^26
// samples fails the run, as does an image index outside the batch. RoiAlign
// takes the regions [K, 4] and their batch images apart; V2 boxes [K, 5] of
// (image, x1, y1, x2, y2). A failing run writes nothing. Computed in FLOAT,
// channels innermost.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "aclnnop/aclnn_roi_align.h"
#include "aclnnop/aclnn_roi_align_v2.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/gather.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRoiDtypes = {ACL_FLOAT, ACL_FLOAT16};
// Samples one region may take (bins x grid): 2^26, a 4096 x 4096 image at four a pixel.
constexpr double kMaxSamples = 67108864.0;

struct RoiAlignParams {
  int64_t pooled_h = 1, pooled_w = 1, sampling_ratio = 0;
  float spatial_scale = 1;
  bool aligned = false, max_mode = false;
  bool indices_in_boxes = false;  // V2: boxes [K, 5], the image index first
};

// image [N, H, W, C] FLOAT (channels last, dense); boxes [K, 4 or 5] FLOAT; indices [K] INT32 (RoiAlign);
// writes out [K, PH, PW, C] FLOAT.
class RoiAlignStep final : public Step {
 public:
  RoiAlignStep(const TensorRef& image, const TensorRef& boxes, std::optional<TensorRef> indices, const TensorRef& out,
               RoiAlignParams params)
      : image_(image), boxes_(boxes), indices_(std::move(indices)), out_(out), p_(params) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* image = reinterpret_cast<const float*>(context.Resolve(image_.buffer));
    const auto* boxes = reinterpret_cast<const float*>(context.Resolve(boxes_.buffer));
    const int32_t* indices = indices_ ? reinterpret_cast<const int32_t*>(context.Resolve(indices_->buffer)) : nullptr;
    auto* out = reinterpret_cast<float*>(context.Resolve(out_.buffer));
    const int64_t n = image_.shape[0], h = image_.shape[1], w = image_.shape[2], c = image_.shape[3];
    const int64_t k = boxes_.shape[0], width = boxes_.shape[1];
    // Every region checked first (a failing run writes nothing); the checked geometry is kept for the run.
    std::vector<int64_t> images(static_cast<size_t>(k));
    std::vector<Region> regions(static_cast<size_t>(k));
    for (int64_t r = 0; r < k; ++r) {
      int64_t& b = images[static_cast<size_t>(r)];
      if (!ImageOf(boxes, indices, r, width, n, b)) {
        SetErrorMessage("aclnnRoiAlign: region %lld takes image %g of a batch of %lld", static_cast<long long>(r),
                        static_cast<double>(p_.indices_in_boxes ? boxes[r * width] : static_cast<float>(indices[r])),
                        static_cast<long long>(n));
        return kIndexOutOfRangeStatus;
      }
      // A box of NaN, or one so large that its bins would take more samples
      // than any image has pixels, fails the run instead of converting NaN to
      // an integer or sampling for hours.
      const Region& g = regions[static_cast<size_t>(r)] = RegionOf(boxes + r * width + (p_.indices_in_boxes ? 1 : 0));
      const double samples = g.grid_h * g.grid_w * static_cast<double>(p_.pooled_h * p_.pooled_w);
      if (!(samples <= kMaxSamples)) {
        SetErrorMessage(
            "aclnnRoiAlign: region %lld (%g x %g after spatialScale) takes %g samples; Canopy samples at most %g a "
            "region",
            static_cast<long long>(r), static_cast<double>(g.roi_w), static_cast<double>(g.roi_h), samples,
            kMaxSamples);
        return kIndexOutOfRangeStatus;
      }
    }
    std::vector<float> acc(static_cast<size_t>(c));
    for (int64_t r = 0; r < k; ++r) {
      const float* plane = image + images[static_cast<size_t>(r)] * h * w * c;
      const Region& g = regions[static_cast<size_t>(r)];
      const float x0 = g.x0, y0 = g.y0, bin_h = g.bin_h, bin_w = g.bin_w;
      const auto grid_h = static_cast<int64_t>(g.grid_h), grid_w = static_cast<int64_t>(g.grid_w);
      const float count = static_cast<float>(std::max<int64_t>(grid_h * grid_w, 1));
      for (int64_t ph = 0; ph < p_.pooled_h; ++ph) {
        for (int64_t pw = 0; pw < p_.pooled_w; ++pw) {
          std::fill(acc.begin(), acc.end(), p_.max_mode ? -std::numeric_limits<float>::infinity() : 0.0F);
          for (int64_t iy = 0; iy < grid_h; ++iy) {
            const float y = y0 + static_cast<float>(ph) * bin_h +
                            (static_cast<float>(iy) + 0.5F) * bin_h / static_cast<float>(grid_h);
            for (int64_t ix = 0; ix < grid_w; ++ix) {
              const float x = x0 + static_cast<float>(pw) * bin_w +
                              (static_cast<float>(ix) + 0.5F) * bin_w / static_cast<float>(grid_w);
              Accumulate(plane, h, w, c, y, x, acc);
            }
          }
          float* dst = out + ((r * p_.pooled_h + ph) * p_.pooled_w + pw) * c;
          for (int64_t ch = 0; ch < c; ++ch) {
            const float v = acc[static_cast<size_t>(ch)];
            dst[ch] = p_.max_mode ? (grid_h * grid_w == 0 ? 0.0F : v) : v / count;
          }
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("roi align ") + (p_.max_mode ? "max " : "avg ") + ShapeToString(boxes_.shape) + " from " +
           ShapeToString(image_.shape);
  }

 private:
  // Region r's image, false where it is outside [0, n) (a float index compared before any conversion).
  bool ImageOf(const float* boxes, const int32_t* indices, int64_t r, int64_t width, int64_t n, int64_t& b) const {
    if (p_.indices_in_boxes) {
      const float v = boxes[r * width];
      if (!(v >= 0.0F && v < static_cast<float>(n))) return false;
      b = static_cast<int64_t>(v);
      return b < n;
    }
    b = indices[r];
    return b >= 0 && b < n;
  }

  struct Region {
    float x0, y0, roi_w, roi_h, bin_h, bin_w;
    double grid_h, grid_w;  // samples a bin along each axis (NaN for a NaN box without samplingRatio)
  };
  Region RegionOf(const float* box) const {
    Region g{};
    const float offset = p_.aligned ? 0.5F : 0.0F;
    g.x0 = box[0] * p_.spatial_scale - offset;
    g.y0 = box[1] * p_.spatial_scale - offset;
    g.roi_w = box[2] * p_.spatial_scale - offset - g.x0;
    g.roi_h = box[3] * p_.spatial_scale - offset - g.y0;
    if (!p_.aligned) {
      g.roi_w = std::max(g.roi_w, 1.0F);
      g.roi_h = std::max(g.roi_h, 1.0F);
    }
    g.bin_h = g.roi_h / static_cast<float>(p_.pooled_h);
    g.bin_w = g.roi_w / static_cast<float>(p_.pooled_w);
    g.grid_h = GridOf(g.bin_h);
    g.grid_w = GridOf(g.bin_w);
    return g;
  }
  // samplingRatio, or ceil(bin) (none for an empty bin; NaN for a NaN one).
  double GridOf(float bin) const {
    if (p_.sampling_ratio > 0) return static_cast<double>(p_.sampling_ratio);
    const double grid = std::ceil(static_cast<double>(bin));
    return grid < 0 ? 0.0 : grid;
  }

  // acc += (or max=) the bilinear sample of every channel at (y, x).
  void Accumulate(const float* plane, int64_t h, int64_t w, int64_t c, float y, float x,
                  std::vector<float>& acc) const {
    if (std::isnan(y) || std::isnan(x)) {  // a NaN position (a NaN box under a fixed samplingRatio) samples NaN
      for (float& a : acc) a = std::numeric_limits<float>::quiet_NaN();
      return;
    }
    const bool outside = y < -1.0F || y > static_cast<float>(h) || x < -1.0F || x > static_cast<float>(w);
    if (outside) {
      for (float& a : acc) a = p_.max_mode ? std::max(a, 0.0F) : a;
      return;
    }
    y = std::max(y, 0.0F);
    x = std::max(x, 0.0F);
    auto y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
    int64_t y_high = y_low + 1, x_high = x_low + 1;
    if (y_low >= h - 1) {
      y_high = y_low = h - 1;
      y = static_cast<float>(y_low);
    }
    if (x_low >= w - 1) {
      x_high = x_low = w - 1;
      x = static_cast<float>(x_low);
    }
    const float ly = y - static_cast<float>(y_low), lx = x - static_cast<float>(x_low);
    const float hy = 1.0F - ly, hx = 1.0F - lx;
    const float* v1 = plane + (y_low * w + x_low) * c;
    const float* v2 = plane + (y_low * w + x_high) * c;
    const float* v3 = plane + (y_high * w + x_low) * c;
    const float* v4 = plane + (y_high * w + x_high) * c;
    for (int64_t ch = 0; ch < c; ++ch) {
      const float v = hy * hx * v1[ch] + hy * lx * v2[ch] + ly * hx * v3[ch] + ly * lx * v4[ch];
      float& a = acc[static_cast<size_t>(ch)];
      a = p_.max_mode ? std::max(a, v) : a + v;
    }
  }

  TensorRef image_, boxes_;
  std::optional<TensorRef> indices_;
  TensorRef out_;
  RoiAlignParams p_;
};

aclnnStatus CheckFormats(Plan& plan, const aclTensor* self, const aclTensor* boxes, const aclTensor* indices,
                         const aclTensor* out) {
  const bool ok = self->format == ACL_FORMAT_NCHW && out->format == ACL_FORMAT_NCHW && boxes->format == ACL_FORMAT_ND &&
                  (indices == nullptr || indices->format == ACL_FORMAT_ND);
  if (!ok) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self and out must be NCHW and the regions ND (self %d, out %d)",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  return ACLNN_SUCCESS;
}

// out [K, C, PH, PW] for K regions of self [N, C, H, W].
aclnnStatus CheckOut(Plan& plan, const aclTensor* self, int64_t regions, int64_t pooled_h, int64_t pooled_w,
                     const aclTensor* out) {
  const Shape& o = out->view_shape;
  if (o[0] != regions || o[1] != self->view_shape[1] || o[2] != pooled_h || o[3] != pooled_w) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has shape %s; it must be [%lld, %lld, %lld, %lld]",
                       ShapeToString(o).c_str(), static_cast<long long>(regions),
                       static_cast<long long>(self->view_shape[1]), static_cast<long long>(pooled_h),
                       static_cast<long long>(pooled_w));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus AddRoiAlign(Plan& plan, const TensorRef& self, const TensorRef& boxes, std::optional<TensorRef> indices,
                        const TensorRef& out, RoiAlignParams params) {
  if (out.NumElements() == 0) return ACLNN_SUCCESS;
  if (self.NumElements() == 0 || boxes.NumElements() == 0) {  // as CANN: zeros
    plan.Fill(out, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  const TensorRef image = plan.Contiguous(Permute(self, {0, 2, 3, 1}), ACL_FLOAT);
  const TensorRef regions = plan.Contiguous(boxes, ACL_FLOAT);
  std::vector<TensorRef> reads = {image, regions};
  if (indices) reads.push_back(*(indices = plan.Contiguous(*indices, ACL_INT32)));
  const TensorRef pooled = plan.Temporary(ACL_FLOAT, {out.shape[0], params.pooled_h, params.pooled_w, out.shape[1]});
  plan.AddStep(std::make_unique<RoiAlignStep>(image, regions, indices, pooled, params), reads, pooled);
  plan.Copy(Permute(pooled, {0, 3, 1, 2}), out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRoiAlign(Plan& plan, const aclTensor* self, const aclTensor* rois, const aclTensor* batchIndices,
                         const char* mode, int outputHeight, int outputWidth, int samplingRatio, float spatialScale,
                         const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRoiDtypes));
  CANOPY_CHECK(plan.CheckDtype("batchIndices", batchIndices->dtype, {ACL_INT32}));
  for (const auto& [name, t] : {std::pair{"rois", rois}, std::pair{"out", out}}) {
    if (t->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be self's (%s)", name,
                         DtypeName(t->dtype), DtypeName(self->dtype));
    }
  }
  CANOPY_CHECK(CheckFormats(plan, self, rois, batchIndices, out));
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("rois", rois, 2, 2));
  CANOPY_CHECK(plan.CheckRank("batchIndices", batchIndices, 1, 1));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  const int64_t regions = rois->view_shape[0];
  if (batchIndices->view_shape[0] != regions || rois->view_shape[1] != 4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "rois %s and batchIndices %s must be [K, 4] and [K]",
                       ShapeToString(rois->view_shape).c_str(), ShapeToString(batchIndices->view_shape).c_str());
  }
  CANOPY_CHECK(CheckOut(plan, self, regions, outputHeight, outputWidth, out));
  const bool max_mode = std::strcmp(mode, "max") == 0;
  if (!max_mode && std::strcmp(mode, "avg") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'mode' is \"%s\"; it must be \"avg\" or \"max\"", mode);
  }
  if (samplingRatio < 0 || !(spatialScale > 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "samplingRatio (%d) must not be negative and spatialScale (%g) must "
                       "be positive",
                       samplingRatio, static_cast<double>(spatialScale));
  }
  const TensorRef image = plan.Input(self, "self");
  const TensorRef boxes = plan.Input(rois, "rois");
  const TensorRef indices = plan.Input(batchIndices, "batchIndices");
  const TensorRef dst = plan.Output(out, "out");
  return AddRoiAlign(plan, image, boxes, indices, dst,
                     {.pooled_h = outputHeight,
                      .pooled_w = outputWidth,
                      .sampling_ratio = samplingRatio,
                      .spatial_scale = spatialScale,
                      .aligned = false,
                      .max_mode = max_mode,
                      .indices_in_boxes = false});
}

aclnnStatus PlanRoiAlignV2(Plan& plan, const aclTensor* self, const aclTensor* boxes, int64_t pooledHeight,
                           int64_t pooledWidth, float spatialScale, int64_t samplingRatio, bool aligned,
                           const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kRoiDtypes));
  for (const auto& [name, t] : {std::pair{"boxes", boxes}, std::pair{"out", out}}) {
    if (t->dtype != self->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be self's (%s)", name,
                         DtypeName(t->dtype), DtypeName(self->dtype));
    }
  }
  CANOPY_CHECK(CheckFormats(plan, self, boxes, nullptr, out));
  CANOPY_CHECK(plan.CheckRank("self", self, 4, 4));
  CANOPY_CHECK(plan.CheckRank("boxes", boxes, 2, 2));
  CANOPY_CHECK(plan.CheckRank("out", out, 4, 4));
  const Shape& s = self->view_shape;
  if (s[0] == 0 || s[2] == 0 || s[3] == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' of shape %s is empty in N, H or W", ShapeToString(s).c_str());
  }
  if (boxes->view_shape[1] != 5) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'boxes' has shape %s; it must be [K, 5]",
                       ShapeToString(boxes->view_shape).c_str());
  }
  CANOPY_CHECK(CheckOut(plan, self, boxes->view_shape[0], pooledHeight, pooledWidth, out));
  if (samplingRatio < 0 || !(spatialScale > std::numeric_limits<float>::min())) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "samplingRatio (%lld) must not be negative and spatialScale (%g) "
                       "must be positive",
                       static_cast<long long>(samplingRatio), static_cast<double>(spatialScale));
  }
  const TensorRef image = plan.Input(self, "self");
  const TensorRef regions = plan.Input(boxes, "boxes");
  const TensorRef dst = plan.Output(out, "out");
  return AddRoiAlign(plan, image, regions, std::nullopt, dst,
                     {.pooled_h = pooledHeight,
                      .pooled_w = pooledWidth,
                      .sampling_ratio = samplingRatio,
                      .spatial_scale = spatialScale,
                      .aligned = aligned,
                      .max_mode = false,
                      .indices_in_boxes = true});
}

}  // namespace

CANOPY_ACLNN_OP(RoiAlign, PlanRoiAlign,
                (OpTraits{.header = "aclnnop/aclnn_roi_align.h",
                          .dtypes = kRoiDtypes | DtypeSet{ACL_INT32},
                          .example = "f32[1,2,6,6]@NCHW f32[2,4]{0:4} i32[2]{0:0} 'avg' 2 2 0 1.0 f32[2,2,2,2]@NCHW"}),
                (const aclTensor*, self), (const aclTensor*, rois), (const aclTensor*, batchIndices),
                (const char*, mode), (int, outputHeight), (int, outputWidth), (int, samplingRatio),
                (float, spatialScale), (aclTensor*, out))
CANOPY_ACLNN_OP(RoiAlignV2, PlanRoiAlignV2,
                (OpTraits{.header = "aclnnop/aclnn_roi_align_v2.h",
                          .dtypes = kRoiDtypes,
                          .example = "f32[1,2,6,6]@NCHW f32[2,5]{0:0} 2 2 1.0 0 true f32[2,2,2,2]@NCHW"}),
                (const aclTensor*, self), (const aclTensor*, boxes), (int64_t, pooledHeight), (int64_t, pooledWidth),
                (float, spatialScale), (int64_t, samplingRatio), (bool, aligned), (aclTensor*, out))
