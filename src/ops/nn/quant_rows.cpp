// Quantisation of rows (see quant_rows.h).
#include "quant_rows.h"

#include "kernels/quant_dynamic.h"

namespace canopy::ops {

void PlanDynamicQuantRows(Plan& plan, const TensorRef& rows, const TensorRef* smooth, const TensorRef& out,
                          const TensorRef& scale_out, const TensorRef* offset_out, const TensorRef* group_index,
                          float clip_ratio) {
  kernels::DynamicQuantDesc desc;
  desc.clip_ratio = clip_ratio;
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
  if (group_index != nullptr) {
    desc.groups = group_index->NumElements();
    desc.group_index = plan.Contiguous(*group_index, group_index->dtype).buffer;
    desc.group_dtype = group_index->dtype;
  }
  const TensorRef y = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  const TensorRef scale = scale_out.IsContiguous() ? scale_out : plan.Temporary(ACL_FLOAT, scale_out.shape);
  TensorRef offset;
  if (offset_out != nullptr) {
    desc.asymmetric = true;
    offset = offset_out->IsContiguous() ? *offset_out : plan.Temporary(ACL_FLOAT, offset_out->shape);
    desc.offset = offset.buffer;
  }
  desc.y = y.buffer;
  desc.scale = scale.buffer;
  plan.AddStep(kernels::MakeDynamicQuantStep(desc));
  if (!out.IsContiguous()) plan.Copy(y, out);
  if (!scale_out.IsContiguous()) plan.Copy(scale, scale_out);
  if (offset_out != nullptr && !offset_out->IsContiguous()) plan.Copy(offset, *offset_out);
}

void AddAffineStep(Plan& plan, kernels::QuantAffineDesc desc, const TensorRef& in, const TensorRef& scale,
                   const TensorRef* offset, const TensorRef& out) {
  desc.in = in.IsContiguous() ? in.buffer : plan.Contiguous(in, in.dtype).buffer;
  desc.scale = plan.Contiguous(scale, scale.dtype).buffer;
  if (offset != nullptr) {
    desc.has_offset = true;
    desc.offset = plan.Contiguous(*offset, offset->dtype).buffer;
  }
  const TensorRef dst = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  desc.out = dst.buffer;
  plan.AddStep(kernels::MakeQuantAffineStep(desc));
  if (!out.IsContiguous()) plan.Copy(dst, out);
}

void PlanStaticQuantRows(Plan& plan, const TensorRef& rows, const TensorRef& scale, const TensorRef& offset,
                         const TensorRef& out) {
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.divide = true;
  desc.in_dtype = rows.dtype;
  desc.out_dtype = out.dtype == ACL_INT8 ? ACL_INT8 : ACL_INT4;
  desc.elements = rows.NumElements();
  desc.param_dtype = scale.dtype;
  desc.param_count = 1;
  desc.offset_dtype = offset.dtype;
  AddAffineStep(plan, desc, rows, scale, &offset, out);
}

void PlanReciprocalQuant(Plan& plan, const TensorRef& values, const TensorRef& scale, const TensorRef* offset,
                         const TensorRef& out, int64_t axis_extent, int64_t inner, bool zero_scale_as_one) {
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.in_dtype = values.dtype;
  desc.out_dtype = ACL_INT8;
  desc.elements = values.NumElements();
  desc.axis_extent = axis_extent;
  desc.inner = inner;
  desc.param_dtype = scale.dtype;
  desc.param_count = scale.NumElements();
  if (offset != nullptr) desc.offset_dtype = offset->dtype;
  desc.reciprocal_scale = true;
  desc.zero_scale_as_one = zero_scale_as_one;
  desc.through_half = true;
  AddAffineStep(plan, desc, values, scale, offset, out);
}

}  // namespace canopy::ops
