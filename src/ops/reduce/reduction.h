// What every reduction op shares: the dims normaliser and the planning of a
// reduction of `self` over a dims list into `out` on the reduction engine
// (kernels/reduce.h).
#pragma once

#include <vector>

#include "kernels/reduce.h"
#include "kernels/reduce_dim.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// `dims` against a tensor of `rank`: a negative dim counts from the end, one
// outside [-rank, rank-1] or given twice is 161002, and an empty list means every
// dimension. (A rank-0 tensor takes 0 and -1, as PyTorch's scalars do.) On
// success reduced[d] says whether dimension d is reduced (rank entries).
aclnnStatus NormalizeDims(Plan& plan, const char* name, const aclIntArray* dims, int64_t rank,
                          std::vector<bool>& reduced);

// self's shape with the reduced dims removed, or kept with extent 1.
Shape ReducedShape(const Shape& shape, const std::vector<bool>& reduced, bool keep_dims);

// An aclDataType passed as a raw int, checked against `allowed` (161002 otherwise).
aclnnStatus CheckDtypeArgument(Plan& plan, const char* name, int raw, DtypeSet allowed, aclDataType& dtype);

// Plans out = reduce(self over reduced dims), accumulated and rounded as
// `dtype` and then converted to out's dtype (a copy only where the two differ).
// `p` is kNorm's order.
aclnnStatus PlanReduction(Plan& plan, kernels::ReduceKind kind, const aclTensor* self, const std::vector<bool>& reduced,
                          bool keep_dims, aclDataType dtype, const aclTensor* out, double p = 2);

// PlanReduction of self converted to `dtype` first, as CANN's ReduceSum,
// ReduceNansum, Prod and Mean cast it (and PyTorch's `dtype` argument): FLOAT
// 70000 summed as FLOAT16 is inf, 1.003 summed as BF16 is a sum of ones. The
// conversion is skipped where it changes no value (a widening cast).
aclnnStatus PlanReductionInDtype(Plan& plan, kernels::ReduceKind kind, const aclTensor* self,
                                 const std::vector<bool>& reduced, bool keep_dims, aclDataType dtype,
                                 const aclTensor* out);

// The engine step of PlanReduction for tensors already registered: `in` reduced
// into `dst` (self's reduced shape, or one element), accumulated and rounded as
// `dtype` and then converted to dst's dtype. Ops with two reduced outputs
// (Aminmax) plan one step per output on the same input.
void PlanReduceInto(Plan& plan, kernels::ReduceKind kind, const TensorRef& in, const std::vector<bool>& reduced,
                    bool keep_dims, aclDataType dtype, const TensorRef& dst, double p = 2);

// Checks that `out` (named `name`) has `expected`, self's reduced shape, or that both hold one element (CANN's
// CheckShapeAndScalarSame).
aclnnStatus CheckReducedOut(Plan& plan, const char* name, const aclTensor* out, const Shape& expected);

// Plans a centred reduction (kVariance, kLogSumExp): first the centre (the
// mean, or the max) of self over the reduced dims, then the kind's pass that
// reads it, both in out's accumulator dtype and converted into `out` (named
// `out_name`); `mean_out` (optional, variance only) receives the mean.
aclnnStatus PlanCenteredReduction(Plan& plan, kernels::ReduceKind kind, const aclTensor* self,
                                  const std::vector<bool>& reduced, bool keep_dims, const aclTensor* out,
                                  const char* out_name, const aclTensor* mean_out = nullptr, double correction = 0,
                                  bool root = false);

// One dim of a tensor of `rank`, as CANN's ops along a dim take it: in [-rank,
// rank - 1], a rank-0 tensor taking 0 and -1 (161002 otherwise); `wrapped` in [0, max(rank, 1)).
aclnnStatus NormalizeDim(Plan& plan, const char* name, int64_t dim, int64_t rank, int64_t& wrapped);

// Plans an op along dim `dim` (already wrapped) of `in` into `out` (and
// `values`, the kinds' second output, laid out as out); `out` has in's shape
// (top-k: k along dim), or (drops_dim) the shape without dim (keep_dim: with
// extent 1 there).
void PlanDimOp(Plan& plan, kernels::DimOpDesc desc, const TensorRef& in, const TensorRef& out, int64_t dim,
               bool drops_dim, bool keep_dim, const TensorRef* values = nullptr);

// Plans out = softmax (log: log-softmax) of `in` along `dim` (in [0, rank)),
// the row maximum subtracted first; in and out have the same shape, any strides.
void PlanSoftmaxInto(Plan& plan, const TensorRef& in, const TensorRef& out, int dim, bool log);

}  // namespace canopy::ops
