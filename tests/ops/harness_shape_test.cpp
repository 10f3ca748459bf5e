// The shape family's harness rows and tests. Linspace: every out dtype, start
// and end of several dtypes, 0, 1, 2 and many steps, a 2-D and a strided out,
// against the float64 values (truncated for integer outs), and the rejections. Eye: every dtype, square, wide,
// tall and empty shapes, every output view, the rejections. Expand: self broadcast to `size`, every
// documented dtype and view, leading new dimensions, empty and large shapes.
// The N-dimensional index ops on the advanced-indexing block
// (src/ops/shape/nd_index.h): GatherNd and ScatterNd against plain references
// (row-major coordinates into self's leading dimensions), every documented
// dtype, int32 and int64 indices, negative coordinates where the op takes them,
// duplicates (ScatterNd: the last update wins), strided, transposed, reversed,
// broadcast and offset views, a rank-1 indices (one position), empty index and
// block shapes, coordinates out of range (a stream error), and each rejection
// with its status code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_index_fill.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// The smallest and largest extent among the c dimensions that indices [..., c] address.
int64_t IndexedExtent(const CaseInfo& c, bool largest) {
  const int64_t columns = c.shapes[1].back();
  int64_t extent = c.shapes[0][0];
  for (int64_t d = 1; d < columns; ++d) {
    extent = largest ? std::max(extent, c.shapes[0][d]) : std::min(extent, c.shapes[0][d]);
  }
  return extent;
}

// Coordinates valid for every column: [-m, m) (or [0, m) without negatives), m the smallest addressed extent.
Arg IndicesArg(bool negatives) {
  return Arg{.name = "indices",
             .range = RangeRule([negatives](aclDataType, const CaseInfo& c) {
               const bool negative =
                   negatives && (!c.attrs.Has("negativeIndexSupport") || c.attrs.Bool("negativeIndexSupport"));
               const auto m = static_cast<double>(IndexedExtent(c, false));
               return Range{negative ? -m : 0.0, m - 1, 0, 0, /*allowAllZero=*/true};
             }),
             .dtypes = {ACL_INT32, ACL_INT64},
             .invalidValues = [negatives](const CaseInfo& c) {
               // Out of range for every column; without negatives, -1 too.
               const auto n = static_cast<double>(IndexedExtent(c, true));
               const bool negative = negatives && c.attrs.Bool("negativeIndexSupport");
               return std::vector<Value>{n, negative ? -n - 1 : -1.0};
             }};
}

// The row-major element offset in `self` of the block position `b` of indices' coordinates picks.
int64_t BlockStart(const Operand& self, const Operand& indices, int64_t b) {
  const int64_t columns = indices.shape.back();
  int64_t start = 0;
  for (int64_t j = 0; j < columns; ++j) {
    auto v = static_cast<int64_t>(indices.values[static_cast<size_t>(b * columns + j)].real());
    if (v < 0) v += self.shape[j];
    start = start * self.shape[j] + v;
  }
  int64_t block = 1;
  for (size_t d = static_cast<size_t>(columns); d < self.shape.size(); ++d) block *= self.shape[d];
  return start * block;
}

int64_t BlockSize(const Shape& self, int64_t columns) {
  int64_t block = 1;
  for (size_t d = static_cast<size_t>(columns); d < self.size(); ++d) block *= self[d];
  return block;
}

// indices.shape[:-1] + self.shape[c:]
Shape NdResultShape(const Shape& self, const Shape& indices) {
  Shape out(indices.begin(), indices.end() - 1);
  out.insert(out.end(), self.begin() + indices.back(), self.end());
  return out;
}

OpRow GatherNdRow() {
  OpRow row;
  row.name = "GatherNd";
  row.inputs = {Arg{.name = "self", .range = Range{-8, 8}}, IndicesArg(/*negatives=*/true)};
  row.out = {[](Call& c) {
               return aclnnGatherNdGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.BoolAttr("negativeIndexSupport"),
                                                    c.Out(), c.workspaceSize, c.executor);
             },
             aclnnGatherNd};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_BF16});
  row.shapes = {{"typical", {{4, 5, 3}, {6, 2}}, true}, {"large", {{40, 33, 70}, {24, 1}}, true},
                {"points", {{4, 5}, {3, 2, 2}}},        {"all_columns_rank3", {{3, 4, 2}, {5, 3}}},
                {"one_position", {{3, 4}, {2}}},        {"empty_positions", {{4, 5}, {0, 1}}},
                {"empty_block", {{4, 0}, {3, 1}}}};
  row.attrs = {{"negatives", {{"negativeIndexSupport", true}}}, {"no_negatives", {{"negativeIndexSupport", false}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) -> std::optional<Shape> {
    return NdResultShape(in[0], in[1]);
  };
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const Operand& indices = call.inputs[1];
    const int64_t columns = indices.shape.back();
    const int64_t block = BlockSize(self.shape, columns);
    Expected e;
    for (int64_t b = 0; b < NumElements(indices.shape) / columns; ++b) {
      const int64_t start = BlockStart(self, indices, b);
      for (int64_t k = 0; k < block; ++k) e.values.push_back(self.values[static_cast<size_t>(start + k)]);
    }
    return e;
  };
  return row;
}

OpRow ScatterNdRow() {
  OpRow row;
  row.name = "ScatterNd";
  row.inputs = {Arg{.name = "data", .range = Range{-8, 8}}, IndicesArg(/*negatives=*/false),
                Arg{.name = "updates", .range = Range{-8, 8}}};
  row.out = {[](Call& c) {
               return aclnnScatterNdGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Out(), c.workspaceSize,
                                                     c.executor);
             },
             aclnnScatterNd};
  row.dtypes = EachDtype({ACL_FLOAT16, ACL_FLOAT, ACL_BOOL, ACL_BF16});
  // Few rows and many positions: duplicates are certain, and the last update must win.
  row.shapes = {{"typical", {{6, 5}, {8, 1}, {8, 5}}, true},
                {"large", {{50, 130}, {60, 1}, {60, 130}}, true},
                {"points", {{4, 5}, {3, 2}, {3}}},
                {"rank3", {{3, 4, 5}, {2, 2, 2}, {2, 2, 5}}},
                {"empty_positions", {{4, 5}, {0, 1}, {0, 5}}},
                {"empty_block", {{4, 0}, {3, 1}, {3, 0}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Operand& data = call.inputs[0];
    const Operand& indices = call.inputs[1];
    const Operand& updates = call.inputs[2];
    const int64_t columns = indices.shape.back();
    const int64_t block = BlockSize(data.shape, columns);
    Expected e{data.values, {}};
    for (int64_t b = 0; b < NumElements(indices.shape) / columns; ++b) {
      const int64_t start = BlockStart(data, indices, b);
      for (int64_t k = 0; k < block; ++k) {
        e.values[static_cast<size_t>(start + k)] = updates.values[static_cast<size_t>(b * block + k)];
      }
    }
    return e;
  };
  return row;
}

// size's shape when self broadcasts to it (CANN's rule: self's extents equal size's or are 1), else nullopt.
std::optional<Shape> ExpandedShape(const Shape& self, const std::vector<int64_t>& size) {
  if (size.size() < self.size()) return std::nullopt;
  const size_t offset = size.size() - self.size();
  for (size_t i = 0; i < self.size(); ++i) {
    if (self[i] != 1 && self[i] != size[offset + i]) return std::nullopt;
  }
  return Shape(size.begin(), size.end());
}

OpRow ExpandRow() {
  OpRow row;
  row.name = "Expand";
  row.inputs = {Arg{.name = "self", .range = Range{-8, 8}}};
  row.out = {[](Call& c) {
               return aclnnExpandGetWorkspaceSize(c.Tensor(0), c.IntArrayAttr("size"), c.Out(), c.workspaceSize,
                                                  c.executor);
             },
             aclnnExpand};
  row.dtypes = EachDtype({ACL_FLOAT16, ACL_FLOAT, ACL_UINT8, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_BF16});
  row.shapes = {
      {"typical", {{3, 1}}, true}, {"large", {{1, 130}}, true}, {"row", {{1, 4}}}, {"same", {{3, 4}}}, {"scalar", {{}}},
      {"empty", {{0, 1}}}};
  row.attrs = {{"to_2x3x4", {{"size", std::vector<int64_t>{2, 3, 4}}}},
               {"to_3x4", {{"size", std::vector<int64_t>{3, 4}}}},
               {"to_60x130", {{"size", std::vector<int64_t>{60, 130}}}},
               {"to_0x4", {{"size", std::vector<int64_t>{0, 4}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) {
    return ExpandedShape(in[0], a.IntArray("size"));
  };
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const Shape& out = call.outShape;
    const size_t offset = out.size() - self.shape.size();
    Expected e;
    for (int64_t p = 0; p < NumElements(out); ++p) {
      const Shape at = Unravel(p, out);
      Shape from(self.shape.size());
      for (size_t i = 0; i < from.size(); ++i) from[i] = self.shape[i] == 1 ? 0 : at[offset + i];
      e.values.push_back(self.values[static_cast<size_t>(Ravel(from, self.shape))]);
    }
    return e;
  };
  return row;
}

// IndexFill: the slices along dim at the index's positions take value;
// negative positions count from the end, ones out of range are skipped.
OpRow IndexFillRow() {
  OpRow row;
  row.name = "IndexFill";
  auto extentOf = [](const CaseInfo& c) {
    const Shape& s = c.shapes[0];
    if (s.empty()) return int64_t{1};
    const int64_t dim = c.attrs.Int("dim");
    return s[static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(s.size()) : dim)];
  };
  row.inputs = {Arg{.name = "self"},
                Arg{.name = "index",
                    .range = RangeRule([extentOf](aclDataType, const CaseInfo& c) {
                      const auto m = static_cast<double>(extentOf(c));
                      return Range{-m - 1, m + 1, 0, 0, /*allowAllZero=*/true};
                    }),
                    .dtypes = {ACL_INT32, ACL_INT64}},
                Arg{.name = "value", .kind = ArgKind::kScalar, .range = Range{-9, 9}}};
  row.out = {[](Call& c) {
               return aclnnIndexFillGetWorkspaceSize(c.Tensor(0), c.IntAttr("dim"), c.Tensor(1), c.Scalar(2), c.Out(),
                                                     c.workspaceSize, c.executor);
             },
             aclnnIndexFill};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceIndexFillGetWorkspaceSize(c.Tensor(0), c.IntAttr("dim"), c.Tensor(1), c.Scalar(2),
                                                                c.workspaceSize, c.executor);
                 },
                 aclnnInplaceIndexFill};
  row.dtypes = Concat(EachDtype({ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_BF16}),
                      Singly({{{ACL_FLOAT, ACL_INT64, ACL_INT32}}}));
  row.shapes = {{"typical", {{4, 5}, {3}}, true},
                {"rank3", {{2, 3, 4}, {5}}},
                {"rank0_index", {{4, 5}, {}}},
                {"empty_index", {{4, 5}, {0}}}};
  row.attrs = {{"dim0", {{"dim", int64_t{0}}}}, {"dim_last", {{"dim", int64_t{-1}}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Shape& s = call.inputs[0].shape;
    const auto rank = static_cast<int64_t>(s.size());
    int64_t dim = call.attrs.Int("dim");
    if (dim < 0) dim += rank;
    const int64_t extent = s[static_cast<size_t>(dim)];
    std::vector<bool> filled(static_cast<size_t>(extent), false);
    for (Value v : call.inputs[1].values) {
      auto p = static_cast<int64_t>(v.real());
      if (p < 0) p += extent;
      if (p >= 0 && p < extent) filled[static_cast<size_t>(p)] = true;
    }
    int64_t inner = 1;
    for (int64_t d = dim + 1; d < rank; ++d) inner *= s[static_cast<size_t>(d)];
    const Value value = ConvertValue(call.inputs[2].values[0], call.out);
    Expected want;
    const Values& x = call.inputs[0].values;
    for (size_t i = 0; i < x.size(); ++i) {
      const int64_t p = (static_cast<int64_t>(i) / inner) % extent;
      want.values.push_back(filled[static_cast<size_t>(p)] ? value : x[i]);
    }
    return want;
  };
  row.tolerance.ulps = 0;
  return row;
}

std::vector<OpRow> ShapeRows() { return {ExpandRow(), GatherNdRow(), ScatterNdRow(), IndexFillRow()}; }
CANOPY_HARNESS_ROWS(ShapeRows);

// ---- Rejections ----------------------------------------------------------------------------------

void ExpectInvalid(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "'" << run.message << "' should name " << keyword;
}

TEST(Expand, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, std::vector<int64_t> size, aclDataType out_dtype,
                 const Shape& out) {
    return RunOp(
        [=](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnExpandGetWorkspaceSize(a.NewTensor(dtype, self), a.IntArray(size), a.NewTensor(out_dtype, out), w,
                                             e);
        },
        aclnnExpand);
  };
  ExpectInvalid(call(ACL_FLOAT, {3, 1}, {3, 4}, ACL_FLOAT16, {3, 4}), "'out'");
  ExpectInvalid(call(ACL_DOUBLE, {3, 1}, {3, 4}, ACL_DOUBLE, {3, 4}), "'self'");
  ExpectInvalid(call(ACL_FLOAT, {2, 3, 1}, {3, 4}, ACL_FLOAT, {3, 4}), "'size'");
  ExpectInvalid(call(ACL_FLOAT, {3, 2}, {3, 4}, ACL_FLOAT, {3, 4}), "'size'");
  ExpectInvalid(call(ACL_FLOAT, {3, 1}, {3, -1}, ACL_FLOAT, {3, 1}), "'size'");
  ExpectInvalid(call(ACL_FLOAT, {3, 1}, {3, 4}, ACL_FLOAT, {4, 3}), "'out'");
}

OpRun Eye(int64_t n, int64_t m, DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) { return aclnnEyeGetWorkspaceSize(n, m, a.Tensor(out), w, e); },
      aclnnEye);
}

TEST(Eye, EveryDtypeShapeAndView) {
  const std::vector<aclDataType> dtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_INT8,
                                           ACL_UINT8,   ACL_INT64, ACL_BOOL,  ACL_BF16};
  const std::vector<Shape> shapes = {{3, 3}, {2, 5}, {6, 3}, {0, 4}, {1, 1}};
  const std::vector<View> views = {View::kContiguous, View::kOffset, View::kTransposed, View::kReversed,
                                   View::kStepped};
  for (aclDataType dtype : dtypes) {
    for (size_t k = 0; k < shapes.size(); ++k) {
      const Shape& shape = shapes[k];
      const View view = views[(k + static_cast<size_t>(dtype)) % views.size()];
      DeviceTensor out(dtype, shape, view);
      out.WriteView(Values(static_cast<size_t>(NumElements(shape)), 1.0));  // not zero: the zeros must be written
      const std::vector<uint8_t> before = out.DownloadBytes();
      const OpRun run = Eye(shape[0], shape[1], out);
      ASSERT_TRUE(run.ok()) << Describe(run) << " " << Name(dtype) << " " << ViewName(view);
      Values want;
      for (int64_t i = 0; i < shape[0]; ++i) {
        for (int64_t j = 0; j < shape[1]; ++j) want.push_back(i == j ? 1.0 : 0.0);
      }
      ExpectExact(out.ReadView(), want, std::string("Eye ") + Name(dtype) + " " + ViewName(view));
      ExpectOutsideViewUnchanged(out, before, "Eye storage");
    }
  }
}

TEST(Eye, Rejections) {
  DeviceTensor f64(ACL_DOUBLE, {3, 3});
  ExpectInvalid(Eye(3, 3, f64), "'out'");
  DeviceTensor rank3(ACL_FLOAT, {1, 3, 3});
  ExpectInvalid(Eye(3, 3, rank3), "'out'");
  DeviceTensor empty(ACL_FLOAT, {0, 3});
  ExpectInvalid(Eye(-1, 3, empty), "'n'");
  DeviceTensor square(ACL_FLOAT, {3, 3});
  ExpectInvalid(Eye(3, 4, square), "'out'");
}

OpRun Linspace(aclDataType scalar_dtype, double start, double end, int64_t steps, DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnLinspaceGetWorkspaceSize(a.Scalar(scalar_dtype, start), a.Scalar(scalar_dtype, end), steps,
                                             a.Tensor(out), w, e);
      },
      aclnnLinspace);
}

TEST(Linspace, EveryDtypeAndStepCount) {
  struct Case {
    aclDataType scalar;
    double start, end;
    Shape shape;
    View view;
  };
  const std::vector<Case> cases = {
      {ACL_FLOAT, -3.5, 9.25, {7}, View::kContiguous}, {ACL_DOUBLE, 10, -2, {4, 25}, View::kTransposed},
      {ACL_INT32, -7, 40, {2}, View::kStepped},        {ACL_FLOAT16, 2.5, 2.5, {1}, View::kOffset},
      {ACL_BF16, 1, 5, {3, 3}, View::kReversed},       {ACL_BOOL, 0, 1, {5}, View::kContiguous},
      {ACL_INT8, -4, 4, {0}, View::kContiguous},       {ACL_INT64, -6, 21, {10}, View::kContiguous}};
  const std::vector<aclDataType> outs = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_DOUBLE,
                                         ACL_UINT8,   ACL_INT8, ACL_INT16, ACL_INT32};
  for (aclDataType dtype : outs) {
    for (const Case& c : cases) {
      const bool is_unsigned = dtype == ACL_UINT8;
      const double lo = is_unsigned ? std::fabs(c.start) : c.start;  // u8 outs take non-negative values
      const double hi = is_unsigned ? std::fabs(c.end) : c.end;
      DeviceTensor out(dtype, c.shape, c.view);
      const int64_t steps = NumElements(c.shape);
      out.WriteView(Values(static_cast<size_t>(steps), 99.0));
      const std::vector<uint8_t> before = out.DownloadBytes();
      const OpRun run = Linspace(c.scalar, lo, hi, steps, out);
      const std::string what = std::string("Linspace ") + Name(c.scalar) + " -> " + Name(dtype);
      ASSERT_TRUE(run.ok()) << Describe(run) << " " << what;
      const Values got = out.ReadView();
      const double step = steps > 1 ? (hi - lo) / static_cast<double>(steps - 1) : 0.0;
      const bool integral = dtype == ACL_UINT8 || dtype == ACL_INT8 || dtype == ACL_INT16 || dtype == ACL_INT32;
      const double relative = dtype == ACL_DOUBLE ? 1e-14 : dtype == ACL_FLOAT ? 1e-6 : 1e-2;
      for (int64_t i = 0; i < steps; ++i) {
        double want = steps == 1      ? lo
                      : i < steps / 2 ? lo + static_cast<double>(i) * step
                                      : hi - static_cast<double>(steps - 1 - i) * step;
        if (integral) want = std::trunc(want);
        const double tolerance = integral ? 0.0 : relative * std::max(1.0, std::fabs(want));
        EXPECT_NEAR(got[static_cast<size_t>(i)].real(), want, tolerance) << what << " element " << i;
      }
      ExpectOutsideViewUnchanged(out, before, what + " storage");
    }
  }
}

TEST(Linspace, Rejections) {
  DeviceTensor f32(ACL_FLOAT, {4});
  ExpectInvalid(Linspace(ACL_COMPLEX64, 0, 1, 4, f32), "'start'");
  ExpectInvalid(Linspace(ACL_FLOAT, 0, 1, 5, f32), "'out'");
  DeviceTensor empty(ACL_FLOAT, {0});
  ExpectInvalid(Linspace(ACL_FLOAT, 0, 1, -1, empty), "'steps'");
  DeviceTensor s64(ACL_INT64, {4});
  ExpectInvalid(Linspace(ACL_FLOAT, 0, 1, 4, s64), "'out'");
  DeviceTensor c64(ACL_COMPLEX64, {4});
  ExpectInvalid(Linspace(ACL_FLOAT, 0, 1, 4, c64), "'out'");
}

OpRun GatherNd(aclDataType dtype, const Shape& self, aclDataType index_dtype, const Shape& indices,
               aclDataType out_dtype, const Shape& out) {
  return RunOp(
      [=](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGatherNdGetWorkspaceSize(a.NewTensor(dtype, self), a.NewTensor(index_dtype, indices), true,
                                             a.NewTensor(out_dtype, out), w, e);
      },
      aclnnGatherNd);
}

TEST(GatherNd, Rejections) {
  ExpectInvalid(GatherNd(ACL_FLOAT, {4, 5}, ACL_INT64, {3, 1}, ACL_FLOAT16, {3, 5}), "'out'");
  ExpectInvalid(GatherNd(ACL_DOUBLE, {4, 5}, ACL_INT64, {3, 1}, ACL_DOUBLE, {3, 5}), "'self'");
  ExpectInvalid(GatherNd(ACL_FLOAT, {4, 5}, ACL_INT16, {3, 1}, ACL_FLOAT, {3, 5}), "'indices'");
  ExpectInvalid(GatherNd(ACL_FLOAT, {}, ACL_INT64, {3, 1}, ACL_FLOAT, {3}), "'self'");
  ExpectInvalid(GatherNd(ACL_FLOAT, {4, 5}, ACL_INT64, {}, ACL_FLOAT, {4, 5}), "'indices'");
  ExpectInvalid(GatherNd(ACL_FLOAT, {4, 5}, ACL_INT64, {3, 0}, ACL_FLOAT, {3, 4, 5}), "'indices'");
  ExpectInvalid(GatherNd(ACL_FLOAT, {4, 5}, ACL_INT64, {3, 3}, ACL_FLOAT, {3}), "'indices'");
  ExpectInvalid(GatherNd(ACL_FLOAT, {4, 5}, ACL_INT64, {3, 1}, ACL_FLOAT, {3, 4}), "'out'");
}

// CANN returns before its kernel when self is empty: any index values, out keeps its bytes.
TEST(GatherNd, EmptySelfLeavesOutAsItWas) {
  DeviceTensor self(ACL_FLOAT, {0, 3}), out(ACL_FLOAT, {2, 3});
  const auto indices = Upload(ACL_INT64, {2, 1}, {Value(0), Value(5)});
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGatherNdGetWorkspaceSize(a.Tensor(self), a.Tensor(*indices), false, a.Tensor(out), ws, ex);
      },
      aclnnGatherNd);
  EXPECT_EQ(out.DownloadBytes(), poisoned);
}

// The document's four examples, negativeIndexSupport true and false.
TEST(GatherNd, DocumentExamples) {
  struct Example {
    Shape self, indices;
    std::vector<int64_t> index;
    Values want;
  };
  const std::vector<Example> examples = {{{2, 2}, {2, 2}, {0, 0, 1, 1}, {0, 3}},
                                         {{2, 2}, {2, 1}, {1, 0}, {2, 3, 0, 1}},
                                         {{2, 2, 2}, {2, 2}, {0, 1, 1, 0}, {2, 3, 4, 5}},
                                         {{2, 2, 2}, {2, 1, 2}, {0, 1, 1, 0}, {2, 3, 4, 5}}};
  for (const Example& x : examples) {
    DeviceTensor self(ACL_FLOAT, x.self);
    Values v;
    for (int64_t i = 0; i < NumElements(x.self); ++i) v.push_back(static_cast<double>(i));
    self.WriteView(v);
    DeviceTensor indices(ACL_INT64, x.indices);
    indices.WriteView(Values(x.index.begin(), x.index.end()));
    DeviceTensor out(ACL_FLOAT, NdResultShape(x.self, x.indices));
    for (bool negatives : {true, false}) {
      const OpRun run = RunOp(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnGatherNdGetWorkspaceSize(a.Tensor(self), a.Tensor(indices), negatives, a.Tensor(out), w, e);
          },
          aclnnGatherNd);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectExact(out.ReadView(), x.want, "GatherNd example");
    }
  }
}

// Without negativeIndexSupport a negative coordinate is out of range: the stream fails, naming the column.
TEST(GatherNd, NegativeWithoutSupportFails) {
  DeviceTensor self(ACL_FLOAT, {3, 4});
  self.WriteView(Values(12, 1.0));
  DeviceTensor indices(ACL_INT32, {2, 2});
  indices.WriteView({0, 1, 2, -1});
  DeviceTensor out(ACL_FLOAT, {2});
  out.WriteView({7, 7});
  for (bool negatives : {true, false}) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnGatherNdGetWorkspaceSize(a.Tensor(self), a.Tensor(indices), negatives, a.Tensor(out), w, e);
        },
        aclnnGatherNd);
    ASSERT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    if (negatives) {
      EXPECT_TRUE(run.ok()) << Describe(run);
      continue;
    }
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find("indices column[1]"), std::string::npos) << run.message;
  }
}

OpRun ScatterNd(aclDataType dtype, const Shape& data, aclDataType index_dtype, const Shape& indices,
                aclDataType updates_dtype, const Shape& updates, aclDataType out_dtype, const Shape& out) {
  return RunOp(
      [=](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnScatterNdGetWorkspaceSize(a.NewTensor(dtype, data), a.NewTensor(index_dtype, indices),
                                              a.NewTensor(updates_dtype, updates), a.NewTensor(out_dtype, out), w, e);
      },
      aclnnScatterNd);
}

TEST(ScatterNd, Rejections) {
  const aclDataType f = ACL_FLOAT, s = ACL_INT64;
  ExpectInvalid(ScatterNd(ACL_INT32, {8}, s, {4, 1}, ACL_INT32, {4}, ACL_INT32, {8}), "'data'");
  ExpectInvalid(ScatterNd(f, {8}, ACL_UINT8, {4, 1}, f, {4}, f, {8}), "'indices'");
  ExpectInvalid(ScatterNd(f, {8}, s, {4, 1}, ACL_FLOAT16, {4}, f, {8}), "'updates'");
  ExpectInvalid(ScatterNd(f, {8}, s, {4, 1}, f, {4}, ACL_FLOAT16, {8}), "'out'");
  ExpectInvalid(ScatterNd(f, {}, s, {1, 1}, f, {1}, f, {}), "'data'");
  ExpectInvalid(ScatterNd(f, {8}, s, {}, f, {4}, f, {8}), "'indices'");
  ExpectInvalid(ScatterNd(f, {2, 2}, s, {2}, f, {}, f, {2, 2}), "'updates'");
  ExpectInvalid(ScatterNd(f, {8}, s, {4, 1}, f, {4}, f, {9}), "'out'");
  ExpectInvalid(ScatterNd(f, {8}, s, {4, 2}, f, {4}, f, {8}), "'indices'");
  ExpectInvalid(ScatterNd(f, {4, 5}, s, {3, 1}, f, {3, 4}, f, {4, 5}), "'updates'");
  ExpectInvalid(ScatterNd(f, {4, 5}, s, {3, 1}, f, {3, 5, 1}, f, {4, 5}), "'updates'");
}

// The document's example: data 1..8, updates 9..12 at 4, 3, 1, 7.
TEST(ScatterNd, DocumentExample) {
  DeviceTensor data(ACL_FLOAT, {8});
  data.WriteView({1, 2, 3, 4, 5, 6, 7, 8});
  DeviceTensor indices(ACL_INT32, {4, 1});
  indices.WriteView({4, 3, 1, 7});
  DeviceTensor updates(ACL_FLOAT, {4});
  updates.WriteView({9, 10, 11, 12});
  DeviceTensor out(ACL_FLOAT, {8});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnScatterNdGetWorkspaceSize(a.Tensor(data), a.Tensor(indices), a.Tensor(updates), a.Tensor(out), w,
                                              e);
      },
      aclnnScatterNd);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {1, 11, 3, 10, 9, 6, 7, 12}, "ScatterNd example");
}

// An out-of-range coordinate fails the stream with 507015 and a message naming the column; out keeps its values.
TEST(ScatterNd, OutOfRangeLeavesOutUntouched) {
  DeviceTensor data(ACL_FLOAT, {4, 3});
  data.WriteView(Values(12, 1.0));
  DeviceTensor indices(ACL_INT64, {2, 2});
  indices.WriteView({0, 1, 2, 3});
  DeviceTensor updates(ACL_FLOAT, {2});
  updates.WriteView({5, 6});
  DeviceTensor out(ACL_FLOAT, {4, 3});
  out.WriteView(Values(12, 7.0));
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnScatterNdGetWorkspaceSize(a.Tensor(data), a.Tensor(indices), a.Tensor(updates), a.Tensor(out), w,
                                              e);
      },
      aclnnScatterNd);
  ASSERT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("indices column[1]"), std::string::npos) << run.message;
  ExpectExact(out.ReadView(), Values(12, 7.0), "out after a failed check");
}

}  // namespace
}  // namespace canopy_test
