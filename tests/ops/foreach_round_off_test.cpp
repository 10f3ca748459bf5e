// ForeachRoundOffNumber (mode in a device tensor) and its V2 (mode a host
// scalar) through the public API against a plain reference: every mode
// (0 and 8 leave values alone), every A2 dtype, halves of both signs,
// strided list members, empty members, CANN's examples and the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

double RoundOff(double x, int mode) {
  switch (mode) {
    case 1:
      return std::nearbyint(x);
    case 2:
      return std::floor(x);
    case 3:
      return std::ceil(x);
    case 4:
      return std::round(x);
    case 5:
      return std::trunc(x);
    case 6:
      if (std::floor(x) == x) return x;
      return std::fmod(std::floor(x), 2.0) != 0 ? std::floor(x) : std::ceil(x);
    case 7:
      return x - std::trunc(x);
    default:
      return x;
  }
}

const std::vector<aclDataType> kDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT16};
const std::vector<Shape> kShapes = {{2, 3}, {0, 4}, {5, 1, 7}, {33}};

// Fills each member with values, every third one a half (2.5, -3.5) where the dtype holds it.
std::vector<Values> FillMembers(Rng& rng, std::vector<std::unique_ptr<DeviceTensor>>& members, aclDataType dtype,
                                View view) {
  std::vector<Values> values;
  for (const Shape& s : kShapes) {
    members.push_back(std::make_unique<DeviceTensor>(dtype, s, view));
    Values v = members.back()->FillRandom(rng, Range{-40, 40});
    for (size_t i = 0; i < v.size(); i += 3) {
      v[i] = ConvertValue(std::floor(v[i].real()) + (IsIntegral(dtype) ? 0.0 : 0.5), dtype);
    }
    members.back()->WriteView(v);
    values.push_back(v);
  }
  return values;
}

void ExpectRounded(const std::vector<std::unique_ptr<DeviceTensor>>& outs, const std::vector<Values>& values, int mode,
                   aclDataType dtype) {
  for (size_t k = 0; k < outs.size(); ++k) {
    Values want;
    for (const Value& v : values[k]) want.emplace_back(ConvertValue(RoundOff(v.real(), mode), dtype));
    ExpectExact(outs[k]->ReadView(), want, "member " + std::to_string(k));
  }
}

TEST(ForeachRoundOffNumber, EveryModeAndDtype) {
  for (aclDataType dtype : kDtypes) {
    for (int mode = 0; mode <= 8; ++mode) {
      for (View view : {View::kContiguous, View::kStepped}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " mode " + std::to_string(mode) + " " + ViewName(view));
        Rng rng = Rng::ForCurrentTest();
        std::vector<std::unique_ptr<DeviceTensor>> x, out;
        const std::vector<Values> values = FillMembers(rng, x, dtype, view);
        for (const Shape& s : kShapes) out.push_back(std::make_unique<DeviceTensor>(dtype, s, View::kTransposed));
        const auto modeTensor = Upload(ACL_INT8, {1}, {Value(mode)});
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              std::vector<aclTensor*> xs, outs;
              for (const auto& t : x) xs.push_back(a.Tensor(*t));
              for (const auto& t : out) outs.push_back(a.Tensor(*t));
              return aclnnForeachRoundOffNumberGetWorkspaceSize(a.TensorList(xs), a.Tensor(*modeTensor),
                                                                a.TensorList(outs), w, e);
            },
            aclnnForeachRoundOffNumber);
        ExpectRounded(out, values, mode, dtype);
      }
    }
  }
}

TEST(ForeachRoundOffNumberV2, EveryModeAndDtypeInPlaceAliasing) {
  for (aclDataType dtype : kDtypes) {
    for (int mode = 0; mode <= 8; ++mode) {
      SCOPED_TRACE(std::string(Name(dtype)) + " mode " + std::to_string(mode));
      Rng rng = Rng::ForCurrentTest();
      std::vector<std::unique_ptr<DeviceTensor>> x;
      const std::vector<Values> values = FillMembers(rng, x, dtype, View::kReversed);
      // out is x itself: each member is rounded where it lies.
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            std::vector<aclTensor*> xs, outs;
            for (const auto& t : x) xs.push_back(a.Tensor(*t));
            for (const auto& t : x) outs.push_back(a.Tensor(*t));
            return aclnnForeachRoundOffNumberV2GetWorkspaceSize(
                a.TensorList(xs), a.Scalar(mode % 2 == 0 ? ACL_INT8 : ACL_INT64, mode), a.TensorList(outs), w, e);
          },
          aclnnForeachRoundOffNumberV2);
      ExpectRounded(x, values, mode, dtype);
    }
  }
}

// CANN's examples: rint (V1) and ceil (V2) of the same two tensors.
TEST(ForeachRoundOffNumber, CannExamples) {
  for (const bool v2 : {false, true}) {
    const auto a = Upload(ACL_FLOAT, {2, 3}, {1.1, 2.2, 3.3, 4.5, 5.3, 6.12});
    const auto b = Upload(ACL_FLOAT, {1, 3}, {7.45, 8.87, 9.54});
    DeviceTensor outA(ACL_FLOAT, {2, 3}), outB(ACL_FLOAT, {1, 3});
    const auto mode = Upload(ACL_INT8, {1}, {1});
    ExpectRuns(
        [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
          aclTensorList* in = x.TensorList({x.Tensor(*a), x.Tensor(*b)});
          aclTensorList* out = x.TensorList({x.Tensor(outA), x.Tensor(outB)});
          return v2 ? aclnnForeachRoundOffNumberV2GetWorkspaceSize(in, x.Scalar(ACL_INT8, 3), out, w, e)
                    : aclnnForeachRoundOffNumberGetWorkspaceSize(in, x.Tensor(*mode), out, w, e);
        },
        v2 ? aclnnForeachRoundOffNumberV2 : aclnnForeachRoundOffNumber);
    if (v2) {
      ExpectExact(outA.ReadView(), {2, 3, 4, 5, 6, 7}, "ceil");
      ExpectExact(outB.ReadView(), {8, 9, 10}, "ceil");
    } else {
      ExpectExact(outA.ReadView(), {1, 2, 3, 4, 5, 6}, "rint");
      ExpectExact(outB.ReadView(), {7, 9, 10}, "rint");
    }
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto v1 = [](aclDataType x, aclDataType out, Shape outShape, aclDataType mode, Shape modeShape) {
    return [=](A& a, W w, E e) {
      return aclnnForeachRoundOffNumberGetWorkspaceSize(
          a.TensorList({a.NewTensor(x, {2, 3}), a.NewTensor(x, {4})}), a.NewTensorIn(Range{1, 1}, mode, modeShape),
          a.TensorList({a.NewTensor(out, outShape), a.NewTensor(out, {4})}), w, e);
    };
  };
  auto v2 = [](aclDataType x, aclDataType out, Shape outShape, aclDataType mode) {
    return [=](A& a, W w, E e) {
      return aclnnForeachRoundOffNumberV2GetWorkspaceSize(
          a.TensorList({a.NewTensor(x, {2, 3}), a.NewTensor(x, {4})}), a.Scalar(mode, 1),
          a.TensorList({a.NewTensor(out, outShape), a.NewTensor(out, {4})}), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, i8 = ACL_INT8;
  return {
      {"V1_int32", v1(ACL_INT32, ACL_INT32, {2, 3}, i8, {1}), aclnnForeachRoundOffNumber, "'x[0]'"},
      {"V1_out_dtype", v1(f, ACL_FLOAT16, {2, 3}, i8, {1}), aclnnForeachRoundOffNumber, "'out[0]'"},
      {"V1_mode_int32", v1(f, f, {2, 3}, ACL_INT32, {1}), aclnnForeachRoundOffNumber, "'roundMode'"},
      {"V1_mode_two_values", v1(f, f, {2, 3}, i8, {2}), aclnnForeachRoundOffNumber, "'roundMode'",
       ACLNN_ERR_INNER_TILING_ERROR},
      {"V1_out_shape", v1(f, f, {3, 2}, i8, {1}), aclnnForeachRoundOffNumber, "out", ACLNN_ERR_INNER_TILING_ERROR},
      {"V2_int32", v2(ACL_INT32, ACL_INT32, {2, 3}, i8), aclnnForeachRoundOffNumberV2, "'x[0]'"},
      {"V2_out_dtype", v2(f, ACL_BF16, {2, 3}, i8), aclnnForeachRoundOffNumberV2, "'out[0]'"},
      {"V2_mode_float", v2(f, f, {2, 3}, ACL_FLOAT), aclnnForeachRoundOffNumberV2, "'roundMode'"},
      {"V2_out_shape", v2(f, f, {3, 2}, i8), aclnnForeachRoundOffNumberV2, "'out[0]'"},
  };
}

class ForeachRoundOffRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ForeachRoundOffRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ForeachRoundOffRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
