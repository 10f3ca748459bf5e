// aclnnAscendQuant, aclnnAscendQuantV3 and aclnnAscendAntiQuant against float64 references:
// y = clamp(round_mode(x * s + offset)) and y = (x + offset) * s (s = scale,
// squared in sqrt mode) per index of one axis or per tensor; INT8, INT4 and
// INT32 (eight INT4) storage, every round mode, every float dtype, strided
// views, empty tensors, the docs' examples and every rejection.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

// The quantised values of a tensor: INT8 elements or the INT4 nibbles of its bytes (low nibble first).
std::vector<int> Nibbles(const std::vector<uint8_t>& bytes, int64_t count) {
  std::vector<int> q;
  for (int64_t i = 0; i < count; ++i) {
    const int nibble = (bytes[static_cast<size_t>(i / 2)] >> (i % 2 == 0 ? 0 : 4)) & 0xF;
    q.push_back(nibble >= 8 ? nibble - 16 : nibble);
  }
  return q;
}

// Index of the scale for element e of a row-major `shape` along `dim` (-1: one scale).
int64_t ParamIndex(const Shape& shape, int64_t dim, int64_t e) {
  if (dim < 0) return 0;
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  return e / inner % shape[static_cast<size_t>(dim)];
}

struct QuantCase {
  aclDataType x = ACL_FLOAT, scale = ACL_FLOAT, y = ACL_INT8;
  Shape shape = {6, 16};
  int32_t axis = -1;
  bool per_axis = true, offset = true, sqrt = false;
  std::string round = "round";
  View view = View::kContiguous;
  std::string name;
  bool v1 = false;    // aclnnAscendQuant (no axis: the last dim)
  Shape scale_shape;  // empty: [count]
};

void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

double RoundAs(double v, const std::string& mode) {
  if (mode == "ceil") return std::ceil(v);
  if (mode == "floor") return std::floor(v);
  if (mode == "trunc") return std::trunc(v);
  return std::nearbyint(v);
}

void RunQuant(const QuantCase& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.x, c.shape, c.view);
  const Values xv = x.FillRandom(rng, Range{-40, 40});
  const int64_t rank = static_cast<int64_t>(c.shape.size());
  const int64_t dim = c.axis < 0 ? c.axis + rank : c.axis;
  const int64_t count = c.per_axis ? c.shape[static_cast<size_t>(dim)] : 1;
  const Shape scale_shape = c.scale_shape.empty() ? Shape{count} : c.scale_shape;
  DeviceTensor scale(c.scale, scale_shape), offset(c.scale, scale_shape);
  const Values sv = scale.FillRandom(rng, Range{0.5, 4});
  const Values ov = offset.FillRandom(rng, Range{-3, 3});
  Shape y_shape = c.shape;
  if (c.y == ACL_INT32) y_shape.back() /= 8;
  DeviceTensor y(c.y, y_shape, c.y == ACL_INT8 ? c.view : View::kContiguous);
  y.Poison();
  const OpRun run = c.v1 ? RunOp(
                               [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                                 return aclnnAscendQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale),
                                                                         c.offset ? a.Tensor(offset) : nullptr, c.sqrt,
                                                                         c.round.c_str(), c.y, a.Tensor(y), w, e);
                               },
                               aclnnAscendQuant)
                         : RunOp(
                               [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                                 return aclnnAscendQuantV3GetWorkspaceSize(
                                     a.Tensor(x), a.Tensor(scale), c.offset ? a.Tensor(offset) : nullptr, c.sqrt,
                                     c.round.c_str(), c.y, c.axis, a.Tensor(y), w, e);
                               },
                               aclnnAscendQuantV3);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const bool int4 = c.y != ACL_INT8;
  const int64_t n = NumElements(c.shape);
  std::vector<int> got;
  if (int4) {
    got = Nibbles(y.DownloadBytes(), n);
  } else {
    for (const Value& v : y.ReadView()) got.push_back(static_cast<int>(v.real()));
  }
  int mismatches = 0;
  for (int64_t e = 0; e < n; ++e) {
    const int64_t p = ParamIndex(c.shape, c.per_axis ? dim : -1, e);
    double s = sv[static_cast<size_t>(p)].real();
    if (c.sqrt) s *= s;
    const double exact = xv[static_cast<size_t>(e)].real() * s + (c.offset ? ov[static_cast<size_t>(p)].real() : 0.0);
    const double want = std::clamp(RoundAs(exact, c.round), int4 ? -8.0 : -128.0, int4 ? 7.0 : 127.0);
    // Within f32 rounding of a rounding boundary either neighbour is right.
    const double frac = exact - std::floor(exact);
    const bool boundary = std::min({frac, 1 - frac, std::abs(frac - 0.5)}) < 1e-4;
    const int g = got[static_cast<size_t>(e)];
    if (g != want && !(boundary && std::abs(g - want) <= 1)) {
      if (++mismatches <= 5) ADD_FAILURE() << "y[" << e << "] = " << g << ", want " << want << " (" << exact << ")";
    }
  }
}

std::vector<QuantCase> QuantCases() {
  std::vector<QuantCase> cases;
  for (aclDataType x : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType y : {ACL_INT8, ACL_INT4, ACL_INT32}) {
      QuantCase c;
      c.x = c.scale = x;
      c.y = y;
      c.name = std::string(Name(x)) + "_to_" + (y == ACL_INT8 ? "int8" : y == ACL_INT4 ? "int4" : "int32");
      cases.push_back(c);
    }
  }
  for (const std::string mode : {"ceil", "floor", "trunc"}) {
    QuantCase c;
    c.round = mode;
    c.name = "round_mode_" + mode;
    cases.push_back(c);
  }
  QuantCase axis2;
  axis2.shape = {3, 5, 8};
  axis2.axis = -2;
  axis2.sqrt = true;
  axis2.name = "axis_minus2_sqrt";
  cases.push_back(axis2);
  QuantCase axis_positive = axis2;
  axis_positive.axis = 2;
  axis_positive.y = ACL_INT4;
  axis_positive.name = "axis_2_int4";
  cases.push_back(axis_positive);
  QuantCase per_tensor;
  per_tensor.per_axis = false;
  per_tensor.offset = false;
  per_tensor.scale = ACL_BF16;
  per_tensor.name = "per_tensor_no_offset_bf16_scale";
  cases.push_back(per_tensor);
  QuantCase rank1;
  rank1.shape = {24};
  rank1.name = "rank1";
  cases.push_back(rank1);
  QuantCase strided;
  strided.view = View::kTransposed;
  strided.x = strided.scale = ACL_FLOAT16;
  strided.name = "strided_views";
  cases.push_back(strided);
  QuantCase stepped;
  stepped.shape = {4, 6, 10};
  stepped.view = View::kStepped;
  stepped.name = "stepped_views";
  cases.push_back(stepped);
  return cases;
}

// AscendQuant: the last dim only; scale of x's dtype unless x is f32, any rank with the other dims 1.
std::vector<QuantCase> QuantV1Cases() {
  std::vector<QuantCase> cases;
  for (QuantCase c : QuantCases()) {
    if (c.axis != -1) continue;
    c.v1 = true;
    if (c.x != ACL_FLOAT) c.scale = c.x;
    cases.push_back(c);
  }
  QuantCase f32_f16_scale;
  f32_f16_scale.v1 = true;
  f32_f16_scale.scale = ACL_FLOAT16;
  f32_f16_scale.sqrt = true;
  f32_f16_scale.name = "f32_x_f16_scale_sqrt";
  cases.push_back(f32_f16_scale);
  QuantCase rank3_scale;
  rank3_scale.v1 = true;
  rank3_scale.shape = {2, 3, 16};
  rank3_scale.scale_shape = {1, 1, 16};
  rank3_scale.x = rank3_scale.scale = ACL_BF16;
  rank3_scale.view = View::kStepped;
  rank3_scale.name = "scale_1x1x16_bf16_stepped";
  cases.push_back(rank3_scale);
  QuantCase one_scale;
  one_scale.v1 = true;
  one_scale.per_axis = false;
  one_scale.scale_shape = {1, 1};
  one_scale.y = ACL_INT32;
  one_scale.name = "scale_1x1_int32";
  cases.push_back(one_scale);
  return cases;
}

class AscendQuantTest : public ::testing::TestWithParam<QuantCase> {};
TEST_P(AscendQuantTest, MatchesReference) { RunQuant(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, AscendQuantTest, ::testing::ValuesIn(QuantV1Cases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return SanitizeName(info.param.name); });

class AscendQuantV3Test : public ::testing::TestWithParam<QuantCase> {};
TEST_P(AscendQuantV3Test, MatchesReference) { RunQuant(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, AscendQuantV3Test, ::testing::ValuesIn(QuantCases()),
                         [](const ::testing::TestParamInfo<QuantCase>& info) { return SanitizeName(info.param.name); });

// The doc's example: x [4, 2] = 0..7 f32, scale = offset = [1, 2], INT8, round, axis -1.
TEST(AscendQuantV3, DocExample) {
  DeviceTensor x(ACL_FLOAT, {4, 2}), scale(ACL_FLOAT, {2}), offset(ACL_FLOAT, {2}), y(ACL_INT8, {4, 2});
  x.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  scale.WriteView({1, 2});
  offset.WriteView({1, 2});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendQuantV3GetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(offset), false, "round", 2, -1,
                                                  a.Tensor(y), w, e);
      },
      aclnnAscendQuantV3);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Expected{{1, 4, 3, 8, 5, 12, 7, 16}, std::vector<double>(8, 0.0)}, "y");
}

TEST(AscendQuantV3, SaturatesAndEmpty) {
  DeviceTensor x(ACL_FLOAT, {4}), scale(ACL_FLOAT, {1}), y(ACL_INT8, {4});
  x.WriteView({1000, -1000, 127.4, -128.6});
  scale.WriteView({1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendQuantV3GetWorkspaceSize(a.Tensor(x), a.Tensor(scale), nullptr, false, "round", 2, -1,
                                                  a.Tensor(y), w, e);
      },
      aclnnAscendQuantV3);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Expected{{127, -128, 127, -128}, std::vector<double>(4, 0.0)}, "y");
  DeviceTensor ex(ACL_FLOAT16, {0, 8}), ey(ACL_INT8, {0, 8}), es(ACL_FLOAT16, {8});
  const OpRun empty = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendQuantV3GetWorkspaceSize(a.Tensor(ex), a.Tensor(es), nullptr, false, "round", 2, -1,
                                                  a.Tensor(ey), w, e);
      },
      aclnnAscendQuantV3);
  EXPECT_TRUE(empty.ok()) << Describe(empty);
}

// An INT4 output that starts on a high nibble (an odd storage offset) has no
// byte address: refused (161002) for every op, as QuantMatmulV5 already did.
// An adversarial pass found AscendQuantV3 and DynamicQuant writing such a view
// a nibble early (over the element before it, the last one never written).
TEST(AscendQuantV3, Int4OutputOnAHalfByteIsRefused) {
  DeviceTensor x(ACL_FLOAT, {1, 4}), scale(ACL_FLOAT, {1});
  x.WriteView({1, 2, 3, 4});
  scale.WriteView({1});
  DeviceBuffer storage(8);
  for (const int64_t offset : {int64_t{1}, int64_t{0}}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          const int64_t dims[2] = {1, 4}, strides[2] = {4, 1}, elements = 8;
          aclTensor* y =
              aclCreateTensor(dims, 2, ACL_INT4, strides, offset, ACL_FORMAT_ND, &elements, 1, storage.get());
          const aclnnStatus status = aclnnAscendQuantV3GetWorkspaceSize(a.Tensor(x), a.Tensor(scale), nullptr, false,
                                                                        "round", 29, -1, y, w, e);
          aclDestroyTensor(y);
          return status;
        },
        aclnnAscendQuantV3);
    if (offset == 0) {
      EXPECT_TRUE(run.ok()) << Describe(run);
    } else {
      ExpectRejectedWith(run, ACLNN_ERR_PARAM_INVALID, {"INT4", "whole byte"});
    }
  }
}

struct QuantCall {
  aclDataType x = ACL_FLOAT16, scale = ACL_FLOAT16, offset = ACL_FLOAT16, y = ACL_INT8;
  Shape x_shape = {4, 16}, scale_shape = {16}, offset_shape = {16}, y_shape = {4, 16};
  bool has_offset = true, x_null = false;
  std::string round = "round";
  int32_t dst = 2, axis = -1;
  bool v1 = false;  // aclnnAscendQuant (axis unused), else aclnnAscendQuantV3
};

OpRun RunQuantCall(const QuantCall& c) {
  const auto phase1 = [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
    const aclTensor* x = c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape);
    const aclTensor* scale = a.NewTensor(c.scale, c.scale_shape);
    const aclTensor* offset = c.has_offset ? a.NewTensor(c.offset, c.offset_shape) : nullptr;
    const aclTensor* y = a.NewTensor(c.y, c.y_shape);
    return c.v1 ? aclnnAscendQuantGetWorkspaceSize(x, scale, offset, false, c.round.c_str(), c.dst, y, w, e)
                : aclnnAscendQuantV3GetWorkspaceSize(x, scale, offset, false, c.round.c_str(), c.dst, c.axis, y, w, e);
  };
  return RunOp(phase1, c.v1 ? aclnnAscendQuant : aclnnAscendQuantV3);
}

template <typename Call, typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

// The rejections AscendQuant and AscendQuantV3 share (the parameter: AscendQuant).
class AscendQuantRejects : public ::testing::TestWithParam<bool> {
 protected:
  template <typename Edit>
  OpRun Run(Edit edit) const {
    QuantCall c;
    c.v1 = GetParam();
    edit(c);
    return RunQuantCall(c);
  }
};

TEST_P(AscendQuantRejects, Shared) {
  EXPECT_TRUE(Run([](QuantCall&) {}).ok());
  ExpectRejectedWith(Run([](QuantCall& c) { c.x_null = true; }), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.x = ACL_INT8; }), kInvalid, {"'x'"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.scale = c.offset = ACL_INT32; }), kInvalid, {"'scale'"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.offset = ACL_FLOAT; }), kInvalid, {"'offset'", "match"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.offset_shape = {1}; }), kInvalid, {"'offset'"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.y = ACL_UINT8; }), kInvalid, {"'y'"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.round = "hybrid"; }), kInvalid, {"'roundMode'"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.dst = 29; }), kInvalid, {"dstType"});
  ExpectRejectedWith(Run([](QuantCall& c) { c.scale_shape = c.offset_shape = {4}; }), kInvalid, {"'scale'"});
  ExpectRejectedWith(Run([](QuantCall& c) {
                       c.y = ACL_INT4;
                       c.dst = 29;
                       c.x_shape = c.y_shape = {4, 15};
                       c.scale_shape = c.offset_shape = {15};
                     }),
                     kInvalid, {"even"});
  ExpectRejectedWith(Run([](QuantCall& c) {
                       c.y = ACL_INT32;
                       c.dst = 3;
                     }),
                     kInvalid, {"'y'"});  // [4, 16] must be [4, 2]
  EXPECT_TRUE(Run([](QuantCall& c) {
                c.y = ACL_INT32;
                c.dst = 3;
                c.y_shape = {4, 2};
              }).ok());
  ExpectRejectedWith(Run([](QuantCall& c) { c.y_shape = {4, 8}; }), kInvalid, {"'y'"});
  EXPECT_TRUE(Run([](QuantCall& c) { c.has_offset = false; }).ok());
}
INSTANTIATE_TEST_SUITE_P(Ops, AscendQuantRejects, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "AscendQuant" : "AscendQuantV3");
                         });

TEST(AscendQuantV3Rejects, Axis) {
  ExpectRejectedWith(RunQuantCall(With<QuantCall>([](QuantCall& c) { c.dst = 36; })), kInvalid, {"'dstType'"});
  ExpectRejectedWith(RunQuantCall(With<QuantCall>([](QuantCall& c) {
                       c.x_shape = c.y_shape = {2, 4, 16};
                       c.axis = 0;
                     })),
                     kInvalid, {"'axis'"});
  ExpectRejectedWith(RunQuantCall(With<QuantCall>([](QuantCall& c) { c.axis = -3; })), kInvalid, {"'axis'"});
  EXPECT_TRUE(RunQuantCall(With<QuantCall>([](QuantCall& c) {
                c.scale_shape = c.offset_shape = {4};
                c.axis = -2;
              })).ok());  // [4] along axis -2
}

// The doc's example: x [4, 2] = 0..7 f32, scale = offset = [1, 2], INT8, round.
TEST(AscendQuant, DocExampleAndEmpty) {
  DeviceTensor x(ACL_FLOAT, {4, 2}), scale(ACL_FLOAT, {2}), offset(ACL_FLOAT, {2}), y(ACL_INT8, {4, 2});
  x.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  scale.WriteView({1, 2});
  offset.WriteView({1, 2});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(offset), false, "round", 2,
                                                a.Tensor(y), w, e);
      },
      aclnnAscendQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Expected{{1, 4, 3, 8, 5, 12, 7, 16}, std::vector<double>(8, 0.0)}, "y");
  DeviceTensor ex(ACL_FLOAT16, {0, 8}), ey(ACL_INT4, {0, 8}), es(ACL_FLOAT16, {8});
  const OpRun empty = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendQuantGetWorkspaceSize(a.Tensor(ex), a.Tensor(es), nullptr, false, "round", 29, a.Tensor(ey),
                                                w, e);
      },
      aclnnAscendQuant);
  EXPECT_TRUE(empty.ok()) << Describe(empty);
  EXPECT_EQ(empty.workspaceSize, 0U);
}

// AscendQuant only: scale of x's dtype unless x is f32; scale / offset shapes [..., 1 or x[-1]] of x's rank at most.
TEST(AscendQuantScaleRejects, ScaleOperands) {
  const auto v1 = [](auto edit) {
    return RunQuantCall(With<QuantCall>([&](QuantCall& c) {
      c.v1 = true;
      edit(c);
    }));
  };
  ExpectRejectedWith(v1([](QuantCall& c) { c.scale = c.offset = ACL_FLOAT; }), kInvalid, {"'scale'", "x"});
  EXPECT_TRUE(v1([](QuantCall& c) { c.x = ACL_FLOAT; }).ok());
  ExpectRejectedWith(v1([](QuantCall& c) { c.scale_shape = c.offset_shape = {2, 16}; }), kInvalid, {"'scale'"});
  ExpectRejectedWith(v1([](QuantCall& c) {
                       c.scale_shape = c.offset_shape = {1, 1, 16};
                     }),
                     kInvalid, {"'scale'", "rank"});
  EXPECT_TRUE(v1([](QuantCall& c) { c.scale_shape = c.offset_shape = {1, 16}; }).ok());
  EXPECT_TRUE(v1([](QuantCall& c) { c.scale_shape = c.offset_shape = {1, 1}; }).ok());
}

// ---- AscendAntiQuant ----------------------------------------------------------------------------

struct AntiCase {
  aclDataType x = ACL_INT8, scale = ACL_FLOAT, y = ACL_FLOAT16;
  Shape values = {6, 16};    // y's shape
  Shape scale_shape = {16};  // the scale runs along `dim` (-1: one value)
  int64_t dim = 1;
  bool offset = true, sqrt = false;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const AntiCase& c, std::ostream* os) { *os << c.name; }

void RunAnti(const AntiCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = NumElements(c.values);
  Shape x_shape = c.values;
  if (c.x == ACL_INT32) x_shape.back() /= 8;
  DeviceTensor x(c.x, x_shape, c.x == ACL_INT8 ? c.view : View::kContiguous);
  std::vector<int> q;
  if (c.x == ACL_INT8) {
    for (const Value& v : x.FillRandom(rng, Range{-128, 127})) q.push_back(static_cast<int>(v.real()));
  } else {
    // Random bytes: every nibble pattern.
    std::vector<uint8_t> bytes(static_cast<size_t>(n / 2));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng.Uniform(0, 256));
    x.UploadBytes(bytes);  // INT4 and INT32 (eight INT4) share this byte image
    q = Nibbles(bytes, n);
  }
  DeviceTensor scale(c.scale, c.scale_shape), offset(c.scale, c.scale_shape);
  const Values sv = scale.FillRandom(rng, Range{0.01, 0.5});
  const Values ov = offset.FillRandom(rng, Range{-3, 3});
  DeviceTensor y(c.y, c.values, c.view);
  y.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendAntiQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), c.offset ? a.Tensor(offset) : nullptr,
                                                    c.y, c.sqrt, a.Tensor(y), w, e);
      },
      aclnnAscendAntiQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int64_t e = 0; e < n; ++e) {
    const int64_t p = ParamIndex(c.values, c.dim, e);
    double s = sv[static_cast<size_t>(p)].real();
    if (c.sqrt) s *= s;
    want.push_back((q[static_cast<size_t>(e)] + (c.offset ? ov[static_cast<size_t>(p)].real() : 0.0)) * s);
  }
  ExpectNear(y.ReadView(), RelativeTolerance(want, c.y, 2), "y");
}

std::vector<AntiCase> AntiCases() {
  std::vector<AntiCase> cases;
  for (aclDataType x : {ACL_INT8, ACL_INT4, ACL_INT32}) {
    for (aclDataType y : {ACL_FLOAT16, ACL_BF16}) {
      AntiCase c;
      c.x = x;
      c.y = y;
      c.scale = y == ACL_BF16 ? ACL_BF16 : ACL_FLOAT;
      c.name = std::string(x == ACL_INT8 ? "int8" : x == ACL_INT4 ? "int4" : "int32") + "_to_" + Name(y);
      cases.push_back(c);
    }
  }
  AntiCase rows;
  rows.values = {6, 16};
  rows.scale_shape = {6};
  rows.dim = 0;
  rows.sqrt = true;
  rows.name = "scale_along_minus2_sqrt";
  cases.push_back(rows);
  AntiCase full_rank;
  full_rank.values = {2, 5, 8};
  full_rank.scale_shape = {1, 5, 1};
  full_rank.dim = 1;
  full_rank.name = "scale_of_x_rank";
  cases.push_back(full_rank);
  AntiCase one;
  one.scale_shape = {1};
  one.dim = -1;
  one.offset = false;
  one.name = "one_scale_no_offset";
  cases.push_back(one);
  AntiCase strided;
  strided.view = View::kTransposed;
  strided.name = "strided_views";
  cases.push_back(strided);
  return cases;
}

class AscendAntiQuantTest : public ::testing::TestWithParam<AntiCase> {};
TEST_P(AscendAntiQuantTest, MatchesReference) { RunAnti(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, AscendAntiQuantTest, ::testing::ValuesIn(AntiCases()),
                         [](const ::testing::TestParamInfo<AntiCase>& info) { return SanitizeName(info.param.name); });

// The doc's example: x [4, 2] = 0..7 INT8, scale = offset = [1] f32, f16: y = x + 1.
TEST(AscendAntiQuant, DocExample) {
  DeviceTensor x(ACL_INT8, {4, 2}), scale(ACL_FLOAT, {1}), offset(ACL_FLOAT, {1}), y(ACL_FLOAT16, {4, 2});
  x.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  scale.WriteView({1});
  offset.WriteView({1});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendAntiQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(scale), a.Tensor(offset), 1, false,
                                                    a.Tensor(y), w, e);
      },
      aclnnAscendAntiQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(y.ReadView(), Expected{{1, 2, 3, 4, 5, 6, 7, 8}, std::vector<double>(8, 0.0)}, "y");
}

struct AntiCall {
  aclDataType x = ACL_INT8, scale = ACL_FLOAT, offset = ACL_FLOAT, y = ACL_FLOAT16;
  Shape x_shape = {4, 16}, scale_shape = {16}, offset_shape = {16}, y_shape = {4, 16};
  bool has_offset = true, scale_null = false;
  int64_t dst = 1;
};

OpRun RunAntiCall(const AntiCall& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAscendAntiQuantGetWorkspaceSize(a.NewTensor(c.x, c.x_shape),
                                                    c.scale_null ? nullptr : a.NewTensor(c.scale, c.scale_shape),
                                                    c.has_offset ? a.NewTensor(c.offset, c.offset_shape) : nullptr,
                                                    c.dst, false, a.NewTensor(c.y, c.y_shape), w, e);
      },
      aclnnAscendAntiQuant);
}

TEST(AscendAntiQuantRejects, EachCase) {
  EXPECT_TRUE(RunAntiCall(AntiCall{}).ok());
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.scale_null = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"'scale'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.x = ACL_FLOAT16; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.x = ACL_FLOAT8_E4M3FN; })),
                     ACLNN_ERR_INNER_FIND_KERNEL_ERROR, {"'x'", "not supported"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.scale = c.offset = ACL_FLOAT16; })), kInvalid,
                     {"'scale'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.offset = ACL_BF16; })), kInvalid, {"'offset'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.y = ACL_FLOAT; })), kInvalid, {"'y'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.dst = 0; })), kInvalid, {"'dstType'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.dst = 27; })), kInvalid, {"dstType"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.scale_shape = c.offset_shape = {5}; })), kInvalid,
                     {"'scale'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) {
                       c.scale_shape = c.offset_shape = {4, 16};
                     })),
                     kInvalid, {"'scale'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) {
                       c.x_shape = c.y_shape = {3, 4, 16};
                       c.scale_shape = c.offset_shape = {3, 1, 1};
                     })),
                     kInvalid, {"'scale'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.y_shape = {4, 8}; })), kInvalid, {"'y'"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) {
                       c.x = ACL_INT4;
                       c.x_shape = c.y_shape = {4, 15};
                       c.scale_shape = c.offset_shape = {15};
                     })),
                     kInvalid, {"even"});
  ExpectRejectedWith(RunAntiCall(With<AntiCall>([](AntiCall& c) { c.x = ACL_INT32; })), kInvalid,
                     {"'y'"});  // [4, 16] INT32 holds [4, 128]
  EXPECT_TRUE(RunAntiCall(With<AntiCall>([](AntiCall& c) {
                c.x = ACL_INT32;
                c.x_shape = {4, 2};
              })).ok());
}

}  // namespace
}  // namespace canopy_test
