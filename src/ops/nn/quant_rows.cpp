// Quantisation of rows (see quant_rows.h).
#include "quant_rows.h"

#include "kernels/quant_dynamic.h"

namespace canopy::ops {

void PlanDynamicQuantRows(Plan& plan, const TensorRef& rows, const TensorRef* smooth, const TensorRef& out,
                          const TensorRef& scale_out) {
  kernels::DynamicQuantDesc desc;
  desc.x_dtype = rows.dtype;
  desc.int4 = out.dtype != ACL_INT8;
  desc.rows = rows.shape[0];
  desc.columns = rows.shape[1];
  desc.x = rows.buffer;
  if (smooth != nullptr) {
    desc.has_smooth = true;
    desc.smooth = plan.Contiguous(*smooth, smooth->dtype).buffer;
    desc.smooth_dtype = smooth->dtype;
  }
  const TensorRef y = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  const TensorRef scale = scale_out.IsContiguous() ? scale_out : plan.Temporary(ACL_FLOAT, scale_out.shape);
  desc.y = y.buffer;
  desc.scale = scale.buffer;
  plan.AddStep(kernels::MakeDynamicQuantStep(desc));
  if (!out.IsContiguous()) plan.Copy(y, out);
  if (!scale_out.IsContiguous()) plan.Copy(scale, scale_out);
}

}  // namespace canopy::ops
