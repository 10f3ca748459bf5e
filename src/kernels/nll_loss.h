// The negative log-likelihood loss (NLLLoss, NLLLoss2d): for each row n of
// self (rows indexed by up to three dims: [N] for NLLLoss, [N, H, W] for
// NLLLoss2d, classes along their own stride) with class t = target[n],
//   w_n = (t == ignore_index) ? 0 : weight[t],   l_n = -w_n * self[n, t]
// kept per row (reduction none), or summed (sum), or summed and divided by the
// sum of w_n (mean: NaN when every row is ignored); total_weight receives the
// sum of w_n for mean and sum. A class outside [0, C) that is not the ignore
// index fails the run (507015, as the NPU kernel's assertion does) before
// anything is written. Accumulates in double.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

inline constexpr int kNllRowDims = 3;

struct NllLossDesc {
  // The rows: row_rank dims of row_shape, row-major; each operand's stride
  // along them (in elements). A 1-D self is one row of rank 0.
  int row_rank = 0;
  int64_t row_shape[kNllRowDims] = {};
  int64_t self_strides[kNllRowDims] = {}, target_strides[kNllRowDims] = {}, out_strides[kNllRowDims] = {};
  int64_t classes = 0;
  int64_t self_class_stride = 0, weight_stride = 0;  // in elements
  aclDataType self_dtype = ACL_FLOAT, target_dtype = ACL_INT64, weight_dtype = ACL_FLOAT;
  BufferRef self, target, weight;
  int64_t reduction = 0;  // 0 none, 1 mean, 2 sum
  int64_t ignore_index = -100;
  // A 1-D self (one row): an ignored row gives 0 and a total weight of 0 even for mean.
  bool single_row = false;
  // out: none the rows (out_strides); else one element. total_weight: one element (mean and sum only).
  BufferRef out, total_weight;
  aclDataType out_dtype = ACL_FLOAT, total_weight_dtype = ACL_FLOAT;
  const char* op = "";  // for the error message
};

std::unique_ptr<Step> MakeNllLossStep(const NllLossDesc& desc);

}  // namespace canopy::kernels
