#include "random_args.h"

namespace canopy::ops {

kernels::RandomSeed HostSeed(int64_t seed, int64_t offset) {
  kernels::RandomSeed s;
  s.seed = static_cast<uint64_t>(seed);
  s.offset = static_cast<uint64_t>(offset);
  return s;
}

aclnnStatus CheckSeedTensors(Plan& plan, const aclTensor* seedTensor, const aclTensor* offsetTensor, DtypeSet dtypes) {
  for (const auto& [name, t] : {std::pair{"seedTensor", seedTensor}, std::pair{"offsetTensor", offsetTensor}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, dtypes));
    CANOPY_CHECK(plan.CheckShape(name, t, Shape{1}));
  }
  return ACLNN_SUCCESS;
}

kernels::RandomSeed TensorSeed(Plan& plan, const aclTensor* seedTensor, const aclTensor* offsetTensor, int64_t offset,
                               std::vector<TensorRef>& reads) {
  const TensorRef seed = plan.Input(seedTensor, "seedTensor");
  const TensorRef base = plan.Input(offsetTensor, "offsetTensor");
  reads.push_back(seed);
  reads.push_back(base);
  kernels::RandomSeed s;
  s.from_tensors = true;
  s.seed_tensor = seed.buffer;
  s.offset_tensor = base.buffer;
  s.seed_dtype = seed.dtype;
  s.offset_dtype = base.dtype;
  s.offset = static_cast<uint64_t>(offset);
  return s;
}

void DescribeView(const TensorRef& t, kernels::StridedOperand& operand, int& rank, int64_t* shape) {
  operand.buffer = t.buffer;
  operand.dtype = t.dtype;
  rank = static_cast<int>(t.shape.size());
  for (size_t d = 0; d < t.shape.size(); ++d) {
    shape[d] = t.shape[d];
    operand.strides[d] = t.strides[d];
  }
}

void AddRandomFill(Plan& plan, kernels::RandomDesc desc, const TensorRef& out, const std::vector<TensorRef>& reads) {
  if (out.NumElements() == 0) return;
  DescribeView(out, desc.out, desc.rank, desc.shape);
  plan.AddStep(kernels::MakeRandomStep(desc), reads, out);
}

}  // namespace canopy::ops
