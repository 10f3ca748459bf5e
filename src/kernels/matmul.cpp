#include "matmul.h"

#include <mutex>
#include <sstream>
#include <unordered_map>

#include "canopy/canopy_runtime.h"
#include "common/dtype.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "onednn_engine.h"

namespace canopy::kernels {
namespace {

dnnl::memory::desc DescOf(const MatmulOperand& operand) {
  return dnnl::memory::desc(dnnl::memory::dims(operand.dims.begin(), operand.dims.end()), OnednnType(operand.dtype),
                            dnnl::memory::dims(operand.strides.begin(), operand.strides.end()));
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  std::ostringstream text;
  for (size_t i = 0; i < dims.size(); ++i) text << (i ? "x" : "") << dims[i];
  return text.str();
}

// A bias after alpha is a binary post-op, after the sum post-op where beta has one.
int PostOpBiasIndex(const MatmulDesc& desc) { return desc.beta != 0.0f ? 1 : 0; }

int BiasArgument(const MatmulDesc& desc) {
  if (!desc.bias_after_alpha) return DNNL_ARG_BIAS;
  return DNNL_ARG_ATTR_MULTIPLE_POST_OP(PostOpBiasIndex(desc)) | DNNL_ARG_SRC_1;
}

class MatmulStep final : public Step {
 public:
  MatmulStep(const MatmulDesc& desc, dnnl::matmul primitive, dnnl::memory::desc src, dnnl::memory::desc weights,
             dnnl::memory::desc dst, dnnl::memory::desc bias, dnnl::memory::desc scratchpad, BufferRef scratchpad_at,
             std::string implementation)
      : desc_(desc),
        primitive_(std::move(primitive)),
        src_md_(src),
        weights_md_(weights),
        dst_md_(dst),
        bias_md_(bias),
        scratchpad_md_(scratchpad),
        scratchpad_(scratchpad_at),
        implementation_(std::move(implementation)) {}

  aclnnStatus Run(const RunContext& context) const override {
    try {
      dnnl::engine& engine = OneDnnEngine();
      dnnl::memory src(src_md_, engine, context.Resolve(desc_.src.buffer));
      dnnl::memory weights(weights_md_, engine, context.Resolve(desc_.weights.buffer));
      dnnl::memory dst(dst_md_, engine, context.Resolve(desc_.dst.buffer));
      dnnl::stream& stream = OneDnnThreadStream();
      std::unordered_map<int, dnnl::memory> arguments = {
          {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
      if (desc_.has_bias) {
        arguments.emplace(BiasArgument(desc_), dnnl::memory(bias_md_, engine, context.Resolve(desc_.bias.buffer)));
      }
      if (scratchpad_md_.get_size() > 0) {
        arguments.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad_md_, engine, context.Resolve(scratchpad_)));
      }
      canopyPrepareComputeTeam();
      primitive_.execute(stream, arguments);
      stream.wait();
    } catch (const dnnl::error& e) {
      SetErrorMessage("matmul failed in oneDNN: %s", e.what());
      return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "matmul (oneDNN " << implementation_ << ") " << DimsToString(desc_.src.dims) << " "
         << DtypeName(desc_.src.dtype) << " @ " << DimsToString(desc_.weights.dims) << " "
         << DtypeName(desc_.weights.dtype) << " -> " << DtypeName(desc_.dst.dtype);
    if (desc_.alpha != 1.0f || desc_.beta != 0.0f) text << " alpha=" << desc_.alpha << " beta=" << desc_.beta;
    if (desc_.has_bias) {
      text << " + bias " << DimsToString(desc_.bias.dims) << " " << DtypeName(desc_.bias.dtype)
           << (desc_.bias_after_alpha ? " after alpha" : "");
    }
    return text.str();
  }

 private:
  MatmulDesc desc_;
  dnnl::matmul primitive_;
  dnnl::memory::desc src_md_, weights_md_, dst_md_, bias_md_, scratchpad_md_;
  BufferRef scratchpad_;  // in this call's workspace
  std::string implementation_;
};

}  // namespace

bool MatmulSupportsDtype(aclDataType dtype) {
  if (dtype == ACL_FLOAT) return true;
  if (dtype != ACL_BF16 && dtype != ACL_FLOAT16) return false;
  // Probe once: does oneDNN have a native implementation on this CPU?
  static const bool bf16 = [] {
    std::string reason;
    MatmulDesc probe;
    for (MatmulOperand* operand : {&probe.src, &probe.weights, &probe.dst}) {
      operand->dtype = ACL_BF16;
      operand->dims = {16, 16};
      operand->strides = {16, 1};
    }
    return MakeMatmulStep(
               probe, [](int64_t) { return BufferRef{}; }, reason) != nullptr;  // never runs
  }();
  return dtype == ACL_BF16 && bf16;  // fp16 is converted to f32 where the CPU lacks fp16 matrix units
}

std::unique_ptr<Step> MakeMatmulStep(const MatmulDesc& desc, const WorkspaceBooking& book, std::string& reason) {
  try {
    const auto src = DescOf(desc.src), weights = DescOf(desc.weights), dst = DescOf(desc.dst);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    // oneDNN computes post_ops(output_scale * (src @ weights + bias)).
    if (desc.alpha != 1.0f) attr.set_output_scales(0, {desc.alpha});
    const dnnl::memory::desc bias = desc.has_bias ? DescOf(desc.bias) : dnnl::memory::desc();
    dnnl::post_ops post_ops;
    if (desc.beta != 0.0f) post_ops.append_sum(desc.beta);
    const bool bias_in_product = desc.has_bias && !desc.bias_after_alpha;
    if (desc.has_bias && !bias_in_product) post_ops.append_binary(dnnl::algorithm::binary_add, bias);
    if (post_ops.len() > 0) attr.set_post_ops(post_ops);
    const dnnl::matmul::desc operation =
        bias_in_product ? dnnl::matmul::desc(src, weights, bias, dst) : dnnl::matmul::desc(src, weights, dst);
    const dnnl::matmul::primitive_desc primitive_desc(operation, attr, OneDnnEngine());
    std::string implementation = primitive_desc.impl_info_str();
    dnnl::matmul primitive(primitive_desc);
    const dnnl::memory::desc scratchpad = primitive_desc.scratchpad_desc();
    const size_t scratchpad_bytes = scratchpad.get_size();
    const BufferRef scratchpad_at = scratchpad_bytes > 0 ? book(static_cast<int64_t>(scratchpad_bytes)) : BufferRef{};
    return std::make_unique<MatmulStep>(desc, std::move(primitive), src, weights, dst, bias, scratchpad, scratchpad_at,
                                        std::move(implementation));
  } catch (const dnnl::error& e) {
    reason = e.what();
    return nullptr;
  }
}

}  // namespace canopy::kernels
