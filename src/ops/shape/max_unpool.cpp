// aclnnMaxUnpool2d and aclnnMaxUnpool3d (torch.nn.functional.max_unpool2d/3d):
// out is zero except where a max pool's indices point: for each plane (n, c)
// and each element i of self, out[n, c].flatten()[indices[n, c, i]] = self[n,
// c, i]. 2d takes self [C, H, W] or [N, C, H, W] and outputSize (outH, outW);
// 3d takes [N, D, H, W] or [N, C, D, H, W] and outputSize (outD, outH, outW)
// with stride and padding, which CANN checks and does not use. Every index is
// checked at run time (in [0, the plane's size)) before out is written; with
// repeated indices the later element wins.
#include <cstring>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_max_unpool2d.h"
#include "aclnnop/aclnn_max_unpool3d.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kUnpoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_UINT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_DOUBLE};

// self and indices [planes, n] contiguous, out [planes, size] contiguous.
class MaxUnpoolStep final : public Step {
 public:
  MaxUnpoolStep(const char* op, const TensorRef& self, const TensorRef& indices, const TensorRef& out)
      : op_(op), self_(self), indices_(indices), out_(out) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t planes = out_.shape[0], size = out_.shape[1], n = self_.shape[1];
    const char* indices = context.Resolve(indices_.buffer);
    const auto index = [&](int64_t k) {
      if (indices_.dtype == ACL_INT64) {
        int64_t v;
        std::memcpy(&v, indices + k * 8, sizeof v);
        return v;
      }
      int32_t v;
      std::memcpy(&v, indices + k * 4, sizeof v);
      return static_cast<int64_t>(v);
    };
    for (int64_t k = 0, count = planes * n; k < count; ++k) {
      if (const int64_t v = index(k); v < 0 || v >= size) {
        SetErrorMessage("%s: element %lld of indices is %lld, outside [0, %lld) of its output plane", op_,
                        static_cast<long long>(k), static_cast<long long>(v), static_cast<long long>(size));
        return ACL_ERROR_RT_AICORE_EXCEPTION;  // what a faulting kernel reports; out not written
      }
    }
    const auto bytes = static_cast<int64_t>(DtypeSize(out_.dtype));
    char* out = context.Resolve(out_.buffer);
    const char* self = context.Resolve(self_.buffer);
    std::memset(out, 0, static_cast<size_t>(planes * size * bytes));
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t k = p * n + i;
        std::memcpy(out + (p * size + index(k)) * bytes, self + k * bytes, static_cast<size_t>(bytes));
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("max unpool ") + ShapeToString(self_.shape) + " -> " + ShapeToString(out_.shape) + " " +
           DtypeName(out_.dtype);
  }

 private:
  const char* op_;
  TensorRef self_, indices_, out_;
};

// The checks both share: dtypes, indices of self's shape, every extent but the first positive,
// outputSize of `spatial` positive extents holding at least self's spatial elements.
aclnnStatus CheckUnpool(Plan& plan, const aclTensor* self, const aclTensor* indices, const aclIntArray* output_size,
                        const aclTensor* out, int64_t spatial) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUnpoolDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, spatial + 1, spatial + 2));
  CANOPY_CHECK(plan.CheckShape("indices", indices, self->view_shape));
  for (int64_t d = 1; d < self->rank(); ++d) {
    if (self->view_shape[static_cast<size_t>(d)] <= 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self %s may be empty only along dimension 0",
                         ShapeToString(self->view_shape).c_str());
    }
  }
  const std::vector<int64_t>& size = output_size->values;
  int64_t room = 1, held = 1;
  for (int64_t s : size) room *= s > 0 ? s : 0;
  for (int64_t d = self->rank() - spatial; d < self->rank(); ++d) held *= self->view_shape[static_cast<size_t>(d)];
  if (static_cast<int64_t>(size.size()) != spatial || room == 0 || room < held) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'outputSize' must be %lld positive extents holding self's %lld spatial elements",
                       static_cast<long long>(spatial), static_cast<long long>(held));
  }
  return ACLNN_SUCCESS;
}

// self and indices as [planes, spatial elements], out as [planes, prod(outputSize)].
aclnnStatus PlanUnpool(Plan& plan, const char* op, const aclTensor* self, const aclTensor* indices,
                       const aclIntArray* output_size, const aclTensor* out, const char* out_name, int64_t spatial) {
  Shape expected(self->view_shape.begin(), self->view_shape.end() - spatial);
  expected.insert(expected.end(), output_size->values.begin(), output_size->values.end());
  CANOPY_CHECK(plan.CheckShape(out_name, out, expected));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef positions = plan.Input(indices, "indices");
  const TensorRef dst = plan.Output(out, out_name);
  if (src.NumElements() == 0) return ACLNN_SUCCESS;  // an empty batch
  int64_t size = 1;
  for (int64_t s : output_size->values) size *= s;
  const int64_t planes = dst.NumElements() / size;
  const int64_t n = src.NumElements() / planes;
  const TensorRef values = *Reshape(plan.Contiguous(src, src.dtype), {planes, n});
  const TensorRef where = *Reshape(plan.Contiguous(positions, positions.dtype), {planes, n});
  const bool dense = dst.IsContiguous();
  const TensorRef staged = dense ? dst : plan.Temporary(dst.dtype, dst.shape);
  plan.AddStep(std::make_unique<MaxUnpoolStep>(op, values, where, *Reshape(staged, {planes, size})), {values, where},
               staged);
  if (!dense) plan.Copy(staged, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMaxUnpool2d(Plan& plan, const aclTensor* self, const aclTensor* indices, const aclIntArray* output_size,
                            const aclTensor* out) {
  CANOPY_CHECK(CheckUnpool(plan, self, indices, output_size, out, 2));
  return PlanUnpool(plan, "aclnnMaxUnpool2d", self, indices, output_size, out, "out", 2);
}

aclnnStatus PlanMaxUnpool3d(Plan& plan, const aclTensor* self, const aclTensor* indices, const aclIntArray* output_size,
                            const aclIntArray* stride, const aclIntArray* padding, const aclTensor* out) {
  CANOPY_CHECK(CheckUnpool(plan, self, indices, output_size, out, 3));
  bool positive = true;
  for (int64_t s : stride->values) positive = positive && s > 0;
  if (stride->values.size() != 3 || padding->values.size() != 3 || !positive) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "arguments 'stride' (positive) and 'padding' must have 3 entries each");
  }
  return PlanUnpool(plan, "aclnnMaxUnpool3d", self, indices, output_size, out, "outRef", 3);
}

}  // namespace

CANOPY_ACLNN_OP(MaxUnpool2d, PlanMaxUnpool2d,
                (OpTraits{.header = "aclnnop/aclnn_max_unpool2d.h",
                          .dtypes = kUnpoolDtypes,
                          .example = "f32[1,1,2,2] i64[1,1,2,2]{0:15} ints[4,4] f32[1,1,4,4]"}),
                (const aclTensor*, self), (const aclTensor*, indices), (const aclIntArray*, outputSize),
                (aclTensor*, out))
CANOPY_ACLNN_OP(MaxUnpool3d, PlanMaxUnpool3d,
                (OpTraits{
                    .header = "aclnnop/aclnn_max_unpool3d.h",
                    .dtypes = kUnpoolDtypes,
                    .example = "f32[1,1,2,2] i64[1,1,2,2]{0:15} ints[1,4,4] ints[1,2,3] ints[1,2,3] f32[1,1,4,4]"}),
                (const aclTensor*, self), (const aclTensor*, indices), (const aclIntArray*, outputSize),
                (const aclIntArray*, stride), (const aclIntArray*, padding), (aclTensor*, outRef))
