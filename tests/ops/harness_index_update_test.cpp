// The in-place index updates on the advanced-indexing block: ScatterNdUpdate,
// TfScatterAdd (both of its forms) and InplacePut; ScatterReduce (A2: the sum
// form) and GatherV3 on the scatter and gather blocks; against plain references,
// every A2 dtype, int32 and int64 indices, duplicates (the last update wins,
// or all add up), every view of varRef (a view that is not one flat vector is
// staged), empty positions and blocks, indices out of range or negative (a
// stream error, varRef unchanged; ScatterNdUpdate instead writes or skips each
// row by its row number, as CANN's A2 kernel does), and each rejection with
// its status code.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_gather_v3.h"
#include "aclnnop/aclnn_put.h"
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_scatter_reduce.h"
#include "aclnnop/aclnn_scatter_update.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// How many leading dimensions of var the coordinates address: indices' last
// extent when updates fit indices.shape[:-1] + var.shape[K:], else 1
// (tf.scatter_add: every element of indices is a row of var).
int64_t AddressedDims(const Shape& var, const Shape& indices, const Shape& updates) {
  const int64_t k = indices.back();
  if (k <= static_cast<int64_t>(var.size())) {
    Shape nd(indices.begin(), indices.end() - 1);
    nd.insert(nd.end(), var.begin() + k, var.end());
    if (nd == updates) return k;
  }
  return 0;  // the dim-0 form
}

// Coordinates in range for every addressed dimension; out of range and -1 as stream errors.
Arg CoordinatesArg() {
  const auto extents = [](const CaseInfo& c, bool largest) {
    const Shape& var = c.shapes[0];
    const int64_t k = AddressedDims(var, c.shapes[1], c.shapes[2]);
    int64_t extent = var[0];
    for (int64_t d = 1; d < k; ++d) extent = largest ? std::max(extent, var[d]) : std::min(extent, var[d]);
    return static_cast<double>(extent);
  };
  return Arg{.name = "indices",
             .range = RangeRule([extents](aclDataType, const CaseInfo& c) {
               return Range{0, extents(c, false) - 1, 0, 0, /*allowAllZero=*/true};
             }),
             .dtypes = {ACL_INT32, ACL_INT64},
             .invalidValues = [extents](const CaseInfo& c) {
               return std::vector<Value>{extents(c, true), -1.0};
             }};
}

// ScatterNdUpdate's coordinates: CANN's A2 kernel writes the row a position's
// row number names (coordinate x row stride, summed) when it lies inside
// var's addressed rows and skips it otherwise, so values a little outside
// every dimension's range (negative ones too) are valid input, not errors.
Arg RowNumberCoordinatesArg() {
  return Arg{.name = "indices",
             .range = RangeRule([](aclDataType, const CaseInfo& c) {
               const Shape& var = c.shapes[0];
               const int64_t k = AddressedDims(var, c.shapes[1], c.shapes[2]);
               int64_t largest = var[0];
               for (int64_t d = 1; d < k; ++d) largest = std::max(largest, var[d]);
               return Range{-2, static_cast<double>(largest + 1), 0, 0, /*allowAllZero=*/true};
             }),
             .dtypes = {ACL_INT32, ACL_INT64}};
}

// target + update as the device adds them: integers wrap.
Value Add(Value target, Value update, aclDataType dtype) {
  if (!IsIntegral(dtype)) return target + update;
  return Wrapped(static_cast<int64_t>(target.real() + update.real()), dtype);
}

// var with updates written to (or added at) the blocks indices address, in
// indices' row-major order; with `by_row_number`, a position whose row number
// falls outside var's addressed rows is skipped (ScatterNdUpdate on CANN's A2 kernel).
Expected ScatterReference(const RefCall& call, bool accumulate, bool by_row_number = false) {
  const Operand& var = call.inputs[0];
  const Operand& indices = call.inputs[1];
  const Operand& updates = call.inputs[2];
  const int64_t k = AddressedDims(var.shape, indices.shape, updates.shape);
  const int64_t columns = k == 0 ? 1 : k;  // the dim-0 form: one coordinate per element
  int64_t block = 1;
  for (size_t d = static_cast<size_t>(columns); d < var.shape.size(); ++d) block *= var.shape[d];
  Expected e{var.values, {}};
  const int64_t positions = static_cast<int64_t>(indices.values.size()) / columns;
  for (int64_t b = 0; b < positions; ++b) {
    int64_t start = 0;
    int64_t rows = 1;
    for (int64_t j = 0; j < columns; ++j) {
      start = start * var.shape[j] + static_cast<int64_t>(indices.values[static_cast<size_t>(b * columns + j)].real());
      rows *= var.shape[j];
    }
    if (by_row_number && (start < 0 || start >= rows)) continue;
    for (int64_t i = 0; i < block; ++i) {
      Value& target = e.values[static_cast<size_t>(start * block + i)];
      const Value& update = updates.values[static_cast<size_t>(b * block + i)];
      target = accumulate ? Add(target, update, var.dtype) : update;
    }
  }
  return e;
}

// Sums of a few duplicates: each addition rounds in the dtype.
Tolerance AccumulatedTolerance() { return Tolerance{.ulps = 8, .minMagnitude = 32}; }

OpRow ScatterNdUpdateRow() {
  OpRow row;
  row.name = "ScatterNdUpdate";
  row.inputs = {Arg{.name = "varRef", .range = Range{-8, 8}}, RowNumberCoordinatesArg(),
                Arg{.name = "updates", .range = Range{-8, 8}}};
  row.inplace = {[](Call& c) {
                   return aclnnScatterNdUpdateGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.workspaceSize,
                                                               c.executor);
                 },
                 aclnnScatterNdUpdate};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_INT16, ACL_BF16, ACL_INT64, ACL_INT8, ACL_INT32});
  // Few rows and many positions: duplicates are certain, and the last update must win.
  row.shapes = {{"typical", {{6, 5}, {8, 1}, {8, 5}}, true},
                {"large", {{50, 130}, {60, 1}, {60, 130}}, true},
                {"points", {{4, 5}, {3, 2}, {3}}},
                {"rank3", {{3, 4, 5}, {2, 2, 2}, {2, 2, 5}}},
                {"empty_positions", {{4, 5}, {0, 1}, {0, 5}}},
                {"empty_block", {{4, 0}, {3, 1}, {3, 0}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    return ScatterReference(call, /*accumulate=*/false, /*by_row_number=*/true);
  };
  return row;
}

OpRow TfScatterAddRow() {
  OpRow row;
  row.name = "TfScatterAdd";
  row.inputs = {Arg{.name = "varRef", .range = Range{-8, 8}}, CoordinatesArg(),
                Arg{.name = "updates", .range = Range{-8, 8}}};
  row.inplace = {[](Call& c) {
                   return aclnnTfScatterAddGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.workspaceSize,
                                                            c.executor);
                 },
                 aclnnTfScatterAdd};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8});
  row.shapes = {{"typical", {{6, 5}, {8, 1}, {8, 5}}, true},
                {"large", {{50, 130}, {60, 1}, {60, 130}}, true},
                {"points", {{4, 5}, {3, 2}, {3}}},
                {"rank3", {{3, 4, 5}, {2, 2, 2}, {2, 2, 5}}},
                {"dim0_form", {{6, 5}, {2, 3}, {2, 3, 5}}},
                {"dim0_form_vector", {{6, 5}, {7}, {7, 5}}},
                {"empty_positions", {{4, 5}, {0, 1}, {0, 5}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) { return ScatterReference(call, /*accumulate=*/true); };
  row.tolerance = AccumulatedTolerance();
  return row;
}

OpRow InplacePutRow() {
  OpRow row;
  row.name = "InplacePut";
  row.inputs = {Arg{.name = "selfRef", .range = Range{-8, 8}},
                Arg{.name = "index",
                    .range = RangeRule([](aclDataType, const CaseInfo& c) {
                      return Range{0, static_cast<double>(NumElements(c.shapes[0]) - 1), 0, 0, true};
                    }),
                    .dtypes = {ACL_INT32, ACL_INT64},
                    .invalidValues =
                        [](const CaseInfo& c) {
                          return std::vector<Value>{static_cast<double>(NumElements(c.shapes[0])), -1.0};
                        }},
                Arg{.name = "source", .range = Range{-8, 8}}};
  row.inplace = {[](Call& c) {
                   return aclnnInplacePutGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2),
                                                          c.BoolAttr("accumulate"), c.workspaceSize, c.executor);
                 },
                 aclnnInplacePut};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_DOUBLE,
                          ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL, ACL_BF16});
  row.shapes = {{"typical", {{4, 5}, {9}, {9}}, true},
                {"large", {{40, 70}, {300}, {300}}, true},
                {"index_2d", {{3, 4}, {2, 3}, {6}}},
                {"empty_index", {{3, 4}, {0}, {0}}}};
  // CANN's code takes BF16 only without accumulate; bool sums are not sums.
  row.attrs = {{"put", {{"accumulate", false}}}, {"accumulate", {{"accumulate", true}}, [](const DtypeCase& d) {
                                                    return d.inputs[0] != ACL_BF16 && d.inputs[0] != ACL_BOOL;
                                                  }}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const Operand& index = call.inputs[1];
    const Operand& source = call.inputs[2];
    const bool accumulate = call.attrs.Bool("accumulate");
    Expected e{self.values, {}};
    for (size_t i = 0; i < index.values.size(); ++i) {
      Value& target = e.values[static_cast<size_t>(index.values[i].real())];
      target = accumulate ? Add(target, source.values[i], self.dtype) : source.values[i];
    }
    return e;
  };
  row.tolerance = AccumulatedTolerance();
  return row;
}

// Row-major offset of `position` (coordinates of `shape`) in a tensor of `target` shape.
int64_t OffsetIn(const Shape& target, const Shape& position) {
  int64_t offset = 0;
  for (size_t d = 0; d < target.size(); ++d) offset = offset * target[d] + position[d];
  return offset;
}

// Calls visit(k, position) for every row-major position of `shape`.
template <typename Visit>
void ForEachPosition(const Shape& shape, Visit&& visit) {
  Shape position(shape.size(), 0);
  for (int64_t k = 0, n = NumElements(shape); k < n; ++k) {
    visit(k, position);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++position[d] < shape[d]) break;
      position[d] = 0;
    }
  }
}

OpRow ScatterReduceRow() {
  OpRow row;
  row.name = "ScatterReduce";
  row.inputs = {Arg{.name = "self", .range = Range{-8, 8}},
                Arg{.name = "index",
                    .range = RangeRule([](aclDataType, const CaseInfo& c) {
                      const auto dim = static_cast<size_t>(c.attrs.Int("dim"));
                      return Range{0, static_cast<double>(c.shapes[0][dim] - 1), 0, 0, true};
                    }),
                    .dtypes = {ACL_INT32, ACL_INT64},
                    .views = {View::kContiguous, View::kTransposed},
                    .invalidValues =
                        [](const CaseInfo& c) {
                          const auto dim = static_cast<size_t>(c.attrs.Int("dim"));
                          return std::vector<Value>{static_cast<double>(c.shapes[0][dim]), -1.0};
                        }},
                Arg{.name = "src", .range = Range{-8, 8}}};
  row.out = {[](Call& c) {
               return aclnnScatterReduceGetWorkspaceSize(c.Tensor(0), c.IntAttr("dim"), c.Tensor(1), c.Tensor(2), 1,
                                                         true, c.Out(), c.workspaceSize, c.executor);
             },
             aclnnScatterReduce};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceScatterReduceGetWorkspaceSize(c.Tensor(0), c.IntAttr("dim"), c.Tensor(1),
                                                                    c.Tensor(2), 1, true, c.workspaceSize, c.executor);
                 },
                 aclnnInplaceScatterReduce};
  row.dtypes = EachDtype({ACL_FLOAT});
  // index fits src everywhere and self outside dim; positions repeat, so sums gather several.
  row.shapes = {{"typical", {{4, 5}, {6, 3}, {6, 5}}, true},
                {"large", {{40, 70}, {60, 50}, {60, 70}}, true},
                {"rank3", {{3, 4, 5}, {3, 2, 5}, {3, 4, 5}}},
                {"empty_index", {{3, 4}, {0, 4}, {2, 4}}}};
  row.attrs = {{"dim0", {{"dim", int64_t{0}}}}, {"dim1", {{"dim", int64_t{1}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& attrs) -> std::optional<Shape> {
    const auto dim = static_cast<size_t>(attrs.Int("dim"));
    for (size_t d = 0; d < in[1].size(); ++d) {
      if (in[1][d] > in[2][d] || (d != dim && in[1][d] > in[0][d] && NumElements(in[1]) > 0)) return std::nullopt;
    }
    return in[0];
  };
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const Operand& index = call.inputs[1];
    const Operand& src = call.inputs[2];
    const auto dim = static_cast<size_t>(call.attrs.Int("dim"));
    Expected e{self.values, {}};
    ForEachPosition(index.shape, [&](int64_t k, const Shape& position) {
      Shape target = position;
      target[dim] = static_cast<int64_t>(index.values[static_cast<size_t>(k)].real());
      e.values[static_cast<size_t>(OffsetIn(self.shape, target))] +=
          src.values[static_cast<size_t>(OffsetIn(src.shape, position))];
    });
    return e;
  };
  row.tolerance = AccumulatedTolerance();
  return row;
}

OpRow GatherV3Row() {
  OpRow row;
  row.name = "GatherV3";
  row.inputs = {Arg{.name = "self", .range = Range{-8, 8}},
                Arg{.name = "index",
                    .range = RangeRule([](aclDataType, const CaseInfo& c) {
                      const double rows = c.shapes[0].empty() ? 1.0 : static_cast<double>(c.shapes[0][0]);
                      return Range{0, rows - 1, 0, 0, true};
                    }),
                    .dtypes = {ACL_INT32, ACL_INT64},
                    .invalidValues = [](const CaseInfo& c) {
                      const double rows = c.shapes[0].empty() ? 1.0 : static_cast<double>(c.shapes[0][0]);
                      return std::vector<Value>{rows, -1.0};
                    }}};
  row.out = {[](Call& c) {
               return aclnnGatherV3GetWorkspaceSize(c.Tensor(0), 0, c.Tensor(1), 0, 1, c.Out(), c.workspaceSize,
                                                    c.executor);
             },
             aclnnGatherV3};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_BOOL,
                          ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16});
  row.shapes = {{"typical", {{6, 5}, {4}}, true}, {"large", {{50, 130}, {70}}, true}, {"index_2d", {{5, 3, 2}, {2, 3}}},
                {"index_rank0", {{5, 3}, {}}},    {"empty_index", {{5, 3}, {0}}},     {"self_rank0", {{}, {}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) -> std::optional<Shape> {
    if (in[0].empty()) return in[1].empty() ? std::optional<Shape>(Shape{}) : std::nullopt;
    Shape out = in[1];
    out.insert(out.end(), in[0].begin() + 1, in[0].end());
    return out;
  };
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const Operand& index = call.inputs[1];
    const int64_t block = self.shape.empty() ? 1 : NumElements(self.shape) / self.shape[0];
    Expected e;
    for (const Value& i : index.values) {
      const auto row = static_cast<int64_t>(i.real());
      for (int64_t k = 0; k < block; ++k) e.values.push_back(self.values[static_cast<size_t>(row * block + k)]);
    }
    return e;
  };
  return row;
}

std::vector<OpRow> IndexUpdateRows() {
  return {ScatterNdUpdateRow(), TfScatterAddRow(), InplacePutRow(), ScatterReduceRow(), GatherV3Row()};
}
CANOPY_HARNESS_ROWS(IndexUpdateRows);

// ---- Rejections ----------------------------------------------------------------------------------

struct Rejection {
  std::string name;
  aclDataType var, indices, updates;
  Shape varShape, indicesShape, updatesShape;
  aclnnStatus status;
};

// One call of `phase1` on fresh tensors of these dtypes and shapes.
template <typename Phase1Fn>
OpRun RunScatter(const Rejection& r, Phase1Fn phase1, Phase2 phase2) {
  DeviceTensor var(r.var, r.varShape), indices(r.indices, r.indicesShape), updates(r.updates, r.updatesShape);
  return RunOp([&](OpArgs& a, uint64_t* w,
                   aclOpExecutor** e) { return phase1(a.Tensor(var), a.Tensor(indices), a.Tensor(updates), w, e); },
               phase2);
}

TEST(ScatterNdUpdate, Rejections) {
  const std::vector<Rejection> cases = {
      {"uint8_var", ACL_UINT8, ACL_INT64, ACL_UINT8, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"double_var", ACL_DOUBLE, ACL_INT64, ACL_DOUBLE, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"float_indices", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"updates_dtype", ACL_FLOAT, ACL_INT64, ACL_FLOAT16, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"updates_shape", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {4, 3}, {2, 1}, {2, 4}, ACLNN_ERR_PARAM_INVALID},
      {"too_many_columns", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {4, 3}, {2, 3}, {2}, ACLNN_ERR_PARAM_INVALID},
      // CANN does nothing with an empty argument, whatever the shapes.
      {"empty_updates_any_shape", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {4, 3}, {2, 1}, {0, 7}, ACLNN_SUCCESS},
  };
  for (const Rejection& r : cases) {
    const OpRun run = RunScatter(r, aclnnScatterNdUpdateGetWorkspaceSize, aclnnScatterNdUpdate);
    EXPECT_EQ(run.phase1, r.status) << r.name << ": " << Describe(run);
  }
}

// The case of CANN's own example program, one row number at a time: a
// position whose coordinates leave their dimensions but whose row number
// (coordinate x row stride, summed) lands inside var writes that row; one
// whose number falls outside, negative included, is skipped with no error.
TEST(ScatterNdUpdate, RowNumbersAsCannsKernel) {
  DeviceTensor var(ACL_FLOAT, {3, 4, 2}), indices(ACL_INT64, {5, 2}), updates(ACL_FLOAT, {5, 2});
  Values before(24);
  for (size_t i = 0; i < before.size(); ++i) before[i] = static_cast<double>(i) + 0.5;
  var.WriteView(before);
  // Row numbers over var's 3 x 4 rows: 6 (coordinate 6 > 3), 20 (skipped), -2 (skipped), 9, 11.
  indices.WriteView({0, 6, 5, 0, -1, 2, 2, 1, 3, -1});
  updates.WriteView({-1, -2, -3, -4, -5, -6, -7, -8, -9, -10});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnScatterNdUpdateGetWorkspaceSize(a.Tensor(var), a.Tensor(indices), a.Tensor(updates), w, e);
      },
      aclnnScatterNdUpdate);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values expected = before;
  expected[12] = -1;  // row 6
  expected[13] = -2;
  expected[18] = -7;  // row 9
  expected[19] = -8;
  expected[22] = -9;  // row 11: 3 x 4 - 1
  expected[23] = -10;
  EXPECT_EQ(var.ReadView(), expected);
}

TEST(TfScatterAdd, Rejections) {
  const std::vector<Rejection> cases = {
      {"int64_var", ACL_INT64, ACL_INT64, ACL_INT64, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"bool_var", ACL_BOOL, ACL_INT64, ACL_BOOL, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"int16_indices", ACL_FLOAT, ACL_INT16, ACL_FLOAT, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"updates_dtype", ACL_INT32, ACL_INT64, ACL_INT8, {4, 3}, {2, 1}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"neither_form", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {4, 3}, {2, 1}, {3, 3}, ACLNN_ERR_PARAM_INVALID},
      {"empty_var_rows", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {0, 3}, {2}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"empty_everything", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {0, 3}, {0}, {0, 3}, ACLNN_SUCCESS},
  };
  for (const Rejection& r : cases) {
    const OpRun run = RunScatter(r, aclnnTfScatterAddGetWorkspaceSize, aclnnTfScatterAdd);
    EXPECT_EQ(run.phase1, r.status) << r.name << ": " << Describe(run);
  }
}

TEST(InplacePut, Rejections) {
  struct PutCase {
    std::string name;
    aclDataType self, index, source;
    Shape selfShape, indexShape, sourceShape;
    bool accumulate;
    aclnnStatus status;
  };
  const std::vector<PutCase> cases = {
      {"bf16_accumulate", ACL_BF16, ACL_INT64, ACL_BF16, {4}, {2}, {2}, true, ACLNN_ERR_PARAM_INVALID},
      {"uint16_self", ACL_UINT16, ACL_INT64, ACL_UINT16, {4}, {2}, {2}, false, ACLNN_ERR_PARAM_INVALID},
      {"float_index", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {4}, {2}, {2}, false, ACLNN_ERR_PARAM_INVALID},
      {"source_dtype", ACL_FLOAT, ACL_INT64, ACL_INT32, {4}, {2}, {2}, false, ACLNN_ERR_PARAM_INVALID},
      {"counts_differ", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {4}, {2}, {3}, false, ACLNN_ERR_PARAM_INVALID},
      {"empty_self", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {0}, {2}, {2}, false, ACLNN_ERR_PARAM_INVALID},
      {"empty_index", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {0}, {0}, {0}, false, ACLNN_SUCCESS},
  };
  for (const PutCase& r : cases) {
    DeviceTensor self(r.self, r.selfShape), index(r.index, r.indexShape), source(r.source, r.sourceShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnInplacePutGetWorkspaceSize(a.Tensor(self), a.Tensor(index), a.Tensor(source), r.accumulate, w, e);
        },
        aclnnInplacePut);
    EXPECT_EQ(run.phase1, r.status) << r.name << ": " << Describe(run);
  }
}

TEST(ScatterReduce, Rejections) {
  // CANN's Atlas A2 path: FLOAT self, reduce 1 (sum) and includeSelf only.
  struct Case {
    std::string name;
    aclDataType dtype;
    int64_t reduce;
    bool includeSelf;
  };
  for (const Case& c : std::vector<Case>{{"float16", ACL_FLOAT16, 1, true},
                                         {"reduce_none", ACL_FLOAT, 0, true},
                                         {"reduce_mean", ACL_FLOAT, 5, true},
                                         {"reduce_out_of_range", ACL_FLOAT, 9, true},
                                         {"without_self", ACL_FLOAT, 1, false}}) {
    DeviceTensor self(c.dtype, {2, 3}), index(ACL_INT64, {2, 3}), src(c.dtype, {2, 3}), out(c.dtype, {2, 3});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnScatterReduceGetWorkspaceSize(a.Tensor(self), 1, a.Tensor(index), a.Tensor(src), c.reduce,
                                                    c.includeSelf, a.Tensor(out), w, e);
        },
        aclnnScatterReduce);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
  }
}

TEST(GatherV3, Rejections) {
  struct Case {
    std::string name;
    int64_t dim, batchDims, mode;
    aclDataType self, out;
    Shape outShape;
  };
  for (const Case& c : std::vector<Case>{{"dim1", 1, 0, 1, ACL_FLOAT, ACL_FLOAT, {2, 2, 2}},
                                         {"dim_minus2", -2, 0, 1, ACL_FLOAT, ACL_FLOAT, {2, 2, 2}},
                                         {"batch_dims", 0, 1, 1, ACL_FLOAT, ACL_FLOAT, {2, 2, 2}},
                                         {"mode0", 0, 0, 0, ACL_FLOAT, ACL_FLOAT, {2, 2, 2}},
                                         {"dim_out_of_range", 2, 0, 1, ACL_FLOAT, ACL_FLOAT, {2, 2, 2}},
                                         {"uint16", 0, 0, 1, ACL_UINT16, ACL_UINT16, {2, 2, 2}},
                                         {"out_dtype", 0, 0, 1, ACL_FLOAT, ACL_FLOAT16, {2, 2, 2}},
                                         {"out_shape", 0, 0, 1, ACL_FLOAT, ACL_FLOAT, {2, 2}}}) {
    DeviceTensor self(c.self, {2, 2}), index(ACL_INT64, {2, 2}), out(c.out, c.outShape);
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnGatherV3GetWorkspaceSize(a.Tensor(self), c.dim, a.Tensor(index), c.batchDims, c.mode,
                                               a.Tensor(out), w, e);
        },
        aclnnGatherV3);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(run);
  }
}

// ---- InplaceScatterUpdate ------------------------------------------------------------------------

struct SlabCase {
  std::string name;
  aclDataType dtype;
  Shape data, updates, indices;  // indices: [n] offsets, [n, 2] (batch, offset) pairs, or [] one offset
  int64_t axis;
  View dataView = View::kContiguous;
};

OpRun RunScatterUpdate(const DeviceTensor& data, const DeviceTensor& indices, const DeviceTensor& updates,
                       int64_t axis) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceScatterUpdateGetWorkspaceSize(a.Tensor(data), a.Tensor(indices), a.Tensor(updates), axis, w,
                                                         e);
      },
      aclnnInplaceScatterUpdate);
}

TEST(InplaceScatterUpdate, MatchesReference) {
  std::vector<SlabCase> cases;
  for (aclDataType d : {ACL_INT8, ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32}) {
    cases.push_back({std::string("offsets_") + Name(d), d, {3, 2, 6, 4}, {3, 2, 2, 4}, {3}, -2});
  }
  cases.push_back({"last_axis", ACL_FLOAT, {2, 3, 8}, {2, 3, 3}, {2}, -1});
  cases.push_back({"pairs", ACL_FLOAT16, {4, 2, 6, 4}, {3, 2, 1, 4}, {3, 2}, 2});
  cases.push_back({"one_offset", ACL_FLOAT, {2, 5, 3}, {1, 2, 3}, {}, 1});
  cases.push_back({"strided_data", ACL_FLOAT, {3, 6, 4}, {3, 2, 4}, {3}, 1, View::kStepped});
  for (const SlabCase& c : cases) {
    SCOPED_TRACE(c.name);
    Rng rng = Rng::ForCurrentTest();
    DeviceTensor data(c.dtype, c.data, c.dataView), updates(c.dtype, c.updates), indices(ACL_INT64, c.indices);
    const Values before = data.FillRandom(rng, Range{-8, 8});
    const Values slabs = updates.FillRandom(rng, Range{-8, 8});
    const auto rank = static_cast<int64_t>(c.data.size());
    const int64_t axis = c.axis < 0 ? c.axis + rank : c.axis;
    const int64_t rows = c.updates[0];
    const int64_t length = c.updates[static_cast<size_t>(axis)];
    std::vector<int64_t> batch, offset;
    Values encoded;
    for (int64_t i = 0; i < rows; ++i) {
      batch.push_back(c.indices.size() == 2 ? static_cast<int64_t>(rng.Uniform(0, static_cast<double>(c.data[0])))
                                            : (c.indices.empty() ? 0 : i));
      offset.push_back(static_cast<int64_t>(rng.Uniform(0, static_cast<double>(c.data[axis] - length + 1))));
      if (c.indices.size() == 2) encoded.push_back(static_cast<double>(batch.back()));
      encoded.push_back(static_cast<double>(offset.back()));
    }
    indices.WriteView(encoded);
    ASSERT_TRUE(RunScatterUpdate(data, indices, updates, c.axis).ok());
    Values want = before;
    ForEachPosition(c.updates, [&](int64_t k, const Shape& position) {
      Shape target = position;
      const auto i = static_cast<size_t>(position[0]);
      target[0] = batch[i];
      target[static_cast<size_t>(axis)] += offset[i];
      want[static_cast<size_t>(OffsetIn(c.data, target))] = slabs[static_cast<size_t>(k)];
    });
    ExpectExact(data.ReadView(), want, "data");
  }
}

TEST(InplaceScatterUpdate, OutOfRangeOffsetsFailTheRunAndLeaveData) {
  for (double bad : {-1.0, 5.0}) {
    DeviceTensor data(ACL_FLOAT, {2, 6, 3}), updates(ACL_FLOAT, {2, 2, 3}), indices(ACL_INT32, {2});
    Rng rng = Rng::ForCurrentTest();
    const Values before = data.FillRandom(rng, Range{-8, 8});
    updates.FillRandom(rng, Range{-8, 8});
    indices.WriteView({1, bad});  // 5 + 2 > 6
    const OpRun run = RunScatterUpdate(data, indices, updates, 1);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
    EXPECT_NE(run.sync, ACL_SUCCESS);
    ExpectExact(data.ReadView(), before, "nothing written");
  }
}

TEST(InplaceScatterUpdate, Rejections) {
  struct Case {
    std::string name;
    aclDataType data, indices, updates;
    Shape dataShape, indicesShape, updatesShape;
    int64_t axis;
  };
  const std::vector<Case> cases = {
      {"uint8", ACL_UINT8, ACL_INT64, ACL_UINT8, {2, 4, 3}, {2}, {2, 1, 3}, 1},
      {"float_indices", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {2, 4, 3}, {2}, {2, 1, 3}, 1},
      {"updates_dtype", ACL_FLOAT, ACL_INT64, ACL_FLOAT16, {2, 4, 3}, {2}, {2, 1, 3}, 1},
      {"empty_updates", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2}, {2, 0, 3}, 1},
      {"ranks_differ", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2}, {2, 3}, 1},
      {"rank0_indices_two_rows", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {}, {2, 1, 3}, 1},
      {"rank3_indices", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2, 1, 1}, {2, 1, 3}, 1},
      {"axis0", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2}, {2, 1, 3}, 0},
      {"slab_too_long", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2}, {2, 5, 3}, 1},
      {"other_extent", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2}, {2, 1, 2}, 1},
      {"pairs_not_2", ACL_FLOAT, ACL_INT64, ACL_FLOAT, {2, 4, 3}, {2, 3}, {2, 1, 3}, 1},
  };
  for (const Case& c : cases) {
    DeviceTensor data(c.data, c.dataShape), indices(c.indices, c.indicesShape), updates(c.updates, c.updatesShape);
    EXPECT_EQ(RunScatterUpdate(data, indices, updates, c.axis).phase1, ACLNN_ERR_PARAM_INVALID) << c.name;
  }
}

}  // namespace
}  // namespace canopy_test
