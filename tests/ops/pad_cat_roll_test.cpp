// Cat, ConstantPadNd, Roll and ReflectionPad1d through the public C API
// against plain references (exact: these ops move data): every documented
// dtype, strided, transposed, reversed and offset inputs and outputs, negative
// dims, shifts and pads, empty tensors and lists, the patterns ggml's CANN
// backend uses, a plan-cache hit on new addresses, and each rejection with
// its status code.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_roll.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const View kContiguous = View::kContiguous;

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

int64_t Wrap(int64_t i, int64_t n) { return ((i % n) + n) % n; }

// ---- Cat --------------------------------------------------------------------------------------------

const std::vector<aclDataType> kCatDtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
                                             ACL_UINT8, ACL_COMPLEX64, ACL_BF16,  ACL_BOOL,  ACL_DOUBLE};

struct CatMember {
  Shape shape;
  aclDataType dtype = ACL_DT_UNDEFINED;  // undefined: the case's dtype
  View view = kContiguous;
};

struct CatCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;  // the members' (unless a member says otherwise)
  std::vector<CatMember> members;
  int64_t dim = 0;
  aclDataType outDtype = ACL_DT_UNDEFINED;  // undefined: dtype
  View outView = kContiguous;
  aclDataType promoted = ACL_DT_UNDEFINED;  // the members' promoted dtype when they differ
};
void PrintTo(const CatCase& x, std::ostream* os) { *os << x.name; }

std::vector<CatCase> CatCases() {
  std::vector<CatCase> cases;
  for (aclDataType dtype : kCatDtypes)
    cases.push_back({std::string("dtype_") + Name(dtype), dtype, {{{2, 3}}, {{4, 3}}}});
  cases.push_back({"dim1_three_members", ACL_FLOAT, {{{3, 1, 2}}, {{3, 4, 2}}, {{3, 2, 2}}}, 1});
  cases.push_back({"negative_dim", ACL_INT32, {{{3, 2}}, {{3, 5}}}, -1});
  cases.push_back({"strided_members_and_out",
                   ACL_FLOAT16,
                   {{{4, 3}, ACL_DT_UNDEFINED, View::kTransposed},
                    {{4, 2}, ACL_DT_UNDEFINED, View::kStepped},
                    {{4, 1}, ACL_DT_UNDEFINED, View::kReversed}},
                   1,
                   ACL_DT_UNDEFINED,
                   View::kTransposed});
  cases.push_back({"offset_out",
                   ACL_INT64,
                   {{{1, 4}}, {{2, 4}, ACL_DT_UNDEFINED, View::kOffset}},
                   0,
                   ACL_DT_UNDEFINED,
                   View::kOffset});
  cases.push_back({"one_member", ACL_BF16, {{{2, 5}, ACL_DT_UNDEFINED, View::kStepped}}, 1});
  cases.push_back({"empty_member", ACL_FLOAT, {{{2, 3}}, {{0, 3}}, {{1, 3}}}, 0});
  cases.push_back({"erased_1d_empty_members", ACL_FLOAT, {{{0}}, {{2, 3}}, {{0}}, {{2, 3}}}, 1});
  cases.push_back(
      {"s32_and_f16_into_f32", ACL_INT32, {{{2, 3}}, {{1, 3}, ACL_FLOAT16}}, 0, ACL_FLOAT, kContiguous, ACL_FLOAT16});
  cases.push_back(
      {"bool_and_u8_into_s64", ACL_BOOL, {{{2, 2}}, {{2, 3}, ACL_UINT8}}, 1, ACL_INT64, kContiguous, ACL_UINT8});
  cases.push_back({"f32_into_f16", ACL_FLOAT, {{{2, 2}}, {{2, 2}}}, 0, ACL_FLOAT16});
  // ggml: GGML_OP_CONCAT of two 4-D tensors along ggml dim 0 (aclnn dim 3), and RoPE's cos/sin halves.
  cases.push_back({"ggml_concat_dim3", ACL_FLOAT, {{{1, 2, 3, 4}}, {{1, 2, 3, 5}}}, 3});
  cases.push_back({"ggml_concat_dim0", ACL_FLOAT16, {{{2, 2, 3, 4}}, {{1, 2, 3, 4}}}, 0});
  cases.push_back({"rank8", ACL_INT8, {{{1, 2, 1, 2, 1, 2, 1, 2}}, {{1, 2, 1, 2, 1, 2, 1, 1}}}, 7});
  return cases;
}

class CatTest : public ::testing::TestWithParam<CatCase> {};

// Twice on new tensors: the second call is a plan-cache hit bound to new addresses.
TEST_P(CatTest, MatchesReferenceTwice) {
  const CatCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const aclDataType outDtype = x.outDtype == ACL_DT_UNDEFINED ? x.dtype : x.outDtype;
  std::vector<CatMember> kept;
  for (const CatMember& m : x.members) {
    if (!(m.shape.size() == 1 && m.shape[0] == 0)) kept.push_back(m);
  }
  const auto rank = static_cast<int64_t>(kept[0].shape.size());
  const int64_t dim = x.dim < 0 ? x.dim + rank : x.dim;
  Shape outShape = kept[0].shape;
  outShape[dim] = 0;
  for (const CatMember& m : kept) outShape[dim] += m.shape[dim];
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<std::unique_ptr<DeviceTensor>> members;
    std::vector<Values> values;
    std::vector<aclDataType> dtypes;
    for (const CatMember& m : x.members) {
      dtypes.push_back(m.dtype == ACL_DT_UNDEFINED ? x.dtype : m.dtype);
      members.push_back(std::make_unique<DeviceTensor>(dtypes.back(), m.shape, m.view));
      values.push_back(members.back()->FillRandom(rng, Range{-8, 8}));
    }
    DeviceTensor out(outDtype, outShape, x.outView);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          std::vector<aclTensor*> list;
          for (const auto& m : members) list.push_back(args.Tensor(*m));
          return aclnnCatGetWorkspaceSize(args.TensorList(list), x.dim, args.Tensor(out), workspaceSize, executor);
        },
        aclnnCat);
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want;
    for (int64_t i = 0; i < NumElements(outShape); ++i) {
      Shape at = Unravel(i, outShape);
      size_t k = 0;
      for (; k < x.members.size(); ++k) {
        const Shape& s = x.members[k].shape;
        if (s.size() == 1 && s[0] == 0) continue;
        if (at[dim] < s[dim]) break;
        at[dim] -= s[dim];
      }
      Value v = values[k][Ravel(at, x.members[k].shape)];
      if (x.promoted != ACL_DT_UNDEFINED) v = ConvertValue(v, x.promoted);
      want.push_back(ConvertValue(v, outDtype));
    }
    ExpectExact(out.ReadView(), want, x.name);
    ExpectOutsideViewUnchanged(out, before, "out storage");
    for (size_t k = 0; k < members.size(); ++k) ExpectExact(members[k]->ReadView(), values[k], "members unchanged");
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CatTest, ::testing::ValuesIn(CatCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// As CANN has it, a list of nothing but 1-D empty tensors (or no tensors at all) writes nothing.
TEST(Cat, ListsWithoutMembersWriteNothing) {
  for (const size_t count : {size_t{0}, size_t{2}}) {
    DeviceTensor out(ACL_FLOAT, {2, 2});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          std::vector<aclTensor*> list;
          for (size_t i = 0; i < count; ++i) list.push_back(args.NewTensor(ACL_FLOAT, {0}));
          return aclnnCatGetWorkspaceSize(args.TensorList(list), 5, args.Tensor(out), workspaceSize, executor);
        },
        aclnnCat);
    EXPECT_TRUE(run.ok()) << Describe(run);
    EXPECT_EQ(out.DownloadBytes(), before);
  }
}

OpRun CallCat(const std::vector<std::pair<aclDataType, Shape>>& members, int64_t dim, aclDataType outDtype,
              const Shape& outShape, aclFormat memberFormat = ACL_FORMAT_ND, aclFormat outFormat = ACL_FORMAT_ND) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        std::vector<aclTensor*> list;
        for (size_t i = 0; i < members.size(); ++i) {
          list.push_back(
              a.NewTensor(members[i].first, members[i].second, kContiguous, i == 1 ? memberFormat : ACL_FORMAT_ND));
        }
        return aclnnCatGetWorkspaceSize(a.TensorList(list), dim,
                                        a.NewTensor(outDtype, outShape, kContiguous, outFormat), w, e);
      },
      aclnnCat);
}

TEST(CatRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(CallCat({{ACL_UINT16, {2, 2}}, {ACL_UINT16, {2, 2}}}, 0, ACL_UINT16, {4, 2}), "'tensors[0]'");
  ExpectRejected(CallCat({{f, {2, 2}}, {ACL_COMPLEX128, {2, 2}}}, 0, f, {4, 2}), "'tensors[1]'");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 0, ACL_UINT32, {4, 2}), "'out'");
  ExpectRejected(CallCat({{ACL_COMPLEX64, {2, 2}}, {ACL_DOUBLE, {2, 2}}}, 0, ACL_COMPLEX64, {4, 2}), "COMPLEX128");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 0, ACL_INT32, {4, 2}), "'out'");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 0, f, {4, 2}, ACL_FORMAT_NCHW), "format");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 0, f, {4, 2}, ACL_FORMAT_ND, ACL_FORMAT_NCHW), "format");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2, 1}}}, 0, f, {4, 2}), "rank");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 3}}}, 0, f, {4, 2}), "'tensors[1]'");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 2, f, {4, 2}), "'dim'");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, -3, f, {4, 2}), "'dim'");
  ExpectRejected(CallCat({{f, {}}, {f, {}}}, 0, f, {2}), "'dim'");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 0, f, {4, 3}), "'out'");
  ExpectRejected(CallCat({{f, {2, 2}}, {f, {2, 2}}}, 1, f, {4, 2}), "'out'");
  EXPECT_TRUE(CallCat({{f, {2, 2}}, {ACL_INT8, {2, 2}}}, -2, ACL_DOUBLE, {4, 2}).ok());
}

// ---- ConstantPadNd ----------------------------------------------------------------------------------

const std::vector<aclDataType> kPadDtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16,   ACL_INT8,       ACL_DOUBLE,
                                             ACL_INT16, ACL_INT64, ACL_UINT64,    ACL_UINT32,     ACL_UINT16,
                                             ACL_UINT8, ACL_BOOL,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

struct PadCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {3, 4};
  std::vector<int64_t> pad = {1, 2};
  double value = 1.5;
  aclDataType valueDtype = ACL_FLOAT;
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const PadCase& x, std::ostream* os) { *os << x.name; }

std::vector<PadCase> PadCases() {
  std::vector<PadCase> cases;
  for (aclDataType dtype : kPadDtypes) cases.push_back({std::string("dtype_") + Name(dtype), dtype});
  cases.push_back({"two_dims", ACL_FLOAT, {3, 4}, {2, 0, 1, 3}, -2.0});
  cases.push_back({"negative_pads_crop", ACL_INT32, {4, 5}, {-1, 2, 1, -2}, 7, ACL_INT64});
  cases.push_back({"crop_whole_dim_then_pad", ACL_FLOAT, {2, 3}, {-3, 2}, 4});
  cases.push_back({"all_zero_pads", ACL_BF16, {2, 3}, {0, 0, 0, 0}, 9});
  cases.push_back({"empty_pad_list", ACL_INT8, {2, 3}, {}, 9});
  cases.push_back({"rank0", ACL_DOUBLE, {}, {}, 3});
  cases.push_back({"strided_self_and_out",
                   ACL_FLOAT16,
                   {3, 4, 2},
                   {1, 1, 0, 2, 1, 0},
                   0.5,
                   ACL_FLOAT,
                   View::kTransposed,
                   View::kStepped});
  cases.push_back(
      {"reversed_self_offset_out", ACL_UINT8, {3, 4}, {2, 1}, 200, ACL_INT32, View::kReversed, View::kOffset});
  cases.push_back({"empty_self_padded", ACL_FLOAT, {0, 3}, {0, 0, 1, 1}, 2.5});
  cases.push_back({"empty_self_unpadded_dim", ACL_FLOAT, {0, 3}, {1, 1}, 2.5});
  cases.push_back({"bool_value", ACL_FLOAT, {2, 2}, {1, 1}, 1, ACL_BOOL});
  // ggml: GGML_OP_PAD (8 pads, ggml's dim 0 first = aclnn's last), pool2d's -FLT_MAX border,
  // conv-transpose's 2 pads on a 3-D tensor, and flash attention's head-dim padding.
  cases.push_back({"ggml_pad_4d", ACL_FLOAT, {1, 2, 3, 4}, {0, 2, 1, 0, 0, 1, 0, 0}, 0});
  cases.push_back({"ggml_pool_border", ACL_FLOAT, {1, 2, 3, 4}, {1, 1, 2, 2, 0, 0, 0, 0}, -3.4028234663852886e38});
  cases.push_back({"ggml_conv_transpose", ACL_FLOAT16, {1, 3, 5}, {2, 3}, 0});
  cases.push_back({"ggml_fa_head_dim", ACL_FLOAT16, {1, 4, 2, 6}, {0, 2, 0, 0, 0, 0, 0, 0}, 0});
  cases.push_back({"rank8", ACL_INT16, {1, 2, 1, 2, 1, 2, 1, 2}, {1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}, 5});
  return cases;
}

class ConstantPadNdTest : public ::testing::TestWithParam<PadCase> {};

TEST_P(ConstantPadNdTest, MatchesReference) {
  const PadCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const auto rank = static_cast<int64_t>(x.self.size());
  Shape outShape = x.self;
  std::vector<int64_t> front(static_cast<size_t>(rank), 0);
  for (size_t i = 0; i < x.pad.size() / 2; ++i) {
    const size_t d = static_cast<size_t>(rank) - 1 - i;
    outShape[d] += x.pad[2 * i] + x.pad[2 * i + 1];
    front[d] = x.pad[2 * i];
  }
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values values = self.FillRandom(rng, Range{});
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnConstantPadNdGetWorkspaceSize(args.Tensor(self), args.IntArray(x.pad),
                                                  args.Scalar(x.valueDtype, x.value), args.Tensor(out), workspaceSize,
                                                  executor);
      },
      aclnnConstantPadNd);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Value fill = ConvertValue(ConvertValue(x.value, x.valueDtype), x.dtype);
  Values want;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape at = Unravel(i, outShape);
    bool inside = true;
    for (size_t d = 0; d < at.size(); ++d) {
      at[d] -= front[d];
      inside = inside && at[d] >= 0 && at[d] < x.self[d];
    }
    want.push_back(inside ? values[Ravel(at, x.self)] : fill);
  }
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(self.ReadView(), values, "self must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, ConstantPadNdTest, ::testing::ValuesIn(PadCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun CallPad(aclDataType dtype, const Shape& self, const std::vector<int64_t>& pad, aclDataType outDtype,
              const Shape& out, aclFormat selfFormat = ACL_FORMAT_ND, aclFormat outFormat = ACL_FORMAT_ND) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnConstantPadNdGetWorkspaceSize(a.NewTensor(dtype, self, kContiguous, selfFormat), a.IntArray(pad),
                                                  a.Scalar(ACL_FLOAT, 0),
                                                  a.NewTensor(outDtype, out, kContiguous, outFormat), w, e);
      },
      aclnnConstantPadNd);
}

TEST(ConstantPadNdRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(CallPad(f, {2, 3}, {1, 1}, ACL_FLOAT16, {2, 5}), "'out'");
  ExpectRejected(CallPad(f, {2, 3}, {1, 1}, f, {2, 5}, ACL_FORMAT_NCHW, ACL_FORMAT_ND), "format");
  ExpectRejected(CallPad(f, {2, 3}, {1, 1}, f, {1, 2, 5}), "rank");
  ExpectRejected(CallPad(f, {2, 3}, {1, 1, 1}, f, {3, 5}), "'pad'");
  ExpectRejected(CallPad(f, {2, 3}, {1, 1, 1, 1, 1, 1}, f, {4, 5}), "'pad'");
  ExpectRejected(CallPad(f, {2, 3}, {-4, 2}, f, {2, 1}), "'pad'");
  ExpectRejected(CallPad(f, {2, 3}, {2, -4}, f, {2, 1}), "'pad'");
  ExpectRejected(CallPad(f, {2, 3}, {-2, -2}, f, {2, 0}), "'pad'");
  ExpectRejected(CallPad(f, {2, 3}, {INT64_MAX, 1}, f, {2, 3}), "'pad'");
  ExpectRejected(CallPad(f, {2, 3}, {1, 1}, f, {2, 4}), "'out'");
  ExpectRejected(CallPad(f, {2, 3}, {1, 1}, f, {3, 5}), "'out'");
  ExpectRejected(CallPad(f, {2, 3}, {-3, 0, 1, 0}, f, {3, 0}), "extent 0");
  EXPECT_TRUE(CallPad(f, {2, 3}, {-3, 0}, f, {2, 0}).ok());  // cropping to nothing pads nowhere
  EXPECT_TRUE(CallPad(f, {2, 3}, {1, 1}, f, {2, 5}, ACL_FORMAT_ND, ACL_FORMAT_NCHW).ok());
}

// ---- Roll ---------------------------------------------------------------------------------------------

const std::vector<aclDataType> kRollDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_INT8,  ACL_UINT8, ACL_INT32,
                                              ACL_UINT32, ACL_BOOL,    ACL_INT64, ACL_BF16,  ACL_INT16};

struct RollCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Shape x = {4, 5};
  std::vector<int64_t> shifts = {2};
  std::vector<int64_t> dims = {0};
  View xView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const RollCase& x, std::ostream* os) { *os << x.name; }

std::vector<RollCase> RollCases() {
  std::vector<RollCase> cases;
  for (aclDataType dtype : kRollDtypes) cases.push_back({std::string("dtype_") + Name(dtype), dtype});
  cases.push_back({"two_dims_negative", ACL_FLOAT, {3, 4, 5}, {1, -2}, {0, -1}});
  cases.push_back({"shift_beyond_extent", ACL_INT32, {3, 4}, {-11, 9}, {1, 0}});
  cases.push_back({"same_dim_twice_adds", ACL_FLOAT16, {6, 2}, {2, 3}, {0, 0}});
  cases.push_back({"zero_shift", ACL_INT64, {3, 4}, {0}, {1}});
  cases.push_back({"flattened", ACL_FLOAT, {3, 4}, {5}, {}});
  cases.push_back({"flattened_transposed_x_and_out", ACL_BF16, {3, 4}, {-7}, {}, View::kTransposed, View::kTransposed});
  cases.push_back({"strided", ACL_UINT8, {4, 3, 5}, {1, 2, 3}, {0, 1, 2}, View::kStepped, View::kReversed});
  cases.push_back({"offset_out", ACL_BOOL, {5, 3}, {3}, {0}, View::kTransposed, View::kOffset});
  cases.push_back({"rank0", ACL_FLOAT, {}, {3}, {}});
  cases.push_back({"empty_x_any_dims", ACL_FLOAT, {0, 3}, {1}, {7}});
  // ggml's RoPE: swapping pairs (a last dim of 2, shift 1 along dim 3) and the NeoX halves.
  cases.push_back({"ggml_rope_pairs", ACL_FLOAT, {1, 3, 8, 2}, {1}, {3}});
  cases.push_back({"ggml_rope_neox", ACL_FLOAT16, {1, 2, 3, 8}, {4}, {3}});
  cases.push_back({"rank8", ACL_INT8, {2, 1, 2, 3, 1, 2, 1, 3}, {1, 2, -1}, {0, 3, 7}});
  return cases;
}

class RollTest : public ::testing::TestWithParam<RollCase> {};

TEST_P(RollTest, MatchesReference) {
  const RollCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(x.dtype, x.x, x.xView);
  const Values values = self.FillRandom(rng, Range{-8, 8});
  DeviceTensor out(x.dtype, x.x, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnRollGetWorkspaceSize(args.Tensor(self), args.IntArray(x.shifts), args.IntArray(x.dims),
                                         args.Tensor(out), workspaceSize, executor);
      },
      aclnnRoll);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const int64_t n = NumElements(x.x);
  Values want(static_cast<size_t>(n));
  const auto rank = static_cast<int64_t>(x.x.size());
  for (int64_t i = 0; i < n; ++i) {
    if (x.dims.empty()) {
      want[Wrap(i + x.shifts[0], n)] = values[i];
      continue;
    }
    Shape at = Unravel(i, x.x);
    for (size_t k = 0; k < x.dims.size(); ++k) {
      const int64_t d = x.dims[k] < 0 ? x.dims[k] + rank : x.dims[k];
      at[d] = Wrap(at[d] + x.shifts[k], x.x[d]);
    }
    want[Ravel(at, x.x)] = values[i];
  }
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(self.ReadView(), values, "x must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, RollTest, ::testing::ValuesIn(RollCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun CallRoll(aclDataType dtype, const Shape& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims,
               aclDataType outDtype, const Shape& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRollGetWorkspaceSize(a.NewTensor(dtype, x), a.IntArray(shifts), a.IntArray(dims),
                                         a.NewTensor(outDtype, out), w, e);
      },
      aclnnRoll);
}

TEST(RollRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(CallRoll(ACL_DOUBLE, {2, 3}, {1}, {0}, ACL_DOUBLE, {2, 3}), "'x'");
  ExpectRejected(CallRoll(ACL_COMPLEX64, {2, 3}, {1}, {0}, ACL_COMPLEX64, {2, 3}), "'x'");
  ExpectRejected(CallRoll(f, {2, 3}, {1}, {0}, ACL_UINT64, {2, 3}), "'out'");
  ExpectRejected(CallRoll(f, {2, 3}, {1}, {0}, ACL_INT32, {2, 3}), "'out'");
  ExpectRejected(CallRoll(f, {2, 3}, {1}, {0}, f, {3, 2}), "'out'");
  ExpectRejected(CallRoll(f, {2, 3}, {1, 2}, {0}, f, {2, 3}), "'shifts'");
  ExpectRejected(CallRoll(f, {2, 3}, {1, 2}, {}, f, {2, 3}), "'shifts'");
  ExpectRejected(CallRoll(f, {2, 3}, {}, {}, f, {2, 3}), "'shifts'");
  ExpectRejected(CallRoll(f, {2, 3}, {1}, {2}, f, {2, 3}), "'dims'");
  ExpectRejected(CallRoll(f, {2, 3}, {1}, {-3}, f, {2, 3}), "'dims'");
  ExpectRejected(CallRoll(f, {}, {1}, {0}, f, {}), "'dims'");
  EXPECT_TRUE(CallRoll(f, {2, 3}, {1, 1}, {-1, -2}, f, {2, 3}).ok());
}

// ---- ReflectionPad1d ----------------------------------------------------------------------------------

const std::vector<aclDataType> kReflectionDtypes = {ACL_FLOAT, ACL_INT32,     ACL_INT64,      ACL_FLOAT16,
                                                    ACL_INT16, ACL_DOUBLE,    ACL_INT8,       ACL_UINT8,
                                                    ACL_BOOL,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

struct ReflectionCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {2, 3, 5};
  int64_t front = 2, back = 3;
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const ReflectionCase& x, std::ostream* os) { *os << x.name; }

std::vector<ReflectionCase> ReflectionCases() {
  std::vector<ReflectionCase> cases;
  for (aclDataType dtype : kReflectionDtypes) cases.push_back({std::string("dtype_") + Name(dtype), dtype});
  cases.push_back({"rank2", ACL_FLOAT, {3, 4}, 3, 1});
  cases.push_back({"widest_pads", ACL_INT32, {2, 6}, 5, 5});
  cases.push_back({"no_padding", ACL_FLOAT16, {2, 3}, 0, 0});
  cases.push_back({"negative_front_crops", ACL_FLOAT, {2, 2, 6}, -2, 3});
  cases.push_back({"negative_both", ACL_BF16, {2, 6}, -1, -2});
  cases.push_back({"extent1", ACL_INT64, {3, 1}, 0, 0});
  cases.push_back({"strided", ACL_FLOAT, {3, 2, 5}, 4, 1, View::kTransposed, View::kStepped});
  cases.push_back({"reversed_self_offset_out", ACL_INT8, {2, 4, 3}, 1, 2, View::kReversed, View::kOffset});
  cases.push_back({"empty_batch", ACL_FLOAT, {0, 2, 4}, 1, 1});
  // ggml: GGML_OP_PAD_REFLECT_1D, ne[2] * ne[3] folded into the batch of a 3-D view.
  cases.push_back({"ggml_pad_reflect", ACL_FLOAT, {6, 3, 10}, 4, 7});
  return cases;
}

class ReflectionPad1dTest : public ::testing::TestWithParam<ReflectionCase> {};

TEST_P(ReflectionPad1dTest, MatchesReference) {
  const ReflectionCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Shape outShape = x.self;
  const int64_t n = x.self.back();
  outShape.back() += x.front + x.back;
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values values = self.FillRandom(rng, Range{});
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnReflectionPad1dGetWorkspaceSize(args.Tensor(self), args.IntArray({x.front, x.back}),
                                                    args.Tensor(out), workspaceSize, executor);
      },
      aclnnReflectionPad1d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape at = Unravel(i, outShape);
    int64_t j = at.back() - x.front;
    if (j < 0) j = -j;
    if (j >= n) j = 2 * (n - 1) - j;
    at.back() = j;
    want.push_back(values[Ravel(at, x.self)]);
  }
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(self.ReadView(), values, "self must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, ReflectionPad1dTest, ::testing::ValuesIn(ReflectionCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// CANN's example: [[0, 1, 2]] padded by [2, 2].
TEST(ReflectionPad1d, DocumentExample) {
  DeviceTensor self(ACL_INT64, {1, 3});
  self.WriteView({0, 1, 2});
  DeviceTensor out(ACL_INT64, {1, 7});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        return aclnnReflectionPad1dGetWorkspaceSize(args.Tensor(self), args.IntArray({2, 2}), args.Tensor(out), w, e);
      },
      aclnnReflectionPad1d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {2, 1, 0, 1, 2, 1, 0}, "out");
}

OpRun CallReflection(aclDataType dtype, const Shape& self, const std::vector<int64_t>& padding, aclDataType outDtype,
                     const Shape& out, aclFormat outFormat = ACL_FORMAT_ND) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnReflectionPad1dGetWorkspaceSize(a.NewTensor(dtype, self), a.IntArray(padding),
                                                    a.NewTensor(outDtype, out, kContiguous, outFormat), w, e);
      },
      aclnnReflectionPad1d);
}

TEST(ReflectionPad1dRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(CallReflection(ACL_UINT16, {2, 3}, {1, 1}, ACL_UINT16, {2, 5}), "'self'");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1}, ACL_UINT32, {2, 5}), "'out'");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1}, ACL_DOUBLE, {2, 5}), "'out'");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1}, f, {2, 5}, ACL_FORMAT_NCL), "format");
  ExpectRejected(CallReflection(f, {3}, {1, 1}, f, {5}), "'self'");
  ExpectRejected(CallReflection(f, {1, 2, 2, 3}, {1, 1}, f, {1, 2, 2, 5}), "'self'");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1}, f, {1, 2, 5}), "rank");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1, 0}, f, {2, 5}), "'padding'");
  ExpectRejected(CallReflection(f, {2, 3}, {3, 0}, f, {2, 6}), "'padding'");
  ExpectRejected(CallReflection(f, {2, 3}, {0, 3}, f, {2, 6}), "'padding'");
  ExpectRejected(CallReflection(f, {2, 3}, {-4, 0}, f, {2, 0}), "'padding'");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1}, f, {2, 4}), "'out'");
  ExpectRejected(CallReflection(f, {2, 3}, {1, 1}, f, {3, 5}), "'out'");
  ExpectRejected(CallReflection(f, {0, 3}, {1, 1}, f, {0, 5}), "empty");
  ExpectRejected(CallReflection(f, {2, 0, 3}, {1, 1}, f, {2, 0, 5}), "empty");
  EXPECT_TRUE(CallReflection(f, {2, 2, 3}, {-1, -2}, f, {2, 2, 0}).ok());
  EXPECT_TRUE(CallReflection(f, {2, 3}, {2, 2}, f, {2, 7}).ok());
}

}  // namespace
}  // namespace canopy_test
