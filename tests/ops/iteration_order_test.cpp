// The elementwise engine walks dimensions in stride order (kernels/elementwise.cpp,
// OrderByStride): dense operands and outputs in any permuted layout, of every rank
// up to 8, broadcast and in place, must give the row-major results.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "aclnnop/aclnn_add.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

// A dense layout of `shape` whose memory order is `perm` (perm[0] outermost).
Layout PermutedLayout(const Shape& shape, const std::vector<int>& perm) {
  Layout layout;
  layout.shape = shape;
  layout.strides.assign(shape.size(), 0);
  for (int d : perm) layout.storageShape.push_back(shape[d]);
  const Shape storageStrides = ContiguousStrides(layout.storageShape);
  for (size_t i = 0; i < perm.size(); ++i) layout.strides[perm[i]] = storageStrides[i];
  return layout;
}

std::vector<int> RandomPermutation(Rng& rng, int rank) {
  std::vector<int> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  for (int i = rank - 1; i > 0; --i) std::swap(perm[i], perm[static_cast<int>(rng.Uniform(0, i + 1)) % (i + 1)]);
  return perm;
}

struct Case {
  int rank;
  aclDataType dtype;
  bool broadcastOther;  // other has size 1 on every odd dim (stride 0 there)
  bool inplace;
};

class IterationOrderTest : public ::testing::TestWithParam<Case> {};

TEST_P(IterationOrderTest, PermutedDenseOperandsMatchReference) {
  const Case c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Shape shape;
  for (int d = 0; d < c.rank; ++d) shape.push_back(2 + (d * 5 + 3) % 4);  // 2..5, not all equal
  Shape otherShape = shape;
  if (c.broadcastOther) {
    for (int d = 1; d < c.rank; d += 2) otherShape[d] = 1;
  }
  DeviceTensor self(c.dtype, PermutedLayout(shape, RandomPermutation(rng, c.rank)));
  DeviceTensor other(c.dtype, PermutedLayout(otherShape, RandomPermutation(rng, c.rank)));
  DeviceTensor out(c.dtype, PermutedLayout(shape, RandomPermutation(rng, c.rank)));
  const Values selfValues = self.FillRandom(rng, {});
  const Values otherValues = other.FillRandom(rng, {});
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclScalar* alpha = args.Scalar(IsIntegral(c.dtype) ? ACL_INT32 : ACL_FLOAT, 2.0);
        if (c.inplace) {
          return aclnnInplaceAddGetWorkspaceSize(args.Tensor(self), args.Tensor(other), alpha, workspaceSize, executor);
        }
        return aclnnAddGetWorkspaceSize(args.Tensor(self), args.Tensor(other), alpha, args.Tensor(out), workspaceSize,
                                        executor);
      },
      c.inplace ? aclnnInplaceAdd : aclnnAdd);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // Same-dtype operands compute in their own dtype (the reference rounds to it).
  const Expected want =
      ReferenceBinary(BinaryOp::kAdd, selfValues, shape, otherValues, otherShape, 2.0, c.dtype, c.dtype);
  ExpectNear((c.inplace ? self : out).ReadView(), want, "permuted add");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (int rank = 1; rank <= 8; ++rank) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
      cases.push_back({rank, dtype, false, false});
      cases.push_back({rank, dtype, true, false});
      cases.push_back({rank, dtype, false, true});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, IterationOrderTest, ::testing::ValuesIn(Cases()), [](const auto& info) {
  const Case& c = info.param;
  return std::string("rank") + std::to_string(c.rank) + "_" + Name(c.dtype) + (c.broadcastOther ? "_broadcast" : "") +
         (c.inplace ? "_inplace" : "");
});

}  // namespace
}  // namespace canopy_test
