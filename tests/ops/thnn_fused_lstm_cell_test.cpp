// ThnnFusedLstmCell through the public API against a float64 reference: with
// and without the biases, both A2 dtypes, strided views, the gate order of
// CANN's kernels and torch (input, forget, cell candidate, output), an empty batch and the rejections
// (a lone bias 161001, as CANN).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_thnn_fused_lstm_cell.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

TEST(ThnnFusedLstmCell, MatchesReference) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const bool biased : {false, true}) {
      for (const int64_t batch : {int64_t{3}, int64_t{0}}) {
        SCOPED_TRACE(std::string(Name(dtype)) + (biased ? " biased" : "") + " batch " + std::to_string(batch));
        Rng rng = Rng::ForCurrentTest();
        const int64_t h = 5;
        DeviceTensor ig(dtype, {batch, 4 * h}, View::kTransposed), hg(dtype, {batch, 4 * h}, View::kStepped);
        DeviceTensor cx(dtype, {batch, h}), ib(dtype, {4 * h}), hb(dtype, {4 * h}, View::kStepped);
        const Values vig = ig.FillRandom(rng, Range{-3, 3}), vhg = hg.FillRandom(rng, Range{-3, 3});
        const Values vcx = cx.FillRandom(rng, Range{-2, 2});
        const Values vib = ib.FillRandom(rng, Range{-1, 1}), vhb = hb.FillRandom(rng, Range{-1, 1});
        DeviceTensor hy(dtype, {batch, h}, View::kStepped), cy(dtype, {batch, h}), storage(dtype, {batch, 4 * h});
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnThnnFusedLstmCellGetWorkspaceSize(
                  a.Tensor(ig), a.Tensor(hg), a.Tensor(cx), biased ? a.Tensor(ib) : nullptr,
                  biased ? a.Tensor(hb) : nullptr, a.Tensor(hy), a.Tensor(cy), a.Tensor(storage), w, e);
            },
            aclnnThnnFusedLstmCell);
        Expected wantHy, wantCy, wantStorage(Expected{Values(static_cast<size_t>(batch * 4 * h)), {}});
        wantStorage.tolerance.assign(wantStorage.values.size(), 0);
        const double tol = 8 * UnitRoundoff(ACL_FLOAT) + 2 * UnitRoundoff(dtype);
        for (int64_t r = 0; r < batch; ++r) {
          auto gate = [&](int64_t k, int64_t j) {
            const auto at = static_cast<size_t>(r * 4 * h + k * h + j), b = static_cast<size_t>(k * h + j);
            return vig[at].real() + vhg[at].real() + (biased ? vib[b].real() + vhb[b].real() : 0.0);
          };
          for (int64_t j = 0; j < h; ++j) {
            const double i = Sigmoid(gate(0, j)), f = Sigmoid(gate(1, j)), g = std::tanh(gate(2, j)),
                         o = Sigmoid(gate(3, j));
            const double c = f * vcx[static_cast<size_t>(r * h + j)].real() + i * g;
            wantCy.values.emplace_back(c);
            wantCy.tolerance.push_back(tol * std::max(std::abs(c), 1.0) * 4);
            wantHy.values.emplace_back(o * std::tanh(c));
            wantHy.tolerance.push_back(tol * 4);
            for (int64_t k = 0; k < 4; ++k) {
              const auto at = static_cast<size_t>(r * 4 * h + k * h + j);
              wantStorage.values[at] = std::vector<double>{i, f, g, o}[static_cast<size_t>(k)];
              wantStorage.tolerance[at] = tol * 2;
            }
          }
        }
        ExpectNear(hy.ReadView(), wantHy, "hyOut");
        ExpectNear(cy.ReadView(), wantCy, "cyOut");
        ExpectNear(storage.ReadView(), wantStorage, "storageOut");
      }
    }
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

struct CellArgs {
  aclDataType dtype = ACL_FLOAT, hiddenDtype = ACL_FLOAT;
  Shape gates = {2, 12}, hidden = {2, 12}, cx = {2, 3}, bias = {12}, hy = {2, 3}, storage = {2, 12};
  bool inputBias = true, hiddenBias = true;
};

std::function<aclnnStatus(A&, W, E)> Call(CellArgs c) {
  return [=](A& a, W w, E e) {
    return aclnnThnnFusedLstmCellGetWorkspaceSize(
        a.NewTensor(c.dtype, c.gates), a.NewTensor(c.hiddenDtype, c.hidden), a.NewTensor(c.dtype, c.cx),
        c.inputBias ? a.NewTensor(c.dtype, c.bias) : nullptr, c.hiddenBias ? a.NewTensor(c.dtype, c.bias) : nullptr,
        a.NewTensor(c.dtype, c.hy), a.NewTensor(c.dtype, c.cx), a.NewTensor(c.dtype, c.storage), w, e);
  };
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> cases;
  auto add = [&](const char* name, const char* keyword, aclnnStatus status, auto change) {
    CellArgs c;
    change(c);
    cases.push_back({name, Call(c), aclnnThnnFusedLstmCell, keyword, status});
  };
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  add("input_bias_alone", "both", ACLNN_ERR_PARAM_NULLPTR, [](CellArgs& c) { c.hiddenBias = false; });
  add("hidden_bias_alone", "both", ACLNN_ERR_PARAM_NULLPTR, [](CellArgs& c) { c.inputBias = false; });
  add("gates_rank", "'inputGates'", invalid, [](CellArgs& c) { c.gates = {2, 12, 1}; });
  add("gates_width", "'inputGates'", invalid, [](CellArgs& c) { c.gates = {2, 9}; });
  add("bias_width", "'inputBiasOptional'", invalid, [](CellArgs& c) { c.bias = {3}; });
  add("hy_shape", "'hyOut'", invalid, [](CellArgs& c) { c.hy = {3, 2}; });
  add("storage_shape", "'storageOut'", invalid, [](CellArgs& c) { c.storage = {2, 3}; });
  add("bf16", "'inputGates'", invalid, [](CellArgs& c) { c.dtype = c.hiddenDtype = ACL_BF16; });
  add("mixed", "'hiddenGates'", invalid, [](CellArgs& c) { c.hiddenDtype = ACL_FLOAT16; });
  return cases;
}

class ThnnFusedLstmCellRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ThnnFusedLstmCellRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ThnnFusedLstmCellRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
