// aclnnFlatQuant against a float64 reference: x'' = kroneckerP1 @ x[k] @ kroneckerP2 per matrix,
// quantScale[k] = max|x''[k]| * clipRatio / 7 and out = round(x'' / quantScale[k]) saturated to
// [-8, 7], as INT4 or as INT32 holding eight INT4; f16 and bf16, clip ratios, strided views of every
// operand, the doc's example and every rejection. The products round to x's dtype on the way (as
// CANN's kernel keeps them), so out may differ from the float64 value by one step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_flat_quant.h"
#include "aclnnop/aclnn_flat_quant_v2.h"
#include "aclnnop/aclnn_flat_quant_v3.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType x = ACL_FLOAT16, out = ACL_INT4;
  Shape shape = {3, 4, 16};
  double clip = 1.0;
  View view = View::kContiguous;
  std::string name;
  int version = 1;          // aclnnFlatQuant, V2 or V3
  double dst_type_max = 0;  // V2, V3
  Values group_list;        // V3: empty for none, else groupListOptional's values
  int64_t list_type = 0;    // V3: 0 cumulative, 1 sizes, 2 [index, size] pairs
};

// How many leading matrices V3 quantises (the rest are zeros): the list's count when in (0, k).
int64_t QuantisedMatrices(const Case& c, int64_t k) {
  if (c.group_list.empty()) return k;
  double count = 0;
  if (c.list_type == 0) {
    count = c.group_list.back().real();
  } else {
    const size_t stride = c.list_type == 2 ? 2 : 1;
    for (size_t i = stride - 1; i < c.group_list.size(); i += stride) count += c.group_list[i].real();
  }
  return count > 0 && count < static_cast<double>(k) ? static_cast<int64_t>(count) : k;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Shape OutShape(const Shape& x, aclDataType out) {
  Shape s = x;
  if (out == ACL_INT32) s.back() /= 8;
  return s;
}

// The INT4 values of out read through its view (INT32 words: eight nibbles each, low first).
std::vector<int> OutValues(const DeviceTensor& out, aclDataType dtype, int64_t count) {
  if (dtype == ACL_INT4) return QuantisedValues(out, dtype, count);
  std::vector<int> q;
  for (const Value& v : out.ReadView()) {
    const auto word = static_cast<uint32_t>(static_cast<int32_t>(v.real()));
    for (int n = 0; n < 8; ++n) {
      const int nibble = static_cast<int>((word >> (4 * n)) & 0xFU);
      q.push_back(nibble >= 8 ? nibble - 16 : nibble);
    }
  }
  return q;
}

OpRun RunFlatQuant(const Case& c, const DeviceTensor& x, const DeviceTensor& p1, const DeviceTensor& p2,
                   const DeviceTensor* group_list, const DeviceTensor& out, const DeviceTensor& scale) {
  if (c.version == 3) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnFlatQuantV3GetWorkspaceSize(a.Tensor(x), a.Tensor(p1), a.Tensor(p2),
                                                  group_list != nullptr ? a.Tensor(*group_list) : nullptr, c.clip,
                                                  c.dst_type_max, c.list_type, a.Tensor(out), a.Tensor(scale), w, e);
        },
        aclnnFlatQuantV3);
  }
  if (c.version == 2) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnFlatQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(p1), a.Tensor(p2), c.clip, c.dst_type_max,
                                                  a.Tensor(out), a.Tensor(scale), w, e);
        },
        aclnnFlatQuantV2);
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(p1), a.Tensor(p2), c.clip, a.Tensor(out),
                                              a.Tensor(scale), w, e);
      },
      aclnnFlatQuant);
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t k = c.shape[0], n1 = c.shape[1], n2 = c.shape[2];
  DeviceTensor x(c.x, c.shape, c.view), p1(c.x, {n1, n1}, c.view), p2(c.x, {n2, n2}, c.view);
  const Values xv = x.FillRandom(rng, Range{-2, 2});
  const Values p1v = p1.FillRandom(rng, Range{-1, 1});
  const Values p2v = p2.FillRandom(rng, Range{-1, 1});
  const View out_view = c.out == ACL_INT4 ? View::kContiguous : c.view;
  DeviceTensor out(c.out, OutShape(c.shape, c.out), out_view), scale(ACL_FLOAT, {k}, c.view);
  out.Poison();
  scale.Poison();
  std::unique_ptr<DeviceTensor> group_list;
  if (!c.group_list.empty()) {
    const auto groups = static_cast<int64_t>(c.group_list.size());
    group_list = std::make_unique<DeviceTensor>(ACL_INT64, c.list_type == 2 ? Shape{groups / 2, 2} : Shape{groups});
    group_list->WriteView(c.group_list);
  }
  const OpRun run = RunFlatQuant(c, x, p1, p2, group_list.get(), out, scale);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const std::vector<int> got = OutValues(out, c.out, NumElements(c.shape));
  Values want_scale;
  std::vector<double> want_scale_tolerance;
  int mismatches = 0;
  const auto at = [](const Values& v, int64_t i) { return v[static_cast<size_t>(i)].real(); };
  const int64_t quantised = QuantisedMatrices(c, k);
  for (int64_t m = 0; m < k; ++m) {
    if (m >= quantised) {  // V3's matrices past the group list's count: zeros
      want_scale.push_back(0);
      want_scale_tolerance.push_back(0);
      for (int64_t e = 0; e < n1 * n2; ++e) {
        if (got[static_cast<size_t>(m * n1 * n2 + e)] != 0 && ++mismatches <= 5)
          ADD_FAILURE() << "out[" << m << "][" << e << "] = " << got[static_cast<size_t>(m * n1 * n2 + e)]
                        << ", want 0 past the groups";
      }
      continue;
    }
    std::vector<double> right(static_cast<size_t>(n1 * n2), 0.0), both(static_cast<size_t>(n1 * n2), 0.0);
    for (int64_t i = 0; i < n1; ++i) {
      for (int64_t j = 0; j < n2; ++j) {
        double sum = 0;
        for (int64_t t = 0; t < n2; ++t) sum += at(xv, (m * n1 + i) * n2 + t) * at(p2v, t * n2 + j);
        right[static_cast<size_t>(i * n2 + j)] = sum;
      }
    }
    double max = 0;
    for (int64_t i = 0; i < n1; ++i) {
      for (int64_t j = 0; j < n2; ++j) {
        double sum = 0;
        for (int64_t t = 0; t < n1; ++t) sum += at(p1v, i * n1 + t) * right[static_cast<size_t>(t * n2 + j)];
        both[static_cast<size_t>(i * n2 + j)] = sum;
        max = std::max(max, std::abs(sum));
      }
    }
    want_scale.push_back(max * c.clip / 7);
    // Two products rounded to x's dtype: a few units of its roundoff, relative to the largest value.
    want_scale_tolerance.push_back(max * c.clip / 7 * 8 * UnitRoundoff(c.x));
    for (int64_t e = 0; e < n1 * n2; ++e) {
      const double exact = max > 0 ? both[static_cast<size_t>(e)] * 7 / (c.clip * max) : 0;
      const double want = std::clamp(std::nearbyint(exact), -8.0, 7.0);
      const int g = got[static_cast<size_t>(m * n1 * n2 + e)];
      if (std::abs(g - want) > 1 || (std::abs(g - exact) > 0.5 + 0.05 && std::abs(exact) < 7.5)) {
        if (++mismatches <= 5)
          ADD_FAILURE() << "out[" << m << "][" << e << "] = " << g << ", want " << want << " (" << exact << ")";
      }
    }
  }
  ExpectNear(scale.ReadView(), Expected{want_scale, want_scale_tolerance}, "quantScale");
}

Case MakeCase(aclDataType x, aclDataType out, Shape shape, double clip, View view, const std::string& name) {
  Case c;
  c.x = x;
  c.out = out;
  c.shape = std::move(shape);
  c.clip = clip;
  c.view = view;
  c.name = std::string(Name(x)) + (out == ACL_INT4 ? "_int4_" : "_int32_") + name;
  return c;
}

Case Grouped(Case c, Values list, int64_t list_type) {
  c.version = 3;
  c.group_list = std::move(list);
  c.list_type = list_type;
  return c;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType out : {ACL_INT4, ACL_INT32}) {
      cases.push_back(MakeCase(x, out, {3, 4, 16}, 1.0, View::kContiguous, "typical"));
      cases.push_back(MakeCase(x, out, {2, 5, 24}, 0.5, View::kContiguous, "clip_half"));
      cases.push_back(MakeCase(x, out, {4, 3, 8}, 0.8, View::kTransposed, "transposed_views"));
      cases.push_back(MakeCase(x, out, {1, 6, 32}, 1.0, View::kStepped, "stepped_views"));
      Case v2 = MakeCase(x, out, {2, 4, 16}, 0.9, View::kContiguous, "v2_dst_type_max");
      v2.version = 2;
      v2.dst_type_max = 8;  // the FLOAT4_E2M1 form's: not read by the INT4 form
      cases.push_back(v2);
      cases.push_back(Grouped(MakeCase(x, out, {5, 4, 16}, 1.0, View::kContiguous, "v3_cumulative"), {1, 3}, 0));
      cases.push_back(Grouped(MakeCase(x, out, {5, 4, 16}, 0.7, View::kTransposed, "v3_sizes_views"), {2, 0, 2}, 1));
      cases.push_back(Grouped(MakeCase(x, out, {4, 4, 16}, 1.0, View::kContiguous, "v3_pairs"), {0, 1, 1, 2}, 2));
      cases.push_back(Grouped(MakeCase(x, out, {3, 4, 16}, 1.0, View::kContiguous, "v3_count_past_k"), {2, 4}, 1));
      Case v3 = MakeCase(x, out, {3, 4, 16}, 1.0, View::kStepped, "v3_no_list");
      v3.version = 3;
      cases.push_back(v3);
    }
  }
  return cases;
}

class FlatQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(FlatQuantTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, FlatQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The docs' example: every operand all ones (f16 [16, 16, 16], [16, 16], [16, 16]), clipRatio 1, INT32
// out: x'' is 256 everywhere, so quantScale is 256 / 7 and every INT4 is 7 (0x77777777 a word). V3's
// adds groupListOptional {8} (type 0): matrices 8-15 are zeros.
TEST(FlatQuant, DocExample) {
  for (const int version : {1, 2, 3}) {
    DeviceTensor x(ACL_FLOAT16, {16, 16, 16}), p1(ACL_FLOAT16, {16, 16}), p2(ACL_FLOAT16, {16, 16});
    DeviceTensor list(ACL_INT64, {1}), out(ACL_INT32, {16, 16, 2}), scale(ACL_FLOAT, {16});
    x.WriteView(Values(16 * 16 * 16, 1.0));
    p1.WriteView(Values(16 * 16, 1.0));
    p2.WriteView(Values(16 * 16, 1.0));
    list.WriteView({8});
    Case c;
    c.version = version;
    const OpRun run = RunFlatQuant(c, x, p1, p2, version == 3 ? &list : nullptr, out, scale);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const int64_t quantised = version == 3 ? 8 : 16;
    Values want_out(16 * 16 * 2, 0.0), want_scale(16, 0.0);
    std::fill_n(want_out.begin(), quantised * 16 * 2, static_cast<double>(0x77777777));
    std::fill_n(want_scale.begin(), quantised, 256.0 / 7);
    ExpectExact(out.ReadView(), want_out, "out");
    ExpectNear(scale.ReadView(), RelativeTolerance(want_scale, ACL_FLOAT, 2), "quantScale");
  }
}

struct Call {
  aclDataType x = ACL_FLOAT16, p1 = ACL_FLOAT16, p2 = ACL_FLOAT16, out = ACL_INT4, scale = ACL_FLOAT;
  Shape x_shape = {2, 4, 16}, p1_shape = {4, 4}, p2_shape = {16, 16}, out_shape = {2, 4, 16}, scale_shape = {2};
  double clip = 1.0;
  bool p2_null = false;
  View out_view = View::kContiguous;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantGetWorkspaceSize(a.NewTensor(c.x, c.x_shape), a.NewTensor(c.p1, c.p1_shape),
                                              c.p2_null ? nullptr : a.NewTensor(c.p2, c.p2_shape), c.clip,
                                              a.NewTensor(c.out, c.out_shape, c.out_view),
                                              a.NewTensor(c.scale, c.scale_shape), w, e);
      },
      aclnnFlatQuant);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(FlatQuantRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.out = ACL_INT32;
                c.out_shape = {2, 4, 2};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'kroneckerP2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = c.p1 = c.p2 = ACL_FLOAT; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p1 = ACL_BF16; })), kInvalid, {"'kroneckerP1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2 = ACL_BF16; })), kInvalid, {"'kroneckerP2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_INT8; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_FLOAT4_E2M1; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'quantScale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {2, 1}; })), kInvalid, {"'quantScale'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2_shape = {256}; })), kInvalid, {"'kroneckerP2'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p1_shape = {1, 4, 4}; })), kInvalid, {"'kroneckerP1'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = {8, 16};
                       c.out_shape = {8, 16};
                     })),
                     kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_shape = {2, 64}; })), kInvalid, {"'out'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.out_shape = {0, 4, 16};
                       c.scale_shape = {0};
                     })),
                     kInvalid, {"'x'", "extents"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.out_shape = {2, 4, 258};
                       c.p2_shape = {258, 258};
                     })),
                     kInvalid, {"'x'", "extents"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.out_shape = {2, 4, 15};
                       c.p2_shape = {15, 15};
                     })),
                     kInvalid, {"multiple of 2"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_INT32;
                       c.x_shape = {2, 4, 12};
                       c.p2_shape = {12, 12};
                       c.out_shape = {2, 4, 1};
                     })),
                     kInvalid, {"multiple of 8"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p1_shape = {4, 5}; })), kInvalid, {"'kroneckerP1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2_shape = {8, 8}; })), kInvalid, {"'kroneckerP2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {3}; })), kInvalid, {"'quantScale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_shape = {2, 4, 8}; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_INT32; })), kInvalid, {"'out'"});  // needs [2, 4, 2]
  ExpectRejectedWith(RunCall(With([](Call& c) { c.clip = 0; })), kInvalid, {"'clipRatio'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.clip = 1.5; })), kInvalid, {"'clipRatio'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_view = View::kTransposed; })), kInvalid, {"contiguous"});
}

TEST(FlatQuantV3Rejects, EachCase) {
  const auto run = [](double dst_type_max, int64_t list_type, aclDataType list_dtype, const Shape& list_shape) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnFlatQuantV3GetWorkspaceSize(
              a.NewTensor(ACL_FLOAT16, {2, 4, 16}), a.NewTensor(ACL_FLOAT16, {4, 4}),
              a.NewTensor(ACL_FLOAT16, {16, 16}), list_shape.empty() ? nullptr : a.NewTensor(list_dtype, list_shape),
              1.0, dst_type_max, list_type, a.NewTensor(ACL_INT4, {2, 4, 16}), a.NewTensor(ACL_FLOAT, {2}), w, e);
        },
        aclnnFlatQuantV3);
  };
  EXPECT_EQ(run(0, 0, ACL_INT64, {3}).phase1, ACLNN_SUCCESS);
  EXPECT_EQ(run(12, 2, ACL_INT64, {3, 2}).phase1, ACLNN_SUCCESS);
  EXPECT_TRUE(run(6, 7, ACL_INT64, {}).ok());  // groupListType is not read without a list
  ExpectRejectedWith(run(5, 0, ACL_INT64, {3}), kInvalid, {"'dstTypeMax'"});
  ExpectRejectedWith(run(13, 0, ACL_INT64, {3}), kInvalid, {"'dstTypeMax'"});
  ExpectRejectedWith(run(0, 3, ACL_INT64, {3}), kInvalid, {"'groupListType'"});
  ExpectRejectedWith(run(0, -1, ACL_INT64, {3}), kInvalid, {"'groupListType'"});
  ExpectRejectedWith(run(0, 0, ACL_INT32, {3}), kInvalid, {"'groupListOptional'"});
  ExpectRejectedWith(run(0, 1, ACL_INT64, {3, 2}), kInvalid, {"'groupListOptional'", "[G]"});
  ExpectRejectedWith(run(0, 2, ACL_INT64, {3}), kInvalid, {"'groupListOptional'", "[G, 2]"});
  ExpectRejectedWith(run(0, 2, ACL_INT64, {3, 3}), kInvalid, {"'groupListOptional'", "[G, 2]"});
  ExpectRejectedWith(run(0, 0, ACL_INT64, {1025}), kInvalid, {"'groupListOptional'", "1024"});
  const OpRun v2 = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantV2GetWorkspaceSize(a.NewTensor(ACL_FLOAT16, {2, 4, 16}), a.NewTensor(ACL_FLOAT16, {4, 4}),
                                                a.NewTensor(ACL_FLOAT16, {16, 16}), 1.0, 20.0,
                                                a.NewTensor(ACL_INT4, {2, 4, 16}), a.NewTensor(ACL_FLOAT, {2}), w, e);
      },
      aclnnFlatQuantV2);
  ExpectRejectedWith(v2, kInvalid, {"'dstTypeMax'"});
}

}  // namespace
}  // namespace canopy_test
