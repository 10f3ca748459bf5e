// aclnnHansEncode: lossless compression of an fp16 / bf16 / f32 tensor into
// CANN's stream format (kernels/hans_codec.h). pdfRef is read, or with
// `statistic` first overwritten with the count of each exponent byte. The
// stream is split over as many cores as the NPU Canopy presents would use (one
// per 32768 elements, at most its vector cores), so that the NPU can decode it.
//
// CANN's checks, in its tiling's order, all 161002: pdfRef's 256 counts; n a
// multiple of 64 and at least 32768; mantissaOut exactly n * (bytes - 1) bytes;
// with reshuff fixedOut at least the bound, else fixedOut at least 512 bytes and
// fixedOut + varOut at least the bound (n + n / 64 + 8448 per core + 512 bytes).
// Where the data leaves more for varOut than it holds (the NPU would write past
// it) or a reshuffled stream does not fit (the NPU loses it), the run fails.
// Bytes of fixedOut and varOut the stream does not reach are left as they were
// (outputs that are not contiguous are written whole, zero there).
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "acl/acl_rt.h"
#include "aclnnop/aclnn_hans_encode.h"
#include "kernels/hans_codec.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHansDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};

// The vector cores of the SoC Canopy presents (CANOPY_SOC_NAME): 24 AI cores
// with two vector cores each on the 910B1 / B2 and the A3's dies, 20 on the 910B3 / B4.
int64_t VectorCores() {
  const char* soc = aclrtGetSocName();
  const std::string name = soc != nullptr ? soc : "";
  for (const char* part : {"910B1", "910B2", "910_93"}) {
    if (name.find(part) != std::string::npos) return 48;
  }
  return 40;
}

struct HansEncodeArgs {
  int64_t n = 0, element_bytes = 0, cores = 0;
  bool statistic = false, reshuff = false;
  TensorRef input, pdf_in, pdf_out, mantissa, fixed, var, scratch;
};

class HansEncodeStep final : public Step {
 public:
  explicit HansEncodeStep(const HansEncodeArgs& a) : a_(a) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* input = reinterpret_cast<const uint8_t*>(context.Resolve(a_.input.buffer));
    const auto* pdf = reinterpret_cast<const int32_t*>(context.Resolve(a_.pdf_in.buffer));
    if (a_.statistic) {
      auto* counts = reinterpret_cast<int32_t*>(context.Resolve(a_.pdf_out.buffer));
      kernels::HansHistogram(input, a_.n, a_.element_bytes, counts);
      pdf = counts;
    }
    kernels::HansStreams streams;
    streams.n = a_.n;
    streams.element_bytes = a_.element_bytes;
    streams.cores = a_.cores;
    streams.mantissa = reinterpret_cast<uint8_t*>(context.Resolve(a_.mantissa.buffer));
    streams.fixed = reinterpret_cast<uint8_t*>(context.Resolve(a_.fixed.buffer));
    streams.fixed_bytes = a_.fixed.NumElements() * a_.element_bytes;
    streams.var = reinterpret_cast<uint8_t*>(context.Resolve(a_.var.buffer));
    streams.var_bytes = a_.var.NumElements() * a_.element_bytes;
    uint8_t* scratch = a_.reshuff ? reinterpret_cast<uint8_t*>(context.Resolve(a_.scratch.buffer)) : nullptr;
    std::string error;
    if (!kernels::HansEncode(input, pdf, a_.reshuff, scratch, streams, error)) {
      SetErrorMessage("aclnnHansEncode: %s", error.c_str());
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "hans encode " + std::to_string(a_.n) + " x " + std::to_string(a_.element_bytes) + " bytes on " +
           std::to_string(a_.cores) + " cores";
  }

 private:
  HansEncodeArgs a_;
};

// `ref` itself where it is contiguous, else a workspace copy of it (zero) that the run writes and `plan` copies back.
TensorRef Written(Plan& plan, const TensorRef& ref, std::vector<std::pair<TensorRef, TensorRef>>& copies) {
  if (ref.IsContiguous()) return ref;
  TensorRef staged = plan.Temporary(ref.dtype, ref.shape);
  plan.Fill(staged, ScalarValue::Integer(0));
  copies.emplace_back(staged, ref);
  return staged;
}

aclnnStatus PlanHansEncode(Plan& plan, const aclTensor* input, const aclTensor* pdf, bool statistic, bool reshuff,
                           const aclTensor* mantissa, const aclTensor* fixed, const aclTensor* var) {
  CANOPY_CHECK(plan.CheckDtype("inputTensor", input->dtype, kHansDtypes));
  CANOPY_CHECK(plan.CheckDtype("pdfRef", pdf->dtype, {ACL_INT32}));
  for (const auto& [name, t] :
       {std::pair{"mantissaOut", mantissa}, std::pair{"fixedOut", fixed}, std::pair{"varOut", var}}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be inputTensor's (%s)", name,
                         DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  if (pdf->NumElements() != kernels::kHansPdfBins) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "pdfRef %s has %lld elements; it must hold 256 counts (1, 256)",
                       ShapeToString(pdf->view_shape).c_str(), static_cast<long long>(pdf->NumElements()));
  }
  const int64_t n = input->NumElements(), d = static_cast<int64_t>(DtypeSize(input->dtype));
  // Byte counts of views of any size (a broadcast view may hold 2^61 elements): saturated, never wrapped.
  const auto bytes_of = [d](const aclTensor* t) {
    int64_t bytes = 0;
    return __builtin_mul_overflow(t->NumElements(), d, &bytes) ? std::numeric_limits<int64_t>::max() : bytes;
  };
  if (n % kernels::kHansBlock != 0 || n < kernels::kHansMinElements) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "inputTensor has %lld elements; it must hold a multiple of 64, at least 32768",
                       static_cast<long long>(n));
  }
  for (const auto& [name, t] :
       {std::pair{"mantissaOut", mantissa}, std::pair{"fixedOut", fixed}, std::pair{"varOut", var}}) {
    if (bytes_of(t) == std::numeric_limits<int64_t>::max()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' %s holds more bytes than any buffer can", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }
  const int64_t mantissa_bytes = bytes_of(mantissa), low_bytes = (d - 1) * n;
  if (mantissa_bytes != low_bytes) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "mantissaOut holds %lld bytes; it must hold the %lld low bytes of the input's elements",
                       static_cast<long long>(mantissa_bytes), static_cast<long long>(low_bytes));
  }
  const int64_t cores = kernels::HansCores(n, VectorCores()), bound = kernels::HansBound(n, cores);
  const int64_t fixed_bytes = bytes_of(fixed), var_bytes = bytes_of(var);
  if (reshuff && fixed_bytes < bound) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "fixedOut holds %lld bytes; a reshuffled stream of %lld elements needs %lld (n + n / 64 + "
                       "8448 per core + 512, %lld cores)",
                       static_cast<long long>(fixed_bytes), static_cast<long long>(n), static_cast<long long>(bound),
                       static_cast<long long>(cores));
  }
  if (fixed_bytes < kernels::kHansHeaderBytes) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "fixedOut holds %lld bytes, less than the 512 of the stream's header",
                       static_cast<long long>(fixed_bytes));
  }
  int64_t stream_bytes = 0;
  if (__builtin_add_overflow(fixed_bytes, var_bytes, &stream_bytes)) stream_bytes = std::numeric_limits<int64_t>::max();
  if (!reshuff && stream_bytes < bound) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "fixedOut and varOut hold %lld bytes; a stream of %lld elements may need %lld (n + n / 64 + "
                       "8448 per core + 512, %lld cores)",
                       static_cast<long long>(stream_bytes), static_cast<long long>(n), static_cast<long long>(bound),
                       static_cast<long long>(cores));
  }

  HansEncodeArgs a;
  a.n = n;
  a.element_bytes = d;
  a.cores = cores;
  a.statistic = statistic;
  a.reshuff = reshuff;
  const TensorRef input_ref = plan.Input(input, "inputTensor");
  const TensorRef pdf_ref = plan.Input(pdf, "pdfRef");
  // pdfRef is written only when the counts are taken (otherwise it is only read: no write, no staging).
  TensorRef pdf_out;
  if (statistic) {
    pdf_out = plan.Output(pdf, "pdfRef");
  } else {
    plan.SkipOutput();
  }
  const TensorRef mantissa_ref = plan.Output(mantissa, "mantissaOut");
  const TensorRef fixed_ref = plan.Output(fixed, "fixedOut");
  const TensorRef var_ref = plan.Output(var, "varOut");
  a.input = plan.Contiguous(input_ref, input->dtype);
  a.pdf_in = plan.Contiguous(pdf_ref, ACL_INT32);
  std::vector<std::pair<TensorRef, TensorRef>> copies;
  if (statistic) a.pdf_out = Written(plan, pdf_out, copies);
  a.mantissa = Written(plan, mantissa_ref, copies);
  a.fixed = Written(plan, fixed_ref, copies);
  a.var = Written(plan, var_ref, copies);
  if (reshuff) a.scratch = plan.Temporary(ACL_UINT8, {bound});
  plan.AddStep(std::make_unique<HansEncodeStep>(a));
  for (const auto& [staged, ref] : copies) plan.Copy(staged, ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(HansEncode, PlanHansEncode,
                (OpTraits{.header = "aclnnop/aclnn_hans_encode.h",
                          .dtypes = kHansDtypes,
                          .example = "f32[1,32768] i32[1,256] true false f32[1,24576] f32[1,16384] f32[1,8192]"}),
                (const aclTensor*, inputTensor), (aclTensor*, pdfRef), (bool, statistic), (bool, reshuff),
                (const aclTensor*, mantissaOut), (const aclTensor*, fixedOut), (const aclTensor*, varOut))
