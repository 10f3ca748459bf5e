// aclnnHansDecode: the tensor aclnnHansEncode compressed, from its mantissa,
// fixed and var streams and the pdf it ranked with (kernels/hans_codec.h).
//
// CANN's checks, 161002: the dtypes (out FLOAT16, BFLOAT16 or FLOAT, the
// streams out's), pdf's 256 counts and mantissa exactly n * (bytes - 1) bytes of
// out's n elements. As on the NPU the streams themselves are only read on the
// stream: a header, record or offset that does not describe out's elements in
// these buffers (another pdf, reshuff or fixed size than the encoder's, say)
// fails the run with a message, and nothing is read past a buffer.
#include <limits>
#include <memory>
#include <string>

#include "aclnnop/aclnn_hans_decode.h"
#include "kernels/hans_codec.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHansDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};

struct HansDecodeArgs {
  int64_t n = 0, element_bytes = 0;
  bool reshuff = false;
  TensorRef mantissa, fixed, var, pdf, out;
};

class HansDecodeStep final : public Step {
 public:
  explicit HansDecodeStep(const HansDecodeArgs& a) : a_(a) {}

  aclnnStatus Run(const RunContext& context) const override {
    kernels::HansStreams streams;
    streams.n = a_.n;
    streams.element_bytes = a_.element_bytes;
    streams.mantissa = reinterpret_cast<uint8_t*>(context.Resolve(a_.mantissa.buffer));
    streams.fixed = reinterpret_cast<uint8_t*>(context.Resolve(a_.fixed.buffer));
    streams.fixed_bytes = a_.fixed.NumElements() * a_.element_bytes;
    streams.var = reinterpret_cast<uint8_t*>(context.Resolve(a_.var.buffer));
    streams.var_bytes = a_.var.NumElements() * a_.element_bytes;
    const auto* pdf = reinterpret_cast<const int32_t*>(context.Resolve(a_.pdf.buffer));
    std::string error;
    if (!kernels::HansDecode(streams, pdf, a_.reshuff, reinterpret_cast<uint8_t*>(context.Resolve(a_.out.buffer)),
                             error)) {
      SetErrorMessage("aclnnHansDecode: %s", error.c_str());
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "hans decode " + std::to_string(a_.n) + " x " + std::to_string(a_.element_bytes) + " bytes";
  }

 private:
  HansDecodeArgs a_;
};

aclnnStatus PlanHansDecode(Plan& plan, const aclTensor* mantissa, const aclTensor* fixed, const aclTensor* var,
                           const aclTensor* pdf, bool reshuff, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kHansDtypes));
  for (const auto& [name, t] : {std::pair{"mantissa", mantissa}, std::pair{"fixed", fixed}, std::pair{"var", var}}) {
    if (t->dtype != out->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be out's (%s)", name, DtypeName(t->dtype),
                         DtypeName(out->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("pdf", pdf->dtype, {ACL_INT32}));
  const int64_t n = out->NumElements(), d = static_cast<int64_t>(DtypeSize(out->dtype));
  int64_t mantissa_bytes = 0;  // saturated: a broadcast view may hold 2^61 elements
  if (__builtin_mul_overflow(mantissa->NumElements(), d, &mantissa_bytes)) {
    mantissa_bytes = std::numeric_limits<int64_t>::max();
  }
  const int64_t low_bytes = (d - 1) * n;
  if (mantissa_bytes != low_bytes) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "mantissa holds %lld bytes; out's %lld elements need their %lld low bytes",
        static_cast<long long>(mantissa_bytes), static_cast<long long>(n), static_cast<long long>(low_bytes));
  }
  if (pdf->NumElements() != kernels::kHansPdfBins) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "pdf %s has %lld elements; it must hold the encoder's 256 counts",
                       ShapeToString(pdf->view_shape).c_str(), static_cast<long long>(pdf->NumElements()));
  }

  HansDecodeArgs a;
  a.n = n;
  a.element_bytes = d;
  a.reshuff = reshuff;
  a.mantissa = plan.Contiguous(plan.Input(mantissa, "mantissa"), out->dtype);
  a.fixed = plan.Contiguous(plan.Input(fixed, "fixed"), out->dtype);
  a.var = plan.Contiguous(plan.Input(var, "var"), out->dtype);
  a.pdf = plan.Contiguous(plan.Input(pdf, "pdf"), ACL_INT32);
  const TensorRef out_ref = plan.Output(out, "out");
  if (n == 0) return ACLNN_SUCCESS;
  a.out = out_ref.IsContiguous() ? out_ref : plan.Temporary(out->dtype, out_ref.shape);
  plan.AddStep(std::make_unique<HansDecodeStep>(a), {a.mantissa, a.fixed, a.var, a.pdf}, a.out);
  if (!out_ref.IsContiguous()) plan.Copy(a.out, out_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(HansDecode, PlanHansDecode,
                (OpTraits{.header = "aclnnop/aclnn_hans_decode.h",
                          .dtypes = kHansDtypes,
                          // an empty out: random streams describe no tensor, which fails the run
                          .example = "f32[1,0] f32[1,128] f32[1,128] i32[1,256] false f32[1,0]"}),
                (const aclTensor*, mantissa), (const aclTensor*, fixed), (const aclTensor*, var),
                (const aclTensor*, pdf), (bool, reshuff), (const aclTensor*, out))
