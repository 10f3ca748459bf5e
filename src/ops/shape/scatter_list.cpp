// aclnnScatterList: a KV-cache write over a list of B caches of one shape V.
// updates is [B, ...] and `axis` (normalised by updates' rank, never 0) names
// the dimension its slabs run along, which is dimension axis - 1 of each
// cache; updates' other dimensions group into V's before and after it. For
// each b (where maskOptional[b] is not 0), slab b goes into varRef[b] at offset
// indice[b] along that dimension: all updates.shape[axis] rows, or, with a
// [B, 2] indice of (offset, length) pairs, the first `length`. CANN generates
// this op's entry from its definition and checks shapes while tiling, so a
// bad shape is 561002 (its tiling error); offsets and lengths that do not fit
// are found at run time and fail the stream task before that cache is written.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_scatter_list.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "strided_loops.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kScatterListDtypes = {ACL_INT8,   ACL_INT16,   ACL_INT32, ACL_UINT8, ACL_UINT16,
                                         ACL_UINT32, ACL_FLOAT16, ACL_BF16,  ACL_FLOAT};

int64_t Product(const Shape& shape, size_t begin, size_t end) {
  int64_t product = 1;
  for (size_t d = begin; d < end; ++d) product *= shape[d];
  return product;
}

// Reads indice and the mask and checks every window before any cache is
// written: row b of `windows` (dense int64 [B, 2]) is cache b's (offset,
// length), the length 0 where the mask leaves it out.
class ScatterListWindowsStep final : public Step {
 public:
  ScatterListWindowsStep(const TensorRef& indice, std::optional<TensorRef> mask, const TensorRef& windows,
                         int64_t cache_extent, int64_t slab_extent, int64_t dim)
      : indice_(indice),
        mask_(std::move(mask)),
        windows_(windows),
        cache_extent_(cache_extent),
        slab_extent_(slab_extent),
        dim_(dim) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* indice = context.Resolve(indice_.buffer);
    const char* mask = mask_ ? context.Resolve(mask_->buffer) : nullptr;
    auto* windows = reinterpret_cast<int64_t*>(context.Resolve(windows_.buffer));
    const bool pairs = indice_.rank() == 2;
    for (int64_t b = 0; b < windows_.shape[0]; ++b) {
      const int64_t offset = Index(indice, b, 0);
      const int64_t length = pairs ? Index(indice, b, 1) : slab_extent_;
      // CANN's kernels skip a cache whose mask byte is 0 and write it for any other value.
      const bool selected = mask == nullptr || static_cast<uint8_t>(mask[b * mask_->strides[0]]) != 0;
      if (selected && (offset < 0 || length < 0 || length > slab_extent_ || offset > cache_extent_ - length)) {
        SetErrorMessage(
            "aclnnScatterList: indice gives cache %lld offset %lld and length %lld along its dimension %lld; the "
            "caches have %lld there and the slabs %lld",
            static_cast<long long>(b), static_cast<long long>(offset), static_cast<long long>(length),
            static_cast<long long>(dim_), static_cast<long long>(cache_extent_), static_cast<long long>(slab_extent_));
        return kIndexOutOfRangeStatus;  // nothing written
      }
      windows[2 * b] = offset;
      windows[2 * b + 1] = selected ? length : 0;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "scatter list windows of " + std::to_string(windows_.shape[0]) + " caches";
  }

 private:
  int64_t Index(const char* base, int64_t row, int64_t column) const {
    int64_t at = row * indice_.strides[0];
    if (indice_.rank() == 2) at += column * indice_.strides[1];
    if (indice_.dtype == ACL_INT64) {
      int64_t v;
      std::memcpy(&v, base + at * 8, sizeof v);
      return v;
    }
    int32_t v;
    std::memcpy(&v, base + at * 4, sizeof v);
    return v;
  }

  TensorRef indice_;
  std::optional<TensorRef> mask_;
  TensorRef windows_;
  int64_t cache_extent_, slab_extent_, dim_;
};

// Writes the window of slab b (updates[b] viewed in the cache's shape, its
// dimension `dim` of the slab's extent) into cache b.
class ScatterListCopyStep final : public Step {
 public:
  ScatterListCopyStep(const TensorRef& cache, const TensorRef& slab, const TensorRef& windows, int64_t b, int64_t dim)
      : cache_(cache), slab_(slab), windows_(windows), b_(b), dim_(dim) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* windows = reinterpret_cast<const int64_t*>(context.Resolve(windows_.buffer));
    const auto d = static_cast<size_t>(dim_);
    Shape shape = slab_.shape;
    shape[d] = windows[2 * b_ + 1];
    if (shape[d] == 0) return ACLNN_SUCCESS;
    const auto bytes = static_cast<int64_t>(DtypeSize(cache_.dtype));
    const int64_t at = windows[2 * b_] * cache_.strides[d] * bytes;
    CopyBlock(context.Resolve(cache_.buffer) + at, cache_.strides.data(), context.Resolve(slab_.buffer),
              slab_.strides.data(), shape.data(), shape.size(), bytes);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "scatter list slab " + ShapeToString(slab_.shape) + " into cache " + std::to_string(b_) + " " +
           ShapeToString(cache_.shape) + " along " + std::to_string(dim_) + " " + DtypeName(cache_.dtype);
  }

 private:
  TensorRef cache_, slab_, windows_;
  int64_t b_, dim_;
};

aclnnStatus TilingError(Plan& plan, const std::string& message) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s", message.c_str());
}

aclnnStatus CheckScatterListShapes(Plan& plan, const aclTensorList* varRef, const aclTensor* indice,
                                   const aclTensor* updates, const aclTensor* mask, int64_t axis, int64_t& a) {
  if (varRef->tensors.empty()) return TilingError(plan, "'varRef' is an empty list");
  const Shape& v = varRef->tensors[0]->view_shape;
  const Shape& u = updates->view_shape;
  for (size_t k = 1; k < varRef->tensors.size(); ++k) {
    if (varRef->tensors[k]->view_shape != v) {
      return TilingError(plan, "'varRef[" + std::to_string(k) + "]' has shape " +
                                   ShapeToString(varRef->tensors[k]->view_shape) + "; 'varRef[0]' has " +
                                   ShapeToString(v));
    }
  }
  if (v.empty() || u.size() < 2) {
    return TilingError(plan, "'varRef' tensors need rank 1 or more (" + ShapeToString(v) +
                                 ") and 'updates' rank 2 or more (" + ShapeToString(u) + ")");
  }
  for (int64_t extent : v) {
    if (extent <= 0) return TilingError(plan, "'varRef' tensors of shape " + ShapeToString(v) + " are empty");
  }
  for (int64_t extent : u) {
    if (extent <= 0) return TilingError(plan, "'updates' of shape " + ShapeToString(u) + " is empty");
  }
  const auto count = static_cast<int64_t>(varRef->tensors.size());
  if (u[0] != count) {
    return TilingError(
        plan, "'updates' " + ShapeToString(u) + " needs one slab per 'varRef' tensor (" + std::to_string(count) + ")");
  }
  const auto rank = static_cast<int64_t>(u.size());
  a = axis < 0 ? axis + rank : axis;
  if (a <= 0 || a >= rank) {
    return TilingError(plan, "'axis' " + std::to_string(axis) + " must name a dimension 1 .. " +
                                 std::to_string(rank - 1) + " of 'updates' " + ShapeToString(u));
  }
  const auto au = static_cast<size_t>(a);
  if (v.size() < au || Product(u, 1, au) != Product(v, 0, au - 1) ||
      Product(u, au + 1, u.size()) != Product(v, au, v.size()) || u[au] > v[au - 1]) {
    return TilingError(plan, "'updates' " + ShapeToString(u) + " slabs along axis " + std::to_string(a) +
                                 " do not fit 'varRef' tensors of shape " + ShapeToString(v));
  }
  const Shape& i = indice->view_shape;
  if (!((i.size() == 1 && i[0] == count) || (i.size() == 2 && i[0] == count && i[1] == 2))) {
    return TilingError(plan, "'indice' has shape " + ShapeToString(i) + "; it must be [" + std::to_string(count) +
                                 "] or [" + std::to_string(count) + ", 2]");
  }
  if (mask != nullptr && mask->NumElements() != count) {
    return TilingError(plan, "'maskOptional' has shape " + ShapeToString(mask->view_shape) + "; it needs " +
                                 std::to_string(count) + " values, one per 'varRef' tensor");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanScatterList(Plan& plan, const aclTensorList* varRef, const aclTensor* indice, const aclTensor* updates,
                            const aclTensor* maskOptional, char* reduceOptional, int64_t axis) {
  for (size_t k = 0; k < varRef->tensors.size(); ++k) {
    const std::string name = "varRef[" + std::to_string(k) + "]";
    CANOPY_CHECK(plan.CheckDtype(name.c_str(), varRef->tensors[k]->dtype, kScatterListDtypes));
    CANOPY_CHECK(CheckSameDtype(plan, "updates", updates, name.c_str(), varRef->tensors[k]));
  }
  CANOPY_CHECK(plan.CheckDtype("updates", updates->dtype, kScatterListDtypes));
  CANOPY_CHECK(plan.CheckDtype("indice", indice->dtype, kIndexDtypes));
  if (maskOptional != nullptr) CANOPY_CHECK(plan.CheckDtype("maskOptional", maskOptional->dtype, {ACL_UINT8}));
  if (reduceOptional != nullptr && std::strcmp(reduceOptional, "update") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'reduceOptional' is \"%s\"; only \"update\" is supported",
                       reduceOptional);
  }
  int64_t a = 0;
  CANOPY_CHECK(CheckScatterListShapes(plan, varRef, indice, updates, maskOptional, axis, a));
  plan.InputList(varRef, "varRef");
  const TensorRef offsets = plan.Input(indice, "indice");
  const TensorRef slabs = plan.Input(updates, "updates");
  std::optional<TensorRef> mask;
  if (maskOptional != nullptr) {
    mask = Flat(plan, plan.Input(maskOptional, "maskOptional"));
  } else {
    plan.SkipInput();
  }
  const std::vector<TensorRef> caches = plan.OutputList(varRef, "varRef");
  const int64_t dim = a - 1;
  const int64_t slab_extent = slabs.shape[static_cast<size_t>(a)];
  const auto count = static_cast<int64_t>(caches.size());
  const TensorRef windows = plan.Temporary(ACL_INT64, {count, 2});
  std::vector<TensorRef> index_reads = {offsets};
  if (mask) index_reads.push_back(*mask);
  plan.AddStep(std::make_unique<ScatterListWindowsStep>(offsets, mask, windows,
                                                        caches[0].shape[static_cast<size_t>(dim)], slab_extent, dim),
               index_reads, windows);
  for (int64_t b = 0; b < count; ++b) {
    const TensorRef& cache = caches[static_cast<size_t>(b)];
    Shape slab_shape = cache.shape;
    slab_shape[static_cast<size_t>(dim)] = slab_extent;
    const TensorRef slab = ViewOrCopy(plan, Select(slabs, 0, b), slab_shape);
    plan.AddStep(std::make_unique<ScatterListCopyStep>(cache, slab, windows, b, dim), {slab, windows}, cache);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ScatterList, PlanScatterList,
                InPlace(OpTraits{.header = "aclnnop/aclnn_scatter_list.h", .dtypes = kScatterListDtypes},
                        "(f32[5,3,4]) i64[1,2]{0:1} f32[1,5,3,4] - 'update' -2"),
                (aclTensorList*, varRef), (const aclTensor*, indice), (const aclTensor*, updates),
                (const aclTensor*, maskOptional, optional), (char*, reduceOptional, optional), (int64_t, axis))
