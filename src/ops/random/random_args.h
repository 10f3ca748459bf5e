// What the random ops share: the seed and offset (host values, or the
// seedTensor / offsetTensor of the *Tensor forms, read on the stream), and a
// tensor view as the random kernels take it (kernels/random.h).
#pragma once

#include <vector>

#include "kernels/random.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

// A seed and offset given as host values.
kernels::RandomSeed HostSeed(int64_t seed, int64_t offset);

// seedTensor and offsetTensor: one element each (shape [1]) of `dtypes`
// (161002 otherwise). TensorSeed registers them as inputs in that order and
// appends them to `reads`; the run reads seed = seedTensor[0] and offset =
// offsetTensor[0] + offset (nothing is written back).
aclnnStatus CheckSeedTensors(Plan& plan, const aclTensor* seedTensor, const aclTensor* offsetTensor, DtypeSet dtypes);
kernels::RandomSeed TensorSeed(Plan& plan, const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset,
                               std::vector<TensorRef>& reads);

// `t` as a kernels::StridedOperand with its shape (rank, shape and strides of the view).
void DescribeView(const TensorRef& t, kernels::StridedOperand& operand, int& rank, int64_t* shape);

// Plans `desc` (its kind, parameters and seed) filling `out`, reading `reads`
// (the seed tensors, Bernoulli's probabilities); nothing for an empty out.
void AddRandomFill(Plan& plan, kernels::RandomDesc desc, const TensorRef& out, const std::vector<TensorRef>& reads);

}  // namespace canopy::ops
