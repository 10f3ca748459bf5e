// aclnnRasterizer: triangles f (vertex indices into v, vertices [x, y, z, w] in
// clip space) rasterized onto a height x width screen. A vertex goes to the
// screen at ((x/w + 1) / 2 * (width-1) + 0.5, (y/w + 1) / 2 * (height-1) + 0.5)
// with depth z/w * 0.49999 + 0.5; a pixel's centre (col + 0.5, row + 0.5) is in
// a face when its barycentric coordinates all lie in [0, 1]. A depth buffer
// keeps, per pixel, the nearest face (faces of zero area are skipped; of equal
// depths the lowest index), and the outputs are that face's index + 1 (0 where
// none covers the pixel) and the centre's perspective-corrected barycentric
// coordinates in it (0 where none). As CANN's kernel: FLOAT arithmetic, depths
// compared after truncation to multiples of 2^-18; dOptional,
// occlusionTruncation and useDepthPrior (which must be 0) take no part.
// CANN checks dtypes (161002) in its generated entry and shapes, width, height
// and useDepthPrior in its tiling (561002). Its tiling reads the int64
// attributes through 32-bit pointers, so their low 32 bits are what it checks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rasterizer.h"
#include "ops/framework/aclnn_op.h"
#include "ops/shape/gather.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRasterizerDtypes = {ACL_FLOAT, ACL_INT32};
constexpr int64_t kMaxScreenExtent = 4096;
constexpr float kDepthScale = 0.49999F;
// CANN's kernel compares depths as trunc(depth * 2^18).
constexpr float kDepthQuantum = static_cast<float>(1 << 18);

struct ScreenVertex {
  float x, y, z;
};

class RasterizerStep final : public Step {
 public:
  RasterizerStep(const TensorRef& vertices, const TensorRef& faces, const TensorRef& findices,
                 const TensorRef& barycentric, int64_t width, int64_t height)
      : vertices_(vertices),
        faces_(faces),
        findices_(findices),
        barycentric_(barycentric),
        width_(width),
        height_(height) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* v = reinterpret_cast<const float*>(context.Resolve(vertices_.buffer));
    const auto* f = reinterpret_cast<const int32_t*>(context.Resolve(faces_.buffer));
    auto* findices = reinterpret_cast<int32_t*>(context.Resolve(findices_.buffer));
    auto* barycentric = reinterpret_cast<float*>(context.Resolve(barycentric_.buffer));
    const int64_t num_vertices = vertices_.shape[0], num_faces = faces_.shape[0];
    const int64_t num_indices = num_faces * 3;
    for (int64_t i = 0; i < num_indices; ++i) {
      if (f[i] < 0 || f[i] >= num_vertices) {
        SetErrorMessage("aclnnRasterizer: element %lld of 'f' is %d, not a vertex of 'v' (valid: [0, %lld))",
                        static_cast<long long>(i), f[i], static_cast<long long>(num_vertices));
        return kIndexOutOfRangeStatus;
      }
    }
    const int64_t pixels = width_ * height_;
    std::vector<float> depth(static_cast<size_t>(pixels), std::numeric_limits<float>::max());
    std::vector<int32_t> nearest(static_cast<size_t>(pixels), 0);
    for (int64_t face = 0; face < num_faces; ++face) {
      DrawFace(v, f + 3 * face, static_cast<int32_t>(face + 1), depth.data(), nearest.data());
    }
    for (int64_t p = 0; p < pixels; ++p) {
      findices[p] = nearest[p];
      float* bary = barycentric + 3 * p;
      if (nearest[p] == 0) {
        bary[0] = bary[1] = bary[2] = 0.0F;
      } else {
        Interpolate(v, f + 3 * (nearest[p] - 1), p, bary);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "rasterize " + std::to_string(faces_.shape[0]) + " faces onto " + std::to_string(height_) + "x" +
           std::to_string(width_);
  }

 private:
  ScreenVertex ToScreen(const float* vertex) const {
    const float w = vertex[3];
    return {((vertex[0] / w) * 0.5F + 0.5F) * static_cast<float>(width_ - 1) + 0.5F,
            ((vertex[1] * 0.5F) / w + 0.5F) * static_cast<float>(height_ - 1) + 0.5F,
            (vertex[2] / w) * kDepthScale + 0.5F};
  }

  // Pixels are visited within the face's bounding box clamped to the screen;
  // no centre outside it can pass the barycentric test.
  void DrawFace(const float* v, const int32_t* face, int32_t index, float* depth, int32_t* nearest) const {
    const ScreenVertex a = ToScreen(v + 4 * static_cast<int64_t>(face[0]));
    const ScreenVertex b = ToScreen(v + 4 * static_cast<int64_t>(face[1]));
    const ScreenVertex c = ToScreen(v + 4 * static_cast<int64_t>(face[2]));
    const float area = (c.x - a.x) * (b.y - a.y) - (b.x - a.x) * (c.y - a.y);
    if (area == 0.0F || std::isnan(area)) return;
    const float x_low = std::max(std::min({a.x, b.x, c.x}), 0.0F);
    const float x_high = std::min(std::max({a.x, b.x, c.x}), static_cast<float>(width_ - 1));
    const float y_low = std::max(std::min({a.y, b.y, c.y}), 0.0F);
    const float y_high = std::min(std::max({a.y, b.y, c.y}), static_cast<float>(height_ - 1));
    if (!(x_low <= x_high) || !(y_low <= y_high)) return;
    for (auto row = static_cast<int64_t>(y_low); row <= static_cast<int64_t>(y_high); ++row) {
      const float py = static_cast<float>(row) + 0.5F;
      for (auto col = static_cast<int64_t>(x_low); col <= static_cast<int64_t>(x_high); ++col) {
        const float px = static_cast<float>(col) + 0.5F;
        const float beta = ((py - a.y) * (c.x - a.x) - (px - a.x) * (c.y - a.y)) / area;
        const float gamma = ((px - a.x) * (b.y - a.y) - (py - a.y) * (b.x - a.x)) / area;
        const float alpha = 1.0F - beta - gamma;
        const auto unit = [](float t) { return t >= 0.0F && t <= 1.0F; };
        if (!unit(alpha) || !unit(beta) || !unit(gamma)) continue;
        const float d = std::trunc((alpha * a.z + beta * b.z + gamma * c.z) * kDepthQuantum);
        const int64_t p = row * width_ + col;
        if (d < depth[p]) {
          depth[p] = d;
          nearest[p] = index;
        }
      }
    }
  }

  void Interpolate(const float* v, const int32_t* face, int64_t p, float* bary) const {
    const float* v0 = v + 4 * static_cast<int64_t>(face[0]);
    const float* v1 = v + 4 * static_cast<int64_t>(face[1]);
    const float* v2 = v + 4 * static_cast<int64_t>(face[2]);
    const ScreenVertex a = ToScreen(v0), b = ToScreen(v1), c = ToScreen(v2);
    const int64_t row = p / width_, col = p % width_;
    const float px = static_cast<float>(col) + 0.5F;
    const float py = static_cast<float>(row) + 0.5F;
    const float area = (c.x - a.x) * (b.y - a.y) - (b.x - a.x) * (c.y - a.y);
    float alpha = -1.0F, beta = -1.0F, gamma = -1.0F;
    if (area != 0.0F) {
      beta = ((c.x - a.x) * (py - a.y) - (c.y - a.y) * (px - a.x)) / area;
      gamma = ((px - a.x) * (b.y - a.y) - (py - a.y) * (b.x - a.x)) / area;
      alpha = 1.0F - (beta + gamma);
    }
    alpha /= v0[3];
    beta /= v1[3];
    gamma /= v2[3];
    const float sum = alpha + beta + gamma;
    bary[0] = alpha / sum;
    bary[1] = beta / sum;
    bary[2] = gamma / sum;
  }

  TensorRef vertices_, faces_, findices_, barycentric_;
  int64_t width_, height_;
};

aclnnStatus TilingReject(Plan& plan, const char* name, const aclTensor* t, const char* need) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), need);
}

aclnnStatus PlanRasterizer(Plan& plan, const aclTensor* v, const aclTensor* f, const aclTensor* d, int64_t width,
                           int64_t height, double /*occlusionTruncation*/, int64_t useDepthPrior,
                           const aclTensor* findicesOut, const aclTensor* barycentricOut) {
  CANOPY_CHECK(plan.CheckDtype("v", v->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("f", f->dtype, {ACL_INT32}));
  if (d != nullptr) CANOPY_CHECK(plan.CheckDtype("dOptional", d->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("findicesOut", findicesOut->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("barycentricOut", barycentricOut->dtype, {ACL_FLOAT}));
  const Shape& vs = v->view_shape;
  const Shape& fs = f->view_shape;
  const Shape& is = findicesOut->view_shape;
  const Shape& bs = barycentricOut->view_shape;
  if (vs.size() != 2) return TilingReject(plan, "v", v, "[numVertices, 4]");
  if (fs.size() != 2) return TilingReject(plan, "f", f, "[numFaces, 3]");
  if (is.size() != 2) return TilingReject(plan, "findicesOut", findicesOut, "[height, width]");
  if (bs.size() != 3) return TilingReject(plan, "barycentricOut", barycentricOut, "[height, width, 3]");
  if (fs[1] != 3) return TilingReject(plan, "f", f, "[numFaces, 3]");
  if (bs[2] != 3) return TilingReject(plan, "barycentricOut", barycentricOut, "[height, width, 3]");
  if (vs[1] != 4) return TilingReject(plan, "v", v, "[numVertices, 4]");
  const int64_t width32 = static_cast<uint32_t>(width), height32 = static_cast<uint32_t>(height);
  if (width32 < 1 || width32 > kMaxScreenExtent || height32 < 1 || height32 > kMaxScreenExtent) {
    return plan.Reject(
        ACLNN_ERR_INNER_TILING_ERROR, "arguments 'width' (%lld) and 'height' (%lld) must each be in [1, %lld]",
        static_cast<long long>(width), static_cast<long long>(height), static_cast<long long>(kMaxScreenExtent));
  }
  if (is[0] != bs[0] || is[1] != bs[1] || is[0] != height32 || is[1] != width32) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "'findicesOut' %s and 'barycentricOut' %s must be [height, width] and [height, width, 3] "
                       "with height %lld and width %lld",
                       ShapeToString(is).c_str(), ShapeToString(bs).c_str(), static_cast<long long>(height32),
                       static_cast<long long>(width32));
  }
  if (static_cast<uint32_t>(useDepthPrior) != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'useDepthPrior' is %lld; only 0 is supported",
                       static_cast<long long>(useDepthPrior));
  }
  const TensorRef vertices = plan.Input(v, "v");
  const TensorRef faces = plan.Input(f, "f");
  if (d != nullptr) {
    plan.Input(d, "dOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef findices = plan.Output(findicesOut, "findicesOut");
  const TensorRef barycentric = plan.Output(barycentricOut, "barycentricOut");
  const TensorRef vertices_dense = plan.Contiguous(vertices, ACL_FLOAT);
  const TensorRef faces_dense = plan.Contiguous(faces, ACL_INT32);
  const TensorRef findices_dense = findices.IsContiguous() ? findices : plan.Temporary(ACL_INT32, findices.shape);
  const TensorRef barycentric_dense =
      barycentric.IsContiguous() ? barycentric : plan.Temporary(ACL_FLOAT, barycentric.shape);
  plan.AddStep(std::make_unique<RasterizerStep>(vertices_dense, faces_dense, findices_dense, barycentric_dense, width32,
                                                height32));
  if (!findices.IsContiguous()) plan.Copy(findices_dense, findices);
  if (!barycentric.IsContiguous()) plan.Copy(barycentric_dense, barycentric);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Rasterizer, PlanRasterizer,
                (OpTraits{.header = "aclnnop/aclnn_rasterizer.h",
                          .dtypes = kRasterizerDtypes,
                          .example = "f32[3,4] i32[1,3]{0:2} f32[10,10] 10 10 0.0 0 i32[10,10] f32[10,10,3]"}),
                (const aclTensor*, v), (const aclTensor*, f), (const aclTensor*, dOptional, optional), (int64_t, width),
                (int64_t, height), (double, occlusionTruncation), (int64_t, useDepthPrior),
                (const aclTensor*, findicesOut), (const aclTensor*, barycentricOut))
