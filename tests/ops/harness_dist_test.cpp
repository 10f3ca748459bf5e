// Cdist, Pdist and PdistForward as harness rows against float64 references:
// each dtype, p = 0, 1, 2, 3.5 and infinity, broadcast batch dims, the views,
// empty rows and batches; then CANN's examples and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cdist.h"
#include "aclnnop/aclnn_pdist.h"
#include "aclnnop/aclnn_pdist_forward.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

const double kInf = std::numeric_limits<double>::infinity();

double Distance(const Values& a, size_t ai, const Values& b, size_t bi, int64_t m, double p) {
  double sum = 0;
  for (int64_t k = 0; k < m; ++k) {
    const double d = std::abs(a[ai + static_cast<size_t>(k)].real() - b[bi + static_cast<size_t>(k)].real());
    if (p == 0) {
      sum += d != 0 ? 1 : 0;
    } else if (std::isinf(p)) {
      sum = std::max(sum, d);
    } else {
      sum += std::pow(d, p);
    }
  }
  return p == 0 || std::isinf(p) ? sum : std::pow(sum, 1 / p);
}

std::vector<AttrSet> PSets(bool scalar) {
  auto set = [scalar](const std::string& name, double p) {
    return AttrSet{name, {{"p", scalar ? AttrValue(ScalarAttr{ACL_FLOAT, p}) : AttrValue(p)}}};
  };
  return {set("p2", 2), set("p0", 0), set("p1", 1), set("p3_5", 3.5), set("pinf", kInf)};
}

double PAttr(const AttrSet& a) {
  return a.Find("p") && std::holds_alternative<double>(*a.Find("p")) ? a.Double("p") : a.Scalar("p").value.real();
}

// Distances of sums of many terms: their roundoff scales with the terms, not the result.
Tolerance DistanceTolerance() { return {.ulps = 4, .perDtype = {{ACL_FLOAT16, 2}, {ACL_BF16, 2}}}; }

OpRow CdistRow() {
  OpRow row;
  row.name = "Cdist";
  row.inputs = {Arg{.name = "x1", .range = Range{-2, 2}}, Arg{.name = "x2", .range = Range{-2, 2}}};
  row.out = {[](Call& c) {
               return aclnnCdistGetWorkspaceSize(c.Tensor(0), c.Tensor(1), static_cast<float>(c.DoubleAttr("p")), 2,
                                                 c.Out(), c.workspaceSize, c.executor);
             },
             aclnnCdist};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
  row.shapes = {{"typical", {{5, 4}, {3, 4}}, true},    {"large", {{70, 33}, {65, 33}}, true},
                {"batched", {{2, 3, 4}, {2, 5, 4}}},    {"batch_broadcast", {{3, 1, 4, 6}, {2, 5, 6}}},
                {"empty_rows", {{0, 4}, {3, 4}}},       {"empty_features", {{2, 3, 0}, {2, 4, 0}}},
                {"empty_batch", {{0, 3, 4}, {1, 2, 4}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) -> std::optional<Shape> {
    const Shape b1(in[0].begin(), in[0].end() - 2), b2(in[1].begin(), in[1].end() - 2);
    std::optional<Shape> batch = BroadcastShapes(b1, b2);
    if (!batch) return std::nullopt;
    batch->push_back(in[0][in[0].size() - 2]);
    batch->push_back(in[1][in[1].size() - 2]);
    return batch;
  };
  row.attrs = PSets(false);
  row.reference = [](const RefCall& call) {
    const Operand& x1 = call.inputs[0];
    const Operand& x2 = call.inputs[1];
    const double p = call.attrs.Double("p");
    const Shape& out = call.outShape;
    const size_t rank = out.size();
    const int64_t rows = out[rank - 2], other = out[rank - 1], m = x1.shape.back();
    Expected e;
    const int64_t batch = NumElements(out) / std::max<int64_t>(rows * other, 1);
    const Shape batchShape(out.begin(), out.end() - 2);
    for (int64_t b = 0; b < batch; ++b) {
      // The batch index in each input (broadcast, right-aligned).
      auto offset = [&](const Shape& s) {
        const size_t r = s.size() - 2;
        int64_t rem = b, index = 0, stride = 1;
        std::vector<int64_t> pos(batchShape.size());
        for (size_t d = batchShape.size(); d-- > 0;) {
          pos[d] = rem % batchShape[d];
          rem /= batchShape[d];
        }
        for (size_t d = r; d-- > 0;) {
          const size_t od = d + batchShape.size() - r;
          index += (s[d] == 1 ? 0 : pos[od]) * stride;
          stride *= s[d];
        }
        return index * s[r] * s[r + 1];
      };
      const int64_t o1 = offset(x1.shape), o2 = offset(x2.shape);
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < other; ++j) {
          e.values.push_back(
              Distance(x1.values, static_cast<size_t>(o1 + i * m), x2.values, static_cast<size_t>(o2 + j * m), m, p));
        }
      }
    }
    return e;
  };
  row.tolerance = DistanceTolerance();
  return row;
}

Expected PdistReference(const RefCall& call) {
  const Operand& self = call.inputs[0];
  const double p = PAttr(call.attrs);
  const int64_t n = self.shape[0], m = self.shape[1];
  Expected e;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j) {
      e.values.push_back(
          Distance(self.values, static_cast<size_t>(i * m), self.values, static_cast<size_t>(j * m), m, p));
    }
  }
  return e;
}

OpRow PdistRow(bool forward) {
  OpRow row;
  row.name = forward ? "PdistForward" : "Pdist";
  row.inputs = {Arg{.name = "self", .range = Range{-2, 2}}};
  if (forward) {
    row.out = {[](Call& c) {
                 return aclnnPdistForwardGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("p"), c.Out(), c.workspaceSize,
                                                          c.executor);
               },
               aclnnPdistForward};
  } else {
    row.out = {[](Call& c) {
                 return aclnnPdistGetWorkspaceSize(c.Tensor(0), static_cast<float>(c.DoubleAttr("p")), c.Out(),
                                                   c.workspaceSize, c.executor);
               },
               aclnnPdist};
  }
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16});
  row.shapes = {{"typical", {{6, 4}}, true},
                {"large", {{90, 37}}, true},
                {"one_row", {{1, 5}}},
                {"no_rows", {{0, 5}}},
                {"empty_rows", {{4, 0}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) -> std::optional<Shape> {
    const int64_t n = in[0][0];
    return Shape{n * (n - 1) / 2};
  };
  row.attrs = PSets(forward);
  row.reference = PdistReference;
  row.tolerance = DistanceTolerance();
  return row;
}

std::vector<OpRow> DistRows() { return {CdistRow(), PdistRow(false), PdistRow(true)}; }
CANOPY_HARNESS_ROWS(DistRows);

// ---- CANN's examples and the rejections -----------------------------------------------------------

TEST(DistExample, CdistAndPdist) {
  // x1 [1, 2] rows (0, 0), (3, 4); x2 rows (0, 0): distances 0 and 5 for p = 2.
  auto x1 = Upload(ACL_FLOAT, {2, 2}, {0, 0, 3, 4});
  auto x2 = Upload(ACL_FLOAT, {1, 2}, {0, 0});
  auto out = Poisoned(ACL_FLOAT, {2, 1});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnCdistGetWorkspaceSize(args.Tensor(*x1), args.Tensor(*x2), 2.0F, 2, args.Tensor(*out), ws, ex);
      },
      aclnnCdist);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {0, 5}, "cdist");
  auto pairs = Poisoned(ACL_FLOAT, {1});
  const OpRun pdist = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnPdistGetWorkspaceSize(args.Tensor(*x1), 1.0F, args.Tensor(*pairs), ws, ex);
      },
      aclnnPdist);
  ASSERT_TRUE(pdist.ok()) << Describe(pdist);
  ExpectExact(pairs->ReadView(), {7}, "pdist");
}

OpRun RunCdist(aclDataType d1, const Shape& s1, aclDataType d2, const Shape& s2, float p, int64_t mode, aclDataType out,
               const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnCdistGetWorkspaceSize(args.NewTensor(d1, s1), args.NewTensor(d2, s2), p, mode,
                                          args.NewTensor(out, outShape), ws, ex);
      },
      aclnnCdist);
}
OpRun RunPdist(aclDataType self, const Shape& shape, float p, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnPdistGetWorkspaceSize(args.NewTensor(self, shape), p, args.NewTensor(out, outShape), ws, ex);
      },
      aclnnPdist);
}
OpRun RunPdistForward(aclDataType self, const Shape& shape, double p, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnPdistForwardGetWorkspaceSize(args.NewTensor(self, shape), args.Scalar(ACL_FLOAT, p),
                                                 args.NewTensor(out, outShape), ws, ex);
      },
      aclnnPdistForward);
}

TEST(DistRejects, WithCannCodes) {
  const auto f = ACL_FLOAT;
  const auto nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(RunCdist(f, {3, 4}, f, {5, 4}, 1, 0, f, {3, 5}).ok());  // compute_mode only matters for p = 2
  EXPECT_EQ(RunCdist(ACL_DOUBLE, {3, 4}, ACL_DOUBLE, {5, 4}, 1, 0, ACL_DOUBLE, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, ACL_FLOAT16, {5, 4}, 1, 0, f, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, f, {5, 4}, 1, 0, ACL_BF16, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {4}, f, {5, 4}, 1, 0, f, {5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, f, {5, 3}, 1, 0, f, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, f, {5, 4}, -1, 0, f, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, f, {5, 4}, nan, 0, f, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, f, {5, 4}, 2, 0, f, {3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {2, 3, 4}, f, {3, 5, 4}, 1, 0, f, {3, 3, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCdist(f, {3, 4}, f, {5, 4}, 1, 0, f, {5, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunPdist(f, {4, 3}, 2, f, {6}).ok());
  EXPECT_EQ(RunPdist(ACL_BF16, {4, 3}, 2, ACL_BF16, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdist(f, {4, 3}, 2, ACL_FLOAT16, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdist(f, {4, 3, 1}, 2, f, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdist(f, {4, 3}, 2, f, {6, 1}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdist(f, {4, 3}, 2, f, {5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdist(f, {4, 3}, -0.5F, f, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdist(f, {4, 3}, nan, f, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunPdistForward(f, {4, 3}, 2, f, {6}).ok());
  EXPECT_EQ(RunPdistForward(f, {4, 3}, -1, f, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdistForward(f, {4, 3}, 2, ACL_FLOAT16, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunPdistForward(f, {4, 3}, 2, f, {4}).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
