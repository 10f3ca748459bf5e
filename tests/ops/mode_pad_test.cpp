// ReplicationPad1d/2d/3d, ReflectionPad2d/3d and CircularPad2d/3d through
// the public C API against a plain reference: every documented dtype, every
// supported rank, negative (cropping) padding, strided, transposed, reversed,
// offset and broadcast views, empty batches, a second call (a plan-cache hit
// on new addresses), each rejection with its status code, the documents'
// worked examples and their example programs' calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_circular_pad2d.h"
#include "aclnnop/aclnn_circular_pad3d.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

enum class Mode { kReplicate, kReflect, kCircular };

struct PadOp {
  const char* name;
  Mode mode;
  int64_t spatial;
  aclnnStatus (*phase1)(const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**);
  Phase2 phase2;
  std::vector<aclDataType> dtypes;
};

const std::vector<aclDataType> kReplicationDtypes = {ACL_INT8,   ACL_UINT8,     ACL_INT16,     ACL_FLOAT16,
                                                     ACL_BF16,   ACL_INT32,     ACL_FLOAT,     ACL_INT64,
                                                     ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
const std::vector<aclDataType> kReflectionDtypes = {ACL_BOOL,    ACL_INT8,   ACL_UINT8,     ACL_INT16,
                                                    ACL_FLOAT16, ACL_BF16,   ACL_INT32,     ACL_FLOAT,
                                                    ACL_INT64,   ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
const std::vector<aclDataType> kCircularDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8, ACL_INT32};

const std::vector<PadOp>& Ops() {
  static const std::vector<PadOp> ops = {
      {"ReplicationPad1d", Mode::kReplicate, 1, aclnnReplicationPad1dGetWorkspaceSize, aclnnReplicationPad1d,
       kReplicationDtypes},
      {"ReplicationPad2d", Mode::kReplicate, 2, aclnnReplicationPad2dGetWorkspaceSize, aclnnReplicationPad2d,
       kReplicationDtypes},
      {"ReplicationPad3d", Mode::kReplicate, 3, aclnnReplicationPad3dGetWorkspaceSize, aclnnReplicationPad3d,
       kReplicationDtypes},
      {"ReflectionPad2d", Mode::kReflect, 2, aclnnReflectionPad2dGetWorkspaceSize, aclnnReflectionPad2d,
       kReflectionDtypes},
      {"ReflectionPad3d", Mode::kReflect, 3, aclnnReflectionPad3dGetWorkspaceSize, aclnnReflectionPad3d,
       kReflectionDtypes},
      {"CircularPad2d", Mode::kCircular, 2, aclnnCircularPad2dGetWorkspaceSize, aclnnCircularPad2d, kCircularDtypes},
      {"CircularPad3d", Mode::kCircular, 3, aclnnCircularPad3dGetWorkspaceSize, aclnnCircularPad3d, kCircularDtypes},
  };
  return ops;
}

OpRun RunPad(const PadOp& op, aclTensor* self, aclIntArray* padding, aclTensor* out) {
  return RunOp([&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return op.phase1(self, padding, out, ws, ex); },
               op.phase2);
}

// torch's circular pad along one dimension, as the source of each out index:
// the middle (self cropped by negative pads) first, then the front pad copied
// from the middle's end and the back pad from its start.
std::vector<int64_t> CircularSources(int64_t n, int64_t before, int64_t after) {
  const int64_t size = n + before + after;
  const int64_t lo = std::max<int64_t>(before, 0), hi = size - std::max<int64_t>(after, 0);
  std::vector<int64_t> source(static_cast<size_t>(size), -1);
  for (int64_t j = lo; j < hi; ++j) source[j] = j - before;
  for (int64_t j = 0; j < before; ++j) source[j] = source[hi - before + j];
  for (int64_t j = 0; j < after; ++j) source[size - after + j] = source[lo + j];
  return source;
}

// The source index in [0, n) of out index j of a dimension padded by before and after.
int64_t Source(Mode mode, int64_t j, int64_t n, int64_t before, int64_t after) {
  const int64_t i = j - before;
  if (mode == Mode::kReplicate) return std::clamp<int64_t>(i, 0, n - 1);
  if (mode == Mode::kReflect) return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
  return CircularSources(n, before, after)[static_cast<size_t>(j)];
}

Shape PaddedShape(const Shape& self, const std::vector<int64_t>& padding) {
  Shape out = self;
  for (size_t k = 0; k < padding.size() / 2; ++k) out[out.size() - 1 - k] += padding[2 * k] + padding[2 * k + 1];
  return out;
}

Values PadReference(Mode mode, const Values& values, const Shape& self, const std::vector<int64_t>& padding) {
  const Shape outShape = PaddedShape(self, padding);
  Values out(static_cast<size_t>(NumElements(outShape)));
  const auto spatial = padding.size() / 2;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape p = Unravel(i, outShape);
    for (size_t k = 0; k < spatial; ++k) {
      const size_t d = self.size() - 1 - k;
      p[d] = Source(mode, p[d], self[d], padding[2 * k], padding[2 * k + 1]);
    }
    out[i] = values[Ravel(p, self)];
  }
  return out;
}

void CheckPad(const PadOp& op, aclDataType dtype, const Shape& self, const std::vector<int64_t>& padding, View selfView,
              View outView) {
  Rng rng = Rng::ForCurrentTest();
  const Shape outShape = PaddedShape(self, padding);
  for (int round = 0; round < 2; ++round) {
    DeviceTensor in(dtype, self, selfView);
    const Values values = in.FillRandom(rng, Range{});
    DeviceTensor out(dtype, outShape, outView);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    const OpRun run = RunPad(op, args.Tensor(in), args.IntArray(padding), args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    if (NumElements(outShape) > 0) ExpectExact(out.ReadView(), PadReference(op.mode, values, self, padding), "out");
    ExpectOutsideViewUnchanged(out, before, "out storage");
  }
}

const std::vector<View> kInViews = {View::kContiguous, View::kTransposed, View::kStepped,
                                    View::kReversed,   View::kOffset,     View::kBroadcast};
const std::vector<View> kOutViews = {View::kContiguous, View::kStepped, View::kTransposed, View::kReversed,
                                     View::kOffset};

// A self of rank spatial + 1 (or + 2) with extents 3..5 and a padding of 1 or 2 on each side.
Shape SelfShape(int64_t spatial, bool batch) {
  Shape s = batch ? Shape{2, 3} : Shape{3};
  for (int64_t k = 0; k < spatial; ++k) s.push_back(3 + k);
  return s;
}

TEST(ModePad, EveryOpAndDtype) {
  for (const PadOp& op : Ops()) {
    size_t c = 0;
    for (aclDataType dtype : op.dtypes) {
      SCOPED_TRACE(std::string(op.name) + " " + Name(dtype));
      std::vector<int64_t> padding;
      for (int64_t k = 0; k < op.spatial; ++k) {
        padding.push_back(1 + (k + static_cast<int64_t>(c)) % 2);
        padding.push_back(2 - (k + static_cast<int64_t>(c)) % 2);
      }
      CheckPad(op, dtype, SelfShape(op.spatial, c % 2 == 1), padding, kInViews[c % kInViews.size()],
               kOutViews[c % kOutViews.size()]);
      ++c;
    }
  }
}

TEST(ModePad, CroppingZeroAndEmptyBatch) {
  for (const PadOp& op : Ops()) {
    SCOPED_TRACE(op.name);
    std::vector<int64_t> crop, zero, wide;
    for (int64_t k = 0; k < op.spatial; ++k) {
      crop.insert(crop.end(), {-1, 2});
      zero.insert(zero.end(), {0, 0});
      const int64_t n = 3 + op.spatial - 1 - k;  // padding pair k is for the k-th dimension from the last
      wide.insert(wide.end(), {n - 1, n - 1});   // the largest its extent allows
    }
    CheckPad(op, ACL_FLOAT, SelfShape(op.spatial, true), crop, View::kStepped, View::kContiguous);
    // A crop on the other side, and both: the circular pads wrap around what the crops leave.
    std::vector<int64_t> crop_back, crop_both;
    for (int64_t k = 0; k < op.spatial; ++k) {
      crop_back.insert(crop_back.end(), {2, -1});
      crop_both.insert(crop_both.end(), {-1, -1});
    }
    CheckPad(op, ACL_FLOAT, SelfShape(op.spatial, true), crop_back, View::kContiguous, View::kContiguous);
    CheckPad(op, ACL_FLOAT, SelfShape(op.spatial, true), crop_both, View::kContiguous, View::kContiguous);
    CheckPad(op, ACL_FLOAT, SelfShape(op.spatial, false), zero, View::kTransposed, View::kReversed);
    CheckPad(op, ACL_FLOAT, SelfShape(op.spatial, false), wide, View::kContiguous, View::kStepped);
    Shape empty = SelfShape(op.spatial, true);
    empty[0] = 0;
    CheckPad(op, ACL_FLOAT, empty, wide, View::kContiguous, View::kContiguous);
  }
}

TEST(ModePad, Rejections) {
  auto call = [](const PadOp& op, aclDataType dtype, const Shape& self, const std::vector<int64_t>& padding,
                 aclDataType outDtype, const Shape& out) {
    OpArgs a;
    return RunPad(op, a.NewTensor(dtype, self), a.IntArray(padding), a.NewTensor(outDtype, out));
  };
  for (const PadOp& op : Ops()) {
    SCOPED_TRACE(op.name);
    const Shape self = SelfShape(op.spatial, false);
    std::vector<int64_t> padding(static_cast<size_t>(2 * op.spatial), 1);
    const Shape out = PaddedShape(self, padding);
    const aclDataType f = ACL_FLOAT;
    auto expect = [](const OpRun& run, const std::string& keyword) {
      EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
      EXPECT_NE(run.message.find(keyword), std::string::npos) << run.message;
    };
    expect(call(op, ACL_UINT32, self, padding, ACL_UINT32, out), "'self'");
    expect(call(op, f, self, padding, ACL_INT32, out), "'out'");
    Shape tooSmall(self.end() - op.spatial, self.end());
    expect(call(op, f, tooSmall, padding, f, PaddedShape(tooSmall, padding)), "'self'");
    Shape tooLarge = self;
    tooLarge.insert(tooLarge.begin(), {1, 1});
    expect(call(op, f, tooLarge, padding, f, PaddedShape(tooLarge, padding)), "'self'");
    expect(call(op, f, self, std::vector<int64_t>(padding.size() + 2, 1), f, out), "'padding'");
    std::vector<int64_t> pastEdge = padding;
    pastEdge[0] = self.back();  // must stay below the extent
    expect(call(op, f, self, pastEdge, f, PaddedShape(self, pastEdge)), "'padding'");
    std::vector<int64_t> overCrop = padding;
    overCrop[1] = -self.back();
    expect(call(op, f, self, overCrop, f, PaddedShape(self, overCrop)), "'padding'");
    Shape wrong = out;
    wrong.back() += 1;
    expect(call(op, f, self, padding, f, wrong), "'out'");
  }
  // BOOL is in ReflectionPad's list but not in ReplicationPad's or CircularPad's.
  EXPECT_EQ(call(Ops()[0], ACL_BOOL, {2, 3}, {1, 1}, ACL_BOOL, {2, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(call(Ops()[3], ACL_BOOL, {1, 3, 3}, {1, 1, 1, 1}, ACL_BOOL, {1, 5, 5}).ok());
  EXPECT_EQ(call(Ops()[5], ACL_INT64, {1, 3, 3}, {1, 1, 1, 1}, ACL_INT64, {1, 5, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
}

// The documents' worked examples: self [[0,1,2],[3,4,5],[6,7,8]] (as 1x1x3x3), padding [2,2,2,2].
TEST(ModePad, DocWorkedExamples) {
  const std::vector<std::pair<size_t, Values>> expected = {
      {1, {0, 0, 0, 1, 2, 2, 2, 0, 0, 0, 1, 2, 2, 2, 0, 0, 0, 1, 2, 2, 2, 3, 3, 3, 4,
           5, 5, 5, 6, 6, 6, 7, 8, 8, 8, 6, 6, 6, 7, 8, 8, 8, 6, 6, 6, 7, 8, 8, 8}},
      {3, {8, 7, 6, 7, 8, 7, 6, 5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0, 5, 4, 3, 4,
           5, 4, 3, 8, 7, 6, 7, 8, 7, 6, 5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0}},
      {5, {4, 5, 3, 4, 5, 3, 4, 7, 8, 6, 7, 8, 6, 7, 1, 2, 0, 1, 2, 0, 1, 4, 5, 3, 4,
           5, 3, 4, 7, 8, 6, 7, 8, 6, 7, 1, 2, 0, 1, 2, 0, 1, 4, 5, 3, 4, 5, 3, 4}},
  };
  for (const auto& [index, want] : expected) {
    const PadOp& op = Ops()[index];
    SCOPED_TRACE(op.name);
    DeviceTensor self(ACL_FLOAT, {1, 1, 3, 3});
    self.WriteView({0, 1, 2, 3, 4, 5, 6, 7, 8});
    DeviceTensor out(ACL_FLOAT, {1, 1, 7, 7});
    OpArgs args;
    ASSERT_TRUE(RunPad(op, args.Tensor(self), args.IntArray({2, 2, 2, 2}), args.Tensor(out)).ok());
    ExpectExact(out.ReadView(), want, "out");
  }
}

// The documents' example programs: 1-D [1,3] 1..3 padding [2,2]; 2-D 1x1x2x2 1..4 padding 1s;
// 3-D 1x1x2x2x2 0..7 padding 1s.
TEST(ModePad, DocExamplePrograms) {
  for (const PadOp& op : Ops()) {
    SCOPED_TRACE(op.name);
    const Shape self = op.spatial == 1 ? Shape{1, 3} : op.spatial == 2 ? Shape{1, 1, 2, 2} : Shape{1, 1, 2, 2, 2};
    const std::vector<int64_t> padding(static_cast<size_t>(2 * op.spatial), op.spatial == 1 ? 2 : 1);
    Values values;
    for (int64_t i = 0; i < NumElements(self); ++i)
      values.push_back(static_cast<double>(i + (op.spatial == 3 ? 0 : 1)));
    DeviceTensor in(ACL_FLOAT, self);
    in.WriteView(values);
    DeviceTensor out(ACL_FLOAT, PaddedShape(self, padding));
    OpArgs args;
    ASSERT_TRUE(RunPad(op, args.Tensor(in), args.IntArray(padding), args.Tensor(out)).ok());
    ExpectExact(out.ReadView(), PadReference(op.mode, values, self, padding), "out");
  }
}

}  // namespace
}  // namespace canopy_test
