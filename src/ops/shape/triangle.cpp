// aclnnTril / aclnnInplaceTril and aclnnTriu / aclnnInplaceTriu: the last two
// dimensions keep their lower (upper) triangle from diagonal `diagonal` on;
// the other elements become 0. One positionwise step copies the kept run of
// each row and zeroes the rest, so the in-place forms run in place.
#include <algorithm>
#include <cstring>

#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTriangleDtypes = {ACL_DOUBLE, ACL_FLOAT,  ACL_FLOAT16, ACL_INT16, ACL_INT32, ACL_INT64, ACL_INT8,
                                      ACL_UINT16, ACL_UINT32, ACL_UINT64,  ACL_UINT8, ACL_BOOL,  ACL_BF16};
constexpr int64_t kMatrixRank = 2;

enum class Triangle : uint8_t { kLower, kUpper };

class TriangleStep final : public Step {
 public:
  TriangleStep(Triangle triangle, int64_t diagonal, const TensorRef& src, const TensorRef& dst)
      : triangle_(triangle), diagonal_(diagonal), src_(src), dst_(dst) {
    const size_t batch = src.shape.size() - kMatrixRank;
    batch_.assign(src.shape.begin(), src.shape.begin() + static_cast<int64_t>(batch));
    src_batch_.assign(src.strides.begin(), src.strides.begin() + static_cast<int64_t>(batch));
    dst_batch_.assign(dst.strides.begin(), dst.strides.begin() + static_cast<int64_t>(batch));
  }

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(src_.buffer);
    char* dst = context.Resolve(dst_.buffer);
    const auto bytes = static_cast<int64_t>(DtypeSize(src_.dtype));
    const size_t r = src_.shape.size() - kMatrixRank;
    const int64_t rows = src_.shape[r];
    const int64_t cols = src_.shape[r + 1];
    const int64_t src_row = src_.strides[r], src_col = src_.strides[r + 1];
    const int64_t dst_row = dst_.strides[r], dst_col = dst_.strides[r + 1];
    // Far diagonals act like the nearest one outside the matrix (and i + d cannot overflow).
    const int64_t d = std::clamp<int64_t>(diagonal_, -rows - 1, cols + 1);
    ForEachOffsetPair(batch_, src_batch_, dst_batch_, [&](int64_t src_offset, int64_t dst_offset) {
      for (int64_t i = 0; i < rows; ++i) {
        // Kept columns [begin, end): j >= i + d (upper) or j <= i + d (lower).
        const int64_t begin = triangle_ == Triangle::kUpper ? std::clamp<int64_t>(i + d, 0, cols) : 0;
        const int64_t end = triangle_ == Triangle::kUpper ? cols : std::clamp<int64_t>(i + d + 1, 0, cols);
        const char* s = src + (src_offset + i * src_row) * bytes;
        char* t = dst + (dst_offset + i * dst_row) * bytes;
        for (int64_t j = 0; j < cols; ++j) {
          char* to = t + j * dst_col * bytes;
          const char* from = s + j * src_col * bytes;
          if (j < begin || j >= end) {
            std::memset(to, 0, static_cast<size_t>(bytes));  // zero of every dtype here is all-zero bytes
          } else if (to != from) {
            std::memcpy(to, from, static_cast<size_t>(bytes));
          }
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string(triangle_ == Triangle::kUpper ? "triu" : "tril") + " diagonal " + std::to_string(diagonal_) +
           " " + ShapeToString(src_.shape) + " " + DtypeName(src_.dtype);
  }

 private:
  Triangle triangle_;
  int64_t diagonal_;
  TensorRef src_;
  TensorRef dst_;
  Shape batch_;
  Shape src_batch_;
  Shape dst_batch_;
};

// Tril takes ranks 2-8; Triu also accepts an empty tensor of lower rank.
aclnnStatus CheckTriangleRank(Plan& plan, Triangle triangle, const char* name, const aclTensor* self) {
  if (self->rank() >= kMatrixRank || (triangle == Triangle::kUpper && self->NumElements() == 0)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be at least 2", name,
                     static_cast<long long>(self->rank()));
}

void AddTriangle(Plan& plan, Triangle triangle, int64_t diagonal, const TensorRef& src, const TensorRef& dst) {
  if (dst.NumElements() == 0) return;
  plan.AddPositionwiseStep(std::make_unique<TriangleStep>(triangle, diagonal, src, dst), {src}, dst);
}

template <Triangle kTriangle>
aclnnStatus PlanTriangle(Plan& plan, const aclTensor* self, int64_t diagonal, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kTriangleDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  if (self->format != out->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format %d and out's format %d differ",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  CANOPY_CHECK(CheckTriangleRank(plan, kTriangle, "self", self));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef src = plan.Input(self, "self");
  AddTriangle(plan, kTriangle, diagonal, src, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

template <Triangle kTriangle>
aclnnStatus PlanInplaceTriangle(Plan& plan, const aclTensor* self, int64_t diagonal) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kTriangleDtypes));
  CANOPY_CHECK(CheckTriangleRank(plan, kTriangle, "selfRef", self));
  const TensorRef src = plan.Input(self, "selfRef");
  AddTriangle(plan, kTriangle, diagonal, src, plan.Output(self, "selfRef"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTril{.header = "aclnnop/aclnn_tril.h", .dtypes = kTriangleDtypes};
constexpr OpTraits kTriu{.header = "aclnnop/aclnn_triu.h", .dtypes = kTriangleDtypes};

}  // namespace

CANOPY_ACLNN_OP(Tril, PlanTriangle<Triangle::kLower>, kTril, (const aclTensor*, self), (int64_t, diagonal),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceTril, PlanInplaceTriangle<Triangle::kLower>, InPlace(kTril), (const aclTensor*, selfRef),
                (int64_t, diagonal))
CANOPY_ACLNN_OP(Triu, PlanTriangle<Triangle::kUpper>, kTriu, (const aclTensor*, self), (int64_t, diagonal),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceTriu, PlanInplaceTriangle<Triangle::kUpper>, InPlace(kTriu), (aclTensor*, selfRef),
                (int64_t, diagonal))
