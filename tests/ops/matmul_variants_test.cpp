// The matmul variants on the matmul planner: Addbmm / InplaceAddbmm, Baddbmm /
// InplaceBaddbmm, Addmv, Gemm and the weight-NZ forms MatmulWeightNz,
// BatchMatMulWeightNz and AddmmWeightNz, TransposeBatchMatMul and its WeightNz
// form, Einsum, through the public C API against a
// float64 reference (ReferenceAddmm per product), on f32, f16 and bf16, with
// transposed, strided and broadcast operands, every cubeMathType, in place,
// empty tensors and K = 0; then each op's documented rejections.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_addmv.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_einsum.h"
#include "aclnnop/aclnn_gemm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_transpose_batch_mat_mul.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

const Range kMatrixRange{-1, 1};
const View c = View::kContiguous;

struct Operand {
  aclDataType dtype = ACL_FLOAT;
  Shape shape;
  View view = View::kContiguous;
  aclFormat format = ACL_FORMAT_ND;
};

// What a call receives: the input descriptors in prototype order, out (null in
// place), the coefficients and cubeMathType.
struct CallArgs {
  std::vector<aclTensor*> inputs;
  aclTensor* out = nullptr;
  aclScalar* beta = nullptr;
  aclScalar* alpha = nullptr;
  Value betaValue, alphaValue;
  int8_t cube = kKeepDtype;
  uint64_t* workspaceSize = nullptr;
  aclOpExecutor** executor = nullptr;
  OpArgs* args = nullptr;  // for lists of the call's descriptors
};

struct VariantCase {
  std::string name;
  std::vector<Operand> inputs;
  Operand out;           // ignored in place
  bool inplace = false;  // input 0 is the out
  Value beta = 1.0, alpha = 1.0;
  aclDataType scalarDtype = ACL_FLOAT;
  int8_t cube = kKeepDtype;
  std::function<aclnnStatus(const CallArgs&)> phase1;
  Phase2 phase2 = nullptr;
  // The inputs' values (row-major over their views), beta, alpha -> expected out.
  std::function<Expected(const std::vector<Values>&, Value, Value, const VariantCase&)> reference;
  bool outUntouched = false;  // CANN computes nothing: out keeps its poison
};

void PrintTo(const VariantCase& x, std::ostream* os) { *os << x.name; }

// Row-major values of permute(x, perm) for a row-major x of `shape`.
Values PermuteValues(const Values& v, const Shape& shape, const std::vector<int64_t>& perm) {
  Shape permuted;
  for (int64_t d : perm) permuted.push_back(shape[static_cast<size_t>(d)]);
  Values out(v.size());
  for (int64_t i = 0; i < NumElements(permuted); ++i) {
    const Shape index = Unravel(i, permuted);
    Shape source(shape.size());
    for (size_t d = 0; d < perm.size(); ++d) source[static_cast<size_t>(perm[d])] = index[d];
    out[static_cast<size_t>(i)] = v[static_cast<size_t>(Ravel(source, shape))];
  }
  return out;
}

void Append(Expected& to, const Expected& from) {
  to.values.insert(to.values.end(), from.values.begin(), from.values.end());
  to.tolerance.insert(to.tolerance.end(), from.tolerance.begin(), from.tolerance.end());
}

void RunCase(const VariantCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  std::vector<std::unique_ptr<DeviceTensor>> inputs;
  std::vector<Values> values;
  for (const Operand& operand : x.inputs) {
    inputs.push_back(std::make_unique<DeviceTensor>(operand.dtype, operand.shape, operand.view));
    values.push_back(inputs.back()->FillRandom(rng, kMatrixRange));
  }
  std::unique_ptr<DeviceTensor> separateOut;
  const DeviceTensor* out = inputs[0].get();
  if (!x.inplace) {
    separateOut = std::make_unique<DeviceTensor>(x.out.dtype, x.out.shape, x.out.view);
    separateOut->Poison();
    out = separateOut.get();
  }
  const std::vector<uint8_t> before = out->DownloadBytes();
  const Value beta = ConvertValue(x.beta, x.scalarDtype), alpha = ConvertValue(x.alpha, x.scalarDtype);
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        CallArgs call;
        for (size_t i = 0; i < inputs.size(); ++i) call.inputs.push_back(args.Tensor(*inputs[i], x.inputs[i].format));
        if (!x.inplace) call.out = args.Tensor(*out, x.out.format);
        call.beta = args.Scalar(x.scalarDtype, beta);
        call.alpha = args.Scalar(x.scalarDtype, alpha);
        call.betaValue = beta;
        call.alphaValue = alpha;
        call.cube = x.cube;
        call.workspaceSize = workspaceSize;
        call.executor = executor;
        call.args = &args;
        return x.phase1(call);
      },
      x.phase2);
  ASSERT_TRUE(run.ok()) << x.name << ": " << Describe(run);
  if (x.outUntouched) {
    EXPECT_EQ(out->DownloadBytes(), before) << "out must keep its values";
  } else {
    ExpectNear(out->ReadView(), x.reference(values, beta, alpha, x), x.name);
    ExpectOutsideViewUnchanged(*out, before, "out storage");
  }
  for (size_t i = x.inplace ? 1 : 0; i < inputs.size(); ++i) {
    ExpectExact(inputs[i]->ReadView(), values[i], "input " + std::to_string(i) + " must not change");
  }
  if (NumElements(out->shape()) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "an empty result needs no workspace";
  }
}

MatmulPrecision PrecisionOf(const VariantCase& x, size_t a, size_t b) {
  const aclDataType outDtype = x.inplace ? x.inputs[0].dtype : x.out.dtype;
  return MatmulPrecisionFor(x.inputs[a].dtype, x.inputs[b].dtype, outDtype, x.cube);
}

// ---- Addbmm / InplaceAddbmm --------------------------------------------------------------------

// self, batch1 [B1, M, K], batch2 [B2, K, N]: the batch sum is mat1 [M, B*K] @ mat2 [B*K, N].
Expected AddbmmReference(const std::vector<Values>& v, Value beta, Value alpha, const VariantCase& x) {
  const Shape& s1 = x.inputs[1].shape;
  const Shape& s2 = x.inputs[2].shape;
  const int64_t batch = std::max(s1[0], s2[0]), m = s1[1], k = s1[2], n = s2[2];
  const Values b1 = BroadcastTo(v[1], s1, {batch, m, k});
  const Values b2 = BroadcastTo(v[2], s2, {batch, k, n});
  Values mat1(static_cast<size_t>(m * batch * k));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t p = 0; p < k; ++p) {
        mat1[static_cast<size_t>((i * batch + b) * k + p)] = b1[static_cast<size_t>((b * m + i) * k + p)];
      }
    }
  }
  return ReferenceAddmm(v[0], x.inputs[0].shape, mat1, {m, batch * k}, b2, {batch * k, n}, beta, alpha,
                        PrecisionOf(x, 1, 2));
}

aclnnStatus AddbmmCall(const CallArgs& a) {
  return aclnnAddbmmGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], a.beta, a.alpha, a.out, a.cube,
                                     a.workspaceSize, a.executor);
}
aclnnStatus InplaceAddbmmCall(const CallArgs& a) {
  return aclnnInplaceAddbmmGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], a.beta, a.alpha, a.cube,
                                            a.workspaceSize, a.executor);
}

VariantCase Addbmm(const std::string& name, const Shape& self, const Shape& batch1, const Shape& batch2,
                   aclDataType dtype = ACL_FLOAT) {
  VariantCase x;
  x.name = "Addbmm_" + name;
  x.inputs = {{dtype, self}, {dtype, batch1}, {dtype, batch2}};
  x.out = {dtype, {batch1[1], batch2[2]}};
  x.phase1 = AddbmmCall;
  x.phase2 = aclnnAddbmm;
  x.reference = AddbmmReference;
  return x;
}

VariantCase InPlace(VariantCase x, const std::function<aclnnStatus(const CallArgs&)>& phase1, Phase2 phase2) {
  x.name = "Inplace" + x.name;
  x.inplace = true;
  x.phase1 = phase1;
  x.phase2 = phase2;
  return x;
}

std::vector<VariantCase> AddbmmCases() {
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(Addbmm(std::string(Name(dt)) + "_typical", {6, 5}, {4, 6, 8}, {4, 8, 5}, dt));
  }
  cases.push_back(Addbmm("large", {40, 24}, {7, 40, 33}, {7, 33, 24}));
  cases.push_back(Addbmm("self_row", {5}, {3, 6, 8}, {3, 8, 5}));
  cases.push_back(Addbmm("self_scalar", {}, {3, 6, 8}, {3, 8, 5}));
  cases.push_back(Addbmm("self_column", {6, 1}, {3, 6, 8}, {3, 8, 5}));
  cases.push_back(Addbmm("batch1_broadcast", {6, 5}, {1, 6, 8}, {3, 8, 5}));
  cases.push_back(Addbmm("batch2_broadcast", {6, 5}, {3, 6, 8}, {1, 8, 5}));
  VariantCase x = Addbmm("transposed_batches_stepped_out", {6, 5}, {3, 6, 8}, {3, 8, 5});
  x.inputs[1].view = x.inputs[2].view = View::kTransposed;
  x.out.view = View::kStepped;
  cases.push_back(x);
  x = Addbmm("reversed_batch1_broadcast_self", {6, 5}, {3, 6, 8}, {3, 8, 5});
  x.inputs[0].view = View::kBroadcast;
  x.inputs[1].view = View::kReversed;
  cases.push_back(x);
  x = Addbmm("coefficients", {6, 5}, {3, 6, 8}, {3, 8, 5});
  x.beta = -0.5;
  x.alpha = 2.0;
  cases.push_back(x);
  x.name = "Addbmm_s32_coefficients";
  x.scalarDtype = ACL_INT32;
  x.beta = 3.0;
  x.alpha = -2.0;
  cases.push_back(x);
  x = Addbmm("beta0", {6, 5}, {3, 6, 8}, {3, 8, 5});
  x.beta = 0.0;
  cases.push_back(x);
  x.name = "Addbmm_alpha0";
  x.beta = 1.5;
  x.alpha = 0.0;
  cases.push_back(x);
  for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16}) {
      x = Addbmm(std::string("cube") + std::to_string(cube) + "_" + Name(dt), {6, 5}, {3, 6, 40}, {3, 40, 5}, dt);
      x.cube = cube;
      cases.push_back(x);
    }
  }
  x = Addbmm("f16_inputs_f32_self_out", {6, 5}, {3, 6, 8}, {3, 8, 5});
  x.inputs[1].dtype = x.inputs[2].dtype = ACL_FLOAT16;
  cases.push_back(x);
  cases.push_back(Addbmm("k0", {6, 5}, {3, 6, 0}, {3, 0, 5}));
  cases.push_back(Addbmm("batch0", {6, 5}, {0, 6, 8}, {0, 8, 5}));
  cases.push_back(Addbmm("empty_m", {0, 5}, {3, 0, 8}, {3, 8, 5}));
  x = InPlace(Addbmm("typical", {6, 5}, {4, 6, 8}, {4, 8, 5}), InplaceAddbmmCall, aclnnInplaceAddbmm);
  x.beta = 0.5;
  cases.push_back(x);
  x = InPlace(Addbmm("bf16_transposed_self", {6, 5}, {4, 6, 8}, {4, 8, 5}, ACL_BF16), InplaceAddbmmCall,
              aclnnInplaceAddbmm);
  x.inputs[0].view = View::kTransposed;
  cases.push_back(x);
  return cases;
}

// ---- Baddbmm / InplaceBaddbmm ------------------------------------------------------------------

// One Addmm per batch, self broadcast to [B, M, N].
Expected BaddbmmReference(const std::vector<Values>& v, Value beta, Value alpha, const VariantCase& x) {
  const Shape& s1 = x.inputs[1].shape;
  const Shape& s2 = x.inputs[2].shape;
  const int64_t batch = s1[0], m = s1[1], k = s1[2], n = s2[2];
  const Values self = BroadcastTo(v[0], x.inputs[0].shape, {batch, m, n});
  const Values b2 = BroadcastTo(v[2], s2, {batch, k, n});
  Expected want;
  for (int64_t b = 0; b < batch; ++b) {
    const auto slice = [](const Values& all, int64_t index, int64_t size) {
      return Values(all.begin() + index * size, all.begin() + (index + 1) * size);
    };
    Append(want, ReferenceAddmm(slice(self, b, m * n), {m, n}, slice(v[1], b, m * k), {m, k}, slice(b2, b, k * n),
                                {k, n}, beta, alpha, PrecisionOf(x, 1, 2)));
  }
  return want;
}

aclnnStatus BaddbmmCall(const CallArgs& a) {
  return aclnnBaddbmmGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], a.beta, a.alpha, a.out, a.cube,
                                      a.workspaceSize, a.executor);
}
aclnnStatus InplaceBaddbmmCall(const CallArgs& a) {
  return aclnnInplaceBaddbmmGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], a.beta, a.alpha, a.cube,
                                             a.workspaceSize, a.executor);
}

VariantCase Baddbmm(const std::string& name, const Shape& self, const Shape& batch1, const Shape& batch2,
                    aclDataType dtype = ACL_FLOAT) {
  VariantCase x;
  x.name = "Baddbmm_" + name;
  x.inputs = {{dtype, self}, {dtype, batch1}, {dtype, batch2}};
  x.out = {dtype, {batch1[0], batch1[1], batch2[2]}};
  x.phase1 = BaddbmmCall;
  x.phase2 = aclnnBaddbmm;
  x.reference = BaddbmmReference;
  return x;
}

std::vector<VariantCase> BaddbmmCases() {
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(Baddbmm(std::string(Name(dt)) + "_typical", {3, 6, 5}, {3, 6, 8}, {3, 8, 5}, dt));
  }
  cases.push_back(Baddbmm("large", {5, 40, 24}, {5, 40, 33}, {5, 33, 24}));
  cases.push_back(Baddbmm("self_matrix", {6, 5}, {3, 6, 8}, {3, 8, 5}));
  cases.push_back(Baddbmm("self_row", {5}, {3, 6, 8}, {3, 8, 5}));
  cases.push_back(Baddbmm("self_batch1", {1, 6, 5}, {3, 6, 8}, {3, 8, 5}));
  cases.push_back(Baddbmm("batch2_broadcast", {3, 6, 5}, {3, 6, 8}, {1, 8, 5}));
  VariantCase x = Baddbmm("transposed_stepped", {3, 6, 5}, {3, 6, 8}, {3, 8, 5});
  x.inputs[1].view = View::kTransposed;
  x.inputs[2].view = View::kStepped;
  x.out.view = View::kTransposed;
  cases.push_back(x);
  x = Baddbmm("broadcast_self_reversed_batch2", {3, 6, 5}, {3, 6, 8}, {3, 8, 5});
  x.inputs[0].view = View::kBroadcast;
  x.inputs[2].view = View::kReversed;
  x.out.view = View::kOffset;
  cases.push_back(x);
  x = Baddbmm("coefficients_f16_scalars", {3, 6, 5}, {3, 6, 8}, {3, 8, 5});
  x.scalarDtype = ACL_FLOAT16;
  x.beta = 0.25;
  x.alpha = -1.5;
  cases.push_back(x);
  x = Baddbmm("beta0", {3, 6, 5}, {3, 6, 8}, {3, 8, 5});
  x.beta = 0.0;
  cases.push_back(x);
  x.name = "Baddbmm_alpha0";
  x.beta = 2.0;
  x.alpha = 0.0;
  cases.push_back(x);
  for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
    for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
      x = Baddbmm(std::string("cube") + std::to_string(cube) + "_" + Name(dt), {2, 6, 5}, {2, 6, 40}, {2, 40, 5}, dt);
      x.cube = cube;
      if (cube == kUseFp16 && dt == ACL_BF16) continue;  // bf16 has no fp16 mode
      cases.push_back(x);
    }
  }
  x = Baddbmm("f16_out_f32", {3, 6, 5}, {3, 6, 8}, {3, 8, 5}, ACL_FLOAT16);
  x.out.dtype = ACL_FLOAT;
  cases.push_back(x);
  cases.push_back(Baddbmm("k0", {3, 6, 5}, {3, 6, 0}, {3, 0, 5}));
  cases.push_back(Baddbmm("empty_batch", {0, 6, 5}, {0, 6, 8}, {0, 8, 5}));
  cases.push_back(Baddbmm("empty_n", {3, 6, 0}, {3, 6, 8}, {3, 8, 0}));
  cases.push_back(
      InPlace(Baddbmm("typical", {3, 6, 5}, {3, 6, 8}, {3, 8, 5}), InplaceBaddbmmCall, aclnnInplaceBaddbmm));
  x = InPlace(Baddbmm("f16_stepped_self", {3, 6, 5}, {3, 6, 8}, {3, 8, 5}, ACL_FLOAT16), InplaceBaddbmmCall,
              aclnnInplaceBaddbmm);
  x.inputs[0].view = View::kStepped;
  x.beta = -1.0;
  cases.push_back(x);
  return cases;
}

// ---- Addmv -------------------------------------------------------------------------------------

// self [n] (or [1], rank 0), mat [n, m], vec [m]: Addmm with mat2 = vec as [m, 1].
Expected AddmvReference(const std::vector<Values>& v, Value beta, Value alpha, const VariantCase& x) {
  const int64_t n = x.inputs[1].shape[0], m = x.inputs[1].shape[1];
  const Values self = BroadcastTo(v[0], x.inputs[0].shape, {n});
  return ReferenceAddmm(self, {n, 1}, v[1], {n, m}, v[2], {m, 1}, beta, alpha, PrecisionOf(x, 1, 2));
}

aclnnStatus AddmvCall(const CallArgs& a) {
  return aclnnAddmvGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], a.alpha, a.beta, a.out, a.cube,
                                    a.workspaceSize, a.executor);
}

VariantCase Addmv(const std::string& name, const Shape& self, int64_t n, int64_t m, aclDataType dtype = ACL_FLOAT) {
  VariantCase x;
  x.name = "Addmv_" + name;
  x.inputs = {{dtype, self}, {dtype, {n, m}}, {dtype, {m}}};
  x.out = {dtype, {n}};
  x.phase1 = AddmvCall;
  x.phase2 = aclnnAddmv;
  x.reference = AddmvReference;
  return x;
}

std::vector<VariantCase> AddmvCases() {
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(Addmv(std::string(Name(dt)) + "_typical", {7}, 7, 12, dt));
    cases.push_back(Addmv(std::string(Name(dt)) + "_large", {300}, 300, 130, dt));
  }
  cases.push_back(Addmv("self_one", {1}, 7, 12));
  cases.push_back(Addmv("self_scalar", {}, 7, 12));
  VariantCase x = Addmv("transposed_mat_stepped_vec", {7}, 7, 12);
  x.inputs[1].view = View::kTransposed;
  x.inputs[2].view = View::kStepped;
  x.out.view = View::kStepped;
  cases.push_back(x);
  x = Addmv("coefficients", {7}, 7, 12);
  x.alpha = 0.5;
  x.beta = -2.0;
  cases.push_back(x);
  x.name = "Addmv_beta0";
  x.beta = 0.0;
  cases.push_back(x);
  x.name = "Addmv_alpha0";
  x.alpha = 0.0;
  x.beta = 3.0;
  cases.push_back(x);
  x = Addmv("f16_mat_f32_vec_self_out", {7}, 7, 12);
  x.inputs[1].dtype = ACL_FLOAT16;
  cases.push_back(x);
  for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
    x = Addmv("cube" + std::to_string(cube), {7}, 7, 40);
    x.cube = cube;
    cases.push_back(x);
  }
  cases.push_back(Addmv("m0", {7}, 7, 0));
  cases.push_back(Addmv("empty", {0}, 0, 5));
  return cases;
}

// ---- Gemm --------------------------------------------------------------------------------------

struct GemmShape {
  int64_t transA = 0, transB = 0;
};

// A, B, C: Addmm of op(A) and op(B) with C as the bias.
Expected GemmReference(const std::vector<Values>& v, Value beta, Value alpha, const VariantCase& x, GemmShape t) {
  const Shape& as = x.inputs[0].shape;
  const Shape& bs = x.inputs[1].shape;
  const int64_t m = t.transA != 0 ? as[1] : as[0], k = t.transA != 0 ? as[0] : as[1];
  const int64_t n = t.transB != 0 ? bs[0] : bs[1];
  const Values a = t.transA != 0 ? PermuteValues(v[0], as, {1, 0}) : v[0];
  const Values b = t.transB != 0 ? PermuteValues(v[1], bs, {1, 0}) : v[1];
  return ReferenceAddmm(v[2], x.inputs[2].shape, a, {m, k}, b, {k, n}, beta, alpha, PrecisionOf(x, 0, 1));
}

VariantCase Gemm(const std::string& name, int64_t m, int64_t k, int64_t n, const Shape& cShape, GemmShape t = {},
                 aclDataType dtype = ACL_FLOAT) {
  VariantCase x;
  x.name = "Gemm_" + name;
  x.inputs = {{dtype, t.transA != 0 ? Shape{k, m} : Shape{m, k}},
              {dtype, t.transB != 0 ? Shape{n, k} : Shape{k, n}},
              {dtype, cShape}};
  x.out = {dtype, {m, n}};
  x.phase1 = [t](const CallArgs& a) {
    return aclnnGemmGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], static_cast<float>(a.alphaValue.real()),
                                     static_cast<float>(a.betaValue.real()), t.transA, t.transB, a.out, a.cube,
                                     a.workspaceSize, a.executor);
  };
  x.phase2 = aclnnGemm;
  x.reference = [t](const std::vector<Values>& v, Value beta, Value alpha, const VariantCase& y) {
    return GemmReference(v, beta, alpha, y, t);
  };
  return x;
}

std::vector<VariantCase> GemmCases() {
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(Gemm(std::string(Name(dt)) + "_typical", 6, 8, 5, {6, 5}, {}, dt));
    cases.push_back(Gemm(std::string(Name(dt)) + "_transposed_ab", 6, 8, 5, {6, 5}, {1, 1}, dt));
  }
  cases.push_back(Gemm("large", 70, 130, 90, {70, 90}));
  cases.push_back(Gemm("trans_a", 6, 8, 5, {5}, {1, 0}));
  cases.push_back(Gemm("trans_b_any_nonzero", 6, 8, 5, {6, 1}, {0, 2}));
  VariantCase x = Gemm("views", 6, 8, 5, {6, 5});
  x.inputs[0].view = View::kTransposed;
  x.inputs[1].view = View::kStepped;
  x.inputs[2].view = View::kBroadcast;
  x.out.view = View::kReversed;
  cases.push_back(x);
  x = Gemm("coefficients", 6, 8, 5, {6, 5});
  x.alpha = 1.5;
  x.beta = -0.75;
  cases.push_back(x);
  x.name = "Gemm_beta0";
  x.beta = 0.0;
  cases.push_back(x);
  x = Gemm("mixed_f16_a_f32_out", 6, 8, 5, {6, 5});
  x.inputs[0].dtype = ACL_FLOAT16;
  x.inputs[2].dtype = ACL_BF16;
  cases.push_back(x);
  for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
    x = Gemm("cube" + std::to_string(cube), 6, 40, 5, {6, 5});
    x.cube = cube;
    cases.push_back(x);
  }
  cases.push_back(Gemm("k0", 6, 0, 5, {6, 5}));
  x = Gemm("empty_m", 0, 8, 5, {5});
  x.outUntouched = true;
  cases.push_back(x);
  return cases;
}

// ---- MatmulWeightNz / BatchMatMulWeightNz / AddmmWeightNz ---------------------------------------

Expected ProductReference(const std::vector<Values>& v, Value, Value, const VariantCase& x) {
  Shape outShape;
  const std::optional<Expected> want =
      ReferenceMatmul(v[0], x.inputs[0].shape, v[1], x.inputs[1].shape, PrecisionOf(x, 0, 1), &outShape);
  return *want;
}

VariantCase WeightNz(const std::string& name, const Shape& self, const Shape& mat2, const Shape& out, aclDataType dtype,
                     View mat2View, aclFormat format) {
  VariantCase x;
  x.inputs = {{dtype, self}, {dtype, mat2, mat2View, format}};
  x.out = {dtype, out};
  x.reference = ProductReference;
  const bool batched = self.size() == 3;
  x.name = std::string(batched ? "BatchMatMulWeightNz_" : "MatmulWeightNz_") + name;
  x.phase1 = [batched](const CallArgs& a) {
    return batched ? aclnnBatchMatMulWeightNzGetWorkspaceSize(a.inputs[0], a.inputs[1], a.out, a.cube, a.workspaceSize,
                                                              a.executor)
                   : aclnnMatmulWeightNzGetWorkspaceSize(a.inputs[0], a.inputs[1], a.out, a.cube, a.workspaceSize,
                                                         a.executor);
  };
  x.phase2 = batched ? aclnnBatchMatMulWeightNz : aclnnMatmulWeightNz;
  return x;
}

aclnnStatus AddmmWeightNzCall(const CallArgs& a) {
  return aclnnAddmmWeightNzGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], a.beta, a.alpha, a.out, a.cube,
                                            a.workspaceSize, a.executor);
}

VariantCase AddmmWeightNz(const std::string& name, const Shape& self, int64_t m, int64_t k, int64_t n,
                          aclDataType dtype, aclDataType selfDtype, View mat2View) {
  VariantCase x;
  x.name = "AddmmWeightNz_" + name;
  x.inputs = {{selfDtype, self}, {dtype, {m, k}}, {dtype, {k, n}, mat2View, ACL_FORMAT_FRACTAL_NZ}};
  x.out = {selfDtype, {m, n}};
  x.phase1 = AddmmWeightNzCall;
  x.phase2 = aclnnAddmmWeightNz;
  x.reference = [](const std::vector<Values>& v, Value beta, Value alpha, const VariantCase& y) {
    return ReferenceAddmm(v[0], y.inputs[0].shape, v[1], y.inputs[1].shape, v[2], y.inputs[2].shape, beta, alpha,
                          PrecisionOf(y, 1, 2));
  };
  return x;
}

std::vector<VariantCase> WeightNzCases() {
  const aclFormat nz = ACL_FORMAT_FRACTAL_NZ;
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    // The linear-layer form of CANN's example: a [n, k] weight seen as a transposed [k, n] view.
    cases.push_back(
        WeightNz(std::string(Name(dt)) + "_transposed", {5, 32}, {32, 24}, {5, 24}, dt, View::kTransposed, nz));
    cases.push_back(WeightNz(std::string(Name(dt)) + "_large", {40, 64}, {64, 48}, {40, 48}, dt, c, nz));
  }
  // Canopy's TransMatmulWeight leaves the descriptor ND: such a weight is taken too.
  cases.push_back(WeightNz("nd_weight", {5, 32}, {32, 24}, {5, 24}, ACL_FLOAT16, c, ACL_FORMAT_ND));
  VariantCase x = WeightNz("f16_cube2_f32", {5, 32}, {32, 24}, {5, 24}, ACL_FLOAT, c, nz);
  x.cube = kUseFp16;
  cases.push_back(x);
  x = WeightNz("f16_f32_out", {5, 32}, {32, 24}, {5, 24}, ACL_FLOAT16, c, nz);
  x.out.dtype = ACL_FLOAT;
  cases.push_back(x);
  cases.push_back(WeightNz("k0_empty_m", {0, 32}, {32, 24}, {0, 24}, ACL_FLOAT16, c, nz));
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(
        WeightNz(std::string(Name(dt)) + "_typical", {3, 5, 32}, {3, 32, 24}, {3, 5, 24}, dt, View::kTransposed, nz));
    cases.push_back(WeightNz(std::string(Name(dt)) + "_broadcast", {1, 5, 32}, {3, 32, 24}, {3, 5, 24}, dt, c, nz));
  }
  x = WeightNz("f32_out", {2, 5, 32}, {1, 32, 24}, {2, 5, 24}, ACL_BF16, c, nz);
  x.out.dtype = ACL_FLOAT;
  cases.push_back(x);
  cases.push_back(WeightNz("empty_batch", {0, 5, 32}, {0, 32, 24}, {0, 5, 24}, ACL_FLOAT16, c, nz));
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(AddmmWeightNz(std::string(Name(dt)) + "_row_bias", {24}, 5, 32, 24, dt, dt, View::kTransposed));
    cases.push_back(AddmmWeightNz(std::string(Name(dt)) + "_f32_bias", {5, 24}, 5, 32, 24, dt, ACL_FLOAT, c));
  }
  x = AddmmWeightNz("column_bias_coefficients", {5, 1}, 5, 32, 24, ACL_FLOAT16, ACL_FLOAT16, c);
  x.beta = 0.5;
  x.alpha = -2.0;
  x.cube = kUseFp32Add;
  cases.push_back(x);
  return cases;
}

// ---- TransposeBatchMatMul ----------------------------------------------------------------------

struct TbmmForm {
  std::vector<int64_t> permX1, permX2;
  int32_t split = 1;
  bool weightNz = false;  // aclnnTransposeBatchMatMulWeightNz
};

// x2's descriptor as a FRACTAL_NZ weight: the same view (Canopy reads NZ through
// it) over the 5-D storage CANN's NZ weight declares, [B, ceil(d2 / 16), ceil(d1 / 16), 16, 16].
aclTensor* NzWeightDescriptor(const aclTensor* t) {
  int64_t* dims = nullptr;
  int64_t* strides = nullptr;
  uint64_t rank = 0, strideCount = 0;
  int64_t offset = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;
  void* data = nullptr;
  EXPECT_EQ(aclGetViewShape(t, &dims, &rank), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetViewStrides(t, &strides, &strideCount), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetRawTensorAddr(t, &data), ACLNN_SUCCESS);
  constexpr int64_t kBlock = 16;
  const Shape storage = {dims[0], (dims[2] + kBlock - 1) / kBlock, (dims[1] + kBlock - 1) / kBlock, kBlock, kBlock};
  aclTensor* nz =
      aclCreateTensor(dims, rank, dtype, strides, offset, ACL_FORMAT_FRACTAL_NZ, storage.data(), storage.size(), data);
  delete[] dims;
  delete[] strides;
  return nz;
}

// y [B, M, N] = permute(x1) @ permute(x2), then each y[b, m, n] moved to its place in out.
Expected TbmmReference(const std::vector<Values>& v, const VariantCase& x, const TbmmForm& f) {
  const Values a = PermuteValues(v[0], x.inputs[0].shape, f.permX1);
  const Values b = PermuteValues(v[1], x.inputs[1].shape, f.permX2);
  const Shape& s1 = x.inputs[0].shape;
  const Shape& s2 = x.inputs[1].shape;
  const int64_t batch = s2[static_cast<size_t>(f.permX2[0])], m = s1[static_cast<size_t>(f.permX1[1])];
  const int64_t k = s1[static_cast<size_t>(f.permX1[2])], n = s2[static_cast<size_t>(f.permX2[2])];
  Shape productShape;
  const std::optional<Expected> y =
      ReferenceMatmul(a, {batch, m, k}, b, {batch, k, n}, PrecisionOf(x, 0, 1), &productShape);
  const int64_t perBlock = batch / f.split;
  Expected want;
  want.values.resize(y->values.size());
  want.tolerance.resize(y->values.size());
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t mi = 0; mi < m; ++mi) {
      for (int64_t ni = 0; ni < n; ++ni) {
        const int64_t from = (bi * m + mi) * n + ni;
        const int64_t to = ((bi / perBlock) * m + mi) * (perBlock * n) + (bi % perBlock) * n + ni;
        want.values[static_cast<size_t>(to)] = y->values[static_cast<size_t>(from)];
        want.tolerance[static_cast<size_t>(to)] = y->tolerance[static_cast<size_t>(from)];
      }
    }
  }
  return want;
}

VariantCase Tbmm(const std::string& name, int64_t batch, int64_t m, int64_t k, int64_t n, const TbmmForm& f,
                 aclDataType dtype = ACL_FLOAT) {
  VariantCase x;
  x.name = (f.weightNz ? "TransposeBatchMatMulWeightNz_" : "TransposeBatchMatMul_") + name;
  const Shape logical1 = {batch, m, k}, logical2 = {batch, k, n};
  Shape s1(3), s2(3);  // the stored shapes: permute(stored, perm) is the logical one (the perms are involutions)
  for (size_t d = 0; d < 3; ++d) {
    s1[static_cast<size_t>(f.permX1[d])] = logical1[d];
    s2[static_cast<size_t>(f.permX2[d])] = logical2[d];
  }
  x.inputs = {{dtype, s1}, {dtype, s2}};
  x.out = {dtype, f.split == 1 ? Shape{m, batch, n} : Shape{f.split, m, batch / f.split * n}};
  x.phase1 = [f](const CallArgs& a) {
    const std::vector<int64_t> permY = {1, 0, 2};
    aclIntArray* p1 = aclCreateIntArray(f.permX1.data(), f.permX1.size());
    aclIntArray* p2 = aclCreateIntArray(f.permX2.data(), f.permX2.size());
    aclIntArray* py = aclCreateIntArray(permY.data(), permY.size());
    aclnnStatus status = ACLNN_SUCCESS;
    if (f.weightNz) {
      // An ND-format x2 (Canopy's TransMatmulWeight leaves the descriptor as it was) is taken as it is.
      aclFormat format = ACL_FORMAT_ND;
      EXPECT_EQ(aclGetFormat(a.inputs[1], &format), ACLNN_SUCCESS);
      aclTensor* x2 = format == ACL_FORMAT_FRACTAL_NZ ? NzWeightDescriptor(a.inputs[1]) : a.inputs[1];
      status = aclnnTransposeBatchMatMulWeightNzGetWorkspaceSize(a.inputs[0], x2, nullptr, nullptr, p1, p2, py, a.cube,
                                                                 f.split, a.out, a.workspaceSize, a.executor);
      if (x2 != a.inputs[1]) aclDestroyTensor(x2);
    } else {
      status = aclnnTransposeBatchMatMulGetWorkspaceSize(a.inputs[0], a.inputs[1], nullptr, nullptr, p1, p2, py, a.cube,
                                                         f.split, a.out, a.workspaceSize, a.executor);
    }
    aclDestroyIntArray(p1);
    aclDestroyIntArray(p2);
    aclDestroyIntArray(py);
    return status;
  };
  x.phase2 = f.weightNz ? aclnnTransposeBatchMatMulWeightNz : aclnnTransposeBatchMatMul;
  if (f.weightNz) x.inputs[1].format = ACL_FORMAT_FRACTAL_NZ;
  x.reference = [f](const std::vector<Values>& v, Value, Value, const VariantCase& y) {
    return TbmmReference(v, y, f);
  };
  return x;
}

std::vector<VariantCase> TbmmCases() {
  const std::vector<int64_t> id = {0, 1, 2}, swapFirst = {1, 0, 2}, swapLast = {0, 2, 1};
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back(Tbmm(std::string(Name(dt)) + "_plain", 4, 6, 16, 5, {id, id}, dt));
    cases.push_back(Tbmm(std::string(Name(dt)) + "_x1_mbk", 4, 6, 16, 5, {swapFirst, id}, dt));
  }
  cases.push_back(Tbmm("x1_mbk_x2_bnk", 4, 6, 16, 5, {swapFirst, swapLast}));
  cases.push_back(Tbmm("split2", 4, 6, 16, 5, {id, id, 2}));
  cases.push_back(Tbmm("split4_x1_mbk", 4, 3, 16, 5, {swapFirst, id, 4}));
  cases.push_back(Tbmm("large", 8, 40, 64, 48, {swapFirst, id}));
  VariantCase x = Tbmm("strided", 4, 6, 16, 5, {id, id});
  x.inputs[0].view = View::kTransposed;
  x.inputs[1].view = View::kStepped;
  x.out.view = View::kStepped;
  cases.push_back(x);
  x = Tbmm("split2_stepped_out", 4, 6, 16, 5, {id, id, 2});
  x.out.view = View::kStepped;
  cases.push_back(x);
  x = Tbmm("f16_f32_out", 4, 6, 16, 5, {swapFirst, id}, ACL_FLOAT16);
  x.out.dtype = ACL_FLOAT;
  cases.push_back(x);
  for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
    x = Tbmm("cube" + std::to_string(cube), 2, 6, 40, 5, {id, id});
    x.cube = cube;
    cases.push_back(x);
  }
  // The WeightNz form: x1, x2 and out of one half dtype, x2 a FRACTAL_NZ weight.
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    const std::string n = Name(dt);
    cases.push_back(Tbmm(n + "_plain", 4, 6, 32, 48, {id, id, 1, true}, dt));
    cases.push_back(Tbmm(n + "_x1_mbk", 3, 5, 40, 24, {swapFirst, id, 1, true}, dt));
    cases.push_back(Tbmm(n + "_x1_mbk_x2_bnk", 4, 6, 16, 17, {swapFirst, swapLast, 1, true}, dt));
    cases.push_back(Tbmm(n + "_split2", 4, 6, 32, 16, {id, id, 2, true}, dt));
  }
  cases.push_back(Tbmm("large", 8, 40, 64, 96, {swapFirst, id, 1, true}, ACL_BF16));
  x = Tbmm("nd_weight", 4, 6, 32, 16, {swapFirst, id, 1, true}, ACL_FLOAT16);
  x.inputs[1].format = ACL_FORMAT_ND;
  cases.push_back(x);
  x = Tbmm("strided", 4, 6, 32, 16, {id, id, 1, true}, ACL_FLOAT16);
  x.inputs[0].view = View::kTransposed;
  x.out.view = View::kStepped;
  cases.push_back(x);
  x = Tbmm("split4_stepped_out", 4, 3, 16, 16, {swapFirst, id, 4, true}, ACL_BF16);
  x.out.view = View::kStepped;
  cases.push_back(x);
  for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
    if (cube == kUseFp16) continue;  // not for BFLOAT16
    x = Tbmm("cube" + std::to_string(cube), 2, 6, 40, 32, {id, id, 1, true}, ACL_BF16);
    x.cube = cube;
    cases.push_back(x);
  }
  return cases;
}

// ---- Einsum ------------------------------------------------------------------------------------

std::function<aclnnStatus(const CallArgs&)> EinsumCall(const std::string& equation) {
  return [equation](const CallArgs& a) {
    aclTensorList* list = a.args->TensorList({a.inputs[0], a.inputs[1]});
    return aclnnEinsumGetWorkspaceSize(list, equation.c_str(), a.out, a.workspaceSize, a.executor);
  };
}

// "abcd,abced->abce": x1 [a,b,c,e,d] @ x0 as [a,b,c,d,1]; integers are multiplied in
// FLOAT16 (the sum rounded to it) and converted back, as on CANN.
Expected EinsumMatVecReference(const std::vector<Values>& v, Value, Value, const VariantCase& x) {
  const Shape& s0 = x.inputs[0].shape;
  const Shape& s1 = x.inputs[1].shape;
  const aclDataType dtype = x.out.dtype;
  const bool floating = dtype == ACL_FLOAT || dtype == ACL_FLOAT16;
  const MatmulPrecision precision{dtype, floating ? dtype : ACL_FLOAT16, 0.0};
  Shape outShape;
  return *ReferenceMatmul(v[1], s1, v[0], {s0[0], s0[1], s0[2], s0[3], 1}, precision, &outShape);
}

Expected EinsumOuterReference(const std::vector<Values>& v, Value, Value, const VariantCase& x) {
  Expected want;
  for (const Value& a : v[0]) {
    for (const Value& b : v[1]) {
      want.values.push_back(ConvertValue(a.real() * b.real(), x.out.dtype));
      want.tolerance.push_back(0.0);
    }
  }
  return want;
}

VariantCase Einsum(const std::string& name, const std::string& equation, const Shape& s0, const Shape& s1,
                   const Shape& out, aclDataType dtype, bool matVec) {
  VariantCase x;
  x.name = "Einsum_" + name;
  x.inputs = {{dtype, s0}, {dtype, s1}};
  x.out = {dtype, out};
  x.phase1 = EinsumCall(equation);
  x.phase2 = aclnnEinsum;
  x.reference = matVec ? EinsumMatVecReference : EinsumOuterReference;
  return x;
}

std::vector<VariantCase> EinsumCases() {
  std::vector<VariantCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT16, ACL_UINT32, ACL_UINT64}) {
    cases.push_back(Einsum(std::string(Name(dt)) + "_matvec", "abcd,abced->abce", {2, 3, 2, 16}, {2, 3, 2, 5, 16},
                           {2, 3, 2, 5}, dt, true));
    cases.push_back(Einsum(std::string(Name(dt)) + "_outer", "a,b->ab", {7}, {5}, {7, 5}, dt, false));
  }
  cases.push_back(Einsum("matvec_renamed_letters", "ijkl,ijkml->ijkm", {1, 2, 3, 40}, {1, 2, 3, 24, 40}, {1, 2, 3, 24},
                         ACL_FLOAT, true));
  VariantCase x =
      Einsum("matvec_views", "abcd,abced->abce", {2, 3, 2, 16}, {2, 3, 2, 5, 16}, {2, 3, 2, 5}, ACL_FLOAT, true);
  x.inputs[0].view = View::kReversed;
  x.inputs[1].view = View::kTransposed;
  x.out.view = View::kStepped;
  cases.push_back(x);
  x = Einsum("outer_views", "x,y->xy", {7}, {5}, {7, 5}, ACL_INT32, false);
  x.inputs[0].view = View::kStepped;
  x.out.view = View::kTransposed;
  cases.push_back(x);
  cases.push_back(Einsum("outer_empty", "a,b->ab", {0}, {5}, {0, 5}, ACL_FLOAT, false));
  return cases;
}

std::vector<VariantCase> AllCases() {
  std::vector<VariantCase> cases;
  for (auto list :
       {AddbmmCases(), BaddbmmCases(), AddmvCases(), GemmCases(), WeightNzCases(), TbmmCases(), EinsumCases()}) {
    cases.insert(cases.end(), list.begin(), list.end());
  }
  return cases;
}

class MatmulVariantsTest : public ::testing::TestWithParam<VariantCase> {};
TEST_P(MatmulVariantsTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MatmulVariantsTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<VariantCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- rejections --------------------------------------------------------------------------------

struct Bad {
  std::string name;
  std::vector<Operand> inputs;
  Operand out;
  std::function<aclnnStatus(const CallArgs&)> phase1;
  Phase2 phase2;
  std::string keyword;
  aclDataType scalarDtype = ACL_FLOAT;
  int8_t cube = kKeepDtype;
};

RejectionCase ToRejection(const Bad& bad) {
  return {bad.name,
          [bad](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            CallArgs call;
            for (const Operand& o : bad.inputs)
              call.inputs.push_back(args.NewTensor(o.dtype, o.shape, o.view, o.format));
            call.out = args.NewTensor(bad.out.dtype, bad.out.shape, bad.out.view, bad.out.format);
            call.beta = args.Scalar(bad.scalarDtype, 1.0);
            call.alpha = args.Scalar(bad.scalarDtype, 1.0);
            call.betaValue = call.alphaValue = 1.0;
            call.cube = bad.cube;
            call.workspaceSize = workspaceSize;
            call.executor = executor;
            call.args = &args;
            return bad.phase1(call);
          },
          bad.phase2, bad.keyword};
}

std::vector<RejectionCase> RejectionCases() {
  const aclDataType f32 = ACL_FLOAT, f16 = ACL_FLOAT16, bf16 = ACL_BF16;
  const aclFormat nz = ACL_FORMAT_FRACTAL_NZ;
  const auto gemm = [](int64_t transA, int64_t transB) {
    return [transA, transB](const CallArgs& a) {
      return aclnnGemmGetWorkspaceSize(a.inputs[0], a.inputs[1], a.inputs[2], 1.0f, 1.0f, transA, transB, a.out, a.cube,
                                       a.workspaceSize, a.executor);
    };
  };
  const auto matmulNz = [](const CallArgs& a) {
    return aclnnMatmulWeightNzGetWorkspaceSize(a.inputs[0], a.inputs[1], a.out, a.cube, a.workspaceSize, a.executor);
  };
  const auto batchNz = [](const CallArgs& a) {
    return aclnnBatchMatMulWeightNzGetWorkspaceSize(a.inputs[0], a.inputs[1], a.out, a.cube, a.workspaceSize,
                                                    a.executor);
  };
  std::vector<Bad> bad = {
      {"Addbmm_int32_self",
       {{ACL_INT32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "self"},
      {"Addbmm_self_out_dtypes",
       {{f16, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "one dtype"},
      {"Addbmm_batch1_rank2",
       {{f32, {3, 5}}, {f32, {3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "batch1"},
      {"Addbmm_k_mismatch",
       {{f32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 6, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "K"},
      {"Addbmm_batches",
       {{f32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {3, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "batch"},
      {"Addbmm_self_expands_product",
       {{f32, {3, 5}}, {f32, {2, 1, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "self"},
      {"Addbmm_self_rank3",
       {{f32, {1, 3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "self"},
      {"Addbmm_out_shape",
       {{f32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {5, 3}},
       AddbmmCall,
       aclnnAddbmm,
       "out"},
      {"Addbmm_empty_self_only",
       {{f32, {0, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "empty"},
      {"Addbmm_batch_formats",
       {{f32, {3, 5}}, {f32, {2, 3, 4}, c, ACL_FORMAT_NCL}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "format"},
      {"Addbmm_bool_beta",
       {{f32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "beta",
       ACL_BOOL},
      {"Addbmm_cube5",
       {{f32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       AddbmmCall,
       aclnnAddbmm,
       "cubeMathType",
       f32,
       5},
      {"InplaceAddbmm_self_shape",
       {{f32, {5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       InplaceAddbmmCall,
       aclnnInplaceAddbmm,
       "selfRef"},
      {"Baddbmm_double",
       {{ACL_DOUBLE, {2, 3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}},
       BaddbmmCall,
       aclnnBaddbmm,
       "self"},
      {"Baddbmm_self_expands_batch",
       {{f32, {2, 3, 5}}, {f32, {1, 3, 4}}, {f32, {1, 4, 5}}},
       {f32, {2, 3, 5}},
       BaddbmmCall,
       aclnnBaddbmm,
       "self"},
      {"Baddbmm_batch1_of_1",
       {{f32, {2, 3, 5}}, {f32, {1, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}},
       BaddbmmCall,
       aclnnBaddbmm,
       "batch1"},
      {"Baddbmm_out_shape",
       {{f32, {2, 3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 5}},
       BaddbmmCall,
       aclnnBaddbmm,
       "out"},
      {"Baddbmm_k_mismatch",
       {{f32, {2, 3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 3, 5}}},
       {f32, {2, 3, 5}},
       BaddbmmCall,
       aclnnBaddbmm,
       "K"},
      {"Baddbmm_empty_self_only",
       {{f32, {2, 0, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}},
       BaddbmmCall,
       aclnnBaddbmm,
       "empty"},
      {"Baddbmm_out_format",
       {{f32, {2, 3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}, c, ACL_FORMAT_NCL},
       BaddbmmCall,
       aclnnBaddbmm,
       "format"},
      {"InplaceBaddbmm_self_rank",
       {{f32, {3, 5}}, {f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}},
       InplaceBaddbmmCall,
       aclnnInplaceBaddbmm,
       "selfRef"},
      {"Addmv_complex", {{ACL_COMPLEX64, {3}}, {f32, {3, 4}}, {f32, {4}}}, {f32, {3}}, AddmvCall, aclnnAddmv, "self"},
      {"Addmv_vec_rank2", {{f32, {3}}, {f32, {3, 4}}, {f32, {4, 1}}}, {f32, {3}}, AddmvCall, aclnnAddmv, "vec"},
      {"Addmv_k_mismatch", {{f32, {3}}, {f32, {3, 4}}, {f32, {5}}}, {f32, {3}}, AddmvCall, aclnnAddmv, "shapes"},
      {"Addmv_self_length", {{f32, {2}}, {f32, {3, 4}}, {f32, {4}}}, {f32, {3}}, AddmvCall, aclnnAddmv, "shapes"},
      {"Addmv_float_into_int_out",
       {{f32, {3}}, {f32, {3, 4}}, {f32, {4}}},
       {ACL_INT32, {3}},
       AddmvCall,
       aclnnAddmv,
       "out"},
      {"Gemm_int8", {{ACL_INT8, {2, 3}}, {f32, {3, 4}}, {f32, {2, 4}}}, {f32, {2, 4}}, gemm(0, 0), aclnnGemm, "A"},
      {"Gemm_k_mismatch", {{f32, {2, 3}}, {f32, {3, 4}}, {f32, {2, 4}}}, {f32, {2, 4}}, gemm(1, 0), aclnnGemm, "K"},
      {"Gemm_c_shape", {{f32, {2, 3}}, {f32, {3, 4}}, {f32, {3, 4}}}, {f32, {2, 4}}, gemm(0, 0), aclnnGemm, "C"},
      {"Gemm_out_shape", {{f32, {2, 3}}, {f32, {3, 4}}, {f32, {2, 4}}}, {f32, {4, 2}}, gemm(0, 0), aclnnGemm, "out"},
      {"Gemm_rank3", {{f32, {1, 2, 3}}, {f32, {3, 4}}, {f32, {2, 4}}}, {f32, {2, 4}}, gemm(0, 0), aclnnGemm, "A"},
      {"Gemm_nchw",
       {{f32, {2, 3}}, {f32, {3, 4}}, {f32, {2, 4}, c, ACL_FORMAT_NCHW}},
       {f32, {2, 4}},
       gemm(0, 0),
       aclnnGemm,
       "C"},
      {"MatmulWeightNz_mixed_halves",
       {{f16, {2, 32}}, {bf16, {32, 16}, c, nz}},
       {f16, {2, 16}},
       matmulNz,
       aclnnMatmulWeightNz,
       "BFLOAT16"},
      {"MatmulWeightNz_k1",
       {{f16, {2, 1}}, {f16, {1, 16}, c, nz}},
       {f16, {2, 16}},
       matmulNz,
       aclnnMatmulWeightNz,
       "mat2"},
      {"MatmulWeightNz_n1",
       {{f16, {2, 32}}, {f16, {32, 1}, c, nz}},
       {f16, {2, 1}},
       matmulNz,
       aclnnMatmulWeightNz,
       "mat2"},
      {"MatmulWeightNz_self_rank3",
       {{f16, {1, 2, 32}}, {f16, {32, 16}, c, nz}},
       {f16, {1, 2, 16}},
       matmulNz,
       aclnnMatmulWeightNz,
       "self"},
      {"MatmulWeightNz_f32_keep_into_f16",
       {{f32, {2, 32}}, {f32, {32, 16}, c, nz}},
       {f16, {2, 16}},
       matmulNz,
       aclnnMatmulWeightNz,
       "cubeMathType"},
      {"MatmulWeightNz_nz_self",
       {{f16, {2, 32}, c, nz}, {f16, {32, 16}, c, nz}},
       {f16, {2, 16}},
       matmulNz,
       aclnnMatmulWeightNz,
       "self"},
      {"BatchMatMulWeightNz_f32",
       {{f32, {2, 2, 32}}, {f32, {2, 32, 16}, c, nz}},
       {f32, {2, 2, 16}},
       batchNz,
       aclnnBatchMatMulWeightNz,
       "self"},
      {"BatchMatMulWeightNz_out_dtype",
       {{f16, {2, 2, 32}}, {f16, {2, 32, 16}, c, nz}},
       {bf16, {2, 2, 16}},
       batchNz,
       aclnnBatchMatMulWeightNz,
       "out"},
      {"BatchMatMulWeightNz_rank2",
       {{f16, {2, 32}}, {f16, {32, 16}, c, nz}},
       {f16, {2, 16}},
       batchNz,
       aclnnBatchMatMulWeightNz,
       "self"},
      {"BatchMatMulWeightNz_batches",
       {{f16, {2, 2, 32}}, {f16, {3, 32, 16}, c, nz}},
       {f16, {3, 2, 16}},
       batchNz,
       aclnnBatchMatMulWeightNz,
       "batch"},
      {"AddmmWeightNz_f32_mat1",
       {{f32, {2, 16}}, {f32, {2, 32}}, {f32, {32, 16}, c, nz}},
       {f32, {2, 16}},
       AddmmWeightNzCall,
       aclnnAddmmWeightNz,
       "mat1"},
      {"AddmmWeightNz_mixed",
       {{f32, {2, 16}}, {f16, {2, 32}}, {bf16, {32, 16}, c, nz}},
       {f32, {2, 16}},
       AddmmWeightNzCall,
       aclnnAddmmWeightNz,
       "one dtype"},
      {"AddmmWeightNz_n1",
       {{f32, {2, 1}}, {f16, {2, 32}}, {f16, {32, 1}, c, nz}},
       {f32, {2, 1}},
       AddmmWeightNzCall,
       aclnnAddmmWeightNz,
       "mat2"},
      {"AddmmWeightNz_self_shape",
       {{f32, {3, 16}}, {f16, {2, 32}}, {f16, {32, 16}, c, nz}},
       {f32, {2, 16}},
       AddmmWeightNzCall,
       aclnnAddmmWeightNz,
       "self"},
      {"AddmmWeightNz_nz_mat1",
       {{f32, {2, 16}}, {f16, {2, 32}, c, nz}, {f16, {32, 16}, c, nz}},
       {f32, {2, 16}},
       AddmmWeightNzCall,
       aclnnAddmmWeightNz,
       "mat1"},
  };
  const auto tbmm = [](std::vector<int64_t> p1, std::vector<int64_t> p2, std::vector<int64_t> py, int32_t split,
                       bool withBias = false) {
    return [=](const CallArgs& a) {
      aclIntArray* a1 = aclCreateIntArray(p1.data(), p1.size());
      aclIntArray* a2 = aclCreateIntArray(p2.data(), p2.size());
      aclIntArray* ay = aclCreateIntArray(py.data(), py.size());
      const aclnnStatus status =
          aclnnTransposeBatchMatMulGetWorkspaceSize(a.inputs[0], a.inputs[1], withBias ? a.inputs[0] : nullptr, nullptr,
                                                    a1, a2, ay, a.cube, split, a.out, a.workspaceSize, a.executor);
      aclDestroyIntArray(a1);
      aclDestroyIntArray(a2);
      aclDestroyIntArray(ay);
      return status;
    };
  };
  // The WeightNz form; an NZ x2 gets CANN's 5-D storage unless `storage5` is false.
  const auto tbmmNz = [](std::vector<int64_t> p1, std::vector<int64_t> p2, int32_t split, bool withBias = false,
                         bool storage5 = true, bool withScale = false) {
    return [=](const CallArgs& a) {
      const std::vector<int64_t> py = {1, 0, 2};
      aclIntArray* a1 = aclCreateIntArray(p1.data(), p1.size());
      aclIntArray* a2 = aclCreateIntArray(p2.data(), p2.size());
      aclIntArray* ay = aclCreateIntArray(py.data(), py.size());
      aclFormat format = ACL_FORMAT_ND;
      EXPECT_EQ(aclGetFormat(a.inputs[1], &format), ACLNN_SUCCESS);
      aclTensor* x2 = format == ACL_FORMAT_FRACTAL_NZ && storage5 ? NzWeightDescriptor(a.inputs[1]) : a.inputs[1];
      aclTensor* scale = withScale ? a.args->NewTensor(ACL_UINT64, {2 * 32}) : nullptr;
      const aclnnStatus status = aclnnTransposeBatchMatMulWeightNzGetWorkspaceSize(
          a.inputs[0], x2, withBias ? a.inputs[0] : nullptr, scale, a1, a2, ay, a.cube, split, a.out, a.workspaceSize,
          a.executor);
      if (x2 != a.inputs[1]) aclDestroyTensor(x2);
      aclDestroyIntArray(a1);
      aclDestroyIntArray(a2);
      aclDestroyIntArray(ay);
      return status;
    };
  };
  const std::vector<int64_t> id = {0, 1, 2}, swapFirst = {1, 0, 2}, swapLast = {0, 2, 1};
  const Phase2 tb = aclnnTransposeBatchMatMul;
  const Phase2 tbNz = aclnnTransposeBatchMatMulWeightNz;
  const Operand x1Nz = {f16, {2, 3, 32}};
  const Operand x2Nz = {f16, {2, 32, 32}, c, nz};
  const Operand outNz = {f16, {3, 2, 32}};
  const std::vector<Bad> tbmmNzBad = {
      {"TransposeBatchMatMulWeightNz_f32",
       {{f32, {2, 3, 32}}, {f32, {2, 32, 32}, c, nz}},
       {f32, {3, 2, 32}},
       tbmmNz(id, id, 1),
       tbNz,
       "x1"},
      {"TransposeBatchMatMulWeightNz_mixed",
       {x1Nz, {bf16, {2, 32, 32}, c, nz}},
       outNz,
       tbmmNz(id, id, 1),
       tbNz,
       "one dtype"},
      {"TransposeBatchMatMulWeightNz_f32_out", {x1Nz, x2Nz}, {f32, {3, 2, 32}}, tbmmNz(id, id, 1), tbNz, "out"},
      {"TransposeBatchMatMulWeightNz_int8_out", {x1Nz, x2Nz}, {ACL_INT8, {3, 2, 32}}, tbmmNz(id, id, 1), tbNz, "out"},
      {"TransposeBatchMatMulWeightNz_bf16_scale",
       {{bf16, {2, 3, 32}}, {bf16, {2, 32, 32}, c, nz}},
       {bf16, {3, 2, 32}},
       tbmmNz(id, id, 1, false, true, true),
       tbNz,
       "x1"},
      {"TransposeBatchMatMulWeightNz_x1_nz", {{f16, {2, 3, 32}, c, nz}, x2Nz}, outNz, tbmmNz(id, id, 1), tbNz, "x1"},
      {"TransposeBatchMatMulWeightNz_out_nz", {x1Nz, x2Nz}, {f16, {3, 2, 32}, c, nz}, tbmmNz(id, id, 1), tbNz, "out"},
      {"TransposeBatchMatMulWeightNz_x2_nchw",
       {x1Nz, {f16, {2, 32, 32}, c, ACL_FORMAT_NCHW}},
       outNz,
       tbmmNz(id, id, 1),
       tbNz,
       "x2"},
      {"TransposeBatchMatMulWeightNz_storage_rank",
       {x1Nz, x2Nz},
       outNz,
       tbmmNz(id, id, 1, false, false),
       tbNz,
       "5 dims"},
      {"TransposeBatchMatMulWeightNz_n1",
       {x1Nz, {f16, {2, 32, 1}, c, nz}},
       {f16, {3, 2, 1}},
       tbmmNz(id, id, 1),
       tbNz,
       "x2"},
      {"TransposeBatchMatMulWeightNz_k1",
       {{f16, {2, 3, 1}}, {f16, {2, 1, 32}, c, nz}},
       outNz,
       tbmmNz(id, id, 1),
       tbNz,
       "x2"},
      {"TransposeBatchMatMulWeightNz_rank2", {{f16, {3, 32}}, x2Nz}, outNz, tbmmNz(id, id, 1), tbNz, "x1"},
      {"TransposeBatchMatMulWeightNz_permX2", {x1Nz, x2Nz}, outNz, tbmmNz(id, swapFirst, 1), tbNz, "permX2"},
      {"TransposeBatchMatMulWeightNz_k_mismatch", {{f16, {2, 3, 16}}, x2Nz}, outNz, tbmmNz(id, id, 1), tbNz, "K"},
      {"TransposeBatchMatMulWeightNz_split3",
       {x1Nz, x2Nz},
       {f16, {3, 3, 64}},
       tbmmNz(id, id, 3),
       tbNz,
       "batchSplitFactor"},
      {"TransposeBatchMatMulWeightNz_empty",
       {{f16, {2, 0, 32}}, x2Nz},
       {f16, {0, 2, 32}},
       tbmmNz(id, id, 1),
       tbNz,
       "empty"},
      {"TransposeBatchMatMulWeightNz_bias", {x1Nz, x2Nz}, outNz, tbmmNz(id, id, 1, true), tbNz, "bias"},
      {"TransposeBatchMatMulWeightNz_out_shape", {x1Nz, x2Nz}, {f16, {2, 3, 32}}, tbmmNz(id, id, 1), tbNz, "out"},
      {"TransposeBatchMatMulWeightNz_cube", {x1Nz, x2Nz}, outNz, tbmmNz(id, id, 1), tbNz, "cubeMathType", f32, 9},
  };
  const std::vector<Bad> tbmmBad = {
      {"TransposeBatchMatMul_mixed_dtypes",
       {{f16, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "one dtype"},
      {"TransposeBatchMatMul_int8_x1",
       {{ACL_INT8, {2, 3, 4}}, {ACL_INT8, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "x1"},
      {"TransposeBatchMatMul_rank2",
       {{f32, {3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "x1"},
      {"TransposeBatchMatMul_permX1",
       {{f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm(swapLast, id, swapFirst, 1),
       tb,
       "permX1"},
      {"TransposeBatchMatMul_permX2",
       {{f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm(id, swapFirst, swapFirst, 1),
       tb,
       "permX2"},
      {"TransposeBatchMatMul_permY",
       {{f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}},
       tbmm(id, id, id, 1),
       tb,
       "permY"},
      {"TransposeBatchMatMul_perm_length",
       {{f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm({0, 1}, id, swapFirst, 1),
       tb,
       "permX1"},
      {"TransposeBatchMatMul_k_mismatch",
       {{f32, {2, 3, 4}}, {f32, {2, 5, 5}}},
       {f32, {3, 2, 5}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "K"},
      {"TransposeBatchMatMul_x2_transposed_needs_x1_mbk",
       {{f32, {2, 3, 4}}, {f32, {2, 5, 4}}},
       {f32, {3, 2, 5}},
       tbmm(id, swapLast, swapFirst, 1),
       tb,
       "permX1"},
      {"TransposeBatchMatMul_split_not_dividing",
       {{f32, {4, 3, 4}}, {f32, {4, 4, 5}}},
       {f32, {3, 3, 5}},
       tbmm(id, id, swapFirst, 3),
       tb,
       "batchSplitFactor"},
      {"TransposeBatchMatMul_split0",
       {{f32, {4, 3, 4}}, {f32, {4, 4, 5}}},
       {f32, {3, 4, 5}},
       tbmm(id, id, swapFirst, 0),
       tb,
       "batchSplitFactor"},
      {"TransposeBatchMatMul_empty",
       {{f32, {2, 0, 4}}, {f32, {2, 4, 5}}},
       {f32, {0, 2, 5}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "empty"},
      {"TransposeBatchMatMul_bias",
       {{f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {3, 2, 5}},
       tbmm(id, id, swapFirst, 1, true),
       tb,
       "bias"},
      {"TransposeBatchMatMul_out_shape",
       {{f32, {2, 3, 4}}, {f32, {2, 4, 5}}},
       {f32, {2, 3, 5}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "out"},
      {"TransposeBatchMatMul_n_limit",
       {{f16, {1, 2, 16}}, {f16, {1, 16, 65536}}},
       {f16, {2, 1, 65536}},
       tbmm(id, id, swapFirst, 1),
       tb,
       "65536"},
  };
  const auto mv = EinsumCall("abcd,abced->abce");
  const auto outer = EinsumCall("a,b->ab");
  const Phase2 es = aclnnEinsum;
  const std::vector<Bad> einsumBad = {
      {"Einsum_bf16", {{bf16, {2, 2, 2, 3}}, {bf16, {2, 2, 2, 4, 3}}}, {bf16, {2, 2, 2, 4}}, mv, es, "tensors[0]"},
      {"Einsum_int8", {{ACL_INT8, {3}}, {ACL_INT8, {4}}}, {ACL_INT8, {3, 4}}, outer, es, "tensors[0]"},
      {"Einsum_dtypes_differ", {{f32, {3}}, {f16, {4}}}, {f32, {3, 4}}, outer, es, "one dtype"},
      {"Einsum_output_dtype", {{f32, {3}}, {f32, {4}}}, {f16, {3, 4}}, outer, es, "one dtype"},
      {"Einsum_equation", {{f32, {3}}, {f32, {4}}}, {f32, {3, 4}}, EinsumCall("a,a->a"), es, "equation"},
      {"Einsum_nchw",
       {{f32, {2, 2, 2, 3}, c, ACL_FORMAT_NCHW}, {f32, {2, 2, 2, 4, 3}}},
       {f32, {2, 2, 2, 4}},
       mv,
       es,
       "format"},
      {"Einsum_matvec_rank", {{f32, {2, 2, 3}}, {f32, {2, 2, 2, 4, 3}}}, {f32, {2, 2, 2, 4}}, mv, es, "tensors[0]"},
      {"Einsum_matvec_d_mismatch",
       {{f32, {2, 2, 2, 3}}, {f32, {2, 2, 2, 4, 5}}},
       {f32, {2, 2, 2, 4}},
       mv,
       es,
       "tensors[1]"},
      {"Einsum_matvec_batch_mismatch",
       {{f32, {2, 2, 2, 3}}, {f32, {2, 3, 2, 4, 3}}},
       {f32, {2, 2, 2, 4}},
       mv,
       es,
       "tensors[1]"},
      {"Einsum_matvec_empty", {{f32, {2, 0, 2, 3}}, {f32, {2, 0, 2, 4, 3}}}, {f32, {2, 0, 2, 4}}, mv, es, "empty"},
      {"Einsum_matvec_output_shape",
       {{f32, {2, 2, 2, 3}}, {f32, {2, 2, 2, 4, 3}}},
       {f32, {2, 2, 2, 3}},
       mv,
       es,
       "output"},
      {"Einsum_outer_rank", {{f32, {3, 1}}, {f32, {4}}}, {f32, {3, 4}}, outer, es, "tensors[0]"},
      {"Einsum_outer_output_shape", {{f32, {3}}, {f32, {4}}}, {f32, {4, 3}}, outer, es, "output"},
  };
  std::vector<RejectionCase> cases;
  for (const Bad& b : bad) cases.push_back(ToRejection(b));
  for (const Bad& b : einsumBad) cases.push_back(ToRejection(b));
  for (const Bad& b : tbmmBad) cases.push_back(ToRejection(b));
  for (const Bad& b : tbmmNzBad) cases.push_back(ToRejection(b));
  return cases;
}

class MatmulVariantsRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(MatmulVariantsRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MatmulVariantsRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
