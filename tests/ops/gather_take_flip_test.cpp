// Gather, Take, IndexAdd, ScatterAdd, MaskedSelect and Flip through the public
// C API against plain references: every documented dtype (1-byte bool to
// complex128), int32 and int64 indices, negative dims (and negative index
// values where the op takes them), duplicates, strided, transposed, reversed,
// offset and broadcast views of inputs and outputs, rank-0 and empty tensors,
// a second call (a plan-cache hit on new addresses), index values out of range
// at run time (a stream error with a message, out untouched), each rejection
// with its status code, and each CANN document's example call.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_add_v2.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_take.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const std::vector<View> kInputViews = {View::kContiguous, View::kTransposed, View::kStepped,
                                       View::kReversed,   View::kOffset,     View::kBroadcast};
const std::vector<View> kOutViews = {View::kContiguous, View::kStepped, View::kTransposed, View::kReversed,
                                     View::kOffset};

int64_t Normalize(int64_t dim, int64_t rank) { return dim < 0 ? dim + std::max<int64_t>(rank, 1) : dim; }

// Random index values in [lo, hi], written into `index` (row-major over its view); returns them.
std::vector<int64_t> FillIndex(DeviceTensor& index, Rng& rng, int64_t lo, int64_t hi) {
  std::vector<int64_t> picks(static_cast<size_t>(index.numel()));
  Values encoded;
  for (int64_t& p : picks) {
    p = std::min<int64_t>(hi, lo + static_cast<int64_t>(rng.Uniform(0, static_cast<double>(hi - lo + 1))));
    encoded.push_back(static_cast<double>(p));
  }
  index.WriteView(encoded);
  return picks;
}

// Expects a call that phase 1 accepts to fail at the synchronisation with the
// index error, naming the value, and to leave `out` as it was.
void ExpectIndexError(const OpRun& run, int64_t bad, const DeviceTensor& out, const std::vector<uint8_t>& before) {
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);  // phase 1 cannot see the values
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("out of range"), std::string::npos) << run.message;
  EXPECT_NE(run.message.find(std::to_string(bad)), std::string::npos) << run.message;
  EXPECT_EQ(out.DownloadBytes(), before) << "nothing may be written";
}

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

// ---- Gather -------------------------------------------------------------------------------------

const std::vector<aclDataType> kGatherDtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_INT8,   ACL_DOUBLE,
                                                ACL_INT16, ACL_INT64, ACL_UINT64,  ACL_UINT32, ACL_UINT16,
                                                ACL_UINT8, ACL_BOOL,  ACL_BF16};

OpRun RunGather(aclTensor* self, int64_t dim, aclTensor* index, aclTensor* out) {
  return RunOp([&](OpArgs&, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnGatherGetWorkspaceSize(self, dim, index, out, ws, ex); },
               aclnnGather);
}

struct GatherCase {
  std::string name;
  aclDataType dtype;
  Shape self;
  int64_t dim;
  Shape index;
  aclDataType indexDtype = ACL_INT64;
  View selfView = View::kContiguous;
  View indexView = View::kContiguous;
  View outView = View::kContiguous;
};

std::vector<GatherCase> GatherCases() {
  std::vector<GatherCase> cases;
  size_t v = 0;
  for (aclDataType dtype : kGatherDtypes) {
    cases.push_back({std::string("dim1_") + Name(dtype),
                     dtype,
                     {4, 5},
                     1,
                     {3, 7},
                     ACL_INT64,
                     kInputViews[v % kInputViews.size()],
                     View::kContiguous,
                     kOutViews[v % kOutViews.size()]});
    ++v;
  }
  cases.push_back({"dim0_s32_stepped",
                   ACL_FLOAT,
                   {5, 3, 4},
                   0,
                   {6, 2, 3},
                   ACL_INT32,
                   View::kStepped,
                   View::kStepped,
                   View::kStepped});
  cases.push_back({"negative_dim_transposed",
                   ACL_FLOAT16,
                   {3, 4, 6},
                   -1,
                   {2, 4, 9},
                   ACL_INT64,
                   View::kTransposed,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back(
      {"reversed_index", ACL_INT64, {3, 4}, 0, {5, 2}, ACL_INT32, View::kContiguous, View::kReversed, View::kOffset});
  cases.push_back({"rank0", ACL_DOUBLE, {}, 0, {}});
  cases.push_back({"rank0_negative_dim", ACL_BOOL, {}, -1, {}});
  cases.push_back({"rank1", ACL_UINT8, {6}, 0, {10}});
  cases.push_back({"empty_index", ACL_FLOAT, {3, 4}, 1, {3, 0}});
  cases.push_back({"empty_self_rows_empty_index", ACL_FLOAT, {0, 4}, 1, {0, 2}});
  cases.push_back({"rank8", ACL_BF16, {2, 1, 2, 3, 1, 2, 1, 2}, 3, {2, 1, 1, 5, 1, 2, 1, 1}});
  return cases;
}

TEST(Gather, MatchesReferenceTwice) {
  for (const GatherCase& x : GatherCases()) {
    SCOPED_TRACE(x.name);
    Rng rng = Rng::ForCurrentTest();
    const auto rank = static_cast<int64_t>(x.self.size());
    const int64_t dim = Normalize(x.dim, rank);
    const int64_t extent = x.self.empty() ? 1 : x.self[dim];
    for (int round = 0; round < 2; ++round) {
      DeviceTensor self(x.dtype, x.self, x.selfView);
      const Values values = self.FillRandom(rng, Range{});
      DeviceTensor index(x.indexDtype, x.index, x.indexView);
      const std::vector<int64_t> picks = FillIndex(index, rng, -extent, extent - 1);  // negatives count from the end
      DeviceTensor out(x.dtype, x.index, x.outView);
      out.Poison();
      const std::vector<uint8_t> before = out.DownloadBytes();
      OpArgs args;
      const OpRun run = RunGather(args.Tensor(self), x.dim, args.Tensor(index), args.Tensor(out));
      ASSERT_TRUE(run.ok()) << Describe(run);
      Values want(static_cast<size_t>(NumElements(x.index)));
      for (int64_t i = 0; i < NumElements(x.index); ++i) {
        if (x.self.empty()) {
          want[i] = values[0];
          continue;
        }
        Shape p = Unravel(i, x.index);
        p[dim] = picks[i] < 0 ? picks[i] + extent : picks[i];
        want[i] = values[Ravel(p, x.self)];
      }
      ExpectExact(out.ReadView(), want, "out");
      ExpectOutsideViewUnchanged(out, before, "out storage");
    }
  }
}

TEST(Gather, OutOfRangeIndexFailsTheStream) {
  for (aclDataType indexDtype : {ACL_INT32, ACL_INT64}) {
    for (int64_t bad : {int64_t{4}, int64_t{-5}, int64_t{1000000}}) {
      SCOPED_TRACE(std::string(Name(indexDtype)) + " " + std::to_string(bad));
      DeviceTensor self(ACL_FLOAT, {3, 4});
      Rng rng = Rng::ForCurrentTest();
      self.FillRandom(rng, Range{});
      DeviceTensor index(indexDtype, {2, 2});
      index.WriteView({0, -4, static_cast<double>(bad), 3});
      DeviceTensor out(ACL_FLOAT, {2, 2});
      out.Poison();
      const std::vector<uint8_t> before = out.DownloadBytes();
      OpArgs args;
      ExpectIndexError(RunGather(args.Tensor(self), 1, args.Tensor(index), args.Tensor(out)), bad, out, before);
    }
  }
}

TEST(Gather, Rejections) {
  auto call = [](aclDataType selfDtype, const Shape& self, int64_t dim, aclDataType indexDtype, const Shape& index,
                 aclDataType outDtype, const Shape& out) {
    OpArgs a;
    return RunGather(a.NewTensor(selfDtype, self), dim, a.NewTensorIn(Range{0, 0, 0, 0, true}, indexDtype, index),
                     a.NewTensor(outDtype, out));
  };
  ExpectRejected(call(ACL_COMPLEX64, {3, 4}, 0, ACL_INT64, {2, 4}, ACL_COMPLEX64, {2, 4}), "'self'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, 0, ACL_INT16, {2, 4}, ACL_FLOAT, {2, 4}), "'index'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, 0, ACL_INT64, {2, 4}, ACL_FLOAT16, {2, 4}), "'out'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, 0, ACL_INT64, {8}, ACL_FLOAT, {8}), "'index'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, 0, ACL_INT64, {2, 4}, ACL_FLOAT, {2, 3}), "'out'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, 2, ACL_INT64, {2, 4}, ACL_FLOAT, {2, 4}), "'dim'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, -3, ACL_INT64, {2, 4}, ACL_FLOAT, {2, 4}), "'dim'");
  ExpectRejected(call(ACL_FLOAT, {3, 4}, 0, ACL_INT64, {2, 5}, ACL_FLOAT, {2, 5}), "exceeds");
  ExpectRejected(call(ACL_FLOAT, {0, 4}, 0, ACL_INT64, {2, 4}, ACL_FLOAT, {2, 4}), "must be empty");
  // An empty index takes any index dtype, as CANN checks it only when non-empty.
  EXPECT_TRUE(call(ACL_FLOAT, {3, 4}, 0, ACL_INT16, {0, 4}, ACL_FLOAT, {0, 4}).ok());
  EXPECT_TRUE(call(ACL_FLOAT, {3, 4}, 0, ACL_INT64, {5, 4}, ACL_FLOAT, {5, 4}).ok());  // dim's extent is free
}

// The CANN document's example: self 4x2 f32 0..7, dim 0, index 4x2 int64 [0,1,2,3,3,2,1,0].
TEST(Gather, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor index(ACL_INT64, {4, 2});
  index.WriteView({0, 1, 2, 3, 3, 2, 1, 0});
  DeviceTensor out(ACL_FLOAT, {4, 2});
  OpArgs args;
  ASSERT_TRUE(RunGather(args.Tensor(self), 0, args.Tensor(index), args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {0, 3, 4, 7, 6, 5, 2, 1}, "out");
}

// ---- Take -----------------------------------------------------------------------------------------

OpRun RunTake(aclTensor* self, aclTensor* index, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnTakeGetWorkspaceSize(self, index, out, ws, ex); },
      aclnnTake);
}

TEST(Take, MatchesReferenceTwice) {
  struct Case {
    Shape self;
    Shape index;
    View selfView;
    View indexView;
    View outView;
  };
  const std::vector<Case> shapes = {
      {{4, 5}, {3, 4}, View::kContiguous, View::kContiguous, View::kContiguous},
      {{4, 5}, {7}, View::kTransposed, View::kStepped, View::kStepped},  // self not viewable as one dim
      {{2, 3, 4}, {2, 3}, View::kReversed, View::kTransposed, View::kTransposed},
      {{3, 4}, {6}, View::kBroadcast, View::kOffset, View::kReversed},
      {{}, {3}, View::kContiguous, View::kContiguous, View::kOffset},
      {{5}, {}, View::kStepped, View::kContiguous, View::kContiguous},
      {{4, 2}, {0, 3}, View::kContiguous, View::kContiguous, View::kContiguous},
  };
  size_t c = 0;
  for (aclDataType dtype : AllDtypes()) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      if (s != 0 && s != c % shapes.size()) continue;  // the typical shape for every dtype, one other in turn
      const Case& x = shapes[s];
      SCOPED_TRACE(std::string(Name(dtype)) + " shape " + std::to_string(s));
      Rng rng = Rng::ForCurrentTest();
      for (int round = 0; round < 2; ++round) {
        DeviceTensor self(dtype, x.self, x.selfView);
        const Values values = self.FillRandom(rng, Range{});
        DeviceTensor index(c % 2 ? ACL_INT32 : ACL_INT64, x.index, x.indexView);
        const std::vector<int64_t> picks = FillIndex(index, rng, 0, NumElements(x.self) - 1);
        DeviceTensor out(dtype, x.index, x.outView);
        out.Poison();
        const std::vector<uint8_t> before = out.DownloadBytes();
        OpArgs args;
        const OpRun run = RunTake(args.Tensor(self), args.Tensor(index), args.Tensor(out));
        ASSERT_TRUE(run.ok()) << Describe(run);
        Values want;
        for (int64_t p : picks) want.push_back(values[p]);
        ExpectExact(out.ReadView(), want, "out");
        ExpectOutsideViewUnchanged(out, before, "out storage");
      }
    }
    ++c;
  }
}

TEST(Take, OutOfRangeIndexFailsTheStream) {
  for (int64_t bad : {int64_t{12}, int64_t{-1}}) {
    DeviceTensor self(ACL_INT16, {3, 4});
    Rng rng = Rng::ForCurrentTest();
    self.FillRandom(rng, Range{});
    DeviceTensor index(ACL_INT32, {3});
    index.WriteView({11, static_cast<double>(bad), 0});
    DeviceTensor out(ACL_INT16, {3});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    ExpectIndexError(RunTake(args.Tensor(self), args.Tensor(index), args.Tensor(out)), bad, out, before);
  }
}

TEST(Take, Rejections) {
  auto call = [](aclDataType selfDtype, aclDataType indexDtype, const Shape& index, aclDataType outDtype,
                 const Shape& out) {
    OpArgs a;
    return RunTake(a.NewTensor(selfDtype, {3, 4}), a.NewTensorIn(Range{0, 0, 0, 0, true}, indexDtype, index),
                   a.NewTensor(outDtype, out));
  };
  ExpectRejected(call(ACL_FLOAT, ACL_UINT8, {2}, ACL_FLOAT, {2}), "'index'");
  ExpectRejected(call(ACL_FLOAT, ACL_INT64, {2}, ACL_INT32, {2}), "'out'");
  ExpectRejected(call(ACL_FLOAT, ACL_INT64, {2}, ACL_FLOAT, {2, 1}), "'out'");
  OpArgs a;
  ExpectRejected(RunTake(a.NewTensor(ACL_FLOAT, {3, 4}), a.NewTensorIn(Range{0, 0, 0, 0, true}, ACL_INT64, {2}),
                         a.NewTensor(ACL_FLOAT, {2}, View::kContiguous, ACL_FORMAT_FRACTAL_NZ)),
                 "'out'");
}

// The CANN document's example: self 4x2 f32, index 2x2 int64 [4, 1, 0, 5].
TEST(Take, DocExample) {
  const Values values = {0, 1.123, -2.001, 303.45, 40009, -50.1234, 60.666, -7.6543};
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView(values);
  DeviceTensor index(ACL_INT64, {2, 2});
  index.WriteView({4, 1, 0, 5});
  DeviceTensor out(ACL_FLOAT, {2, 2});
  OpArgs args;
  ASSERT_TRUE(RunTake(args.Tensor(self), args.Tensor(index), args.Tensor(out)).ok());
  Values want;
  for (int i : {4, 1, 0, 5}) want.push_back(ConvertValue(values[i], ACL_FLOAT));
  ExpectExact(out.ReadView(), want, "out");
}

// ---- IndexAdd ---------------------------------------------------------------------------------------

const std::vector<aclDataType> kIndexAddDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT16, ACL_INT8,
                                                  ACL_UINT8, ACL_DOUBLE,  ACL_INT64, ACL_BOOL,  ACL_BF16};

// Which entry point: IndexAdd, or IndexAddV2 with this mode.
enum class IndexAddForm { kV1, kV2Mode1, kV2Mode0 };

OpRun RunIndexAdd(aclTensor* self, int64_t dim, aclTensor* index, aclTensor* source, aclScalar* alpha, aclTensor* out,
                  IndexAddForm form = IndexAddForm::kV1) {
  if (form == IndexAddForm::kV1) {
    return RunOp(
        [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnIndexAddGetWorkspaceSize(self, dim, index, source, alpha, out, ws, ex);
        },
        aclnnIndexAdd);
  }
  const int64_t mode = form == IndexAddForm::kV2Mode0 ? 0 : 1;
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIndexAddV2GetWorkspaceSize(self, dim, index, source, alpha, mode, out, ws, ex);
      },
      aclnnIndexAddV2);
}

// IndexAddV2's mode 0: CANN's fast path, which leaves alpha out.
bool TakesMode0(aclDataType dtype, const Shape& self, int64_t dim, int64_t count) {
  const bool dtype_ok =
      dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_INT32 || dtype == ACL_INT16;
  return dtype_ok && self.size() == 2 && (dim == 0 || dim == -2) && count >= 0;
}

// a + alpha * b rounded to dtype as the op stores it (integers wrap, bool is "any non-zero").
Value AddScaled(Value a, Value alpha, Value b, aclDataType dtype) {
  if (IsBool(dtype)) return (a.real() != 0 || (alpha.real() != 0 && b.real() != 0)) ? 1 : 0;
  if (IsIntegral(dtype)) {
    const auto sum = static_cast<uint64_t>(static_cast<int64_t>(a.real())) +
                     static_cast<uint64_t>(static_cast<int64_t>(alpha.real())) *
                         static_cast<uint64_t>(static_cast<int64_t>(b.real()));
    const size_t bits = ElementBytes(dtype) * 8;
    int64_t wrapped = static_cast<int64_t>(bits == 64 ? sum : sum & ((uint64_t{1} << bits) - 1));
    if (!IsUnsigned(dtype) && bits < 64 && wrapped >= (int64_t{1} << (bits - 1))) wrapped -= int64_t{1} << bits;
    return static_cast<double>(wrapped);
  }
  return ConvertValue(a + alpha * b, dtype);
}

TEST(IndexAdd, MatchesReferenceTwice) {
  struct Case {
    Shape self;
    int64_t dim;
    int64_t count;  // index elements (-1: a rank-0 index)
    View selfView;
    View sourceView;
    View outView;
  };
  const std::vector<Case> shapes = {
      {{5, 4}, 0, 7, View::kContiguous, View::kContiguous, View::kContiguous},  // duplicates add up
      {{3, 6, 2}, 1, 4, View::kTransposed, View::kStepped, View::kStepped},
      {{4, 5}, -1, 3, View::kReversed, View::kTransposed, View::kTransposed},
      {{4, 3}, 0, -1, View::kBroadcast, View::kOffset, View::kReversed},
      {{}, 0, -1, View::kContiguous, View::kContiguous, View::kOffset},
      {{4, 3}, 1, 0, View::kContiguous, View::kContiguous, View::kContiguous},
  };
  size_t c = 0;
  for (aclDataType dtype : kIndexAddDtypes) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      if (s != 0 && s != c % shapes.size()) continue;
      const Case& x = shapes[s];
      SCOPED_TRACE(std::string(Name(dtype)) + " shape " + std::to_string(s));
      const auto rank = static_cast<int64_t>(x.self.size());
      const int64_t dim = Normalize(x.dim, rank);
      Shape sourceShape = x.self;
      if (rank > 0) sourceShape[dim] = x.count < 0 ? 1 : x.count;
      const Shape indexShape = x.count < 0 ? Shape{} : Shape{x.count};
      const int64_t extent = rank == 0 ? 1 : x.self[dim];
      const Value alpha = IsBool(dtype) ? 1.0 : IsRealFloat(dtype) ? 0.5 : 3.0;
      Rng rng = Rng::ForCurrentTest();
      for (IndexAddForm form : {IndexAddForm::kV1, IndexAddForm::kV2Mode1, IndexAddForm::kV2Mode0}) {
        if (form == IndexAddForm::kV2Mode0 && !TakesMode0(dtype, x.self, x.dim, x.count)) continue;
        SCOPED_TRACE("form " + std::to_string(static_cast<int>(form)));
        const Value applied = form == IndexAddForm::kV2Mode0 ? Value(1.0) : alpha;
        for (int round = 0; round < 2; ++round) {
          DeviceTensor self(dtype, x.self, x.selfView);
          const Values values = self.FillRandom(rng, Range{});
          DeviceTensor source(dtype, sourceShape, x.sourceView);
          const Values adds = source.FillRandom(rng, Range{});
          DeviceTensor index(c % 2 ? ACL_INT32 : ACL_INT64, indexShape);
          const std::vector<int64_t> picks = FillIndex(index, rng, 0, extent - 1);
          DeviceTensor out(dtype, x.self, x.outView);
          out.Poison();
          const std::vector<uint8_t> before = out.DownloadBytes();
          OpArgs args;
          const OpRun run = RunIndexAdd(args.Tensor(self), x.dim, args.Tensor(index), args.Tensor(source),
                                        args.Scalar(IsBool(dtype)        ? ACL_BOOL
                                                    : IsRealFloat(dtype) ? ACL_FLOAT
                                                                         : ACL_INT64,
                                                    alpha),
                                        args.Tensor(out), form);
          ASSERT_TRUE(run.ok()) << Describe(run);
          if (form != IndexAddForm::kV1 && NumElements(sourceShape) == 0) {  // CANN's V2 writes nothing then
            EXPECT_EQ(out.DownloadBytes(), before) << "IndexAddV2 with an empty source leaves out";
            continue;
          }
          Values want = values;
          for (int64_t i = 0; i < NumElements(sourceShape); ++i) {
            if (rank == 0) {
              want[0] = AddScaled(want[0], applied, adds[0], dtype);
              continue;
            }
            Shape p = Unravel(i, sourceShape);
            p[dim] = picks[p[dim]];
            Value& w = want[Ravel(p, x.self)];
            w = AddScaled(w, applied, adds[i], dtype);
          }
          // Sums are made in index order, one rounding per update: exact against this order.
          ExpectExact(out.ReadView(), want, "out");
          ExpectOutsideViewUnchanged(out, before, "out storage");
          ExpectExact(self.ReadView(), values, "self must not change");
        }
      }
    }
    ++c;
  }
}

// A rank-0 self or source is one element, the other [n] (PyTorch's
// index_add_): a scalar source into a vector, a vector of sources into a
// scalar (each added). An adversarial pass found the first crashing phase 1
// and the second adding source[0] only.
TEST(IndexAdd, RankZeroSelfOrSource) {
  for (IndexAddForm form : {IndexAddForm::kV1, IndexAddForm::kV2Mode1}) {
    SCOPED_TRACE("form " + std::to_string(static_cast<int>(form)));
    {
      DeviceTensor self(ACL_FLOAT, {4}), source(ACL_FLOAT, Shape{}), index(ACL_INT64, {1}), out(ACL_FLOAT, {4});
      self.WriteView({1, 2, 3, 4});
      source.WriteView({10});
      index.WriteView({2});
      out.Poison();
      OpArgs args;
      const OpRun run = RunIndexAdd(args.Tensor(self), 0, args.Tensor(index), args.Tensor(source),
                                    args.Scalar(ACL_FLOAT, 1.0), args.Tensor(out), form);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectExact(out.ReadView(), {1, 2, 13, 4}, "scalar source into a vector");
    }
    {
      DeviceTensor self(ACL_FLOAT, Shape{}), source(ACL_FLOAT, {3}), index(ACL_INT32, {3}), out(ACL_FLOAT, Shape{});
      self.WriteView({42});
      source.WriteView({1, 2, 3});
      index.WriteView({0, 0, 0});
      out.Poison();
      OpArgs args;
      const OpRun run = RunIndexAdd(args.Tensor(self), 0, args.Tensor(index), args.Tensor(source),
                                    args.Scalar(ACL_FLOAT, 2.0), args.Tensor(out), form);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectExact(out.ReadView(), {54}, "a vector of sources into a scalar");
    }
  }
}

// IndexAddV2's mode 0 outside CANN's fast path fails as CANN's code does (561103);
// with ACL_OPT_DETERMINISTIC CANN runs IndexAdd instead, whatever the mode (alpha applied).
TEST(IndexAddV2, ModeZeroLimitsAndDeterministicMode) {
  DeviceTensor self(ACL_FLOAT, {2, 2}), source(ACL_FLOAT, {2, 2}), index(ACL_INT64, {2}), out(ACL_FLOAT, {2, 2});
  self.WriteView({1, 2, 3, 4});
  source.WriteView({10, 20, 30, 40});
  index.WriteView({1, 0});
  const auto run = [&](int64_t dim, int64_t mode) {
    return RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnIndexAddV2GetWorkspaceSize(a.Tensor(self), dim, a.Tensor(index), a.Tensor(source),
                                                 a.Scalar(ACL_FLOAT, 2.0), mode, a.Tensor(out), ws, ex);
        },
        aclnnIndexAddV2);
  };
  EXPECT_EQ(run(1, 0).phase1, ACLNN_ERR_INNER_NULLPTR) << "mode 0 takes dim 0 only";
  ASSERT_TRUE(run(0, 0).ok());
  ExpectExact(out.ReadView(), {31, 42, 13, 24}, "mode 0: alpha not applied");
  ASSERT_TRUE(run(0, 1).ok());
  ExpectExact(out.ReadView(), {61, 82, 23, 44}, "mode 1: alpha applied");
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  const OpRun other_dim = run(1, 0);
  const Values by_columns = out.ReadView();
  const OpRun deterministic = run(0, 0);
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
  EXPECT_TRUE(other_dim.ok()) << "IndexAdd takes any dim: " << Describe(other_dim);
  ExpectExact(by_columns, {41, 22, 83, 64}, "dim 1 through IndexAdd, alpha applied");
  ASSERT_TRUE(deterministic.ok()) << Describe(deterministic);
  ExpectExact(out.ReadView(), {61, 82, 23, 44}, "deterministic mode runs IndexAdd: alpha applied");
}

TEST(IndexAdd, OutOfRangeIndexFailsTheStream) {
  for (int64_t bad : {int64_t{4}, int64_t{-1}}) {
    DeviceTensor self(ACL_FLOAT, {4, 3});
    Rng rng = Rng::ForCurrentTest();
    self.FillRandom(rng, Range{});
    DeviceTensor source(ACL_FLOAT, {2, 3});
    source.FillRandom(rng, Range{});
    DeviceTensor index(ACL_INT64, {2});
    index.WriteView({1, static_cast<double>(bad)});
    DeviceTensor out(ACL_FLOAT, {4, 3});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    ExpectIndexError(RunIndexAdd(args.Tensor(self), 0, args.Tensor(index), args.Tensor(source),
                                 args.Scalar(ACL_FLOAT, 1.0), args.Tensor(out)),
                     bad, out, before);
  }
}

TEST(IndexAdd, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, int64_t dim, aclDataType indexDtype, const Shape& index,
                 aclDataType sourceDtype, const Shape& source, aclDataType alphaDtype, aclDataType outDtype,
                 const Shape& out) {
    OpArgs a;
    return RunIndexAdd(a.NewTensor(dtype, self), dim, a.NewTensorIn(Range{0, 0, 0, 0, true}, indexDtype, index),
                       a.NewTensor(sourceDtype, source), a.Scalar(alphaDtype, 1.0), a.NewTensor(outDtype, out));
  };
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  ExpectRejected(call(ACL_COMPLEX64, {4, 3}, 0, l, {2}, ACL_COMPLEX64, {2, 3}, f, ACL_COMPLEX64, {4, 3}), "'self'");
  ExpectRejected(call(f, {4, 3}, 0, ACL_FLOAT, {2}, f, {2, 3}, f, f, {4, 3}), "'index'");
  ExpectRejected(call(f, {4, 3}, 0, l, {2}, ACL_FLOAT16, {2, 3}, f, f, {4, 3}), "'source'");
  ExpectRejected(call(f, {4, 3}, 0, l, {2}, f, {2, 3}, f, ACL_DOUBLE, {4, 3}), "'out'");
  ExpectRejected(call(f, {4, 3}, 2, l, {2}, f, {2, 3}, f, f, {4, 3}), "'dim'");
  ExpectRejected(call(ACL_INT32, {4, 3}, 0, l, {2}, ACL_INT32, {2, 3}, f, ACL_INT32, {4, 3}), "'alpha'");
  ExpectRejected(call(f, {4, 3}, 0, l, {2}, f, {2, 3, 1}, f, f, {4, 3}), "'source'");
  ExpectRejected(call(f, {4, 3}, 0, l, {2}, f, {2, 2}, f, f, {4, 3}), "'source'");
  ExpectRejected(call(f, {4, 3}, 0, l, {2, 1}, f, {2, 3}, f, f, {4, 3}), "'index'");
  ExpectRejected(call(f, {4, 3}, 0, l, {3}, f, {2, 3}, f, f, {4, 3}), "'index'");
  ExpectRejected(call(f, {4, 3}, 0, l, {2}, f, {2, 3}, f, f, {4, 4}), "'out'");
}

// The CANN document's example: self 4x2 f32 0..7, dim 0, index int32 [0, 1, 2, 3], source 4x2, alpha 1.
TEST(IndexAdd, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor index(ACL_INT32, {4});
  index.WriteView({0, 1, 2, 3});
  DeviceTensor source(ACL_FLOAT, {4, 2});
  source.WriteView({1, 1, 1, 2, 2, 2, 3, 3});
  DeviceTensor out(ACL_FLOAT, {4, 2});
  OpArgs args;
  ASSERT_TRUE(RunIndexAdd(args.Tensor(self), 0, args.Tensor(index), args.Tensor(source), args.Scalar(ACL_FLOAT, 1.0),
                          args.Tensor(out))
                  .ok());
  ExpectExact(out.ReadView(), {1, 2, 3, 5, 6, 7, 9, 10}, "out");
}

// ---- ScatterAdd -------------------------------------------------------------------------------------

OpRun RunScatterAdd(aclTensor* self, int64_t dim, aclTensor* index, aclTensor* src, aclTensor* out) {
  return RunOp([&](OpArgs&, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnScatterAddGetWorkspaceSize(self, dim, index, src, out, ws, ex); },
               aclnnScatterAdd);
}

TEST(ScatterAdd, MatchesReferenceTwice) {
  const std::vector<aclDataType> dtypes = {ACL_BF16,  ACL_FLOAT16, ACL_FLOAT,     ACL_DOUBLE,
                                           ACL_INT64, ACL_INT32,   ACL_INT16,     ACL_INT8,
                                           ACL_UINT8, ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128};
  size_t c = 0;
  for (aclDataType dtype : dtypes) {
    SCOPED_TRACE(Name(dtype));
    const Shape selfShape = {4, 5};
    const int64_t dim = c % 2 ? -1 : 0;
    const Shape indexShape = c % 2 ? Shape{3, 7} : Shape{6, 4};  // duplicates either way
    const Shape srcShape = {6, 7};
    const int64_t extent = selfShape[Normalize(dim, 2)];
    Rng rng = Rng::ForCurrentTest();
    for (int round = 0; round < 2; ++round) {
      DeviceTensor self(dtype, selfShape, kInputViews[c % kInputViews.size()]);
      const Values values = self.FillRandom(rng, Range{});
      DeviceTensor src(dtype, srcShape, kInputViews[(c + 1) % kInputViews.size()]);
      const Values adds = src.FillRandom(rng, Range{});
      DeviceTensor index(c % 3 ? ACL_INT64 : ACL_INT32, indexShape, c % 2 ? View::kTransposed : View::kContiguous);
      const std::vector<int64_t> picks = FillIndex(index, rng, 0, extent - 1);
      DeviceTensor out(dtype, selfShape, kOutViews[c % kOutViews.size()]);
      out.Poison();
      const std::vector<uint8_t> before = out.DownloadBytes();
      OpArgs args;
      const OpRun run = RunScatterAdd(args.Tensor(self), dim, args.Tensor(index), args.Tensor(src), args.Tensor(out));
      ASSERT_TRUE(run.ok()) << Describe(run);
      Values want = values;
      for (int64_t i = 0; i < NumElements(indexShape); ++i) {
        const Shape p = Unravel(i, indexShape);
        Shape q = p;
        q[Normalize(dim, 2)] = picks[i];
        Value& w = want[Ravel(q, selfShape)];
        w = AddScaled(w, 1.0, adds[Ravel(p, srcShape)], dtype);
      }
      ExpectExact(out.ReadView(), want, "out");
      ExpectOutsideViewUnchanged(out, before, "out storage");
    }
    ++c;
  }
}

TEST(ScatterAdd, OutOfRangeIndexFailsTheStream) {
  DeviceTensor self(ACL_FLOAT, {3, 2});
  DeviceTensor src(ACL_FLOAT, {2, 2});
  Rng rng = Rng::ForCurrentTest();
  self.FillRandom(rng, Range{});
  src.FillRandom(rng, Range{});
  DeviceTensor index(ACL_INT64, {2, 2});
  index.WriteView({0, 1, 2, 3});
  DeviceTensor out(ACL_FLOAT, {3, 2});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  ExpectIndexError(RunScatterAdd(args.Tensor(self), 0, args.Tensor(index), args.Tensor(src), args.Tensor(out)), 3, out,
                   before);
}

TEST(ScatterAdd, Rejections) {
  auto call = [](aclDataType dtype, const Shape& index, const Shape& src, aclDataType srcDtype, int64_t dim) {
    OpArgs a;
    return RunScatterAdd(a.NewTensor(dtype, {3, 4}), dim, a.NewTensorIn(Range{0, 0, 0, 0, true}, ACL_INT64, index),
                         a.NewTensor(srcDtype, src), a.NewTensor(dtype, {3, 4}));
  };
  ExpectRejected(call(ACL_UINT32, {2, 2}, {2, 2}, ACL_UINT32, 0), "'self'");
  ExpectRejected(call(ACL_FLOAT, {2, 2}, {2, 2}, ACL_FLOAT16, 0), "'src'");
  ExpectRejected(call(ACL_FLOAT, {2, 2}, {2}, ACL_FLOAT, 0), "rank");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, {2, 2}, ACL_FLOAT, 0), "exceeds 'src'");
  ExpectRejected(call(ACL_FLOAT, {2, 5}, {2, 5}, ACL_FLOAT, 0), "exceeds self");
  ExpectRejected(call(ACL_FLOAT, {2, 2}, {2, 2}, ACL_FLOAT, 2), "'dim'");
}

// The CANN document's formula example: self 3x3 1..9, dim 1, index [[0,2,1],[0,0,1]], src [[10,11,12],[13,14,15]].
TEST(ScatterAdd, DocFormulaExample) {
  DeviceTensor self(ACL_FLOAT, {3, 3});
  self.WriteView({1, 2, 3, 4, 5, 6, 7, 8, 9});
  DeviceTensor index(ACL_INT64, {2, 3});
  index.WriteView({0, 2, 1, 0, 0, 1});
  DeviceTensor src(ACL_FLOAT, {2, 3});
  src.WriteView({10, 11, 12, 13, 14, 15});
  DeviceTensor out(ACL_FLOAT, {3, 3});
  OpArgs args;
  ASSERT_TRUE(RunScatterAdd(args.Tensor(self), 1, args.Tensor(index), args.Tensor(src), args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {11, 14, 14, 31, 20, 6, 7, 8, 9}, "out");
}

// The CANN document's example program: self 4x4 zeros, dim 0, index 3x4 int64, src 4x4 0..15.
TEST(ScatterAdd, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 4});
  self.WriteView(Values(16, 0.0));
  DeviceTensor index(ACL_INT64, {3, 4});
  index.WriteView({0, 1, 2, 1, 0, 1, 2, 0, 2, 2, 1, 0});
  DeviceTensor src(ACL_FLOAT, {4, 4});
  src.WriteView({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  DeviceTensor out(ACL_FLOAT, {4, 4});
  OpArgs args;
  ASSERT_TRUE(RunScatterAdd(args.Tensor(self), 0, args.Tensor(index), args.Tensor(src), args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {4, 0, 0, 18, 0, 6, 10, 3, 8, 9, 8, 0, 0, 0, 0, 0}, "out");
}

// ---- MaskedSelect -----------------------------------------------------------------------------------

const std::vector<aclDataType> kMaskedSelectDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                                      ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};

OpRun RunMaskedSelect(aclTensor* self, aclTensor* mask, aclTensor* out) {
  return RunOp([&](OpArgs&, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnMaskedSelectGetWorkspaceSize(self, mask, out, ws, ex); },
               aclnnMaskedSelect);
}

TEST(MaskedSelect, MatchesReferenceTwice) {
  struct Case {
    Shape self;
    Shape mask;
    View selfView;
    View maskView;
    View outView;
  };
  const std::vector<Case> shapes = {
      {{4, 5}, {4, 5}, View::kContiguous, View::kContiguous, View::kContiguous},
      {{3, 1, 4}, {5, 1}, View::kTransposed, View::kStepped, View::kStepped},  // broadcast both ways
      {{2, 3}, {2, 3}, View::kReversed, View::kTransposed, View::kReversed},
      {{3, 4}, {4}, View::kBroadcast, View::kOffset, View::kOffset},
      {{}, {3}, View::kContiguous, View::kContiguous, View::kContiguous},
      {{2, 0}, {2, 1}, View::kContiguous, View::kContiguous, View::kContiguous},
  };
  size_t c = 0;
  for (aclDataType dtype : kMaskedSelectDtypes) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      if (s != 0 && s != c % shapes.size()) continue;
      const Case& x = shapes[s];
      // Every third dtype writes another dtype (self is converted to out's first).
      const aclDataType outDtype = c % 3 == 2 ? ACL_DOUBLE : dtype;
      const aclDataType maskDtype = c % 2 ? ACL_UINT8 : ACL_BOOL;
      SCOPED_TRACE(std::string(Name(dtype)) + " shape " + std::to_string(s));
      Shape shape;
      {
        const size_t rank = std::max(x.self.size(), x.mask.size());
        shape.assign(rank, 1);
        for (size_t i = 0; i < rank; ++i) {
          const int64_t a = i < rank - x.self.size() ? 1 : x.self[i - (rank - x.self.size())];
          const int64_t b = i < rank - x.mask.size() ? 1 : x.mask[i - (rank - x.mask.size())];
          shape[i] = a == 1 ? b : a;
        }
      }
      const int64_t count = NumElements(shape);
      Rng rng = Rng::ForCurrentTest();
      for (int round = 0; round < 2; ++round) {
        DeviceTensor self(dtype, x.self, x.selfView);
        const Values values = self.FillRandom(rng, Range{});
        DeviceTensor mask(maskDtype, x.mask, x.maskView);
        const Values flags = mask.FillRandom(rng, Range{0, 1, 0, 0, true});
        DeviceTensor out(outDtype, {count}, x.outView);
        out.Poison();
        const Values poisoned = out.ReadView();
        const std::vector<uint8_t> before = out.DownloadBytes();
        OpArgs args;
        const OpRun run = RunMaskedSelect(args.Tensor(self), args.Tensor(mask), args.Tensor(out));
        ASSERT_TRUE(run.ok()) << Describe(run);
        Values want;
        for (int64_t i = 0; i < count; ++i) {
          const Shape p = Unravel(i, shape);
          auto at = [&](const Shape& of) {
            Shape q(p.end() - static_cast<int64_t>(of.size()), p.end());
            for (size_t k = 0; k < of.size(); ++k) {
              if (of[k] == 1) q[k] = 0;
            }
            return Ravel(q, of);
          };
          if (flags[at(x.mask)].real() != 0) want.push_back(ConvertValue(values[at(x.self)], outDtype));
        }
        // The tail past the selected elements keeps what out held.
        want.insert(want.end(), poisoned.begin() + static_cast<int64_t>(want.size()), poisoned.end());
        ExpectExact(out.ReadView(), want, "out");
        ExpectOutsideViewUnchanged(out, before, "out storage");
      }
    }
    ++c;
  }
}

TEST(MaskedSelect, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, aclDataType maskDtype, const Shape& mask, aclDataType outDtype,
                 const Shape& out) {
    OpArgs a;
    return RunMaskedSelect(a.NewTensor(dtype, self), a.NewTensorIn(Range{0, 1, 0, 0, true}, maskDtype, mask),
                           a.NewTensor(outDtype, out));
  };
  ExpectRejected(call(ACL_COMPLEX64, {2, 3}, ACL_BOOL, {2, 3}, ACL_COMPLEX64, {6}), "'self'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_INT8, {2, 3}, ACL_FLOAT, {6}), "'mask'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {2, 3}, ACL_UINT32, {6}), "'out'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {4}, ACL_FLOAT, {6}), "broadcast");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {2, 3}, ACL_FLOAT, {2, 3}), "'out'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {2, 3}, ACL_FLOAT, {5}), "'out'");
}

// The CANN document's example: self 4x2 f32 0..7, mask the last four true, out of 8 elements.
TEST(MaskedSelect, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor mask(ACL_BOOL, {4, 2});
  mask.WriteView({0, 0, 0, 0, 1, 1, 1, 1});
  DeviceTensor out(ACL_FLOAT, {8});
  out.WriteView({10, 10, 10, 10, 10, 10, 10, 10});
  OpArgs args;
  ASSERT_TRUE(RunMaskedSelect(args.Tensor(self), args.Tensor(mask), args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {4, 5, 6, 7, 10, 10, 10, 10}, "out");
}

// ---- Flip ---------------------------------------------------------------------------------------------

const std::vector<aclDataType> kFlipDtypes = {ACL_FLOAT16, ACL_FLOAT,     ACL_INT32,      ACL_INT16,
                                              ACL_INT64,   ACL_BOOL,      ACL_INT8,       ACL_UINT8,
                                              ACL_DOUBLE,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

OpRun RunFlip(aclTensor* self, aclIntArray* dims, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnFlipGetWorkspaceSize(self, dims, out, ws, ex); },
      aclnnFlip);
}

TEST(Flip, MatchesReferenceTwice) {
  struct Case {
    Shape shape;
    std::vector<int64_t> dims;
  };
  const std::vector<Case> shapes = {{{3, 4, 5}, {0, -1}},
                                    {{6}, {0}},
                                    {{2, 3, 4}, {1}},
                                    {{4, 5}, {}},
                                    {{}, {-1}},
                                    {{3, 0}, {0, 1}},
                                    {{2, 1, 2, 3, 1, 2, 1, 2}, {0, 3, 5, 7}}};
  size_t c = 0;
  for (aclDataType dtype : kFlipDtypes) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      if (s != 0 && s != c % shapes.size()) continue;
      const Case& x = shapes[s];
      SCOPED_TRACE(std::string(Name(dtype)) + " shape " + std::to_string(s));
      const auto rank = static_cast<int64_t>(x.shape.size());
      Rng rng = Rng::ForCurrentTest();
      for (int round = 0; round < 2; ++round) {
        DeviceTensor self(dtype, x.shape, kInputViews[(c + s) % kInputViews.size()]);
        const Values values = self.FillRandom(rng, Range{});
        DeviceTensor out(dtype, x.shape, kOutViews[(c + s) % kOutViews.size()]);
        out.Poison();
        const std::vector<uint8_t> before = out.DownloadBytes();
        OpArgs args;
        const OpRun run = RunFlip(args.Tensor(self), args.IntArray(x.dims), args.Tensor(out));
        ASSERT_TRUE(run.ok()) << Describe(run);
        Values want(values.size());
        for (int64_t i = 0; i < NumElements(x.shape); ++i) {
          Shape p = Unravel(i, x.shape);
          for (int64_t d : x.dims) {
            if (rank == 0) continue;
            const int64_t n = Normalize(d, rank);
            p[n] = x.shape[n] - 1 - p[n];
          }
          want[i] = values[Ravel(p, x.shape)];
        }
        ExpectExact(out.ReadView(), want, "out");
        ExpectOutsideViewUnchanged(out, before, "out storage");
      }
    }
    ++c;
  }
}

// Flipping in place (out is self) reads every element before it is overwritten.
TEST(Flip, InPlaceAlias) {
  DeviceTensor t(ACL_INT32, {3, 4});
  Rng rng = Rng::ForCurrentTest();
  const Values values = t.FillRandom(rng, Range{-100, 100});
  OpArgs args;
  aclTensor* self = args.Tensor(t);
  ASSERT_TRUE(RunFlip(self, args.IntArray({1}), self).ok());
  Values want(values.size());
  for (int64_t i = 0; i < 12; ++i) want[i] = values[(i / 4) * 4 + 3 - i % 4];
  ExpectExact(t.ReadView(), want, "self");
}

TEST(Flip, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, const std::vector<int64_t>& dims, aclDataType outDtype,
                 const Shape& out) {
    OpArgs a;
    return RunFlip(a.NewTensor(dtype, self), a.IntArray(dims), a.NewTensor(outDtype, out));
  };
  ExpectRejected(call(ACL_UINT32, {2, 3}, {0}, ACL_UINT32, {2, 3}), "'self'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, {0}, ACL_FLOAT16, {2, 3}), "'out'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, {0}, ACL_FLOAT, {3, 2}), "'out'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, {2}, ACL_FLOAT, {2, 3}), "'dims'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, {-3}, ACL_FLOAT, {2, 3}), "'dims'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, {1, -1}, ACL_FLOAT, {2, 3}), "twice");
  ExpectRejected(call(ACL_FLOAT, {}, {1}, ACL_FLOAT, {}), "'dims'");
}

// The CANN document's example: self 4x2 f32 0..7, dims [0].
TEST(Flip, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor out(ACL_FLOAT, {4, 2});
  OpArgs args;
  ASSERT_TRUE(RunFlip(args.Tensor(self), args.IntArray({0}), args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {6, 7, 4, 5, 2, 3, 0, 1}, "out");
}

}  // namespace
}  // namespace canopy_test
