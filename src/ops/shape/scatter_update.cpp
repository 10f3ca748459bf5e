// aclnnInplaceScatterUpdate: CANN's slab write into a cache (a KV cache's new
// tokens). data's dimension 0 is a batch; for each row i of updates, the slab
// updates[i] (its extent along `axis` some k) is written into data at batch b
// and positions o .. o + k - 1 along axis, where indices gives (b, o): a 1-D
// indices o for batch i, a 2-D one the pair (b, o) per row, a rank-0 one o for
// batch 0 (updates then has one row). Every pair is checked at run time before
// data is written (CANN documents out-of-range offsets as unsupported); with
// repeated slabs the later row wins.
#include <cstring>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_scatter_update.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's Atlas A2 code (its document also lists UINT8, which the code rejects).
constexpr DtypeSet kScatterUpdateDtypes = {ACL_INT8, ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32};

class ScatterUpdateStep final : public Step {
 public:
  ScatterUpdateStep(const TensorRef& data, const TensorRef& indices, const TensorRef& updates, int64_t axis)
      : data_(data), indices_(indices), updates_(updates), axis_(axis) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t rows = updates_.shape[0];
    const int64_t length = updates_.shape[static_cast<size_t>(axis_)];
    std::vector<int64_t> batch(static_cast<size_t>(rows)), offset(static_cast<size_t>(rows));
    const char* indices = context.Resolve(indices_.buffer);
    const bool pairs = indices_.rank() == 2;
    for (int64_t i = 0; i < rows; ++i) {
      batch[static_cast<size_t>(i)] = pairs ? Index(indices, i, 0) : (indices_.rank() == 0 ? 0 : i);
      offset[static_cast<size_t>(i)] = pairs ? Index(indices, i, 1) : Index(indices, i, 0);
      const int64_t b = batch[static_cast<size_t>(i)], o = offset[static_cast<size_t>(i)];
      if (b < 0 || b >= data_.shape[0] || o < 0 || o > data_.shape[static_cast<size_t>(axis_)] - length) {
        SetErrorMessage(
            "aclnnInplaceScatterUpdate: row %lld of indices puts a slab of %lld at batch %lld, offset "
            "%lld along axis %lld; data has %lld batches of extent %lld there",
            static_cast<long long>(i), static_cast<long long>(length), static_cast<long long>(b),
            static_cast<long long>(o), static_cast<long long>(axis_), static_cast<long long>(data_.shape[0]),
            static_cast<long long>(data_.shape[static_cast<size_t>(axis_)]));
        return ACL_ERROR_RT_AICORE_EXCEPTION;  // what a faulting kernel reports; nothing was written
      }
    }
    char* data = context.Resolve(data_.buffer);
    const char* updates = context.Resolve(updates_.buffer);
    const auto bytes = static_cast<int64_t>(DtypeSize(data_.dtype));
    const auto slab_rank = static_cast<size_t>(updates_.rank() - 1);
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t at = batch[static_cast<size_t>(i)] * data_.strides[0] +
                         offset[static_cast<size_t>(i)] * data_.strides[static_cast<size_t>(axis_)];
      CopyBlock(data + at * bytes, data_.strides.data() + 1, updates + i * updates_.strides[0] * bytes,
                updates_.strides.data() + 1, updates_.shape.data() + 1, slab_rank, bytes);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "scatter update " + ShapeToString(updates_.shape) + " into " + ShapeToString(data_.shape) + " along " +
           std::to_string(axis_) + " " + DtypeName(data_.dtype);
  }

 private:
  // Element (row, column) of indices (row-major; a rank-0 or 1-D indices has one column).
  int64_t Index(const char* base, int64_t row, int64_t column) const {
    int64_t at = 0;
    if (indices_.rank() >= 1) at += row * indices_.strides[0];
    if (indices_.rank() == 2) at += column * indices_.strides[1];
    if (indices_.dtype == ACL_INT64) {
      int64_t v;
      std::memcpy(&v, base + at * 8, sizeof v);
      return v;
    }
    int32_t v;
    std::memcpy(&v, base + at * 4, sizeof v);
    return v;
  }

  TensorRef data_, indices_, updates_;
  int64_t axis_;
};

aclnnStatus PlanInplaceScatterUpdate(Plan& plan, const aclTensor* data, const aclTensor* indices,
                                     const aclTensor* updates, int64_t axis) {
  CANOPY_CHECK(plan.CheckDtype("data", data->dtype, kScatterUpdateDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "updates", updates, "data", data));
  if (data->NumElements() == 0 || updates->NumElements() == 0 || indices->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "data %s, indices %s and updates %s must not be empty",
                       ShapeToString(data->view_shape).c_str(), ShapeToString(indices->view_shape).c_str(),
                       ShapeToString(updates->view_shape).c_str());
  }
  if (data->rank() != updates->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "data (rank %lld) and updates (rank %lld) must have one rank",
                       static_cast<long long>(data->rank()), static_cast<long long>(updates->rank()));
  }
  if (indices->rank() == 0 && updates->view_shape[0] != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a rank-0 indices takes updates of one row, not %s",
                       ShapeToString(updates->view_shape).c_str());
  }
  if (indices->rank() > 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'indices' has rank %lld; it must be 0, 1 or 2",
                       static_cast<long long>(indices->rank()));
  }
  // What CANN leaves to its kernel, and a CPU must not write past.
  const int64_t rank = data->rank();
  int64_t a = 0;
  CANOPY_CHECK(CheckDim(plan, "axis", axis, rank, a));
  const Shape& d = data->view_shape;
  const Shape& u = updates->view_shape;
  const int64_t rows = indices->rank() == 0 ? 1 : indices->view_shape[0];
  bool fits = a != 0 && u[0] == rows && u[static_cast<size_t>(a)] <= d[static_cast<size_t>(a)] &&
              (indices->rank() != 2 || indices->view_shape[1] == 2) && (indices->rank() == 2 || rows <= d[0]);
  for (int64_t i = 1; i < rank; ++i) fits = fits && (i == a || u[static_cast<size_t>(i)] == d[static_cast<size_t>(i)]);
  if (!fits) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "updates %s do not fit data %s along axis %lld with indices %s: axis must not be 0, updates "
                       "one row per indices row (a [n, 2] indices: (batch, offset) pairs), data's extents elsewhere, "
                       "and at most data's along axis",
                       ShapeToString(u).c_str(), ShapeToString(d).c_str(), static_cast<long long>(axis),
                       ShapeToString(indices->view_shape).c_str());
  }
  plan.Input(data, "data");
  const TensorRef pairs = plan.Input(indices, "indices");
  const TensorRef slabs = plan.Input(updates, "updates");
  const TensorRef dst = plan.Output(data, "data");
  plan.AddStep(std::make_unique<ScatterUpdateStep>(dst, pairs, slabs, a), {pairs, slabs}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceScatterUpdate, PlanInplaceScatterUpdate,
                (OpTraits{.header = "aclnnop/aclnn_scatter_update.h",
                          .dtypes = kScatterUpdateDtypes,
                          .in_place = true,
                          .example = "f32[1,1,2,8] i64[1]{1:1} f32[1,1,1,8] -2"}),
                (aclTensor*, data), (const aclTensor*, indices), (const aclTensor*, updates), (int64_t, axis))
