// The optimizer steps through the public C API against a float64 reference:
// ApplyAdamWV2 on every dtype and mix of them, amsgrad and maximize, FLOAT and
// INT64 steps; ApplyAdamD (TensorFlow's form) in place and into outputs of their own; ApplyFusedEmaAdam in both modes,
// with and without bias correction; FusedAdamw, FusedSgd and AmpUpdateScale; strided views, empty tensors and the
// documented rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_amp_update_scale.h"
#include "aclnnop/aclnn_apply_adam_d.h"
#include "aclnnop/aclnn_apply_adam_w.h"
#include "aclnnop/aclnn_apply_adam_w_quant.h"
#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "aclnnop/aclnn_apply_fused_ema_adam.h"
#include "aclnnop/aclnn_fused_adamw.h"
#include "aclnnop/aclnn_fused_sgd.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// ---- ApplyAdamWV2 ------------------------------------------------------------------------------

struct AdamWCase {
  std::string name;
  Shape shape = {4, 33};
  aclDataType dtype = ACL_FLOAT;      // var, m, v, maxGradNorm
  aclDataType gradDtype = ACL_FLOAT;  // grad
  aclDataType stepDtype = ACL_FLOAT;
  double step = 3;
  bool amsgrad = false;
  bool maximize = false;
  bool passMaxWithoutAmsgrad = false;
  View view = View::kContiguous;  // of var, m, v, grad
  float lr = 0.01f, beta1 = 0.9f, beta2 = 0.999f, weightDecay = 0.05f, eps = 1e-8f;
  double bias1 = 0, bias2 = 0;  // the bias corrections; 0: 1 - beta^step
};

void PrintTo(const AdamWCase& x, std::ostream* os) { *os << x.name; }

std::vector<AdamWCase> AdamWCases() {
  std::vector<AdamWCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    AdamWCase x;
    x.name = std::string(Name(dt));
    x.dtype = x.gradDtype = dt;
    cases.push_back(x);
    x.name += "_amsgrad_maximize";
    x.amsgrad = x.maximize = true;
    cases.push_back(x);
  }
  AdamWCase x;
  x.name = "f32_state_f16_grad";
  x.gradDtype = ACL_FLOAT16;
  cases.push_back(x);
  x.name = "bf16_state_f32_grad_int64_step";
  x.dtype = ACL_BF16;
  x.gradDtype = ACL_FLOAT;
  x.stepDtype = ACL_INT64;
  x.step = 7;
  cases.push_back(x);
  x = AdamWCase{};
  x.name = "first_step";
  x.step = 1;
  cases.push_back(x);
  x.name = "large";
  x.shape = {300, 257};
  x.amsgrad = true;
  cases.push_back(x);
  for (View view : {View::kTransposed, View::kStepped, View::kReversed, View::kOffset}) {
    x = AdamWCase{};
    x.name = std::string("view_") + ViewName(view);
    x.shape = {5, 6, 7};
    x.view = view;
    x.amsgrad = view == View::kStepped;
    cases.push_back(x);
  }
  x = AdamWCase{};
  x.name = "max_given_without_amsgrad";
  x.passMaxWithoutAmsgrad = true;
  cases.push_back(x);
  x.name = "empty";
  x.shape = {3, 0};
  cases.push_back(x);
  x.name = "rank0";
  x.shape = {};
  cases.push_back(x);
  return cases;
}

// torch.optim.AdamW's update of one element, in float64.
struct AdamWValues {
  double var, m, v, maxV;
};

AdamWValues AdamWReference(const AdamWCase& x, double var, double m, double v, double maxV, double grad) {
  const double g = x.maximize ? -grad : grad;
  const double lr = x.lr, beta1 = x.beta1, beta2 = x.beta2, eps = x.eps, decay = x.weightDecay;
  AdamWValues r{};
  r.m = beta1 * m + (1 - beta1) * g;
  r.v = beta2 * v + (1 - beta2) * g * g;
  r.maxV = x.amsgrad ? std::max(maxV, r.v) : maxV;
  const double second = x.amsgrad ? r.maxV : r.v;
  const double bias1 = x.bias1 != 0 ? x.bias1 : 1 - std::pow(beta1, x.step);
  const double bias2 = x.bias2 != 0 ? x.bias2 : 1 - std::pow(beta2, x.step);
  r.var = var * (1 - lr * decay) - lr / bias1 * r.m / (std::sqrt(second) / std::sqrt(bias2) + eps);
  return r;
}

void CheckAdamW(const AdamWCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor var(x.dtype, x.shape, x.view), m(x.dtype, x.shape, x.view), v(x.dtype, x.shape, x.view);
  DeviceTensor grad(x.gradDtype, x.shape, x.view), maxV(x.dtype, x.shape);
  DeviceTensor step(x.stepDtype, {1});
  const Values var0 = var.FillRandom(rng, Range{-2, 2});
  const Values m0 = m.FillRandom(rng, Range{-0.5, 0.5});
  const Values v0 = v.FillRandom(rng, Range{0, 0.5});
  const Values max0 = maxV.FillRandom(rng, Range{0, 0.5});
  const Values g0 = grad.FillRandom(rng, Range{-1, 1});
  step.WriteView({Value(x.step)});
  const bool withMax = x.amsgrad || x.passMaxWithoutAmsgrad;
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnApplyAdamWV2GetWorkspaceSize(args.Tensor(var), args.Tensor(m), args.Tensor(v),
                                                 withMax ? args.Tensor(maxV) : nullptr, args.Tensor(grad),
                                                 args.Tensor(step), x.lr, x.beta1, x.beta2, x.weightDecay, x.eps,
                                                 x.amsgrad, x.maximize, workspaceSize, executor);
      },
      aclnnApplyAdamWV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected wantVar, wantM, wantV, wantMax;
  // f32 arithmetic over terms of these magnitudes, then rounding to the dtype.
  const double f32 = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(x.dtype);
  const auto push = [&](Expected& e, double value, double scale) {
    e.values.push_back(ConvertValue(value, x.dtype));
    e.tolerance.push_back(rounding * std::fabs(value) + f32 * scale + 1e-30);
  };
  for (size_t i = 0; i < var0.size(); ++i) {
    const AdamWValues r = AdamWReference(x, var0[i].real(), m0[i].real(), v0[i].real(), max0[i].real(), g0[i].real());
    const double stepScale = x.lr / (1 - std::pow(x.beta1, x.step)) * std::fabs(r.m) /
                             (std::sqrt(x.amsgrad ? r.maxV : r.v) / std::sqrt(1 - std::pow(x.beta2, x.step)) + x.eps);
    push(wantVar, r.var, std::fabs(var0[i].real()) + stepScale);
    push(wantM, r.m, std::fabs(m0[i].real()) + std::fabs(g0[i].real()));
    push(wantV, r.v, std::fabs(v0[i].real()) + g0[i].real() * g0[i].real());
    push(wantMax, r.maxV, std::fabs(r.maxV));
  }
  ExpectNear(var.ReadView(), wantVar, "varRef");
  ExpectNear(m.ReadView(), wantM, "mRef");
  ExpectNear(v.ReadView(), wantV, "vRef");
  if (x.amsgrad) {
    ExpectNear(maxV.ReadView(), wantMax, "maxGradNormOptionalRef");
  } else {
    ExpectExact(maxV.ReadView(), max0, "maxGradNormOptionalRef must not change without amsgrad");
  }
  ExpectExact(grad.ReadView(), g0, "grad must not change");
  if (NumElements(x.shape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "an empty step needs no workspace";
  }
}

class ApplyAdamWV2Test : public ::testing::TestWithParam<AdamWCase> {};
TEST_P(ApplyAdamWV2Test, MatchesReference) { CheckAdamW(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamWV2Test, ::testing::ValuesIn(AdamWCases()),
                         [](const ::testing::TestParamInfo<AdamWCase>& info) { return SanitizeName(info.param.name); });

struct AdamWBad {
  std::string name;
  aclDataType dtype = ACL_FLOAT, gradDtype = ACL_FLOAT, stepDtype = ACL_FLOAT;
  Shape gradShape = {2, 3}, stepShape = {1};
  bool amsgrad = false, passMax = false;
  std::string keyword;
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
};

std::vector<RejectionCase> AdamWRejections() {
  const std::vector<AdamWBad> bad = {
      {"amsgrad_without_max",
       ACL_FLOAT,
       ACL_FLOAT,
       ACL_FLOAT,
       {2, 3},
       {1},
       true,
       false,
       "maxGradNormOptionalRef",
       ACLNN_ERR_PARAM_NULLPTR},
      {"int32_var", ACL_INT32, ACL_FLOAT, ACL_FLOAT, {2, 3}, {1}, false, false, "varRef"},
      {"double_grad", ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT, {2, 3}, {1}, false, false, "grad"},
      {"int32_step", ACL_FLOAT, ACL_FLOAT, ACL_INT32, {2, 3}, {1}, false, false, "step"},
      {"grad_shape", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {3, 2}, {1}, false, false, "grad"},
      {"two_steps", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, false, false, "step"},
  };
  std::vector<RejectionCase> cases;
  for (const AdamWBad& b : bad) {
    cases.push_back({"ApplyAdamWV2_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       const Shape shape = {2, 3};
                       return aclnnApplyAdamWV2GetWorkspaceSize(
                           args.NewTensor(b.dtype, shape), args.NewTensor(b.dtype, shape),
                           args.NewTensor(b.dtype, shape), b.passMax ? args.NewTensor(b.dtype, shape) : nullptr,
                           args.NewTensor(b.gradDtype, b.gradShape), args.NewTensor(b.stepDtype, b.stepShape), 0.01f,
                           0.9f, 0.999f, 0.0f, 1e-8f, b.amsgrad, false, workspaceSize, executor);
                     },
                     aclnnApplyAdamWV2, b.keyword, b.expected});
  }
  return cases;
}

class ApplyAdamWV2RejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ApplyAdamWV2RejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamWV2RejectionTest, ::testing::ValuesIn(AdamWRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- ApplyAdamW ---------------------------------------------------------------------------------
// ApplyAdamWV2's cases with one dtype for every tensor; the hyperparameters are one-element
// tensors of that dtype (so the reference takes their rounded values), the bias corrections come
// from the previous step's powers, and maxGradNormOptional is read but never written.

void CheckApplyAdamW(const AdamWCase& given) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const aclDataType dt = given.dtype;
  AdamWCase x = given;
  const auto rounded = [dt](double value) { return static_cast<float>(ConvertValue(value, dt).real()); };
  x.lr = rounded(x.lr);
  x.beta1 = rounded(x.beta1);
  x.beta2 = rounded(x.beta2);
  x.weightDecay = rounded(x.weightDecay);
  x.eps = rounded(std::max(double(x.eps), 1e-4));  // 1e-8 is below FLOAT16's range
  const double beta1Power = ConvertValue(std::pow(double(x.beta1), x.step - 1), dt).real();
  const double beta2Power = ConvertValue(std::pow(double(x.beta2), x.step - 1), dt).real();
  x.bias1 = 1 - beta1Power * x.beta1;
  x.bias2 = 1 - beta2Power * x.beta2;
  DeviceTensor var(dt, x.shape, x.view), m(dt, x.shape, x.view), v(dt, x.shape, x.view), grad(dt, x.shape, x.view);
  DeviceTensor maxV(dt, x.shape, x.view);
  std::vector<std::unique_ptr<DeviceTensor>> hyper;
  for (double value :
       {beta1Power, beta2Power, double(x.lr), double(x.weightDecay), double(x.beta1), double(x.beta2), double(x.eps)}) {
    hyper.push_back(std::make_unique<DeviceTensor>(dt, Shape{1}));
    hyper.back()->WriteView({Value(value)});
  }
  const Values var0 = var.FillRandom(rng, Range{-2, 2});
  const Values m0 = m.FillRandom(rng, Range{-0.5, 0.5});
  const Values v0 = v.FillRandom(rng, Range{0, 0.5});
  const Values max0 = maxV.FillRandom(rng, Range{0, 0.5});
  const Values g0 = grad.FillRandom(rng, Range{-1, 1});
  const bool withMax = x.amsgrad || x.passMaxWithoutAmsgrad;
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnApplyAdamWGetWorkspaceSize(args.Tensor(var), args.Tensor(m), args.Tensor(v), args.Tensor(*hyper[0]),
                                               args.Tensor(*hyper[1]), args.Tensor(*hyper[2]), args.Tensor(*hyper[3]),
                                               args.Tensor(*hyper[4]), args.Tensor(*hyper[5]), args.Tensor(*hyper[6]),
                                               args.Tensor(grad), withMax ? args.Tensor(maxV) : nullptr, x.amsgrad,
                                               x.maximize, workspaceSize, executor);
      },
      aclnnApplyAdamW);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected wantVar, wantM, wantV;
  const double f32 = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(dt);
  const auto push = [&](Expected& e, double value, double scale) {
    e.values.push_back(ConvertValue(value, dt));
    e.tolerance.push_back(rounding * std::fabs(value) + f32 * scale + 1e-30);
  };
  for (size_t i = 0; i < var0.size(); ++i) {
    const AdamWValues r = AdamWReference(x, var0[i].real(), m0[i].real(), v0[i].real(), max0[i].real(), g0[i].real());
    const double stepScale =
        x.lr / x.bias1 * std::fabs(r.m) / (std::sqrt(x.amsgrad ? r.maxV : r.v) / std::sqrt(x.bias2) + x.eps);
    push(wantVar, r.var, std::fabs(var0[i].real()) + stepScale);
    push(wantM, r.m, std::fabs(m0[i].real()) + std::fabs(g0[i].real()));
    push(wantV, r.v, std::fabs(v0[i].real()) + g0[i].real() * g0[i].real());
  }
  ExpectNear(var.ReadView(), wantVar, "varRef");
  ExpectNear(m.ReadView(), wantM, "mRef");
  ExpectNear(v.ReadView(), wantV, "vRef");
  ExpectExact(maxV.ReadView(), max0, "maxGradNormOptional is only read");
  ExpectExact(grad.ReadView(), g0, "grad must not change");
  if (NumElements(x.shape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "an empty step needs no workspace";
  }
}

std::vector<AdamWCase> ApplyAdamWCases() {
  std::vector<AdamWCase> cases;
  for (const AdamWCase& x : AdamWCases()) {
    if (x.gradDtype == x.dtype) cases.push_back(x);
  }
  return cases;
}

class ApplyAdamWTest : public ::testing::TestWithParam<AdamWCase> {};
TEST_P(ApplyAdamWTest, MatchesReference) { CheckApplyAdamW(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamWTest, ::testing::ValuesIn(ApplyAdamWCases()),
                         [](const ::testing::TestParamInfo<AdamWCase>& info) { return SanitizeName(info.param.name); });

std::vector<RejectionCase> ApplyAdamWRejections() {
  struct Bad {
    std::string name;
    aclDataType varDtype = ACL_FLOAT, lrDtype = ACL_FLOAT;
    Shape gradShape = {2, 3}, lrShape = {1};
    bool amsgrad = false;
    std::string keyword;
    aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  };
  const std::vector<Bad> bad = {
      {"amsgrad_without_max", ACL_FLOAT, ACL_FLOAT, {2, 3}, {1}, true, "maxGradNormOptional", ACLNN_ERR_PARAM_NULLPTR},
      {"int32_var", ACL_INT32, ACL_INT32, {2, 3}, {1}, false, "varRef"},
      {"double_lr", ACL_FLOAT, ACL_DOUBLE, {2, 3}, {1}, false, "lr"},
      {"f16_lr_f32_var", ACL_FLOAT, ACL_FLOAT16, {2, 3}, {1}, false, "lr"},
      {"grad_shape", ACL_FLOAT, ACL_FLOAT, {3, 2}, {1}, false, "grad"},
      {"two_lrs", ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, false, "lr"},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back({"ApplyAdamW_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       const Shape shape = {2, 3};
                       const auto scalar = [&](aclDataType dtype) { return args.NewTensor(dtype, Shape{1}); };
                       return aclnnApplyAdamWGetWorkspaceSize(
                           args.NewTensor(b.varDtype, shape), args.NewTensor(b.varDtype, shape),
                           args.NewTensor(b.varDtype, shape), scalar(b.varDtype), scalar(b.varDtype),
                           args.NewTensor(b.lrDtype, b.lrShape), scalar(b.varDtype), scalar(b.varDtype),
                           scalar(b.varDtype), scalar(b.varDtype), args.NewTensor(b.varDtype, b.gradShape), nullptr,
                           b.amsgrad, false, workspaceSize, executor);
                     },
                     aclnnApplyAdamW, b.keyword, b.expected});
  }
  return cases;
}

class ApplyAdamWRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ApplyAdamWRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamWRejectionTest, ::testing::ValuesIn(ApplyAdamWRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- ApplyAdamD ---------------------------------------------------------------------------------
// TensorFlow's Adam: this step's powers, the bias corrections folded into the step size, eps not
// scaled, optionally Nesterov's direction. Every tensor has var's dtype; the outputs are either the
// inputs' own memory (CANN's example) or tensors of their own in any view.

struct AdamDCase {
  std::string name;
  Shape shape = {4, 33};
  aclDataType dtype = ACL_FLOAT;
  bool nesterov = false, locking = false;
  bool inPlace = true;               // varOut, mOut, vOut describe var, m, v's memory
  View view = View::kContiguous;     // of var, m, v, grad
  View outView = View::kContiguous;  // of the outputs when not in place
  double lr = 0.01, beta1 = 0.9, beta2 = 0.999, eps = 1e-3;
  double step = 3;  // the powers are beta^step
};

void PrintTo(const AdamDCase& x, std::ostream* os) { *os << x.name; }

std::vector<AdamDCase> AdamDCases() {
  std::vector<AdamDCase> cases;
  const auto add = [&cases](const std::string& name, const auto& tweak) {
    AdamDCase x;
    x.name = name;
    tweak(x);
    cases.push_back(x);
  };
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    add(Name(dt), [dt](AdamDCase& x) { x.dtype = dt; });
    add(std::string(Name(dt)) + "_nesterov_own_outputs", [dt](AdamDCase& x) {
      x.dtype = dt;
      x.nesterov = true;
      x.inPlace = false;
    });
  }
  add("first_step_locking", [](AdamDCase& x) {
    x.step = 1;
    x.locking = true;
  });
  add("large_nesterov", [](AdamDCase& x) {
    x.shape = {300, 257};
    x.nesterov = true;
  });
  const Shape rank3 = {5, 6, 7};
  for (View view : {View::kTransposed, View::kStepped, View::kReversed, View::kOffset}) {
    const std::string tag = ViewName(view);
    add("in_" + tag, [&](AdamDCase& x) {
      x.shape = rank3;
      x.view = view;
    });
    add("in_" + tag + "_nesterov_out_contiguous", [&](AdamDCase& x) {
      x.shape = rank3;
      x.view = view;
      x.inPlace = false;
      x.nesterov = true;
    });
    add("out_" + tag, [&](AdamDCase& x) {
      x.shape = rank3;
      x.inPlace = false;
      x.outView = view;
    });
  }
  add("empty", [](AdamDCase& x) { x.shape = {3, 0}; });
  add("empty_own_outputs", [](AdamDCase& x) {
    x.shape = {3, 0};
    x.inPlace = false;
  });
  add("rank0", [](AdamDCase& x) { x.shape = {}; });
  return cases;
}

void CheckApplyAdamD(const AdamDCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const aclDataType dt = x.dtype;
  const auto rounded = [dt](double value) { return ConvertValue(value, dt).real(); };
  // The reference takes the hyperparameters as the one-element tensors hold them.
  const double lr = rounded(x.lr), beta1 = rounded(x.beta1), beta2 = rounded(x.beta2), eps = rounded(x.eps);
  const double beta1Power = rounded(std::pow(beta1, x.step)), beta2Power = rounded(std::pow(beta2, x.step));
  DeviceTensor var(dt, x.shape, x.view), m(dt, x.shape, x.view), v(dt, x.shape, x.view), grad(dt, x.shape, x.view);
  DeviceTensor varOut(dt, x.shape, x.outView), mOut(dt, x.shape, x.outView), vOut(dt, x.shape, x.outView);
  std::vector<std::unique_ptr<DeviceTensor>> hyper;
  for (double value : {beta1Power, beta2Power, lr, beta1, beta2, eps}) {
    hyper.push_back(std::make_unique<DeviceTensor>(dt, Shape{1}));
    hyper.back()->WriteView({Value(value)});
  }
  const Values var0 = var.FillRandom(rng, Range{-2, 2});
  const Values m0 = m.FillRandom(rng, Range{-0.5, 0.5});
  const Values v0 = v.FillRandom(rng, Range{0, 0.5});
  const Values g0 = grad.FillRandom(rng, Range{-1, 1});
  std::vector<std::vector<uint8_t>> outsBefore;
  for (DeviceTensor* out : {&varOut, &mOut, &vOut}) {
    out->Poison();
    outsBefore.push_back(out->DownloadBytes());
  }
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnApplyAdamDGetWorkspaceSize(
            args.Tensor(var), args.Tensor(m), args.Tensor(v), args.Tensor(*hyper[0]), args.Tensor(*hyper[1]),
            args.Tensor(*hyper[2]), args.Tensor(*hyper[3]), args.Tensor(*hyper[4]), args.Tensor(*hyper[5]),
            args.Tensor(grad), x.locking, x.nesterov, args.Tensor(x.inPlace ? var : varOut),
            args.Tensor(x.inPlace ? m : mOut), args.Tensor(x.inPlace ? v : vOut), workspaceSize, executor);
      },
      aclnnApplyAdamD);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected wantVar, wantM, wantV;
  // f32 arithmetic over terms of these magnitudes, then rounding to the dtype.
  const double f32 = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(dt);
  const auto push = [&](Expected& e, double value, double scale) {
    e.values.push_back(ConvertValue(value, dt));
    e.tolerance.push_back(rounding * std::fabs(value) + f32 * scale + 1e-30);
  };
  const double lrT = lr * std::sqrt(1 - beta2Power) / (1 - beta1Power);
  for (size_t i = 0; i < var0.size(); ++i) {
    const double g = g0[i].real();
    const double newM = beta1 * m0[i].real() + (1 - beta1) * g;
    const double newV = beta2 * v0[i].real() + (1 - beta2) * g * g;
    const double direction = x.nesterov ? beta1 * newM + (1 - beta1) * g : newM;
    const double update = lrT * direction / (std::sqrt(newV) + eps);
    push(wantVar, var0[i].real() - update, std::fabs(var0[i].real()) + std::fabs(update));
    push(wantM, newM, std::fabs(m0[i].real()) + std::fabs(g));
    push(wantV, newV, std::fabs(v0[i].real()) + g * g);
  }
  ExpectNear((x.inPlace ? var : varOut).ReadView(), wantVar, "varOut");
  ExpectNear((x.inPlace ? m : mOut).ReadView(), wantM, "mOut");
  ExpectNear((x.inPlace ? v : vOut).ReadView(), wantV, "vOut");
  ExpectExact(grad.ReadView(), g0, "grad must not change");
  if (!x.inPlace) {
    ExpectExact(var.ReadView(), var0, "var must not change when varOut is its own tensor");
    ExpectExact(m.ReadView(), m0, "m must not change when mOut is its own tensor");
    ExpectExact(v.ReadView(), v0, "v must not change when vOut is its own tensor");
    ExpectOutsideViewUnchanged(varOut, outsBefore[0], "varOut");
    ExpectOutsideViewUnchanged(mOut, outsBefore[1], "mOut");
    ExpectOutsideViewUnchanged(vOut, outsBefore[2], "vOut");
  }
  if (NumElements(x.shape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "an empty step needs no workspace";
  }
}

class ApplyAdamDTest : public ::testing::TestWithParam<AdamDCase> {};
TEST_P(ApplyAdamDTest, MatchesReference) { CheckApplyAdamD(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamDTest, ::testing::ValuesIn(AdamDCases()),
                         [](const ::testing::TestParamInfo<AdamDCase>& info) { return SanitizeName(info.param.name); });

std::vector<RejectionCase> ApplyAdamDRejections() {
  // Argument positions in the prototype: var, m, v, beta1Power, beta2Power, lr, beta1, beta2,
  // epsilon, grad, varOut, mOut, vOut.
  constexpr size_t kArgs = 13, kGrad = 9;
  const char* names[kArgs] = {"var",   "m",       "v",    "beta1Power", "beta2Power", "lr",  "beta1",
                              "beta2", "epsilon", "grad", "varOut",     "mOut",       "vOut"};
  struct Bad {
    std::string name;
    size_t arg;         // the argument that differs
    aclDataType dtype;  // its dtype
    Shape shape;        // its shape (empty: the default for its position)
    aclDataType varDtype = ACL_FLOAT;
  };
  std::vector<Bad> bad = {{"int32_var", 0, ACL_INT32, {}, ACL_INT32},
                          {"double_var", 0, ACL_DOUBLE, {}, ACL_DOUBLE},
                          {"f32_var_f16_everything", 0, ACL_FLOAT, {}, ACL_FLOAT16}};
  for (size_t arg = 1; arg < kArgs; ++arg) {
    bad.push_back({std::string(names[arg]) + "_f16_var_f32", arg, ACL_FLOAT16, {}});
  }
  for (size_t arg : {size_t{1}, size_t{2}, kGrad, size_t{10}, size_t{11}, size_t{12}}) {
    bad.push_back({std::string(names[arg]) + "_shape", arg, ACL_FLOAT, Shape{3, 2}});
    bad.push_back({std::string(names[arg]) + "_rank", arg, ACL_FLOAT, Shape{2, 3, 1}});
  }
  for (size_t arg = 3; arg < kGrad; ++arg) {
    bad.push_back({std::string(names[arg]) + "_two_elements", arg, ACL_FLOAT, Shape{2}});
    bad.push_back({std::string(names[arg]) + "_empty", arg, ACL_FLOAT, Shape{0}});
  }
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back(
        {"ApplyAdamD_" + b.name,
         [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
           std::vector<aclTensor*> t;
           for (size_t arg = 0; arg < kArgs; ++arg) {
             const bool hyperparameter = arg >= 3 && arg < kGrad;
             Shape shape = hyperparameter ? Shape{1} : Shape{2, 3};
             aclDataType dtype = b.varDtype;
             if (arg == b.arg) {
               dtype = b.dtype;
               if (!b.shape.empty()) shape = b.shape;
             }
             t.push_back(args.NewTensor(dtype, shape));
           }
           return aclnnApplyAdamDGetWorkspaceSize(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], false,
                                                  false, t[10], t[11], t[12], workspaceSize, executor);
         },
         aclnnApplyAdamD, b.arg == 0 && b.varDtype != b.dtype ? "m" : names[b.arg], ACLNN_ERR_PARAM_INVALID});
  }
  return cases;
}

class ApplyAdamDRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ApplyAdamDRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamDRejectionTest, ::testing::ValuesIn(ApplyAdamDRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- ApplyAdamWQuant ----------------------------------------------------------------------------

struct AdamWQuantCase {
  std::string name;
  Shape shape = {3, 300};  // 900 elements: three blocks of 256 and a partial one
  aclDataType dtype = ACL_FLOAT;
  int64_t step = 2;
  double lr = 0.01, beta1 = 0.9, beta2 = 0.99, weightDecay = 0.05, eps = 1e-6, gnormScale = 0.75;
  View view = View::kContiguous;  // of var, grad, m and v
};

void PrintTo(const AdamWQuantCase& x, std::ostream* os) { *os << x.name; }

std::vector<AdamWQuantCase> AdamWQuantCases() {
  std::vector<AdamWQuantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    AdamWQuantCase x;
    x.name = Name(dt);
    x.dtype = dt;
    cases.push_back(x);
  }
  AdamWQuantCase x;
  x.name = "one_block_first_step_no_decay";
  x.shape = {1, 256};
  x.step = 0;
  x.weightDecay = 0;
  cases.push_back(x);
  x = AdamWQuantCase{};
  x.name = "partial_block_only";
  x.shape = {5, 7};
  cases.push_back(x);
  x.name = "large";
  x.shape = {64, 1000};
  cases.push_back(x);
  for (View view : {View::kTransposed, View::kStepped, View::kReversed}) {
    x = AdamWQuantCase{};
    x.name = std::string("view_") + ViewName(view);
    x.shape = {6, 5, 19};
    x.view = view;
    cases.push_back(x);
  }
  return cases;
}

// An ascending map of 256 entries from lo to hi (both included), random in between.
Values RandomQmap(Rng& rng, double lo, double hi) {
  std::vector<double> entries = {lo, hi};
  while (entries.size() < 256) entries.push_back(static_cast<float>(rng.Uniform(lo, hi)));
  std::sort(entries.begin(), entries.end());
  return Values(entries.begin(), entries.end());
}

// The codes a float64 reference accepts for x / absmax: the entries nearest to it within what f32 rounding of x
// (`slack`) can move, each then moved one towards x's sign where it has the other sign (with a signed map).
std::vector<int> AcceptedCodes(const std::vector<double>& qmap, double normal, double slack, bool signedMap) {
  double best = INFINITY;
  for (double q : qmap) best = std::min(best, std::fabs(normal - q));
  std::vector<int> accepted;
  for (int i = 0; i < 256; ++i) {
    if (std::fabs(normal - qmap[i]) > best + 2 * slack) continue;
    for (double n : {normal - slack, normal, normal + slack}) {
      int code = i;
      if (signedMap && n * qmap[i] < 0) code = std::clamp(code + (n > 0 ? 1 : -1), 0, 255);
      accepted.push_back(code);
    }
  }
  return accepted;
}

void CheckAdamWQuant(const AdamWQuantCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  constexpr int64_t kBlock = 256;
  const int64_t count = NumElements(x.shape);
  const int64_t blocks = (count + kBlock - 1) / kBlock;
  DeviceTensor var(x.dtype, x.shape, x.view), grad(x.dtype, x.shape, x.view);
  DeviceTensor m(ACL_UINT8, x.shape, x.view), v(ACL_UINT8, x.shape, x.view);
  DeviceTensor qmapM(ACL_FLOAT, {256}), qmapV(ACL_FLOAT, {256});
  DeviceTensor absmaxM(ACL_FLOAT, {blocks}), absmaxV(ACL_FLOAT, {blocks}), step(ACL_INT64, {1});
  const Values var0 = var.FillRandom(rng, Range{-2, 2});
  const Values g0 = grad.FillRandom(rng, Range{-1, 1});
  const Values m0 = m.FillRandom(rng, Range{0, 255});
  const Values v0 = v.FillRandom(rng, Range{0, 255});
  const Values am0 = absmaxM.FillRandom(rng, Range{0.1, 1});
  const Values av0 = absmaxV.FillRandom(rng, Range{0.01, 0.5});
  const Values qm = RandomQmap(rng, -1, 1), qv = RandomQmap(rng, 0, 1);
  qmapM.WriteView(qm);
  qmapV.WriteView(qv);
  step.WriteView({Value(static_cast<double>(x.step))});
  char mode[] = "BLOCKWISE";
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnApplyAdamWQuantGetWorkspaceSize(
            args.Tensor(var), args.Tensor(grad), args.Tensor(m), args.Tensor(v), args.Tensor(qmapM), args.Tensor(qmapV),
            args.Tensor(absmaxM), args.Tensor(absmaxV), args.Tensor(step), x.lr, x.beta1, x.beta2, x.weightDecay, x.eps,
            x.gnormScale, mode, kBlock, workspaceSize, executor);
      },
      aclnnApplyAdamWQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);

  // The attributes reach the kernel as f32.
  const auto f = [](double value) { return static_cast<double>(static_cast<float>(value)); };
  const double lr = f(x.lr), beta1 = f(x.beta1), beta2 = f(x.beta2), decay = f(x.weightDecay), eps = f(x.eps);
  const double t = static_cast<double>(x.step) + 1;
  const double c1 = 1 - std::pow(beta1, t), c2 = std::sqrt(1 - std::pow(beta2, t));
  const double u = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(x.dtype);
  std::vector<double> qmapM64, qmapV64;
  for (const Value& q : qm) qmapM64.push_back(q.real());
  for (const Value& q : qv) qmapV64.push_back(q.real());
  const Values varOut = var.ReadView(), mOut = m.ReadView(), vOut = v.ReadView();
  const Values amOut = absmaxM.ReadView(), avOut = absmaxV.ReadView();
  Expected wantVar, wantAm, wantAv;
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t begin = b * kBlock, end = std::min(count, begin + kBlock);
    std::vector<double> mNew, vNew, mScale;
    double maxM = 0, maxV = 0;
    for (int64_t i = begin; i < end; ++i) {
      const double g = g0[i].real() * f(x.gnormScale);
      const double mOld = beta1 * qm[static_cast<size_t>(m0[i].real())].real() * am0[b].real();
      const double vOld = beta2 * qv[static_cast<size_t>(v0[i].real())].real() * av0[b].real();
      mNew.push_back(mOld + (1 - beta1) * g);
      vNew.push_back(vOld + (1 - beta2) * g * g);
      mScale.push_back(std::fabs(mOld) + std::fabs((1 - beta1) * g));
      const double denom = std::sqrt(vNew.back()) + eps * c2;
      const double update = -lr * c2 / c1 * mNew.back() / denom;
      double out = var0[i].real() + update;
      if (decay > 0) out *= 1 - lr * decay;
      wantVar.values.push_back(ConvertValue(out, x.dtype));
      const double scale = std::fabs(var0[i].real()) + std::fabs(update) + lr * c2 / c1 * mScale.back() / denom;
      wantVar.tolerance.push_back(rounding * std::fabs(out) + u * scale);
      maxM = std::max(maxM, std::fabs(mNew.back()));
      maxV = std::max(maxV, vNew.back());
    }
    wantAm.values.push_back(Value(maxM));
    wantAm.tolerance.push_back(u * maxM + u);
    wantAv.values.push_back(Value(maxV));
    wantAv.tolerance.push_back(u * maxV);
    for (int64_t i = begin; i < end; ++i) {
      const size_t k = static_cast<size_t>(i - begin);
      const std::vector<int> mCodes = AcceptedCodes(qmapM64, mNew[k] / maxM, 4 * u * mScale[k] / maxM + u, true);
      const std::vector<int> vCodes = AcceptedCodes(qmapV64, vNew[k] / maxV, 4 * u, false);
      const auto mGot = static_cast<int>(mOut[i].real()), vGot = static_cast<int>(vOut[i].real());
      EXPECT_NE(std::find(mCodes.begin(), mCodes.end(), mGot), mCodes.end())
          << "mRef[" << i << "] = " << mGot << " for m / absmax = " << mNew[k] / maxM;
      EXPECT_NE(std::find(vCodes.begin(), vCodes.end(), vGot), vCodes.end())
          << "vRef[" << i << "] = " << vGot << " for v / absmax = " << vNew[k] / maxV;
    }
  }
  ExpectNear(varOut, wantVar, "varRef");
  ExpectNear(amOut, wantAm, "absmaxMRef");
  ExpectNear(avOut, wantAv, "absmaxVRef");
  ExpectExact(grad.ReadView(), g0, "grad must not change");
  ExpectExact(qmapM.ReadView(), qm, "qmapM must not change");
}

class ApplyAdamWQuantTest : public ::testing::TestWithParam<AdamWQuantCase> {};
TEST_P(ApplyAdamWQuantTest, MatchesReference) { CheckAdamWQuant(GetParam()); }

// CANN's reference (torch.max, torch.argmin): a NaN gradient makes its block's absmaxes NaN, and every
// code of that block the first entry (each quotient by the absmax is NaN); the next block is untouched.
TEST(ApplyAdamWQuantValues, NanInABlockIsItsAbsmax) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor var(ACL_FLOAT, {512}), grad(ACL_FLOAT, {512}), m(ACL_UINT8, {512}), v(ACL_UINT8, {512});
  DeviceTensor qmapM(ACL_FLOAT, {256}), qmapV(ACL_FLOAT, {256});
  DeviceTensor absmaxM(ACL_FLOAT, {2}), absmaxV(ACL_FLOAT, {2}), step(ACL_INT64, {1});
  var.FillRandom(rng, Range{-2, 2});
  Values g = grad.FillRandom(rng, Range{-1, 1});
  g[3] = Value(std::nan(""));
  grad.WriteView(g);
  m.FillRandom(rng, Range{1, 255});
  v.FillRandom(rng, Range{1, 255});
  absmaxM.FillRandom(rng, Range{0.1, 1});
  absmaxV.FillRandom(rng, Range{0.01, 0.5});
  qmapM.WriteView(RandomQmap(rng, -1, 1));
  qmapV.WriteView(RandomQmap(rng, 0, 1));
  step.WriteView({Value(1.0)});
  char mode[] = "BLOCKWISE";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnApplyAdamWQuantGetWorkspaceSize(
            a.Tensor(var), a.Tensor(grad), a.Tensor(m), a.Tensor(v), a.Tensor(qmapM), a.Tensor(qmapV),
            a.Tensor(absmaxM), a.Tensor(absmaxV), a.Tensor(step), 0.01, 0.9, 0.99, 0.05, 1e-6, 1.0, mode, 256, ws, ex);
      },
      aclnnApplyAdamWQuant);
  const Values am = absmaxM.ReadView(), av = absmaxV.ReadView(), mOut = m.ReadView(), vOut = v.ReadView();
  const Values varOut = var.ReadView();
  EXPECT_TRUE(std::isnan(am[0].real()) && std::isnan(av[0].real())) << am[0].real() << " " << av[0].real();
  EXPECT_TRUE(std::isfinite(am[1].real()) && std::isfinite(av[1].real())) << am[1].real() << " " << av[1].real();
  EXPECT_TRUE(std::isnan(varOut[3].real()));
  for (size_t i = 0; i < 256; ++i) {
    EXPECT_EQ(mOut[i].real(), 0) << "mRef[" << i << "]";
    EXPECT_EQ(vOut[i].real(), 0) << "vRef[" << i << "]";
    if (i != 3) {
      EXPECT_TRUE(std::isfinite(varOut[i].real())) << "varRef[" << i << "]";
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamWQuantTest, ::testing::ValuesIn(AdamWQuantCases()),
                         [](const ::testing::TestParamInfo<AdamWQuantCase>& info) {
                           return SanitizeName(info.param.name);
                         });

std::vector<RejectionCase> AdamWQuantRejections() {
  struct Bad {
    std::string name;
    aclDataType varDtype = ACL_FLOAT, gradDtype = ACL_FLOAT, mDtype = ACL_UINT8;
    Shape gradShape = {2, 256}, qmapShape = {256}, absmaxShape = {2}, stepShape = {1}, varShape = {2, 256};
    int64_t blockSize = 256;
    std::string keyword;
    aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  };
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  const std::vector<Bad> bad = {
      {.name = "double_var", .varDtype = ACL_DOUBLE, .gradDtype = ACL_DOUBLE, .keyword = "varRef"},
      {.name = "f16_grad_f32_var", .gradDtype = ACL_FLOAT16, .keyword = "grad"},
      {.name = "int8_m", .mDtype = ACL_INT8, .keyword = "mRef"},
      {.name = "block_128", .blockSize = 128, .keyword = "blockSize", .expected = tiling},
      {.name = "grad_shape", .gradShape = {256, 2}, .keyword = "grad", .expected = tiling},
      {.name = "qmap_128", .qmapShape = {128}, .keyword = "qmapM", .expected = tiling},
      {.name = "step_rank0", .stepShape = {}, .keyword = "step", .expected = tiling},
      {.name = "absmax_size", .absmaxShape = {3}, .keyword = "absmaxMRef", .expected = tiling},
      {.name = "empty_var",
       .gradShape = {0, 256},
       .absmaxShape = {0},
       .varShape = {0, 256},
       .keyword = "empty",
       .expected = tiling},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back({"ApplyAdamWQuant_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       static char mode[] = "BLOCKWISE";
                       return aclnnApplyAdamWQuantGetWorkspaceSize(
                           args.NewTensor(b.varDtype, b.varShape), args.NewTensor(b.gradDtype, b.gradShape),
                           args.NewTensor(b.mDtype, b.varShape), args.NewTensor(ACL_UINT8, b.varShape),
                           args.NewTensor(ACL_FLOAT, b.qmapShape), args.NewTensor(ACL_FLOAT, b.qmapShape),
                           args.NewTensor(ACL_FLOAT, b.absmaxShape), args.NewTensor(ACL_FLOAT, b.absmaxShape),
                           args.NewTensor(ACL_INT64, b.stepShape), 0.001, 0.9, 0.999, 0.01, 1e-8, 1.0, mode,
                           b.blockSize, workspaceSize, executor);
                     },
                     aclnnApplyAdamWQuant, b.keyword, b.expected});
  }
  return cases;
}

class ApplyAdamWQuantRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ApplyAdamWQuantRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyAdamWQuantRejectionTest, ::testing::ValuesIn(AdamWQuantRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- ApplyFusedEmaAdam -------------------------------------------------------------------------

struct EmaAdamCase {
  std::string name;
  Shape shape = {4, 33};
  aclDataType dtype = ACL_FLOAT;
  int64_t step = 4;
  int64_t mode = 1;
  bool biasCorrection = true;
  View view = View::kContiguous;
  double lr = 0.01, emaDecay = 0.75, beta1 = 0.9, beta2 = 0.99, eps = 1e-8, weightDecay = 0.05;
  Shape stepShape = {1};  // the kernel reads the first element (later ones hold other counts)
};

void PrintTo(const EmaAdamCase& x, std::ostream* os) { *os << x.name; }

std::vector<EmaAdamCase> EmaAdamCases() {
  std::vector<EmaAdamCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int64_t mode : {0, 1}) {
      EmaAdamCase x;
      x.name = std::string(Name(dt)) + "_mode" + std::to_string(mode);
      x.dtype = dt;
      x.mode = mode;
      cases.push_back(x);
    }
  }
  EmaAdamCase x;
  x.name = "no_bias_correction";
  x.biasCorrection = false;
  cases.push_back(x);
  x.name = "l2_no_bias_correction_first_step";
  x.mode = 0;
  x.step = 1;
  cases.push_back(x);
  x = EmaAdamCase{};
  x.name = "large";
  x.shape = {257, 300};
  cases.push_back(x);
  for (View view : {View::kTransposed, View::kStepped, View::kReversed}) {
    x = EmaAdamCase{};
    x.name = std::string("view_") + ViewName(view);
    x.shape = {5, 6, 7};
    x.view = view;
    cases.push_back(x);
  }
  x = EmaAdamCase{};
  x.name = "empty";
  x.shape = {0, 4};
  cases.push_back(x);
  x = EmaAdamCase{};
  x.name = "step_2x2_as_the_document";  // CANN's example passes a [2, 2] step
  x.stepShape = {2, 2};
  cases.push_back(x);
  return cases;
}

void CheckEmaAdam(const EmaAdamCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor grad(x.dtype, x.shape, x.view), var(x.dtype, x.shape, x.view), m(x.dtype, x.shape, x.view);
  DeviceTensor v(x.dtype, x.shape, x.view), s(x.dtype, x.shape, x.view), step(ACL_INT64, x.stepShape);
  const Values g0 = grad.FillRandom(rng, Range{-1, 1});
  const Values var0 = var.FillRandom(rng, Range{-2, 2});
  const Values m0 = m.FillRandom(rng, Range{-0.5, 0.5});
  const Values v0 = v.FillRandom(rng, Range{0, 0.5});
  const Values s0 = s.FillRandom(rng, Range{-2, 2});
  Values steps(static_cast<size_t>(NumElements(x.stepShape)), Value(static_cast<double>(x.step + 7)));
  steps[0] = Value(static_cast<double>(x.step));
  step.WriteView(steps);
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnApplyFusedEmaAdamGetWorkspaceSize(args.Tensor(grad), args.Tensor(var), args.Tensor(m),
                                                      args.Tensor(v), args.Tensor(s), args.Tensor(step), x.lr,
                                                      x.emaDecay, x.beta1, x.beta2, x.eps, x.mode, x.biasCorrection,
                                                      x.weightDecay, workspaceSize, executor);
      },
      aclnnApplyFusedEmaAdam);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double c1 = x.biasCorrection ? 1 - std::pow(x.beta1, static_cast<double>(x.step)) : 1.0;
  const double c2 = x.biasCorrection ? 1 - std::pow(x.beta2, static_cast<double>(x.step)) : 1.0;
  const double f32 = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(x.dtype);
  Expected wantVar, wantM, wantV, wantS;
  const auto push = [&](Expected& e, double value, double scale) {
    e.values.push_back(ConvertValue(value, x.dtype));
    e.tolerance.push_back(rounding * std::fabs(value) + f32 * scale + 1e-30);
  };
  for (size_t i = 0; i < var0.size(); ++i) {
    const double w = var0[i].real();
    const double g = g0[i].real() + (x.mode == 0 ? x.weightDecay * w : 0.0);
    const double mOut = x.beta1 * m0[i].real() + (1 - x.beta1) * g;
    const double vOut = x.beta2 * v0[i].real() + (1 - x.beta2) * g * g;
    double update = (mOut / c1) / (std::sqrt(vOut / c2) + x.eps);
    const double adam = std::fabs(update);
    if (x.mode == 1) update += x.weightDecay * w;
    const double varOut = w - x.lr * update;
    const double sOut = x.emaDecay * s0[i].real() + (1 - x.emaDecay) * varOut;
    const double varScale = std::fabs(w) + x.lr * adam;
    push(wantVar, varOut, varScale);
    push(wantM, mOut, std::fabs(m0[i].real()) + std::fabs(g));
    push(wantV, vOut, std::fabs(v0[i].real()) + g * g);
    push(wantS, sOut, std::fabs(s0[i].real()) + varScale);
  }
  ExpectNear(var.ReadView(), wantVar, "varRef");
  ExpectNear(m.ReadView(), wantM, "mRef");
  ExpectNear(v.ReadView(), wantV, "vRef");
  ExpectNear(s.ReadView(), wantS, "sRef");
  ExpectExact(grad.ReadView(), g0, "grad must not change");
}

class ApplyFusedEmaAdamTest : public ::testing::TestWithParam<EmaAdamCase> {};
TEST_P(ApplyFusedEmaAdamTest, MatchesReference) { CheckEmaAdam(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyFusedEmaAdamTest, ::testing::ValuesIn(EmaAdamCases()),
                         [](const ::testing::TestParamInfo<EmaAdamCase>& info) {
                           return SanitizeName(info.param.name);
                         });

std::vector<RejectionCase> EmaAdamRejections() {
  struct Bad {
    std::string name;
    aclDataType varDtype = ACL_FLOAT, stepDtype = ACL_INT64;
    Shape sShape = {2, 3}, stepShape = {1};
    int64_t mode = 1;
    std::string keyword;
    aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  };
  const std::vector<Bad> bad = {
      {"double_var", ACL_DOUBLE, ACL_INT64, {2, 3}, {1}, 1, "varRef"},
      {"float_step", ACL_FLOAT, ACL_FLOAT, {2, 3}, {1}, 1, "step"},
      {"mixed_dtypes", ACL_FLOAT16, ACL_INT64, {2, 3}, {1}, 1, "varRef", ACLNN_ERR_INNER_TILING_ERROR},
      {"s_shape", ACL_FLOAT, ACL_INT64, {3, 2}, {1}, 1, "sRef", ACLNN_ERR_INNER_TILING_ERROR},
      {"empty_step", ACL_FLOAT, ACL_INT64, {2, 3}, {0}, 1, "step"},
      {"mode2", ACL_FLOAT, ACL_INT64, {2, 3}, {1}, 2, "mode"},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back({"ApplyFusedEmaAdam_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       const Shape shape = {2, 3};
                       return aclnnApplyFusedEmaAdamGetWorkspaceSize(
                           args.NewTensor(ACL_FLOAT, shape), args.NewTensor(b.varDtype, shape),
                           args.NewTensor(ACL_FLOAT, shape), args.NewTensor(ACL_FLOAT, shape),
                           args.NewTensor(ACL_FLOAT, b.sShape), args.NewTensor(b.stepDtype, b.stepShape), 0.01, 0.5,
                           0.9, 0.99, 1e-8, b.mode, true, 0.0, workspaceSize, executor);
                     },
                     aclnnApplyFusedEmaAdam, b.keyword, b.expected});
  }
  return cases;
}

class ApplyFusedEmaAdamRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ApplyFusedEmaAdamRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyFusedEmaAdamRejectionTest, ::testing::ValuesIn(EmaAdamRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- FusedAdamw --------------------------------------------------------------------------------

struct FusedAdamwCase {
  std::string name;
  std::vector<Shape> shapes = {{4, 33}, {7}, {2, 3, 5}};
  aclDataType dtype = ACL_FLOAT;
  aclDataType stepDtype = ACL_INT64;
  bool amsgrad = false, maximize = false;
  double gradScale = 0;  // 0: none
  int foundInf = -1;     // -1: none
  View view = View::kContiguous;
};

void PrintTo(const FusedAdamwCase& x, std::ostream* os) { *os << x.name; }

std::vector<FusedAdamwCase> FusedAdamwCases() {
  std::vector<FusedAdamwCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    FusedAdamwCase x;
    x.name = Name(dt);
    x.dtype = dt;
    cases.push_back(x);
  }
  FusedAdamwCase x;
  x.name = "amsgrad_maximize_float_steps";
  x.amsgrad = x.maximize = true;
  x.stepDtype = ACL_FLOAT;
  cases.push_back(x);
  x = FusedAdamwCase{};
  x.name = "grad_scale_found_inf_0";
  x.gradScale = 4;
  x.foundInf = 0;
  cases.push_back(x);
  x.name = "found_inf_1_skips";
  x.foundInf = 1;
  cases.push_back(x);
  x = FusedAdamwCase{};
  x.name = "strided_with_empty";
  x.shapes = {{5, 6}, {0, 3}, {3, 4, 2}};
  x.view = View::kStepped;
  cases.push_back(x);
  return cases;
}

void CheckFusedAdamw(const FusedAdamwCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  std::vector<std::unique_ptr<DeviceTensor>> p, g, m, v, mx, st;
  std::vector<Values> p0, g0, m0, v0, mx0;
  std::vector<double> steps;
  for (size_t i = 0; i < x.shapes.size(); ++i) {
    const Shape& shape = x.shapes[i];
    for (auto* list : {&p, &g, &m, &v, &mx}) list->push_back(std::make_unique<DeviceTensor>(x.dtype, shape, x.view));
    st.push_back(std::make_unique<DeviceTensor>(x.stepDtype, Shape{1}));
    p0.push_back(p[i]->FillRandom(rng, Range{-2, 2}));
    g0.push_back(g[i]->FillRandom(rng, Range{-1, 1}));
    m0.push_back(m[i]->FillRandom(rng, Range{-0.5, 0.5}));
    v0.push_back(v[i]->FillRandom(rng, Range{0, 0.5}));
    mx0.push_back(mx[i]->FillRandom(rng, Range{0, 0.5}));
    steps.push_back(static_cast<double>(i + 2));
    st[i]->WriteView({Value(steps[i])});
  }
  DeviceTensor scale(ACL_FLOAT, {1}), found(ACL_FLOAT, {1});
  scale.WriteView({Value(x.gradScale)});
  found.WriteView({Value(static_cast<double>(x.foundInf))});
  AdamWCase params;  // lr, betas, decay, eps as ApplyAdamWV2's reference takes them
  params.amsgrad = x.amsgrad;
  params.maximize = x.maximize;
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        const auto list = [&](const std::vector<std::unique_ptr<DeviceTensor>>& tensors) {
          std::vector<aclTensor*> descriptors;
          for (const auto& t : tensors) descriptors.push_back(args.Tensor(*t));
          return args.TensorList(descriptors);
        };
        return aclnnFusedAdamwGetWorkspaceSize(
            list(p), list(g), list(m), list(v), x.amsgrad ? list(mx) : nullptr, list(st),
            x.gradScale != 0 ? args.Tensor(scale) : nullptr, x.foundInf >= 0 ? args.Tensor(found) : nullptr, params.lr,
            params.beta1, params.beta2, params.weightDecay, params.eps, x.amsgrad, x.maximize, workspaceSize, executor);
      },
      aclnnFusedAdamw);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double f32 = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(x.dtype);
  for (size_t i = 0; i < x.shapes.size(); ++i) {
    const std::string which = "[" + std::to_string(i) + "]";
    if (x.foundInf == 1) {
      ExpectExact(p[i]->ReadView(), p0[i], "paramsRef" + which + " must not change when foundInf is 1");
      ExpectExact(m[i]->ReadView(), m0[i], "expAvgsRef" + which + " must not change");
      ExpectExact(v[i]->ReadView(), v0[i], "expAvgSqsRef" + which + " must not change");
      continue;
    }
    params.step = steps[i];
    Expected wantP, wantM, wantV, wantMax;
    const auto push = [&](Expected& e, double value, double scaleOf) {
      e.values.push_back(ConvertValue(value, x.dtype));
      e.tolerance.push_back(rounding * std::fabs(value) + f32 * scaleOf + 1e-30);
    };
    for (size_t j = 0; j < p0[i].size(); ++j) {
      const double grad = g0[i][j].real() / (x.gradScale != 0 ? x.gradScale : 1.0);
      const AdamWValues r =
          AdamWReference(params, p0[i][j].real(), m0[i][j].real(), v0[i][j].real(), mx0[i][j].real(), grad);
      push(wantP, r.var, std::fabs(p0[i][j].real()) + params.lr * 8);
      push(wantM, r.m, std::fabs(m0[i][j].real()) + std::fabs(grad));
      push(wantV, r.v, std::fabs(v0[i][j].real()) + grad * grad);
      push(wantMax, r.maxV, std::fabs(r.maxV));
    }
    ExpectNear(p[i]->ReadView(), wantP, "paramsRef" + which);
    ExpectNear(m[i]->ReadView(), wantM, "expAvgsRef" + which);
    ExpectNear(v[i]->ReadView(), wantV, "expAvgSqsRef" + which);
    if (x.amsgrad) ExpectNear(mx[i]->ReadView(), wantMax, "maxExpAvgSqsRef" + which);
    ExpectExact(g[i]->ReadView(), g0[i], "grads" + which + " must not change");
  }
}

class FusedAdamwTest : public ::testing::TestWithParam<FusedAdamwCase> {};
TEST_P(FusedAdamwTest, MatchesReference) { CheckFusedAdamw(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedAdamwTest, ::testing::ValuesIn(FusedAdamwCases()),
                         [](const ::testing::TestParamInfo<FusedAdamwCase>& info) {
                           return SanitizeName(info.param.name);
                         });

std::vector<RejectionCase> FusedAdamwRejections() {
  struct Bad {
    std::string name;
    aclDataType gradDtype = ACL_FLOAT, stepDtype = ACL_INT64;
    Shape gradShape = {2, 3}, stepShape = {1};
    size_t gradCount = 2;
    bool amsgrad = false;
    double lr = 0.01;
    std::string keyword;
  };
  const std::vector<Bad> bad = {
      {"grad_dtype", ACL_FLOAT16, ACL_INT64, {2, 3}, {1}, 2, false, 0.01, "grads"},
      {"int32_step", ACL_FLOAT, ACL_INT32, {2, 3}, {1}, 2, false, 0.01, "stateSteps"},
      {"grad_shape", ACL_FLOAT, ACL_INT64, {3, 2}, {1}, 2, false, 0.01, "grads"},
      {"two_element_step", ACL_FLOAT, ACL_INT64, {2, 3}, {2}, 2, false, 0.01, "stateSteps"},
      {"list_lengths", ACL_FLOAT, ACL_INT64, {2, 3}, {1}, 1, false, 0.01, "grads"},
      {"amsgrad_without_max", ACL_FLOAT, ACL_INT64, {2, 3}, {1}, 2, true, 0.01, "maxExpAvgSqsRef"},
      {"negative_lr", ACL_FLOAT, ACL_INT64, {2, 3}, {1}, 2, false, -0.01, "lr"},
      {"nan_lr", ACL_FLOAT, ACL_INT64, {2, 3}, {1}, 2, false, std::numeric_limits<double>::quiet_NaN(), "lr"},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back({"FusedAdamw_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       const Shape shape = {2, 3};
                       const auto list = [&](aclDataType dtype, const Shape& s, size_t count) {
                         std::vector<aclTensor*> tensors;
                         for (size_t i = 0; i < count; ++i) tensors.push_back(args.NewTensor(dtype, s));
                         return args.TensorList(tensors);
                       };
                       return aclnnFusedAdamwGetWorkspaceSize(
                           list(ACL_FLOAT, shape, 2), list(b.gradDtype, b.gradShape, b.gradCount),
                           list(ACL_FLOAT, shape, 2), list(ACL_FLOAT, shape, 2), nullptr,
                           list(b.stepDtype, b.stepShape, 2), nullptr, nullptr, b.lr, 0.9, 0.999, 0.0, 1e-8, b.amsgrad,
                           false, workspaceSize, executor);
                     },
                     aclnnFusedAdamw, b.keyword});
  }
  return cases;
}

class FusedAdamwRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(FusedAdamwRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedAdamwRejectionTest, ::testing::ValuesIn(FusedAdamwRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- FusedSgd ----------------------------------------------------------------------------------

struct SgdCase {
  std::string name;
  std::vector<Shape> shapes = {{4, 33}, {7}, {2, 3, 5}};
  aclDataType dtype = ACL_FLOAT;
  bool buffers = true, nesterov = false, maximize = false, firstStep = false;
  float momentum = 0.9f, dampening = 0.1f, weightDecay = 0.01f, lr = 0.05f;
  double gradScale = 0;  // 0: none
  View view = View::kContiguous;
};

void PrintTo(const SgdCase& x, std::ostream* os) { *os << x.name; }

std::vector<SgdCase> SgdCases() {
  std::vector<SgdCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    SgdCase x;
    x.name = Name(dt);
    x.dtype = dt;
    cases.push_back(x);
  }
  SgdCase x;
  x.name = "first_step_grad_scale";
  x.firstStep = true;
  x.gradScale = 8;
  cases.push_back(x);
  x = SgdCase{};
  x.name = "nesterov_maximize";
  x.nesterov = x.maximize = true;
  x.dampening = 0;
  cases.push_back(x);
  x = SgdCase{};
  x.name = "no_momentum";
  x.buffers = false;
  x.momentum = 0;
  cases.push_back(x);
  x = SgdCase{};
  x.name = "strided_with_empty";
  x.shapes = {{5, 6}, {0, 3}, {3, 4, 2}};
  x.view = View::kTransposed;
  cases.push_back(x);
  return cases;
}

void CheckSgd(const SgdCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  std::vector<std::unique_ptr<DeviceTensor>> p, g, b;
  std::vector<Values> p0, g0, b0;
  for (const Shape& shape : x.shapes) {
    for (auto* list : {&p, &g, &b}) list->push_back(std::make_unique<DeviceTensor>(x.dtype, shape, x.view));
    p0.push_back(p.back()->FillRandom(rng, Range{-2, 2}));
    g0.push_back(g.back()->FillRandom(rng, Range{-1, 1}));
    b0.push_back(b.back()->FillRandom(rng, Range{-1, 1}));
  }
  DeviceTensor scale(ACL_FLOAT, {1});
  scale.WriteView({Value(x.gradScale)});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        const auto list = [&](const std::vector<std::unique_ptr<DeviceTensor>>& tensors) {
          std::vector<aclTensor*> descriptors;
          for (const auto& t : tensors) descriptors.push_back(args.Tensor(*t));
          return args.TensorList(descriptors);
        };
        return aclnnFusedSgdGetWorkspaceSize(
            list(p), list(g), x.buffers ? list(b) : nullptr, x.gradScale != 0 ? args.Tensor(scale) : nullptr,
            x.weightDecay, x.momentum, x.lr, x.dampening, x.nesterov, x.maximize, x.firstStep, workspaceSize, executor);
      },
      aclnnFusedSgd);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double f32 = 16 * UnitRoundoff(ACL_FLOAT), rounding = 2 * UnitRoundoff(x.dtype);
  for (size_t i = 0; i < x.shapes.size(); ++i) {
    Expected wantP, wantG, wantB;
    const auto push = [&](Expected& e, double value, double scaleOf) {
      e.values.push_back(ConvertValue(value, x.dtype));
      e.tolerance.push_back(rounding * std::fabs(value) + f32 * scaleOf + 1e-30);
    };
    for (size_t j = 0; j < p0[i].size(); ++j) {
      const double w = p0[i][j].real();
      const double unscaled = g0[i][j].real() / (x.gradScale != 0 ? x.gradScale : 1.0);
      double grad = (x.maximize ? -unscaled : unscaled) + x.weightDecay * w;
      double buffer = b0[i][j].real();
      if (x.buffers) {
        buffer = x.firstStep ? grad : x.momentum * buffer + (1 - x.dampening) * grad;
        grad = x.nesterov ? grad + x.momentum * buffer : buffer;
      }
      push(wantP, w - x.lr * grad, std::fabs(w) + 4 * x.lr);
      push(wantG, unscaled, std::fabs(unscaled));
      push(wantB, buffer, 4);
    }
    const std::string which = "[" + std::to_string(i) + "]";
    ExpectNear(p[i]->ReadView(), wantP, "paramsRef" + which);
    ExpectNear(g[i]->ReadView(), wantG, "gradsRef" + which);
    ExpectNear(b[i]->ReadView(), wantB, "momentumBufferListOptionalRef" + which);
  }
}

class FusedSgdTest : public ::testing::TestWithParam<SgdCase> {};
TEST_P(FusedSgdTest, MatchesReference) { CheckSgd(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedSgdTest, ::testing::ValuesIn(SgdCases()),
                         [](const ::testing::TestParamInfo<SgdCase>& info) { return SanitizeName(info.param.name); });

std::vector<RejectionCase> SgdRejections() {
  struct Bad {
    std::string name;
    aclDataType gradDtype = ACL_FLOAT;
    Shape gradShape = {2, 3};
    bool buffers = true;
    float momentum = 0.9f, dampening = 0, lr = 0.1f;
    bool nesterov = false;
    std::string keyword;
  };
  const std::vector<Bad> bad = {
      {"grad_dtype", ACL_FLOAT16, {2, 3}, true, 0.9f, 0, 0.1f, false, "gradsRef"},
      {"grad_shape", ACL_FLOAT, {3, 2}, true, 0.9f, 0, 0.1f, false, "gradsRef"},
      {"momentum_without_buffers", ACL_FLOAT, {2, 3}, false, 0.9f, 0, 0.1f, false, "momentum"},
      {"buffers_without_momentum", ACL_FLOAT, {2, 3}, true, 0, 0, 0.1f, false, "momentum"},
      {"nesterov_dampening", ACL_FLOAT, {2, 3}, true, 0.9f, 0.5f, 0.1f, true, "nesterov"},
      {"negative_lr", ACL_FLOAT, {2, 3}, true, 0.9f, 0, -0.1f, false, "lr"},
      {"int32_params", ACL_INT32, {2, 3}, false, 0, 0, 0.1f, false, "Ref"},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back({"FusedSgd_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       const aclDataType paramDtype = b.gradDtype == ACL_INT32 ? ACL_INT32 : ACL_FLOAT;
                       const auto list = [&](aclDataType dtype, const Shape& s) {
                         return args.TensorList({args.NewTensor(dtype, s), args.NewTensor(dtype, s)});
                       };
                       return aclnnFusedSgdGetWorkspaceSize(list(paramDtype, {2, 3}), list(b.gradDtype, b.gradShape),
                                                            b.buffers ? list(paramDtype, {2, 3}) : nullptr, nullptr,
                                                            0.0f, b.momentum, b.lr, b.dampening, b.nesterov, false,
                                                            false, workspaceSize, executor);
                     },
                     aclnnFusedSgd, b.keyword});
  }
  return cases;
}

class FusedSgdRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(FusedSgdRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedSgdRejectionTest, ::testing::ValuesIn(SgdRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- AmpUpdateScale ----------------------------------------------------------------------------

struct AmpCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  double scale = 1024, found = 0;
  int32_t tracker = 0;
  int64_t interval = 3;
  double growth = 2, backoff = 0.5;
  double wantScale = 1024;
  int32_t wantTracker = 1;
};

void PrintTo(const AmpCase& x, std::ostream* os) { *os << x.name; }

std::vector<AmpCase> AmpCases() {
  std::vector<AmpCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_counts", dt, 1024, 0, 0, 3, 2, 0.5, 1024, 1});
    cases.push_back({n + "_grows", dt, 1024, 0, 2, 3, 2, 0.5, 2048, 0});
    cases.push_back({n + "_backs_off", dt, 1024, 1, 2, 3, 2, 0.5, 512, 0});
    cases.push_back({n + "_nan_found_backs_off", dt, 1024, std::nan(""), 1, 3, 2, 0.5, 512, 0});
  }
  // A growth that overflows the dtype keeps the scale and resets the tracker.
  cases.push_back({"f16_growth_overflows", ACL_FLOAT16, 32768, 0, 0, 1, 4, 0.5, 32768, 0});
  cases.push_back({"f32_growth_overflows", ACL_FLOAT, 3e38, 0, 4, 5, 2, 0.5, 3e38, 0});
  cases.push_back({"interval1_grows_each_step", ACL_FLOAT, 8, 0, 0, 1, 2, 0.5, 16, 0});
  return cases;
}

void CheckAmp(const AmpCase& x) {
  DeviceTensor scale(x.dtype, {1}), tracker(ACL_INT32, {1}), found(x.dtype, {1});
  DeviceTensor newScale(x.dtype, {1}), newTracker(ACL_INT32, {1});
  scale.WriteView({Value(x.scale)});
  tracker.WriteView({Value(static_cast<double>(x.tracker))});
  found.WriteView({Value(x.found)});
  newScale.Poison();
  newTracker.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnAmpUpdateScaleGetWorkspaceSize(args.Tensor(scale), args.Tensor(tracker), args.Tensor(found),
                                                   x.growth, x.backoff, x.interval, args.Tensor(newScale),
                                                   args.Tensor(newTracker), workspaceSize, executor);
      },
      aclnnAmpUpdateScale);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(newScale.ReadView(), {ConvertValue(x.wantScale, x.dtype)}, "updatedScale");
  ExpectExact(newTracker.ReadView(), {Value(static_cast<double>(x.wantTracker))}, "updatedGrowthTracker");
}

class AmpUpdateScaleTest : public ::testing::TestWithParam<AmpCase> {};
TEST_P(AmpUpdateScaleTest, MatchesTorch) { CheckAmp(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AmpUpdateScaleTest, ::testing::ValuesIn(AmpCases()),
                         [](const ::testing::TestParamInfo<AmpCase>& info) { return SanitizeName(info.param.name); });

// Updating the scale in place (updatedScale and growthTracker's outputs over the inputs), as torch does.
TEST(AmpUpdateScale, InPlaceOverTheInputs) {
  DeviceTensor scale(ACL_BF16, {1}), tracker(ACL_INT32, {1}), found(ACL_BF16, {1});
  scale.WriteView({Value(64.0)});
  tracker.WriteView({Value(1.0)});
  found.WriteView({Value(0.0)});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* s = args.Tensor(scale);
        aclTensor* t = args.Tensor(tracker);
        return aclnnAmpUpdateScaleGetWorkspaceSize(s, t, args.Tensor(found), 2.0, 0.5, 2, s, t, workspaceSize,
                                                   executor);
      },
      aclnnAmpUpdateScale);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(scale.ReadView(), {Value(128.0)}, "scale");
  ExpectExact(tracker.ReadView(), {Value(0.0)}, "tracker");
}

std::vector<RejectionCase> AmpRejections() {
  struct Bad {
    std::string name;
    aclDataType scaleDtype = ACL_FLOAT, trackerDtype = ACL_INT32, foundDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
    Shape scaleShape = {1};
    int64_t interval = 2;
    std::string keyword;
    aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  };
  const std::vector<Bad> bad = {
      {"double_scale", ACL_DOUBLE, ACL_INT32, ACL_DOUBLE, ACL_DOUBLE, {1}, 2, "currentScale"},
      {"found_dtype", ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_FLOAT, {1}, 2, "foundInf"},
      {"out_dtype", ACL_FLOAT, ACL_INT32, ACL_FLOAT, ACL_BF16, {1}, 2, "updatedScale"},
      {"int64_tracker", ACL_FLOAT, ACL_INT64, ACL_FLOAT, ACL_FLOAT, {1}, 2, "growthTracker"},
      {"scale_shape", ACL_FLOAT, ACL_INT32, ACL_FLOAT, ACL_FLOAT, {2}, 2, "currentScale", ACLNN_ERR_INNER_TILING_ERROR},
      {"rank0_scale", ACL_FLOAT, ACL_INT32, ACL_FLOAT, ACL_FLOAT, {}, 2, "currentScale", ACLNN_ERR_INNER_TILING_ERROR},
      {"interval0", ACL_FLOAT, ACL_INT32, ACL_FLOAT, ACL_FLOAT, {1}, 0, "growthInterval", ACLNN_ERR_INNER_TILING_ERROR},
      {"interval_past_int32",
       ACL_FLOAT,
       ACL_INT32,
       ACL_FLOAT,
       ACL_FLOAT,
       {1},
       int64_t{1} << 31,
       "growthInterval",
       ACLNN_ERR_INNER_TILING_ERROR},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) {
    cases.push_back({"AmpUpdateScale_" + b.name,
                     [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                       return aclnnAmpUpdateScaleGetWorkspaceSize(
                           args.NewTensor(b.scaleDtype, b.scaleShape), args.NewTensor(b.trackerDtype, {1}),
                           args.NewTensor(b.foundDtype, {1}), 2.0, 0.5, b.interval, args.NewTensor(b.outDtype, {1}),
                           args.NewTensor(ACL_INT32, {1}), workspaceSize, executor);
                     },
                     aclnnAmpUpdateScale, b.keyword, b.expected});
  }
  return cases;
}

class AmpUpdateScaleRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(AmpUpdateScaleRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AmpUpdateScaleRejectionTest, ::testing::ValuesIn(AmpRejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
