// GroupedMatmulWeightNz through the public C API against a float64 reference:
// FLOAT16 and BFLOAT16 products with FRACTAL_NZ weights (Canopy's NZ is the ND
// layout, read through the view; an ND weight is taken too), lists of products
// with biases and transposed weights, one x split along M among a [g, k, n]
// weight by a group list of cumulative ends or counts, empty groups and an
// empty x; and the form's own rejections (groupType 2, FLOAT, mixed dtypes,
// k or n not a multiple of 16, a private format elsewhere) with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_grouped_matmul_weight_nz.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

struct NzCall {
  std::vector<TensorPtr> x, weight, bias, out;
  TensorPtr groupList;
  int64_t splitItem = 0, groupType = -1, groupListType = 0;
  aclFormat weightFormat = ACL_FORMAT_FRACTAL_NZ, xFormat = ACL_FORMAT_ND;
};

OpRun RunNz(const NzCall& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        auto list = [&a](const std::vector<TensorPtr>& tensors, aclFormat format) {
          std::vector<aclTensor*> descriptors;
          for (const TensorPtr& t : tensors) descriptors.push_back(a.Tensor(*t, format));
          return a.TensorList(descriptors);
        };
        aclTensorList* bias = c.bias.empty() ? nullptr : list(c.bias, ACL_FORMAT_ND);
        aclTensor* groupList = c.groupList ? a.Tensor(*c.groupList) : nullptr;
        return aclnnGroupedMatmulWeightNzGetWorkspaceSize(
            list(c.x, c.xFormat), list(c.weight, c.weightFormat), bias, nullptr, nullptr, nullptr, nullptr, nullptr,
            groupList, nullptr, nullptr, nullptr, c.splitItem, c.groupType, c.groupListType, 0, a.IntArray({0}),
            /*quantGroupSize=*/0, list(c.out, ACL_FORMAT_ND), nullptr, nullptr, ws, ex);
      },
      aclnnGroupedMatmulWeightNz);
}

// rows x [k] times w [k, n] (+ bias [n]) in float64, with each value's magnitude sum for the tolerance.
void Product(const Values& x, int64_t row0, int64_t rows, int64_t k, const Values& w, int64_t w0, int64_t n,
             const Values* bias, Values& want, std::vector<double>& scale, int64_t at) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = bias != nullptr ? (*bias)[j].real() : 0.0;
      double magnitude = std::abs(sum);
      for (int64_t i = 0; i < k; ++i) {
        const double term = x[(row0 + r) * k + i].real() * w[w0 + i * n + j].real();
        sum += term;
        magnitude += std::abs(term);
      }
      want[at + r * n + j] = sum;
      scale[at + r * n + j] = std::abs(sum) + magnitude * static_cast<double>(k) / 64.0;
    }
  }
}

class GroupedMatmulWeightNz : public ::testing::TestWithParam<aclDataType> {};

TEST_P(GroupedMatmulWeightNz, ListsMatchFloat64) {
  const aclDataType dtype = GetParam();
  for (const bool transposed : {false, true}) {
    for (const aclFormat format : {ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_ND}) {
      Rng rng = Rng::ForCurrentTest();
      NzCall c;
      c.weightFormat = format;
      const std::vector<int64_t> ms = {3, 1, 17}, ks = {16, 48, 32}, ns = {32, 16, 48};
      std::vector<Values> xv, wv, bv;
      for (size_t i = 0; i < ms.size(); ++i) {
        c.x.push_back(std::make_unique<DeviceTensor>(dtype, Shape{ms[i], ks[i]}));
        c.weight.push_back(std::make_unique<DeviceTensor>(dtype, Shape{ks[i], ns[i]},
                                                          transposed ? View::kTransposed : View::kContiguous));
        c.bias.push_back(std::make_unique<DeviceTensor>(dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT, Shape{ns[i]}));
        c.out.push_back(Poisoned(dtype, {ms[i], ns[i]}));
        xv.push_back(c.x[i]->FillRandom(rng, Range{-1, 1, 0.01}));
        wv.push_back(c.weight[i]->FillRandom(rng, Range{-1, 1, 0.01}));
        bv.push_back(c.bias[i]->FillRandom(rng, Range{-1, 1, 0.01}));
      }
      const OpRun run = RunNz(c);
      ASSERT_TRUE(run.ok()) << Describe(run);
      for (size_t i = 0; i < ms.size(); ++i) {
        Values want(static_cast<size_t>(ms[i] * ns[i]));
        std::vector<double> scale(want.size());
        Product(xv[i], 0, ms[i], ks[i], wv[i], 0, ns[i], &bv[i], want, scale, 0);
        ExpectNear(c.out[i]->ReadView(), RelativeTolerance(want, dtype, 4, scale),
                   "out[" + std::to_string(i) + "]" + (transposed ? " transposed" : "") +
                       (format == ACL_FORMAT_ND ? " ND" : " NZ"));
      }
    }
  }
}

// x [m, k] split along M among weight [g, k, n] by cumulative ends (type 0) or counts (type 1).
TEST_P(GroupedMatmulWeightNz, SplitMMatchesFloat64) {
  const aclDataType dtype = GetParam();
  const std::vector<int64_t> counts = {5, 0, 11, 4};  // rows 20-22 in no group: left as they were
  const int64_t m = 23, k = 32, n = 16, groups = 4;
  for (const int64_t listType : {0, 1}) {
    Rng rng = Rng::ForCurrentTest();
    NzCall c;
    c.splitItem = 3;
    c.groupType = 0;
    c.groupListType = listType;
    c.x.push_back(std::make_unique<DeviceTensor>(dtype, Shape{m, k}));
    c.weight.push_back(std::make_unique<DeviceTensor>(dtype, Shape{groups, k, n}));
    c.out.push_back(Poisoned(dtype, {m, n}));
    const Values xv = c.x[0]->FillRandom(rng, Range{-1, 1, 0.01});
    const Values wv = c.weight[0]->FillRandom(rng, Range{-1, 1, 0.01});
    Values list;
    int64_t end = 0;
    for (const int64_t count : counts) {
      end += count;
      list.push_back(static_cast<double>(listType == 1 ? count : end));
    }
    c.groupList = Upload(ACL_INT64, {groups}, list);
    const Values before = c.out[0]->ReadView();
    const OpRun run = RunNz(c);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const int64_t covered = end * n;  // the rows the group list names
    Values want(static_cast<size_t>(covered), 0.0);
    std::vector<double> scale(want.size(), 0.0);
    int64_t row = 0;
    for (int64_t g = 0; g < groups; ++g) {
      Product(xv, row, counts[g], k, wv, g * k * n, n, nullptr, want, scale, row * n);
      row += counts[g];
    }
    const Values got = c.out[0]->ReadView();
    ExpectNear(Values(got.begin(), got.begin() + covered), RelativeTolerance(want, dtype, 4, scale),
               "out, groupListType " + std::to_string(listType));
    ExpectExact(Values(got.begin() + covered, got.end()), Values(before.begin() + covered, before.end()),
                "out past the last group (CANN leaves those rows)");
  }
}

TEST_P(GroupedMatmulWeightNz, EmptyXWritesNothing) {
  const aclDataType dtype = GetParam();
  NzCall c;
  c.x.push_back(std::make_unique<DeviceTensor>(dtype, Shape{0, 16}));
  c.weight.push_back(std::make_unique<DeviceTensor>(dtype, Shape{16, 32}));
  c.out.push_back(std::make_unique<DeviceTensor>(dtype, Shape{0, 32}));
  const OpRun run = RunNz(c);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, GroupedMatmulWeightNz, ::testing::Values(ACL_FLOAT16, ACL_BF16),
                         [](const ::testing::TestParamInfo<aclDataType>& info) { return Name(info.param); });

NzCall OneProduct(aclDataType dtype, aclDataType outDtype, int64_t k, int64_t n) {
  NzCall c;
  c.x.push_back(std::make_unique<DeviceTensor>(dtype, Shape{2, k}));
  c.weight.push_back(std::make_unique<DeviceTensor>(dtype, Shape{k, n}));
  c.out.push_back(std::make_unique<DeviceTensor>(outDtype, Shape{2, n}));
  return c;
}

TEST(GroupedMatmulWeightNzRejects, WithCannsCodes) {
  const aclDataType h = ACL_FLOAT16;
  NzCall splitK = OneProduct(h, h, 16, 16);
  splitK.groupType = 2;
  ExpectRejectedWith(RunNz(splitK), ACLNN_ERR_PARAM_INVALID, {"groupType"});
  ExpectRejectedWith(RunNz(OneProduct(ACL_FLOAT, ACL_FLOAT, 16, 16)), ACLNN_ERR_PARAM_INVALID, {"x", "FLOAT"});
  ExpectRejectedWith(RunNz(OneProduct(h, ACL_BF16, 16, 16)), ACLNN_ERR_PARAM_INVALID, {"out", "dtype"});
  ExpectRejectedWith(RunNz(OneProduct(h, h, 24, 16)), ACLNN_ERR_PARAM_INVALID, {"weight[0]", "16"});
  ExpectRejectedWith(RunNz(OneProduct(h, h, 16, 8)), ACLNN_ERR_PARAM_INVALID, {"weight[0]", "16"});
  NzCall nzX = OneProduct(h, h, 16, 16);
  nzX.xFormat = ACL_FORMAT_FRACTAL_NZ;
  ExpectRejectedWith(RunNz(nzX), ACLNN_ERR_PARAM_INVALID, {"x[0]", "format"});
  NzCall nc1hwc0 = OneProduct(h, h, 16, 16);
  nc1hwc0.weightFormat = ACL_FORMAT_NC1HWC0;
  ExpectRejectedWith(RunNz(nc1hwc0), ACLNN_ERR_PARAM_INVALID, {"weight[0]", "format"});
  NzCall wrongOut = OneProduct(h, h, 16, 16);
  wrongOut.out[0] = std::make_unique<DeviceTensor>(h, Shape{2, 32});
  ExpectRejectedWith(RunNz(wrongOut), ACLNN_ERR_PARAM_INVALID, {"out[0]"});
  const OpRun null = RunOp(
      [](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensorList* out = a.TensorList({a.NewTensor(ACL_FLOAT16, {2, 16})});
        return aclnnGroupedMatmulWeightNzGetWorkspaceSize(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                          nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0, 0,
                                                          nullptr, 0, out, nullptr, nullptr, ws, ex);
      },
      aclnnGroupedMatmulWeightNz);
  ExpectRejectedWith(null, ACLNN_ERR_PARAM_NULLPTR, {"x"});
}

}  // namespace
}  // namespace canopy_test
