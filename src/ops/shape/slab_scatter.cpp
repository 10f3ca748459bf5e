#include "slab_scatter.h"

#include <cstring>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "ops/framework/tensor_view.h"
#include "strided_loops.h"

namespace canopy::ops {

namespace {

class SlabScatterStep final : public Step {
 public:
  SlabScatterStep(const char* op, const TensorRef& data, const TensorRef& indices, const TensorRef& updates,
                  int64_t axis)
      : op_(op), data_(data), indices_(indices), updates_(updates), axis_(axis) {}

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
            "%s: row %lld of indices puts a slab of %lld at batch %lld, offset "
            "%lld along axis %lld; data has %lld batches of extent %lld there",
            op_.c_str(), static_cast<long long>(i), static_cast<long long>(length), static_cast<long long>(b),
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
    return "slab scatter " + ShapeToString(updates_.shape) + " into " + ShapeToString(data_.shape) + " along " +
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

  std::string op_;
  TensorRef data_, indices_, updates_;
  int64_t axis_;
};

}  // namespace

aclnnStatus CheckSlabsFit(Plan& plan, aclnnStatus status, const char* data_name, const aclTensor* data,
                          const aclTensor* indices, const aclTensor* updates, int64_t axis, int64_t& normalized_axis) {
  if (indices->rank() == 0 && updates->view_shape[0] != 1) {
    return plan.Reject(status, "a rank-0 indices takes updates of one row, not %s",
                       ShapeToString(updates->view_shape).c_str());
  }
  if (indices->rank() > 2) {
    return plan.Reject(status, "argument 'indices' has rank %lld; it must be 0, 1 or 2",
                       static_cast<long long>(indices->rank()));
  }
  // What CANN leaves to its kernel, and a CPU must not write past.
  const int64_t rank = data->rank();
  const auto normalized = NormalizeDim(axis, rank);
  if (!normalized) {
    return plan.Reject(status, "argument 'axis' is %lld; it must be in [%lld, %lld]", static_cast<long long>(axis),
                       static_cast<long long>(-rank), static_cast<long long>(rank - 1));
  }
  const int64_t a = *normalized;
  const Shape& d = data->view_shape;
  const Shape& u = updates->view_shape;
  const int64_t rows = indices->rank() == 0 ? 1 : indices->view_shape[0];
  bool fits = a != 0 && u[0] == rows && u[static_cast<size_t>(a)] <= d[static_cast<size_t>(a)] &&
              (indices->rank() != 2 || indices->view_shape[1] == 2) && (indices->rank() == 2 || rows <= d[0]);
  for (int64_t i = 1; i < rank; ++i) fits = fits && (i == a || u[static_cast<size_t>(i)] == d[static_cast<size_t>(i)]);
  if (!fits) {
    return plan.Reject(status,
                       "updates %s do not fit %s %s along axis %lld with indices %s: axis must not be 0, updates "
                       "one row per indices row (a [n, 2] indices: (batch, offset) pairs), its extents elsewhere, "
                       "and at most its extent along axis",
                       ShapeToString(u).c_str(), data_name, ShapeToString(d).c_str(), static_cast<long long>(axis),
                       ShapeToString(indices->view_shape).c_str());
  }
  normalized_axis = a;
  return ACLNN_SUCCESS;
}

std::unique_ptr<Step> MakeSlabScatterStep(const char* op, const TensorRef& data, const TensorRef& indices,
                                          const TensorRef& updates, int64_t axis) {
  return std::make_unique<SlabScatterStep>(op, data, indices, updates, axis);
}

}  // namespace canopy::ops
