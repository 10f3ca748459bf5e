// SoftmaxCrossEntropyWithLogits through the public C API against a float64
// reference: every dtype, strided and transposed operands, long rows and many
// rows, large logits (the row maximum is subtracted), empty inputs, ggml's
// cross_entropy_loss pattern, and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct CrossEntropyCase {
  std::string name;
  aclDataType dtype;
  int64_t rows, classes;
  View features = View::kContiguous, labels = View::kContiguous, loss = View::kContiguous, backprop = View::kContiguous;
  double offset = 0;  // added to every logit
};

void PrintTo(const CrossEntropyCase& c, std::ostream* os) { *os << c.name; }

OpRun RunCrossEntropy(const DeviceTensor& features, const DeviceTensor& labels, const DeviceTensor& loss,
                      const DeviceTensor& backprop) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(a.Tensor(features), a.Tensor(labels), a.Tensor(loss),
                                                                  a.Tensor(backprop), ws, e);
      },
      aclnnSoftmaxCrossEntropyWithLogits);
}

class CrossEntropyTest : public ::testing::TestWithParam<CrossEntropyCase> {};

TEST_P(CrossEntropyTest, MatchesFloat64Reference) {
  const CrossEntropyCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor features(c.dtype, {c.rows, c.classes}, c.features);
  Values x = features.FillRandom(rng, Range{-4, 4});
  if (c.offset != 0) {
    for (Value& v : x) v = ConvertValue(v + c.offset, c.dtype);
    features.WriteView(x);
  }
  DeviceTensor labels(c.dtype, {c.rows, c.classes}, c.labels);
  const Values y = labels.FillRandom(rng, Range{0, 1});
  DeviceTensor loss(c.dtype, {c.rows}, c.loss), backprop(c.dtype, {c.rows, c.classes}, c.backprop);
  loss.Poison();
  backprop.Poison();
  const std::vector<uint8_t> lossBefore = loss.DownloadBytes(), backpropBefore = backprop.DownloadBytes();
  const OpRun run = RunCrossEntropy(features, labels, loss, backprop);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Expected wantLoss, wantBackprop;
  const double u = UnitRoundoff(c.dtype);
  for (int64_t r = 0; r < c.rows && c.classes > 0; ++r) {
    double max = -INFINITY;
    for (int64_t k = 0; k < c.classes; ++k) max = std::max(max, x[static_cast<size_t>(r * c.classes + k)].real());
    double sum = 0;
    for (int64_t k = 0; k < c.classes; ++k) sum += std::exp(x[static_cast<size_t>(r * c.classes + k)].real() - max);
    const double lse = max + std::log(sum);
    double l = 0, scale = 0;
    for (int64_t k = 0; k < c.classes; ++k) {
      const size_t i = static_cast<size_t>(r * c.classes + k);
      const double logp = x[i].real() - lse;
      l -= y[i].real() * logp;
      scale += std::abs(y[i].real() * logp);
      const double g = std::exp(logp) - y[i].real();
      wantBackprop.values.push_back(ConvertValue(g, c.dtype));
      wantBackprop.tolerance.push_back(2 * (u + 0x1p-24) * std::abs(g) + 0x1p-40);
    }
    wantLoss.values.push_back(ConvertValue(l, c.dtype));
    wantLoss.tolerance.push_back(2 * (u + 0x1p-24) * std::abs(l) + 0x1p-40 * scale);
  }
  if (c.rows * c.classes > 0) {
    ExpectNear(loss.ReadView(), wantLoss, c.name + " loss");
    ExpectNear(backprop.ReadView(), wantBackprop, c.name + " backprop");
  }
  ExpectOutsideViewUnchanged(loss, lossBefore, "loss storage");
  ExpectOutsideViewUnchanged(backprop, backpropBefore, "backprop storage");
}

std::vector<CrossEntropyCase> CrossEntropyCases() {
  std::vector<CrossEntropyCase> cases;
  const View s = View::kStepped, t = View::kTransposed, r = View::kReversed, c = View::kContiguous;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = std::string(Name(dtype)) + "_";
    cases.push_back({n + "typical", dtype, 4, 10});
    cases.push_back({n + "strided", dtype, 5, 9, t, s, s, r});
    cases.push_back({n + "long_rows", dtype, 3, 5000});
    cases.push_back({n + "many_rows", dtype, 3000, 7});
    cases.push_back({n + "one_class", dtype, 4, 1, c, c, s, s});
  }
  cases.push_back({"f32_large_logits", ACL_FLOAT, 6, 20, c, c, c, c, 1000});
  // ggml's cross_entropy_loss: contiguous f32 [nr, nc] logits and labels, loss [nr].
  cases.push_back({"ggml_f32", ACL_FLOAT, 8, 32});
  cases.push_back({"empty_rows", ACL_FLOAT, 0, 5});
  cases.push_back({"empty_classes", ACL_FLOAT, 3, 0});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, CrossEntropyTest, ::testing::ValuesIn(CrossEntropyCases()),
                         [](const ::testing::TestParamInfo<CrossEntropyCase>& info) {
                           return SanitizeName(info.param.name);
                         });

TEST(SoftmaxCrossEntropyWithLogits, Rejections) {
  struct Bad {
    const char* name;
    aclDataType features, labels, loss, backprop;
    Shape featuresShape, labelsShape, lossShape, backpropShape;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16;
  const Bad cases[] = {
      {"f64 features", ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, {2, 3}, {2, 3}, {2}, {2, 3}, "features"},
      {"labels dtype", f32, f16, f32, f32, {2, 3}, {2, 3}, {2}, {2, 3}, "labels"},
      {"loss dtype", f32, f32, f16, f32, {2, 3}, {2, 3}, {2}, {2, 3}, "loss"},
      {"backprop dtype", f16, f16, f16, f32, {2, 3}, {2, 3}, {2}, {2, 3}, "backprop"},
      {"rank-3 features", f32, f32, f32, f32, {2, 3, 1}, {2, 3, 1}, {2}, {2, 3, 1}, "features"},
      {"rank-1 labels", f32, f32, f32, f32, {2, 3}, {6}, {2}, {2, 3}, "labels"},
      {"labels shape", f32, f32, f32, f32, {2, 3}, {3, 2}, {2}, {2, 3}, "labels"},
      {"loss shape", f32, f32, f32, f32, {2, 3}, {2, 3}, {3}, {2, 3}, "loss"},
      {"backprop shape", f32, f32, f32, f32, {2, 3}, {2, 3}, {2}, {2, 4}, "backprop"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor features(bad.features, bad.featuresShape), labels(bad.labels, bad.labelsShape),
        loss(bad.loss, bad.lossShape), backprop(bad.backprop, bad.backpropShape);
    const OpRun run = RunCrossEntropy(features, labels, loss, backprop);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

// CANN's example program (ops-nn activation/softmax_cross_entropy_with_logits):
// features [16, 4] of 1 and labels [16, 4] of 2 (labels of features' shape and
// dtype, as Canopy requires and CANN's document states), f32.
TEST(SoftmaxCrossEntropyWithLogits, CannExampleProgram) {
  DeviceTensor features(ACL_FLOAT, {16, 4}), labels(ACL_FLOAT, {16, 4}), loss(ACL_FLOAT, {16}),
      backprop(ACL_FLOAT, {16, 4});
  features.WriteView(Values(64, 1.0));
  labels.WriteView(Values(64, 2.0));
  const OpRun run = RunCrossEntropy(features, labels, loss, backprop);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // softmax is 1/4 everywhere: loss = -sum 2 log(1/4) = 8 log 4, backprop = 1/4 - 2.
  const double want = 8 * std::log(4.0);
  ExpectNear(loss.ReadView(), Expected{Values(16, want), std::vector<double>(16, 4 * 0x1p-24 * want)}, "loss");
  ExpectNear(backprop.ReadView(), Expected{Values(64, -1.75), std::vector<double>(64, 4 * 0x1p-24 * 1.75)}, "backprop");
}

}  // namespace
}  // namespace canopy_test
