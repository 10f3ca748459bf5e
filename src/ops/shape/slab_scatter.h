// CANN's slab write into a cache (a KV cache's new tokens), shared by
// InplaceScatterUpdate and InplaceQuantScatter: data's dimension 0 is a batch;
// for each row i of updates, the slab updates[i] (its extent along `axis` some
// k) is written into data at batch b and positions o .. o + k - 1 along axis,
// where indices gives (b, o): a 1-D indices o for batch i, a 2-D one the pair
// (b, o) per row, a rank-0 one o for batch 0 (updates then has one row).
#pragma once

#include <memory>

#include "ops/framework/plan.h"

namespace canopy::ops {

// updates (data's rank) fits data along `axis` with indices: indices of rank
// 0-2 ([n, 2] for pairs), one updates row per indices row, axis not 0, data's
// extents elsewhere and at most data's along axis. `status` (and a message
// naming `data_name`) otherwise; `normalized_axis` in [1, rank) on success.
aclnnStatus CheckSlabsFit(Plan& plan, aclnnStatus status, const char* data_name, const aclTensor* data,
                          const aclTensor* indices, const aclTensor* updates, int64_t axis, int64_t& normalized_axis);

// The write, `updates` already in data's dtype. Every (b, o) is checked at run
// time before data is written: one out of range fails the stream task with a
// message naming `op` (CANN documents such offsets as unsupported, its kernel
// writes out of bounds); with repeated slabs the later row wins.
std::unique_ptr<Step> MakeSlabScatterStep(const char* op, const TensorRef& data, const TensorRef& indices,
                                          const TensorRef& updates, int64_t axis);

}  // namespace canopy::ops
