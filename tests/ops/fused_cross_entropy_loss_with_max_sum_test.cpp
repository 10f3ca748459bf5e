// FusedCrossEntropyLossWithMaxSum through the public API against a float64
// reference, with the inputs computed as Megatron's vocabulary-parallel
// cross entropy does (row maxima, sums of exp, the target logits): the loss
// equals -log softmax at the target; every vocabulary dtype, strided views,
// without the vocabulary logits (loss only), and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fused_cross_entropy_loss_with_max_sum.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

TEST(FusedCrossEntropyLossWithMaxSum, MatchesReference) {
  const int64_t rows = 5, vocab = 9;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const bool withVocab : {true, false}) {
      SCOPED_TRACE(std::string(Name(dtype)) + (withVocab ? "" : " loss only"));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor logits(dtype, {rows, vocab}, View::kTransposed);
      const Values x = logits.FillRandom(rng, Range{-4, 4});
      Values max, sum, predicted;
      for (int64_t r = 0; r < rows; ++r) {
        double m = -1e30, s = 0;
        for (int64_t j = 0; j < vocab; ++j) m = std::max(m, x[static_cast<size_t>(r * vocab + j)].real());
        for (int64_t j = 0; j < vocab; ++j) s += std::exp(x[static_cast<size_t>(r * vocab + j)].real() - m);
        const int64_t target = r % vocab;
        max.push_back(ConvertValue(m, ACL_FLOAT));
        sum.push_back(ConvertValue(s, ACL_FLOAT));
        predicted.push_back(ConvertValue(x[static_cast<size_t>(r * vocab + target)].real() - m, ACL_FLOAT));
      }
      const auto maxT = Upload(ACL_FLOAT, {rows}, max), sumT = Upload(ACL_FLOAT, {rows}, sum);
      const auto predT = Upload(ACL_FLOAT, {rows}, predicted);
      DeviceTensor loss(ACL_FLOAT, {rows}, View::kStepped), softmax(ACL_FLOAT, {rows, vocab}, View::kStepped);
      softmax.Poison();
      const std::vector<uint8_t> before = softmax.DownloadBytes();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(
                a.Tensor(*maxT), a.Tensor(*sumT), a.Tensor(*predT), 0.0F, nullptr, nullptr,
                withVocab ? a.Tensor(logits) : nullptr, a.Tensor(loss), withVocab ? a.Tensor(softmax) : nullptr, w, e);
          },
          aclnnFusedCrossEntropyLossWithMaxSum);
      Expected wantLoss, wantSoftmax;
      for (int64_t r = 0; r < rows; ++r) {
        const double l = std::log(sum[static_cast<size_t>(r)].real()) - predicted[static_cast<size_t>(r)].real();
        wantLoss.values.emplace_back(l);
        wantLoss.tolerance.push_back(4 * UnitRoundoff(ACL_FLOAT) * std::max(std::abs(l), 1.0));
        for (int64_t j = 0; j < vocab; ++j) {
          const double p = std::exp(x[static_cast<size_t>(r * vocab + j)].real() - max[static_cast<size_t>(r)].real()) /
                           sum[static_cast<size_t>(r)].real();
          wantSoftmax.values.emplace_back(p);
          wantSoftmax.tolerance.push_back(8 * UnitRoundoff(ACL_FLOAT) * std::max(p, 1e-3));
        }
      }
      ExpectNear(loss.ReadView(), wantLoss, "lossOut");
      if (withVocab) {
        ExpectNear(softmax.ReadView(), wantSoftmax, "softMaxOutOptional");
      } else {
        EXPECT_EQ(softmax.DownloadBytes(), before);
      }
    }
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape rows, Shape sum, aclDataType vocabDtype, Shape vocab, Shape softmax,
                 float smoothing, bool withSoftmax) {
    return [=](A& a, W w, E e) {
      return aclnnFusedCrossEntropyLossWithMaxSumGetWorkspaceSize(
          a.NewTensor(dtype, rows), a.NewTensorIn(Range{1, 2}, ACL_FLOAT, sum), a.NewTensor(ACL_FLOAT, rows), smoothing,
          nullptr, nullptr, a.NewTensor(vocabDtype, vocab), a.NewTensor(ACL_FLOAT, rows),
          withSoftmax ? a.NewTensor(ACL_FLOAT, softmax) : nullptr, w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  return {
      {"softmax_missing", call(f, {4}, {4}, f, {4, 6}, {4, 6}, 0, false), aclnnFusedCrossEntropyLossWithMaxSum,
       "'softMaxOutOptional'", ACLNN_ERR_PARAM_NULLPTR},
      {"max_f16", call(ACL_FLOAT16, {4}, {4}, f, {4, 6}, {4, 6}, 0, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'logitsMax'"},
      {"vocab_double", call(f, {4}, {4}, ACL_DOUBLE, {4, 6}, {4, 6}, 0, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'vocabParallelLogitsOptional'"},
      {"max_2d", call(f, {4, 1}, {4, 1}, f, {4, 6}, {4, 6}, 0, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'logitsMax'"},
      {"sum_shape", call(f, {4}, {3}, f, {4, 6}, {4, 6}, 0, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'sumExpLogits'"},
      {"softmax_shape", call(f, {4}, {4}, f, {4, 6}, {4, 5}, 0, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'softMaxOutOptional'"},
      {"vocab_rows", call(f, {4}, {4}, f, {3, 6}, {3, 6}, 0, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'vocabParallelLogitsOptional'"},
      {"smoothing", call(f, {4}, {4}, f, {4, 6}, {4, 6}, 0.1F, true), aclnnFusedCrossEntropyLossWithMaxSum,
       "'labelSmoothing'"},
  };
}

class FusedCrossEntropyLossWithMaxSumRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(FusedCrossEntropyLossWithMaxSumRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedCrossEntropyLossWithMaxSumRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
