// MaxUnpool2d and MaxUnpool3d (a max pool's values put back, zeros elsewhere)
// at the end. Ops that copy self into a re-viewed out: Flatten and ChannelShuffle, against
// plain references, every A2 dtype, every view of self and out (an out whose
// strides cannot take the new shape is staged), each valid axis or group
// count, empty tensors, and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_channel_shuffle.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_max_unpool2d.h"
#include "aclnnop/aclnn_max_unpool3d.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

OpRow FlattenRow() {
  OpRow row;
  row.name = "Flatten";
  row.inputs = {Arg{.name = "self", .range = Range{-8, 8}}};
  row.out = {[](Call& c) {
               return aclnnFlattenGetWorkspaceSize(c.Tensor(0), c.IntAttr("axis"), c.Out(), c.workspaceSize,
                                                   c.executor);
             },
             aclnnFlatten};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8, ACL_UINT8, ACL_INT64, ACL_INT16, ACL_UINT16,
                          ACL_UINT32, ACL_UINT64, ACL_BOOL, ACL_BF16});
  row.shapes = {{"typical", {{3, 4, 5}}, true},
                {"large", {{40, 30, 20}}, true},
                {"rank1", {{7}}},
                {"rank0", {{}}},
                {"empty", {{0, 3, 2}}}};
  row.attrs = {{"axis0", {{"axis", int64_t{0}}}},
               {"axis1", {{"axis", int64_t{1}}}},
               {"axis2", {{"axis", int64_t{2}}}},
               {"axis_minus1", {{"axis", int64_t{-1}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& attrs) -> std::optional<Shape> {
    const auto rank = static_cast<int64_t>(in[0].size());
    int64_t axis = attrs.Int("axis");
    if (axis < 0) axis += std::max<int64_t>(rank, 1);
    if (axis < 0 || axis > std::max<int64_t>(rank - 1, 0)) return std::nullopt;  // CANN's range
    Shape shape = {1, 1};
    for (int64_t d = 0; d < rank; ++d) shape[d < axis ? 0 : 1] *= in[0][static_cast<size_t>(d)];
    return shape;
  };
  row.reference = [](const RefCall& call) { return Expected{call.inputs[0].values, {}}; };
  return row;
}

OpRow ChannelShuffleRow() {
  OpRow row;
  row.name = "ChannelShuffle";
  row.inputs = {Arg{.name = "self", .range = Range{-8, 8}}};
  row.out = {[](Call& c) {
               return aclnnChannelShuffleGetWorkspaceSize(c.Tensor(0), c.IntAttr("groups"), c.Out(), c.workspaceSize,
                                                          c.executor);
             },
             aclnnChannelShuffle};
  row.dtypes = EachDtype({ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64,
                          ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16});
  row.shapes = {{"typical", {{2, 6, 3, 2}}, true},
                {"large", {{4, 12, 20, 10}}, true},
                {"rank3", {{3, 6, 5}}},
                {"rank7", {{1, 6, 1, 2, 1, 2, 2}}},
                {"empty", {{0, 6, 2}}}};
  row.attrs = {{"groups1", {{"groups", int64_t{1}}}},
               {"groups2", {{"groups", int64_t{2}}}},
               {"groups3", {{"groups", int64_t{3}}}},
               {"groups6", {{"groups", int64_t{6}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& attrs) -> std::optional<Shape> {
    if (in[0].size() < 3 || in[0][1] % attrs.Int("groups") != 0) return std::nullopt;
    return in[0];
  };
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const int64_t groups = call.attrs.Int("groups");
    const int64_t channels = self.shape[1];
    const int64_t per_group = channels / groups;
    int64_t inner = 1;
    for (size_t d = 2; d < self.shape.size(); ++d) inner *= self.shape[d];
    Expected e{Values(self.values.size()), {}};
    for (int64_t n = 0; n < self.shape[0]; ++n) {
      for (int64_t j = 0; j < groups; ++j) {
        for (int64_t k = 0; k < per_group; ++k) {
          for (int64_t i = 0; i < inner; ++i) {
            e.values[static_cast<size_t>((n * channels + k * groups + j) * inner + i)] =
                self.values[static_cast<size_t>((n * channels + j * per_group + k) * inner + i)];
          }
        }
      }
    }
    return e;
  };
  return row;
}

std::vector<OpRow> ReshapeCopyRows() { return {FlattenRow(), ChannelShuffleRow()}; }
CANOPY_HARNESS_ROWS(ReshapeCopyRows);

// ---- Rejections ----------------------------------------------------------------------------------

struct Rejection {
  std::string name;
  aclDataType self, out;
  Shape selfShape, outShape;
  int64_t attribute;  // axis or groups
};

template <typename Phase1Fn>
void ExpectRejected(const Rejection& r, Phase1Fn phase1, Phase2 phase2) {
  DeviceTensor self(r.self, r.selfShape), out(r.out, r.outShape);
  const OpRun run = RunOp([&](OpArgs& a, uint64_t* w,
                              aclOpExecutor** e) { return phase1(a.Tensor(self), r.attribute, a.Tensor(out), w, e); },
                          phase2);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << r.name << ": " << Describe(run);
}

TEST(Flatten, Rejections) {
  const std::vector<Rejection> cases = {
      {"double", ACL_DOUBLE, ACL_DOUBLE, {4, 2}, {1, 8}, 0},
      {"out_dtype", ACL_FLOAT, ACL_INT32, {4, 2}, {1, 8}, 0},
      {"axis_equal_rank", ACL_FLOAT, ACL_FLOAT, {4, 2}, {8, 1}, 2},
      {"axis_below", ACL_FLOAT, ACL_FLOAT, {4, 2}, {1, 8}, -3},
      {"rank1_axis1", ACL_FLOAT, ACL_FLOAT, {4}, {4, 1}, 1},
      {"out_shape", ACL_FLOAT, ACL_FLOAT, {4, 2}, {8}, 0},
  };
  for (const Rejection& r : cases) ExpectRejected(r, aclnnFlattenGetWorkspaceSize, aclnnFlatten);
}

TEST(ChannelShuffle, Rejections) {
  const std::vector<Rejection> cases = {
      {"uint16", ACL_UINT16, ACL_UINT16, {1, 4, 2}, {1, 4, 2}, 2},
      {"out_dtype", ACL_FLOAT, ACL_FLOAT16, {1, 4, 2}, {1, 4, 2}, 2},
      {"rank2", ACL_FLOAT, ACL_FLOAT, {1, 4}, {1, 4}, 2},
      {"rank8", ACL_FLOAT, ACL_FLOAT, {1, 4, 1, 1, 1, 1, 1, 1}, {1, 4, 1, 1, 1, 1, 1, 1}, 2},
      {"groups_zero", ACL_FLOAT, ACL_FLOAT, {1, 4, 2}, {1, 4, 2}, 0},
      {"groups_not_dividing", ACL_FLOAT, ACL_FLOAT, {1, 4, 2}, {1, 4, 2}, 3},
      {"out_shape", ACL_FLOAT, ACL_FLOAT, {1, 4, 2}, {1, 4, 3}, 2},
  };
  for (const Rejection& r : cases) ExpectRejected(r, aclnnChannelShuffleGetWorkspaceSize, aclnnChannelShuffle);
}

// CANN's example: a [1, 4, 2, 2] of 0..15 in two groups takes channel order 0, 2, 1, 3.
TEST(ChannelShuffle, CannExample) {
  DeviceTensor self(ACL_FLOAT, {1, 4, 2, 2}), out(ACL_FLOAT, {1, 4, 2, 2});
  Values values;
  for (int i = 0; i < 16; ++i) values.push_back(i);
  self.WriteView(values);
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnChannelShuffleGetWorkspaceSize(a.Tensor(self), 2, a.Tensor(out), w, e);
      },
      aclnnChannelShuffle);
  const Values got = out.ReadView();
  const std::vector<double> want = {0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i].real(), want[i]) << i;
}

// ---- MaxUnpool2d, MaxUnpool3d --------------------------------------------------------------------

OpRun RunUnpool(bool three, const DeviceTensor& self, const DeviceTensor& indices, const std::vector<int64_t>& size,
                const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return three
                   ? aclnnMaxUnpool3dGetWorkspaceSize(a.Tensor(self), a.Tensor(indices), a.IntArray(size),
                                                      a.IntArray({1, 1, 1}), a.IntArray({0, 0, 0}), a.Tensor(out), w, e)
                   : aclnnMaxUnpool2dGetWorkspaceSize(a.Tensor(self), a.Tensor(indices), a.IntArray(size),
                                                      a.Tensor(out), w, e);
      },
      three ? aclnnMaxUnpool3d : aclnnMaxUnpool2d);
}

TEST(MaxUnpool, MatchesReference) {
  struct Case {
    bool three;
    Shape self;
    std::vector<int64_t> size;
    View view;
  };
  const std::vector<Case> cases = {{false, {2, 3, 2, 3}, {4, 5}, View::kContiguous},
                                   {false, {3, 2, 2}, {3, 3}, View::kTransposed},
                                   {true, {2, 2, 1, 2, 2}, {2, 3, 3}, View::kStepped},
                                   {true, {2, 1, 2, 2}, {1, 4, 4}, View::kContiguous}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_DOUBLE}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(c.self));
      Rng rng = Rng::ForCurrentTest();
      const auto spatial = static_cast<size_t>(c.three ? 3 : 2);
      Shape outShape(c.self.begin(), c.self.end() - static_cast<int64_t>(spatial));
      outShape.insert(outShape.end(), c.size.begin(), c.size.end());
      int64_t plane = 1, held = 1;
      for (int64_t s : c.size) plane *= s;
      for (size_t d = c.self.size() - spatial; d < c.self.size(); ++d) held *= c.self[d];
      DeviceTensor self(dtype, c.self, c.view), indices(ACL_INT64, c.self), out(dtype, outShape, c.view);
      const Values values = self.FillRandom(rng, Range{1, 8});
      Values where;
      for (int64_t i = 0; i < NumElements(c.self); ++i) where.push_back(std::floor(rng.Uniform(0, plane)));
      indices.WriteView(where);
      out.Poison();
      ASSERT_TRUE(RunUnpool(c.three, self, indices, c.size, out).ok());
      Values want(static_cast<size_t>(NumElements(outShape)), 0.0);
      for (int64_t i = 0; i < NumElements(c.self); ++i) {  // in order: a repeated index keeps the later value
        want[static_cast<size_t>((i / held) * plane + static_cast<int64_t>(where[static_cast<size_t>(i)].real()))] =
            values[static_cast<size_t>(i)];
      }
      ExpectExact(out.ReadView(), want, "out");
    }
  }
}

// CANN's example, an index outside its plane (a stream error, out unchanged), and the rejections.
TEST(MaxUnpool, ExampleRunTimeCheckAndRejections) {
  DeviceTensor self(ACL_FLOAT, {1, 1, 2, 2}), indices(ACL_INT64, {1, 1, 2, 2}), out(ACL_FLOAT, {1, 1, 4, 4});
  self.WriteView({1, 2, 3, 4});
  indices.WriteView({3, 8, 11, 13});
  for (bool three : {false, true}) {
    ASSERT_TRUE(
        RunUnpool(three, self, indices, three ? std::vector<int64_t>{1, 4, 4} : std::vector<int64_t>{4, 4}, out).ok());
    Values want(16, 0.0);
    want[3] = 1;
    want[8] = 2;
    want[11] = 3;
    want[13] = 4;
    ExpectExact(out.ReadView(), want, "CANN's example");
  }
  indices.WriteView({3, 8, 16, 13});
  const std::vector<uint8_t> before = out.DownloadBytes();
  EXPECT_NE(RunUnpool(false, self, indices, {4, 4}, out).sync, ACL_SUCCESS);
  EXPECT_EQ(out.DownloadBytes(), before) << "out unchanged after the failed check";
  DeviceTensor bool_self(ACL_BOOL, {1, 1, 2, 2}), float_indices(ACL_FLOAT, {1, 1, 2, 2}), rank2(ACL_FLOAT, {2, 2}),
      zero_h(ACL_FLOAT, {1, 1, 0, 2}), small_out(ACL_FLOAT, {1, 1, 1, 3});
  EXPECT_EQ(RunUnpool(false, bool_self, indices, {4, 4}, out).phase1, ACLNN_ERR_PARAM_INVALID) << "bool";
  EXPECT_EQ(RunUnpool(false, self, float_indices, {4, 4}, out).phase1, ACLNN_ERR_PARAM_INVALID) << "float indices";
  EXPECT_EQ(RunUnpool(false, rank2, indices, {4, 4}, out).phase1, ACLNN_ERR_PARAM_INVALID) << "rank 2";
  EXPECT_EQ(RunUnpool(false, self, indices, {4}, out).phase1, ACLNN_ERR_PARAM_INVALID) << "one extent";
  EXPECT_EQ(RunUnpool(false, self, indices, {1, 3}, small_out).phase1, ACLNN_ERR_PARAM_INVALID) << "too small";
  EXPECT_EQ(RunUnpool(false, self, indices, {4, 3}, out).phase1, ACLNN_ERR_PARAM_INVALID) << "out shape";
  DeviceTensor zero_indices(ACL_INT64, {1, 1, 0, 2});
  EXPECT_EQ(RunUnpool(false, zero_h, zero_indices, {4, 4}, out).phase1, ACLNN_ERR_PARAM_INVALID) << "empty H";
}

}  // namespace
}  // namespace canopy_test
