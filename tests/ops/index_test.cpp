// GatherV2, IndexSelect, Embedding and IndexCopy/InplaceIndexCopy through the public C API against a plain
// reference: every documented dtype, int32 and int64 indices, duplicates,
// negative dims, strided and transposed self, index and out, rank-0 and
// multi-dimensional indices, empty tensors, a plan-cache hit on new addresses,
// index values out of range at run time (a stream error with a message, out
// untouched) and each rejection with its status code.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_select.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const View kContiguous = View::kContiguous;

enum class Op { kGatherV2, kIndexSelect, kEmbedding };
const char* OpName(Op op) {
  return op == Op::kGatherV2 ? "gather_v2" : op == Op::kIndexSelect ? "index_select" : "embedding";
}

const std::vector<aclDataType> kGatherV2Dtypes = {ACL_FLOAT,  ACL_FLOAT16,   ACL_INT64,      ACL_INT32,
                                                  ACL_INT16,  ACL_INT8,      ACL_UINT8,      ACL_BOOL,
                                                  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

OpRun RunGather(Op op, aclTensor* self, int64_t dim, aclTensor* index, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* workspaceSize, aclOpExecutor** executor) {
        switch (op) {
          case Op::kGatherV2:
            return aclnnGatherV2GetWorkspaceSize(self, dim, index, out, workspaceSize, executor);
          case Op::kIndexSelect:
            return aclnnIndexSelectGetWorkspaceSize(self, dim, index, out, workspaceSize, executor);
          case Op::kEmbedding:
            return aclnnEmbeddingGetWorkspaceSize(self, index, out, workspaceSize, executor);
        }
        return ACLNN_ERR_INNER;
      },
      op == Op::kGatherV2      ? aclnnGatherV2
      : op == Op::kIndexSelect ? aclnnIndexSelect
                               : aclnnEmbedding);
}

// out's shape: index's shape (a rank-0 index: [1]) replaces dim; a rank-0 self gives a rank-0 out.
Shape GatherShape(const Shape& self, int64_t dim, const Shape& index) {
  if (self.empty()) return {};
  Shape out(self.begin(), self.begin() + dim);
  if (index.empty()) {
    out.push_back(1);
  } else {
    out.insert(out.end(), index.begin(), index.end());
  }
  out.insert(out.end(), self.begin() + dim + 1, self.end());
  return out;
}

Values GatherReference(const Values& self, const Shape& selfShape, int64_t dim, const std::vector<int64_t>& index,
                       const Shape& indexShape) {
  const Shape src = selfShape.empty() ? Shape{1} : selfShape;
  const Shape idx = indexShape.empty() ? Shape{1} : indexShape;
  const Shape outShape = GatherShape(src, dim, idx);
  Values out(static_cast<size_t>(NumElements(outShape)));
  const auto indexRank = static_cast<int64_t>(idx.size());
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    const Shape o = Unravel(i, outShape);
    Shape s(o.begin(), o.begin() + dim);
    const Shape k(o.begin() + dim, o.begin() + dim + indexRank);
    s.push_back(index[Ravel(k, idx)]);
    s.insert(s.end(), o.begin() + dim + indexRank, o.end());
    out[i] = self[Ravel(s, src)];
  }
  return out;
}

struct GatherCase {
  std::string name;
  Op op;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {5, 4};
  int64_t dim = 0;
  Shape index = {7};  // more values than rows: duplicates
  aclDataType indexDtype = ACL_INT64;
  View selfView = kContiguous;
  View indexView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const GatherCase& x, std::ostream* os) { *os << x.name; }

std::vector<GatherCase> GatherCases() {
  std::vector<GatherCase> cases;
  for (aclDataType dtype : kGatherV2Dtypes) {
    cases.push_back({std::string("gather_v2_") + Name(dtype), Op::kGatherV2, dtype});
    cases.push_back({std::string("embedding_") + Name(dtype), Op::kEmbedding, dtype, {6, 5}, 0, {2, 3}});
  }
  for (aclDataType dtype : AllDtypes()) {
    cases.push_back({std::string("index_select_") + Name(dtype), Op::kIndexSelect, dtype, {4, 6}, 1, {9}});
  }
  for (Op op : {Op::kGatherV2, Op::kIndexSelect}) {
    const std::string n = OpName(op);
    cases.push_back({n + "_dim1_s32_index", op, ACL_FLOAT, {3, 5, 4}, 1, {6}, ACL_INT32});
    cases.push_back({n + "_negative_dim", op, ACL_FLOAT16, {3, 5, 4}, -1, {3}});
    cases.push_back({n + "_rank0_index", op, ACL_INT32, {3, 5}, 1, {}});
    cases.push_back({n + "_rank0_self", op, ACL_FLOAT, {}, 0, {1}});
    cases.push_back({n + "_rank0_self_negative_dim", op, ACL_DOUBLE, {}, -1, {}});
    cases.push_back({n + "_transposed_self", op, ACL_FLOAT, {6, 5}, 0, {4}, ACL_INT64, View::kTransposed});
    cases.push_back({n + "_stepped_all",
                     op,
                     ACL_BF16,
                     {4, 3, 5},
                     2,
                     {7},
                     ACL_INT32,
                     View::kStepped,
                     View::kStepped,
                     View::kStepped});
    cases.push_back({n + "_reversed_self_offset_out",
                     op,
                     ACL_INT64,
                     {3, 4, 2},
                     1,
                     {5},
                     ACL_INT64,
                     View::kReversed,
                     View::kOffset,
                     View::kOffset});
    cases.push_back({n + "_empty_index", op, ACL_FLOAT, {3, 4}, 0, {0}});
    cases.push_back({n + "_empty_self_other_dim", op, ACL_FLOAT, {3, 0}, 0, {2}});
    cases.push_back({n + "_rank8", op, ACL_FLOAT, {2, 1, 2, 3, 1, 2, 1, 2}, 3, {4}});
  }
  cases.push_back({"gather_v2_rank2_index", Op::kGatherV2, ACL_FLOAT, {3, 5, 4}, 1, {2, 3}});
  cases.push_back({"gather_v2_rank2_index_transposed_out",
                   Op::kGatherV2,
                   ACL_INT16,
                   {5, 4},
                   0,
                   {3, 2},
                   ACL_INT32,
                   kContiguous,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back({"gather_v2_rank3_index_reversed_out",
                   Op::kGatherV2,
                   ACL_FLOAT,
                   {4, 3},
                   1,
                   {2, 2, 2},
                   ACL_INT64,
                   kContiguous,
                   View::kReversed,
                   View::kReversed});
  cases.push_back({"embedding_wide_rows", Op::kEmbedding, ACL_FLOAT, {40, 1030}, 0, {33}});
  cases.push_back({"embedding_transposed_weight",
                   Op::kEmbedding,
                   ACL_FLOAT16,
                   {7, 9},
                   0,
                   {4, 2},
                   ACL_INT32,
                   View::kTransposed,
                   View::kTransposed,
                   View::kStepped});
  cases.push_back({"embedding_rank0_indices", Op::kEmbedding, ACL_BF16, {5, 3}, 0, {}});
  cases.push_back({"embedding_empty_indices", Op::kEmbedding, ACL_FLOAT, {5, 3}, 0, {0, 2}});
  return cases;
}

class GatherTest : public ::testing::TestWithParam<GatherCase> {};

// Each case runs twice on new tensors: the second call is a plan-cache hit bound to new addresses.
TEST_P(GatherTest, MatchesReferenceTwice) {
  const GatherCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t extent = x.self.empty() ? 1 : x.self[x.dim < 0 ? x.dim + static_cast<int64_t>(x.self.size()) : x.dim];
  const int64_t dim = x.dim < 0 ? x.dim + std::max<int64_t>(static_cast<int64_t>(x.self.size()), 1) : x.dim;
  const Shape outShape = x.op == Op::kEmbedding ? [&] {
    Shape s = x.index;
    s.push_back(x.self[1]);
    return s;
  }()
                                                : GatherShape(x.self, dim, x.index);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    DeviceTensor self(x.dtype, x.self, x.selfView);
    const Values values = self.FillRandom(rng, Range{});
    DeviceTensor index(x.indexDtype, x.index, x.indexView);
    std::vector<int64_t> picks(static_cast<size_t>(NumElements(x.index)));
    Values encoded;
    for (int64_t& p : picks) {
      p = std::min<int64_t>(extent - 1, static_cast<int64_t>(rng.Uniform(0, static_cast<double>(extent))));
      encoded.push_back(static_cast<double>(p));
    }
    index.WriteView(encoded);
    DeviceTensor out(x.dtype, outShape, x.outView);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    const OpRun run = RunGather(x.op, args.Tensor(self), x.dim, args.Tensor(index), args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    if (NumElements(outShape) > 0)
      ExpectExact(out.ReadView(), GatherReference(values, x.self, dim, picks, x.index), x.name);
    ExpectOutsideViewUnchanged(out, before, "out storage");
    ExpectExact(self.ReadView(), values, "self must not change");
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, GatherTest, ::testing::ValuesIn(GatherCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- Index values out of range at run time --------------------------------------------------------

struct OutOfRangeCase {
  std::string name;
  Op op;
  aclDataType indexDtype;
  int64_t bad;  // written at position 2 of the index
};
void PrintTo(const OutOfRangeCase& x, std::ostream* os) { *os << x.name; }

std::vector<OutOfRangeCase> OutOfRangeCases() {
  std::vector<OutOfRangeCase> cases;
  for (Op op : {Op::kGatherV2, Op::kIndexSelect, Op::kEmbedding}) {
    for (aclDataType dtype : {ACL_INT32, ACL_INT64}) {
      // GatherV2 counts a negative index from the end ([-5, 5) valid); the others take [0, 5).
      const int64_t negative = op == Op::kGatherV2 ? -6 : -1;
      for (int64_t bad : {int64_t{5}, negative, int64_t{1000000}, int64_t{-2147483647}}) {
        cases.push_back({std::string(OpName(op)) + "_" + Name(dtype) + "_" + (bad < 0 ? "minus" : "") +
                             std::to_string(bad < 0 ? -bad : bad),
                         op, dtype, bad});
      }
    }
  }
  return cases;
}

class OutOfRangeTest : public ::testing::TestWithParam<OutOfRangeCase> {};

TEST_P(OutOfRangeTest, FailsTheStreamWithAMessageAndWritesNothing) {
  const OutOfRangeCase& x = GetParam();
  const Shape selfShape = {5, 3};  // 5 rows: index values must lie in [0, 5)
  DeviceTensor self(ACL_FLOAT, selfShape);
  Rng rng = Rng::ForCurrentTest();
  self.FillRandom(rng, Range{});
  DeviceTensor index(x.indexDtype, {4});
  index.WriteView({1, 0, static_cast<double>(x.bad), 4});
  DeviceTensor out(ACL_FLOAT, {4, 3});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  const OpRun run = RunGather(x.op, args.Tensor(self), 0, args.Tensor(index), args.Tensor(out));
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);  // phase 1 cannot see the values
  EXPECT_EQ(run.phase2, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("out of range"), std::string::npos) << run.message;
  EXPECT_NE(run.message.find(std::to_string(x.bad)), std::string::npos) << run.message;
  EXPECT_NE(run.message.find(x.op == Op::kEmbedding ? "'indices'" : "'index'"), std::string::npos) << run.message;
  EXPECT_EQ(out.DownloadBytes(), before) << "nothing may be written";
  // The error was reported once: the stream runs the next op.
  index.WriteView({1, 0, 2, 4});
  OpArgs again;
  const OpRun next = RunGather(x.op, again.Tensor(self), 0, again.Tensor(index), again.Tensor(out));
  EXPECT_TRUE(next.ok()) << Describe(next);
}

INSTANTIATE_TEST_SUITE_P(Cases, OutOfRangeTest, ::testing::ValuesIn(OutOfRangeCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// CANN's aclnnGatherV2 runs its kernel with negative_index_support: an index
// value v in [-extent, 0) picks row extent + v (its doc example gathers with
// {-2, -1, 0, 1}). IndexSelect and Embedding keep [0, extent).
TEST(GatherV2, NegativeIndexCountsFromTheEnd) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType indexDtype : {ACL_INT32, ACL_INT64}) {
    for (int64_t dim : {int64_t{0}, int64_t{1}, int64_t{-1}}) {
      SCOPED_TRACE(std::string(Name(indexDtype)) + " dim " + std::to_string(dim));
      const Shape selfShape = {5, 4};
      const int64_t d = dim < 0 ? dim + 2 : dim;
      const int64_t extent = selfShape[d];
      DeviceTensor self(ACL_FLOAT, selfShape);
      const Values values = self.FillRandom(rng, Range{});
      const Shape indexShape = {2, 3};
      std::vector<int64_t> picks;
      Values encoded;
      for (int64_t k = 0; k < NumElements(indexShape); ++k) {
        // both ends of the valid range, then random values in [-extent, extent)
        const int64_t v =
            k == 0   ? -extent
            : k == 1 ? extent - 1
                     : std::min<int64_t>(extent - 1, static_cast<int64_t>(rng.Uniform(-static_cast<double>(extent),
                                                                                      static_cast<double>(extent))));
        encoded.push_back(static_cast<double>(v));
        picks.push_back(v < 0 ? v + extent : v);
      }
      DeviceTensor index(indexDtype, indexShape);
      index.WriteView(encoded);
      const Shape outShape = GatherShape(selfShape, d, indexShape);
      DeviceTensor out(ACL_FLOAT, outShape);
      OpArgs args;
      const OpRun run = RunGather(Op::kGatherV2, args.Tensor(self), dim, args.Tensor(index), args.Tensor(out));
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectExact(out.ReadView(), GatherReference(values, selfShape, d, picks, indexShape), "negative index");
    }
  }
}

// The call of CANN's aclnnGatherV2 doc example, with its printed values.
TEST(GatherV2, CannDocExample) {
  DeviceTensor self(ACL_FLOAT, {2, 2});
  self.WriteView({0, 1, 2, 3});
  DeviceTensor index(ACL_INT64, {2, 2});
  index.WriteView({-2, -1, 0, 1});
  DeviceTensor out(ACL_FLOAT, {2, 2, 2});
  OpArgs args;
  const OpRun run = RunGather(Op::kGatherV2, args.Tensor(self), 0, args.Tensor(index), args.Tensor(out));
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {0, 1, 2, 3, 0, 1, 2, 3}, "doc example");
}

// Every index value is checked even when out is empty or self has no rows.
TEST(OutOfRange, EmptySelfRowsRejectEveryIndex) {
  DeviceTensor self(ACL_FLOAT, {0, 3});
  DeviceTensor index(ACL_INT64, {2});
  index.WriteView({0, 0});
  DeviceTensor out(ACL_FLOAT, {2, 3});
  OpArgs args;
  const OpRun run = RunGather(Op::kIndexSelect, args.Tensor(self), 0, args.Tensor(index), args.Tensor(out));
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("out of range"), std::string::npos) << run.message;
}

// ---- Rejections -------------------------------------------------------------------------------------

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

OpRun Call(Op op, aclDataType selfDtype, const Shape& self, int64_t dim, aclDataType indexDtype, const Shape& index,
           aclDataType outDtype, const Shape& out) {
  OpArgs a;
  return RunGather(op, a.NewTensor(selfDtype, self), dim, a.NewTensorIn(Range{0, 1, 0, 0, true}, indexDtype, index),
                   a.NewTensor(outDtype, out));
}

TEST(GatherRejects, GatherV2) {
  const Op g = Op::kGatherV2;
  ExpectRejected(Call(g, ACL_UINT16, {4, 3}, 0, ACL_INT64, {2}, ACL_UINT16, {2, 3}), "'self'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, 0, ACL_FLOAT, {2}, ACL_FLOAT, {2, 3}), "'index'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, 0, ACL_INT16, {2}, ACL_FLOAT, {2, 3}), "'index'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2}, ACL_FLOAT16, {2, 3}), "'out'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, 2, ACL_INT64, {2}, ACL_FLOAT, {2, 3}), "'dim'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, -3, ACL_INT64, {2}, ACL_FLOAT, {2, 3}), "'dim'");
  ExpectRejected(Call(g, ACL_FLOAT, {}, 1, ACL_INT64, {1}, ACL_FLOAT, {}), "'dim'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2}, ACL_FLOAT, {3, 3}), "'out'");
  ExpectRejected(Call(g, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2, 2}, ACL_FLOAT, {4, 3}), "'out'");
  ExpectRejected(Call(g, ACL_FLOAT, {}, 0, ACL_INT64, {2}, ACL_FLOAT, {}), "rank-0 self");
  EXPECT_TRUE(Call(g, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2, 2}, ACL_FLOAT, {2, 2, 3}).ok());
}

TEST(GatherRejects, IndexSelect) {
  const Op s = Op::kIndexSelect;
  ExpectRejected(Call(s, ACL_FLOAT, {4, 3}, 0, ACL_UINT8, {2}, ACL_FLOAT, {2, 3}), "'index'");
  ExpectRejected(Call(s, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2}, ACL_DOUBLE, {2, 3}), "'out'");
  ExpectRejected(Call(s, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2, 1}, ACL_FLOAT, {2, 3}), "'index'");
  ExpectRejected(Call(s, ACL_FLOAT, {4, 3}, 2, ACL_INT64, {2}, ACL_FLOAT, {4, 2}), "'dim'");
  ExpectRejected(Call(s, ACL_FLOAT, {4, 3}, 1, ACL_INT64, {2}, ACL_FLOAT, {4, 3}), "'out'");
  ExpectRejected(Call(s, ACL_FLOAT, {}, 0, ACL_INT64, {1}, ACL_FLOAT, {1}), "out");
  ExpectRejected(Call(s, ACL_FLOAT, {}, 0, ACL_INT64, {3}, ACL_FLOAT, {}), "rank-0 self");
  EXPECT_TRUE(Call(s, ACL_FLOAT, {4, 3}, -1, ACL_INT32, {5}, ACL_FLOAT, {4, 5}).ok());
}

TEST(GatherRejects, Embedding) {
  const Op e = Op::kEmbedding;
  ExpectRejected(Call(e, ACL_UINT32, {4, 3}, 0, ACL_INT64, {2}, ACL_UINT32, {2, 3}), "'weight'");
  ExpectRejected(Call(e, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2}, ACL_INT32, {2, 3}), "'out'");
  ExpectRejected(Call(e, ACL_FLOAT, {4, 3}, 0, ACL_DOUBLE, {2}, ACL_FLOAT, {2, 3}), "'indices'");
  ExpectRejected(Call(e, ACL_FLOAT, {4, 3, 2}, 0, ACL_INT64, {2}, ACL_FLOAT, {2, 3, 2}), "'weight'");
  ExpectRejected(Call(e, ACL_FLOAT, {4}, 0, ACL_INT64, {2}, ACL_FLOAT, {2}), "'weight'");
  ExpectRejected(Call(e, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2}, ACL_FLOAT, {2, 4}), "'out'");
  ExpectRejected(Call(e, ACL_FLOAT, {4, 3}, 0, ACL_INT64, {2, 2}, ACL_FLOAT, {4, 3}), "'out'");
}

// ---- IndexCopy / InplaceIndexCopy -----------------------------------------------------------------

const std::vector<aclDataType> kIndexCopyDtypes = {ACL_FLOAT,  ACL_BF16,       ACL_FLOAT16,   ACL_INT32,
                                                   ACL_INT64,  ACL_INT16,      ACL_INT8,      ACL_UINT8,
                                                   ACL_DOUBLE, ACL_COMPLEX128, ACL_COMPLEX64, ACL_BOOL};

OpRun RunIndexCopy(bool inPlace, aclTensor* self, int64_t dim, aclTensor* index, aclTensor* source, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return inPlace ? aclnnInplaceIndexCopyGetWorkspaceSize(self, dim, index, source, workspaceSize, executor)
                       : aclnnIndexCopyGetWorkspaceSize(self, dim, index, source, out, workspaceSize, executor);
      },
      inPlace ? aclnnInplaceIndexCopy : aclnnIndexCopy);
}

struct IndexCopyCase {
  std::string name;
  bool inPlace;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {5, 4};
  int64_t dim = 0;
  Shape index = {3};
  aclDataType indexDtype = ACL_INT64;
  View selfView = kContiguous;
  View sourceView = kContiguous;
  View outView = kContiguous;
  std::vector<int64_t> picks = {};  // empty: drawn at random (with duplicates)
};
void PrintTo(const IndexCopyCase& x, std::ostream* os) { *os << x.name; }

std::vector<IndexCopyCase> IndexCopyCases() {
  std::vector<IndexCopyCase> cases;
  for (bool inPlace : {true, false}) {
    const std::string f = inPlace ? "inplace_" : "out_";
    for (aclDataType dtype : kIndexCopyDtypes) cases.push_back({f + Name(dtype), inPlace, dtype});
    cases.push_back({f + "dim1_s32_duplicates_last_wins",
                     inPlace,
                     ACL_FLOAT,
                     {3, 5, 2},
                     1,
                     {4},
                     ACL_INT32,
                     kContiguous,
                     kContiguous,
                     kContiguous,
                     {2, 0, 2, 4}});
    cases.push_back({f + "negative_dim", inPlace, ACL_INT32, {3, 5, 2}, -1, {2}});
    cases.push_back({f + "rank0_index", inPlace, ACL_FLOAT16, {4, 3}, 0, {}});
    cases.push_back({f + "rank0_self", inPlace, ACL_DOUBLE, {}, 0, {1}});
    cases.push_back({f + "transposed",
                     inPlace,
                     ACL_FLOAT,
                     {6, 5},
                     1,
                     {3},
                     ACL_INT64,
                     View::kTransposed,
                     View::kTransposed,
                     View::kTransposed});
    cases.push_back({f + "stepped",
                     inPlace,
                     ACL_BF16,
                     {4, 3, 5},
                     2,
                     {4},
                     ACL_INT32,
                     View::kStepped,
                     View::kStepped,
                     View::kStepped});
    cases.push_back({f + "empty_index", inPlace, ACL_FLOAT, {3, 4}, 0, {0}});
    cases.push_back({f + "rank8", inPlace, ACL_FLOAT, {2, 1, 2, 3, 1, 2, 1, 2}, 3, {2}});
  }
  return cases;
}

class IndexCopyTest : public ::testing::TestWithParam<IndexCopyCase> {};

TEST_P(IndexCopyTest, MatchesReference) {
  const IndexCopyCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const auto rank = static_cast<int64_t>(x.self.size());
  const int64_t dim = x.dim < 0 ? x.dim + std::max<int64_t>(rank, 1) : x.dim;
  const Shape selfShape = x.self.empty() ? Shape{1} : x.self;
  const int64_t count = NumElements(x.index);
  Shape sourceShape = x.self;
  if (!x.self.empty()) sourceShape[dim] = count;
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values original = self.FillRandom(rng, Range{});
  DeviceTensor source(x.dtype, sourceShape, x.sourceView);
  const Values slices = source.FillRandom(rng, Range{});
  std::vector<int64_t> picks = x.picks;
  Values encoded;
  for (int64_t k = 0; k < count; ++k) {
    if (x.picks.empty()) {
      picks.push_back(std::min<int64_t>(selfShape[dim] - 1,
                                        static_cast<int64_t>(rng.Uniform(0, static_cast<double>(selfShape[dim])))));
    }
    encoded.push_back(static_cast<double>(picks[k]));
  }
  DeviceTensor index(x.indexDtype, x.index);
  index.WriteView(encoded);
  DeviceTensor out(x.dtype, x.self, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = (x.inPlace ? self : out).DownloadBytes();
  OpArgs args;
  const OpRun run = RunIndexCopy(x.inPlace, args.Tensor(self), x.dim, args.Tensor(index), args.Tensor(source),
                                 x.inPlace ? nullptr : args.Tensor(out));
  ASSERT_TRUE(run.ok()) << Describe(run);
  // out = self, then each k in order writes source's slice k at picks[k] (duplicates: the last wins).
  Values want = original;
  const Shape sliceShape = x.self.empty() ? Shape{1} : sourceShape;
  for (int64_t i = 0; i < NumElements(sliceShape); ++i) {
    Shape at = Unravel(i, sliceShape);
    const int64_t k = at[dim];
    at[dim] = picks[k];
    want[Ravel(at, selfShape)] = slices[i];
  }
  const DeviceTensor& result = x.inPlace ? self : out;
  ExpectExact(result.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(result, before, "result storage");
  ExpectExact(source.ReadView(), slices, "source must not change");
  if (!x.inPlace) ExpectExact(self.ReadView(), original, "selfRef must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, IndexCopyTest, ::testing::ValuesIn(IndexCopyCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// A rank-0 source fills one element of a rank-1 selfRef.
TEST(IndexCopy, ScalarSourceIntoVector) {
  DeviceTensor self(ACL_INT64, {4});
  self.WriteView({1, 2, 3, 4});
  DeviceTensor source(ACL_INT64, Shape{});
  source.WriteView({9});
  DeviceTensor index(ACL_INT32, {1});
  index.WriteView({2});
  OpArgs args;
  const OpRun run = RunIndexCopy(true, args.Tensor(self), 0, args.Tensor(index), args.Tensor(source), nullptr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(self.ReadView(), {1, 2, 9, 4}, "selfRef");
}

TEST(IndexCopy, OutOfRangeWritesNothing) {
  for (bool inPlace : {true, false}) {
    for (int64_t bad : {int64_t{4}, int64_t{-1}}) {
      SCOPED_TRACE(std::string(inPlace ? "inplace " : "out ") + std::to_string(bad));
      DeviceTensor self(ACL_FLOAT, {4, 3});
      Rng rng = Rng::ForCurrentTest();
      self.FillRandom(rng, Range{});
      DeviceTensor source(ACL_FLOAT, {3, 3});
      source.FillRandom(rng, Range{});
      DeviceTensor index(ACL_INT64, {3});
      index.WriteView({0, static_cast<double>(bad), 1});
      DeviceTensor out(ACL_FLOAT, {4, 3});
      out.Poison();
      const std::vector<uint8_t> before = (inPlace ? self : out).DownloadBytes();
      OpArgs args;
      const OpRun run = RunIndexCopy(inPlace, args.Tensor(self), 0, args.Tensor(index), args.Tensor(source),
                                     inPlace ? nullptr : args.Tensor(out));
      EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
      EXPECT_NE(run.message.find("out of range"), std::string::npos) << run.message;
      EXPECT_EQ((inPlace ? self : out).DownloadBytes(), before) << "nothing may be written";
    }
  }
}

OpRun CallIndexCopy(aclDataType selfDtype, const Shape& self, int64_t dim, aclDataType indexDtype, const Shape& index,
                    aclDataType sourceDtype, const Shape& source, aclDataType outDtype, const Shape& out,
                    aclFormat outFormat = ACL_FORMAT_ND) {
  OpArgs a;
  return RunIndexCopy(false, a.NewTensor(selfDtype, self), dim,
                      a.NewTensorIn(Range{0, 1, 0, 0, true}, indexDtype, index), a.NewTensor(sourceDtype, source),
                      a.NewTensor(outDtype, out, kContiguous, outFormat));
}

TEST(IndexCopyRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT;
  const aclDataType i = ACL_INT64;
  ExpectRejected(CallIndexCopy(ACL_UINT32, {4, 3}, 0, i, {2}, ACL_UINT32, {2, 3}, ACL_UINT32, {4, 3}), "'selfRef'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, ACL_FLOAT, {2}, f, {2, 3}, f, {4, 3}), "'index'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2}, ACL_FLOAT16, {2, 3}, f, {4, 3}), "'source'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2}, f, {2, 3}, ACL_DOUBLE, {4, 3}), "'outRef'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2}, f, {2, 3}, f, {4, 4}), "'outRef'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2}, f, {2, 3}, f, {4, 3}, ACL_FORMAT_NCHW), "format");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2, 1}, f, {2, 3}, f, {4, 3}), "'index'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {3}, f, {2, 3}, f, {4, 3}), "'index'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2}, f, {2, 4}, f, {4, 3}), "'source'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {2}, f, {2, 3, 1}, f, {4, 3}), "'source'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 2, i, {2}, f, {2, 3}, f, {4, 3}), "'dim'");
  ExpectRejected(CallIndexCopy(f, {4}, 0, i, {2}, f, {}, f, {4}), "'source'");
  ExpectRejected(CallIndexCopy(f, {4, 3}, 0, i, {1}, f, {}, f, {4, 3}), "'source'");
  // A rank-0 selfRef is one slice of one element: source is rank 0 or [count]
  // (an adversarial pass: [2, 300] was accepted and wrote a 300-float row into it).
  ExpectRejected(CallIndexCopy(f, {}, 0, i, {2}, f, {2, 300}, f, {}), "'source'");
  EXPECT_TRUE(CallIndexCopy(f, {4, 3}, -2, ACL_INT32, {2}, f, {2, 3}, f, {4, 3}).ok());
}

// A rank-0 selfRef takes source values of rank 0 or 1 (the last index wins).
TEST(IndexCopy, RankZeroSelf) {
  for (bool inPlace : {true, false}) {
    SCOPED_TRACE(inPlace ? "inplace" : "out");
    DeviceTensor self(ACL_FLOAT, Shape{}), out(ACL_FLOAT, Shape{});
    self.WriteView({42});
    out.Poison();
    DeviceTensor source(ACL_FLOAT, {3});
    source.WriteView({1, 2, 3});
    DeviceTensor index(ACL_INT64, {3});
    index.WriteView({0, 0, 0});
    OpArgs args;
    const OpRun run = RunIndexCopy(inPlace, args.Tensor(self), 0, args.Tensor(index), args.Tensor(source),
                                   inPlace ? nullptr : args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectExact((inPlace ? self : out).ReadView(), {3}, "selfRef");
  }
}

}  // namespace
}  // namespace canopy_test
