// Gathering and scattering slices along one dimension by an index tensor, the
// block GatherV2, IndexSelect, Embedding and IndexCopy share:
// out[pre, k..., post] = src[pre, index[k...], post] and its inverse.
// Phase 1 cannot see the index values, so the run checks them: a value outside
// [0, extent) ([-extent, extent) for GatherV2) fails the op's stream task with a message naming it (reported by
// the next aclrtSynchronizeStream and aclGetRecentErrMsg), before anything is written.
#pragma once

#include <optional>

#include "acl/error_codes/rt_error_codes.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

inline constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};

// What a failed index check returns from the stream: the status a kernel that
// faults on the NPU reports at synchronisation.
inline constexpr aclnnStatus kIndexOutOfRangeStatus = ACL_ERROR_RT_AICORE_EXCEPTION;

// Which index values an op takes: [0, extent), or also PyTorch's negative
// ones in [-extent, 0), counted from the end.
enum class IndexSign : uint8_t { kNonNegative, kNegativeFromEnd };

// A step that checks every value of `index` (int32 or int64, any view) against
// [0, extent) (or [-extent, extent)) of dimension `dim` at run time and stores
// them, in index's row-major order and made non-negative, as dense int64 in
// the workspace; nullopt (and no step) when index is empty. Plan it before any
// step that writes an output, so a failed check leaves the outputs untouched.
std::optional<TensorRef> PlanIndexValues(Plan& plan, const TensorRef& index, const char* index_name, int64_t dim,
                                         int64_t extent, IndexSign sign = IndexSign::kNonNegative);

// out[p] = src[p with p[dim] replaced by values[k]], p the k-th position of
// out (row-major), for values PlanIndexValues produced from an index of out's
// shape: torch.gather. Every extent of out but dim's is at most src's.
void PlanGatherElements(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& values, const TensorRef& out);

// dst[pre, values[k], post] = source[pre, k, post]: source has dst's shape with
// dimension `dim` of extent values' count. Duplicate values: the last k wins.
void PlanScatterSlices(Plan& plan, const TensorRef& values, const TensorRef& dst, int64_t dim, const TensorRef& source);

// out[pre, k, post] = src[pre, values[k], post] for values PlanIndexValues (or
// another checking step) produced: out has src's shape with dimension `dim` of
// extent values' count.
void PlanGatherByValues(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& values, const TensorRef& out);

// `out` has src's shape with dimension `dim` replaced by index's shape (a
// rank-0 index: dimension `dim` removed, as Embedding has it). src, index and out are the
// operands' views; src and out share a dtype, index is int32 or int64.
void PlanGather(Plan& plan, const TensorRef& src, int64_t dim, const TensorRef& index, const char* index_name,
                const TensorRef& out, IndexSign sign = IndexSign::kNonNegative);

// GatherV2's and IndexSelect's operands, registered in prototype order (self,
// index, out) and gathered: a rank-0 index is one value that keeps dimension
// dim (extent 1), a rank-0 self (and out) one element. `dim` is normalised.
void PlanGatherArguments(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out,
                         IndexSign sign = IndexSign::kNonNegative);

}  // namespace canopy::ops
