// GroupedMatmulV3 through the public C API against a float64 reference on
// random non-zero data: every documented unquantised form (lists of products,
// products stacked along M, x's rows split among the weights by a group list
// read at run time, K split), FLOAT16 / BFLOAT16 / FLOAT, biases, transposed
// weights, empty groups, a group list that is invalid at run time, and each
// rejection with its status code.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_grouped_matmul_v3.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

aclDataType BiasDtype(aclDataType x) { return x == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT; }

// out[r, c] (+)= sum_k a[r, k0 + kk] * b[k0 + kk, c] for kk in [0, k), over a [rows, lda] and b [.., n].
void AddProduct(const Values& a, int64_t lda, int64_t r0, int64_t rows, const Values& b, int64_t n, int64_t k0,
                int64_t k, const Values* bias, aclDataType dtype, Expected& want, int64_t at) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      double sum = bias != nullptr ? (*bias)[c].real() : 0.0, magnitude = std::abs(sum);
      for (int64_t kk = k0; kk < k0 + k; ++kk) {
        const double term = a[(r0 + r) * lda + kk].real() * b[kk * n + c].real();
        sum += term;
        magnitude += std::abs(term);
      }
      want.values[at + r * n + c] = sum;
      want.tolerance[at + r * n + c] =
          2 * UnitRoundoff(dtype) * std::abs(sum) + static_cast<double>(k + 4) * UnitRoundoff(ACL_FLOAT) * magnitude;
    }
  }
}

Expected Zeros(int64_t count) {
  Expected e;
  e.values.assign(count, 0.0);
  e.tolerance.assign(count, 0.0);
  return e;
}

// A descriptor made inside the call (lists free the members they hold, so every
// descriptor of one call comes from that call's OpArgs).
using Make = std::function<aclTensor*(OpArgs&)>;
Make Dev(const DeviceTensor& t) {
  return [&t](OpArgs& a) { return a.Tensor(t); };
}
Make New(aclDataType dtype, const Shape& shape) {
  return [dtype, shape](OpArgs& a) { return a.NewTensor(dtype, shape); };
}
std::vector<Make> Devs(const std::vector<TensorPtr>& tensors) {
  std::vector<Make> makes;
  for (const TensorPtr& t : tensors) makes.push_back(Dev(*t));
  return makes;
}

OpRun RunGmm(const std::vector<Make>& x, const std::vector<Make>& w, const std::vector<Make>& bias,
             const Make& groupList, int64_t splitItem, int64_t groupType, const std::vector<Make>& y,
             bool withScale = false) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        auto list = [&](const std::vector<Make>& makes) {
          std::vector<aclTensor*> tensors;
          for (const Make& make : makes) tensors.push_back(make(args));
          return args.TensorList(tensors);
        };
        aclTensorList* scale = withScale ? list({New(ACL_UINT64, {4})}) : nullptr;
        return aclnnGroupedMatmulV3GetWorkspaceSize(list(x), list(w), bias.empty() ? nullptr : list(bias), scale,
                                                    nullptr, nullptr, nullptr, groupList ? groupList(args) : nullptr,
                                                    splitItem, groupType, list(y), ws, ex);
      },
      aclnnGroupedMatmulV3);
}

// ---- lists of products (groupType -1, or 0 with splitItem 0/1), and products stacked along M ------

struct ListCase {
  std::string name;
  aclDataType dtype;
  int64_t groupType, splitItem;
  bool withBias, transposedWeight;
};
void PrintTo(const ListCase& c, std::ostream* os) { *os << c.name; }

class GroupedMatmulV3Lists : public ::testing::TestWithParam<ListCase> {};

TEST_P(GroupedMatmulV3Lists, MatchesFloat64) {
  const ListCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const bool stacked = c.splitItem >= 2;
  const std::vector<int64_t> ms = {3, 1, 20}, ks = {8, 40, 16}, ns = {5, 12, 33};
  std::vector<TensorPtr> xs, ws, bs, ys;
  std::vector<Values> xv, wv, bv;
  int64_t rows = 0;
  for (size_t i = 0; i < ms.size(); ++i) {
    const int64_t k = stacked ? ks[0] : ks[i], n = stacked ? ns[0] : ns[i];
    xs.push_back(std::make_unique<DeviceTensor>(c.dtype, Shape{ms[i], k}));
    ws.push_back(std::make_unique<DeviceTensor>(c.dtype, Shape{k, n},
                                                c.transposedWeight ? View::kTransposed : View::kContiguous));
    bs.push_back(std::make_unique<DeviceTensor>(BiasDtype(c.dtype), Shape{n}));
    xv.push_back(xs[i]->FillRandom(rng, Range{-1, 1, 0.01}));
    wv.push_back(ws[i]->FillRandom(rng, Range{-1, 1, 0.01}));
    bv.push_back(bs[i]->FillRandom(rng, Range{-1, 1, 0.01}));
    if (!stacked) ys.push_back(std::make_unique<DeviceTensor>(c.dtype, Shape{ms[i], n}));
    rows += ms[i];
  }
  if (stacked) ys.push_back(std::make_unique<DeviceTensor>(c.dtype, Shape{rows, ns[0]}));
  for (auto& y : ys) y->Poison();
  const OpRun run = RunGmm(Devs(xs), Devs(ws), c.withBias ? Devs(bs) : std::vector<Make>{}, nullptr, c.splitItem,
                           c.groupType, Devs(ys));
  ASSERT_TRUE(run.ok()) << Describe(run);
  int64_t row = 0;
  Expected all = Zeros(stacked ? rows * ns[0] : 0);
  for (size_t i = 0; i < xs.size(); ++i) {
    const int64_t k = stacked ? ks[0] : ks[i], n = stacked ? ns[0] : ns[i];
    if (stacked) {
      AddProduct(xv[i], k, 0, ms[i], wv[i], n, 0, k, c.withBias ? &bv[i] : nullptr, c.dtype, all, row * n);
    } else {
      Expected want = Zeros(ms[i] * n);
      AddProduct(xv[i], k, 0, ms[i], wv[i], n, 0, k, c.withBias ? &bv[i] : nullptr, c.dtype, want, 0);
      ExpectNear(ys[i]->ReadView(), want, c.name + " y[" + std::to_string(i) + "]");
    }
    row += ms[i];
  }
  if (stacked) ExpectNear(ys[0]->ReadView(), all, c.name + " y");
}

std::vector<ListCase> ListCases() {
  std::vector<ListCase> cases;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    const std::string d = Name(dt);
    cases.push_back({d + "_lists", dt, -1, 0, false, false});
    cases.push_back({d + "_lists_bias_transposed", dt, -1, 1, true, true});
    cases.push_back({d + "_lists_split_m", dt, 0, 0, true, false});
    cases.push_back({d + "_stacked_m", dt, 0, 2, true, false});
    cases.push_back({d + "_stacked_m_transposed", dt, 0, 3, false, true});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(GroupedMatmulV3, GroupedMatmulV3Lists, ::testing::ValuesIn(ListCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- one x and one y split by a group list ------------------------------------------------------

struct SplitCase {
  std::string name;
  aclDataType dtype;
  bool splitK;
  std::vector<int64_t> groupList;  // cumulative counts
  int64_t m, k, n;
  bool stackedWeight = true;  // M split: one [g, k, n] tensor, else a list of g
  int bias = 0;               // M split: 0 none, 1 one [g, n] tensor, 2 a list of g [n]
  bool transposedWeight = false;
};
void PrintTo(const SplitCase& c, std::ostream* os) { *os << c.name; }

class GroupedMatmulV3Split : public ::testing::TestWithParam<SplitCase> {};

TEST_P(GroupedMatmulV3Split, MatchesFloat64) {
  const SplitCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t g = static_cast<int64_t>(c.groupList.size());
  // CANN's host code: split K takes x as a transposed view ([k, m] storage), split M never.
  DeviceTensor x(c.dtype, {c.m, c.k}, c.splitK ? View::kTransposed : View::kContiguous);
  const Values xv = x.FillRandom(rng, Range{-1, 1, 0.01});
  DeviceTensor list(ACL_INT64, {g});
  Values lv;
  for (int64_t v : c.groupList) lv.push_back(static_cast<double>(v));
  list.WriteView(lv);
  std::vector<TensorPtr> ws, bs;
  std::vector<Values> wv, bv;  // per group [k, n], [n]
  const View wview = c.transposedWeight ? View::kTransposed : View::kContiguous;
  if (c.splitK || c.stackedWeight) {
    ws.push_back(std::make_unique<DeviceTensor>(c.dtype, c.splitK ? Shape{c.k, c.n} : Shape{g, c.k, c.n}, wview));
    const Values all = ws[0]->FillRandom(rng, Range{-1, 1, 0.01});
    for (int64_t i = 0; i < (c.splitK ? 1 : g); ++i) {
      wv.emplace_back(all.begin() + i * c.k * c.n, all.begin() + (i + 1) * c.k * c.n);
    }
  } else {
    for (int64_t i = 0; i < g; ++i) {
      ws.push_back(std::make_unique<DeviceTensor>(c.dtype, Shape{c.k, c.n}, wview));
      wv.push_back(ws.back()->FillRandom(rng, Range{-1, 1, 0.01}));
    }
  }
  if (c.bias == 1) {
    bs.push_back(std::make_unique<DeviceTensor>(BiasDtype(c.dtype), Shape{g, c.n}));
    const Values all = bs[0]->FillRandom(rng, Range{-1, 1, 0.01});
    for (int64_t i = 0; i < g; ++i) bv.emplace_back(all.begin() + i * c.n, all.begin() + (i + 1) * c.n);
  } else if (c.bias == 2) {
    for (int64_t i = 0; i < g; ++i) {
      bs.push_back(std::make_unique<DeviceTensor>(BiasDtype(c.dtype), Shape{c.n}));
      bv.push_back(bs.back()->FillRandom(rng, Range{-1, 1, 0.01}));
    }
  }
  DeviceTensor y(c.dtype, c.splitK ? Shape{g, c.m, c.n} : Shape{c.m, c.n});
  const Values before = y.FillRandom(rng, Range{-3, 3});
  const OpRun run = RunGmm({Dev(x)}, Devs(ws), Devs(bs), Dev(list), 2, c.splitK ? 2 : 0, {Dev(y)});
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want = Zeros(y.numel());
  // Rows past the last group keep their values (CANN: the part the group list does not name is not updated).
  if (!c.splitK) {
    for (int64_t e = c.groupList.back() * c.n; e < y.numel(); ++e)
      want.values[static_cast<size_t>(e)] = before[static_cast<size_t>(e)];
  }
  int64_t begin = 0;
  for (int64_t i = 0; i < g; ++i) {
    const int64_t end = c.groupList[i];
    if (c.splitK) {
      AddProduct(xv, c.k, 0, c.m, wv[0], c.n, begin, end - begin, nullptr, c.dtype, want, i * c.m * c.n);
    } else {
      AddProduct(xv, c.k, begin, end - begin, wv[i], c.n, 0, c.k, c.bias != 0 ? &bv[i] : nullptr, c.dtype, want,
                 begin * c.n);
    }
    begin = end;
  }
  ExpectNear(y.ReadView(), want, c.name);
}

std::vector<SplitCase> SplitCases() {
  std::vector<SplitCase> cases;
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    const std::string d = Name(dt);
    cases.push_back({d + "_split_m", dt, false, {3, 3, 10}, 12, 24, 18, true, 1});
    cases.push_back({d + "_split_m_list_weights", dt, false, {5, 9, 21}, 21, 16, 40, false, 2});
    cases.push_back({d + "_split_k", dt, true, {2, 5, 5, 9}, 6, 9, 20});
  }
  // ggml's MoE decode shape: one token per expert row, a few experts of many.
  cases.push_back({"moe_decode", ACL_FLOAT16, false, {1, 1, 2, 2, 4, 4, 4, 4}, 4, 64, 96, true, 0});
  cases.push_back({"transposed_weights", ACL_FLOAT, false, {7, 13}, 13, 20, 9, true, 0, true});
  cases.push_back({"split_k_transposed", ACL_BF16, true, {10, 30}, 5, 30, 7, true, 0, true});
  cases.push_back({"split_m_large", ACL_BF16, false, {100, 300}, 320, 64, 300, true, 1});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(GroupedMatmulV3, GroupedMatmulV3Split, ::testing::ValuesIn(SplitCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

TEST(GroupedMatmulV3RunTime, InvalidGroupListFailsTheStream) {
  for (const std::vector<int64_t>& bad :
       {std::vector<int64_t>{5, 3}, std::vector<int64_t>{2, 9}, std::vector<int64_t>{-1, 4}}) {
    DeviceTensor x(ACL_FLOAT, {8, 4}), w(ACL_FLOAT, {2, 4, 3}), y(ACL_FLOAT, {8, 3}), list(ACL_INT64, {2});
    Rng rng = Rng::ForCurrentTest();
    x.FillRandom(rng, Range{});
    w.FillRandom(rng, Range{});
    list.WriteView({static_cast<double>(bad[0]), static_cast<double>(bad[1])});
    const OpRun run = RunGmm({Dev(x)}, {Dev(w)}, {}, Dev(list), 2, 0, {Dev(y)});
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
    EXPECT_FALSE(run.ok());
    EXPECT_TRUE(run.phase2 == ACL_ERROR_RT_AICORE_EXCEPTION || run.sync == ACL_ERROR_RT_AICORE_EXCEPTION)
        << Describe(run);
    EXPECT_NE(run.message.find("groupListOptional"), std::string::npos) << run.message;
  }
}

// ---- rejections ---------------------------------------------------------------------------------

TEST(GroupedMatmulV3Rejects, WithCannCodes) {
  const aclDataType f = ACL_FLOAT;
  const auto run = [](int, const std::vector<Make>& x, const std::vector<Make>& w, const std::vector<Make>& b,
                      const Make& gl, int64_t splitItem, int64_t groupType, const std::vector<Make>& y,
                      bool scale = false) { return RunGmm(x, w, b, gl, splitItem, groupType, y, scale).phase1; };
  const int a = 0;
  auto t = [](aclDataType d, const Shape& s) { return New(d, s); };
  auto list = [](std::vector<double> v) { return New(ACL_INT64, {static_cast<int64_t>(v.size())}); };
  // A valid call of each form first.
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3})}), ACLNN_SUCCESS);
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {2, 4, 3})}, {}, list({1, 2}), 2, 0, {t(f, {2, 3})}), ACLNN_SUCCESS);
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3})}, true), invalid);  // scale
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, 1, {t(f, {2, 3})}), invalid);         // split N
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, 5, {t(f, {2, 3})}), invalid);         // groupType
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 4, 0, {t(f, {2, 3})}), invalid);         // splitItem
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 2, -1, {t(f, {2, 3})}), invalid);        // 2 with -1
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {2, 4, 3})}, {}, t(f, {2}), 2, 0, {t(f, {2, 3})}), invalid);    // f32 list
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {2, 4, 3})}, {}, t(ACL_INT64, {2, 1}), 2, 0, {t(f, {2, 3})}), invalid);
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {2, 4, 3})}, {}, nullptr, 2, 0, {t(f, {2, 3})}), invalid);          // no list
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {2, 4, 3})}, {}, list({1, 2, 2}), 2, 0, {t(f, {2, 3})}), invalid);  // 3 for 2
  EXPECT_EQ(run(a, {t(ACL_INT32, {2, 4})}, {t(ACL_INT32, {4, 3})}, {}, nullptr, 0, -1, {t(ACL_INT32, {2, 3})}),
            invalid);  // dtype
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(ACL_FLOAT16, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3})}), invalid);
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(ACL_FLOAT16, {2, 3})}), invalid);
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {5, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3})}), invalid);     // k
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 4})}), invalid);     // y
  EXPECT_EQ(run(a, {t(f, {2, 4, 1})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3})}), invalid);  // 3-D x
  EXPECT_EQ(
      run(a, {t(ACL_BF16, {2, 4})}, {t(ACL_BF16, {4, 3})}, {t(ACL_BF16, {3})}, nullptr, 0, -1, {t(ACL_BF16, {2, 3})}),
      invalid);  // bf16 takes an f32 bias
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {t(f, {4})}, nullptr, 0, -1, {t(f, {2, 3})}), invalid);  // bias n
  EXPECT_EQ(run(a, {t(f, {2, 4}), t(f, {1, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3}), t(f, {1, 3})}),
            invalid);  // lists of different lengths
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {t(f, {3})}, list({2}), 2, 2, {t(f, {1, 2, 3})}),
            invalid);  // bias with a K split
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, list({4}), 0, 2, {t(f, {2, 3})}), invalid);  // K split, y list
  // CANN's host code: x's transpose flag (its view over transposed storage) must be set for a K split of one x
  // and clear for the others; a group list tensor holds at most 1024 values.
  auto transposed = [](aclDataType d, const Shape& s) {
    return Make([d, s](OpArgs& args) { return args.NewTensor(d, s, View::kTransposed); });
  };
  EXPECT_EQ(run(a, {transposed(f, {2, 4})}, {t(f, {4, 3})}, {}, list({4}), 2, 2, {t(f, {1, 2, 3})}), ACLNN_SUCCESS);
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {4, 3})}, {}, list({4}), 2, 2, {t(f, {1, 2, 3})}), invalid);
  EXPECT_EQ(run(a, {transposed(f, {2, 4})}, {t(f, {2, 4, 3})}, {}, list({1, 2}), 2, 0, {t(f, {2, 3})}), invalid);
  EXPECT_EQ(run(a, {transposed(f, {2, 4})}, {t(f, {4, 3})}, {}, nullptr, 0, -1, {t(f, {2, 3})}), invalid);
  EXPECT_EQ(run(a, {t(f, {2, 4})}, {t(f, {1025, 4, 3})}, {}, list(std::vector<double>(1025, 2)), 2, 0, {t(f, {2, 3})}),
            invalid);
  const OpRun null_x = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGroupedMatmulV3GetWorkspaceSize(nullptr, args.TensorList({args.NewTensor(f, {4, 3})}), nullptr,
                                                    nullptr, nullptr, nullptr, nullptr, nullptr, 0, -1,
                                                    args.TensorList({args.NewTensor(f, {2, 3})}), ws, ex);
      },
      aclnnGroupedMatmulV3);
  EXPECT_EQ(null_x.phase1, ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
}  // namespace canopy_test
