// aclnnGroupedMatmulV3, V4 and V5: grouped products y_i = x_i @ weight_i + bias_i (llama.cpp's
// MUL_MAT_ID header), in the forms CANN documents for unquantised operands:
//   * groupType -1 (or 0 with x, weight and y lists of one length): one product per list element;
//   * groupType 0, y one tensor, x a list: the products stacked along M in y;
//   * groupType 0, x and y one tensor: x's rows split among the weights ([g, k, n] or a list of g)
//     by groupListOptional's cumulative counts, read at run time;
//   * groupType 2: x's columns and the weight's rows split by the counts, y [g, m, n].
// The quantisation lists (scale, offset, antiquantScale, antiquantOffset) are not
// implemented on Canopy (161002). V1 and V2 take the group list as a host int
// array (cumulative ends), V1 without groupType. V4 and V5 add groupListType (1: the list holds
// each group's count instead of cumulative ends) and the fused activation and
// quantisation arguments (perTokenScale, activationInput, ..., actType other
// than 0: not implemented, 161002); V5's tuningConfig is a performance hint.
// GroupedMatmulWeightNz is V5 with the weights in FRACTAL_NZ, read through their
// view (Canopy's NZ is the ND layout), with CANN's extra checks for that form.
#include <string>
#include <utility>

#include "aclnnop/aclnn_grouped_matmul.h"
#include "aclnnop/aclnn_grouped_matmul_v2.h"
#include "aclnnop/aclnn_grouped_matmul_v3.h"
#include "aclnnop/aclnn_grouped_matmul_v4.h"
#include "aclnnop/aclnn_grouped_matmul_v5.h"
#include "aclnnop/aclnn_grouped_matmul_weight_nz.h"
#include "kernels/grouped_matmul.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "transposed_storage.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGroupedDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
constexpr size_t kMaxGroups = 128;
constexpr int64_t kNoSplit = -1, kSplitM = 0, kSplitN = 1, kSplitK = 2;
constexpr int64_t kMaxGroupListTensor = 1024;  // CANN's MAX_GROUP_LIST_SIZE_TENSOR

using Tensors = std::vector<aclTensor*>;

aclnnStatus CheckList(Plan& plan, const char* name, const aclTensorList* list, aclDataType dtype, int64_t rank) {
  if (list->tensors.empty() || list->tensors.size() > kMaxGroups) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' holds %zu tensors; 1 to %zu are supported", name,
                       list->tensors.size(), kMaxGroups);
  }
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    const aclTensor* t = list->tensors[i];
    if (t->dtype != dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] is %s; it must be %s", name, i, DtypeName(t->dtype),
                         DtypeName(dtype));
    }
    if (rank > 0 && t->rank() != rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] %s must have %lld dimensions", name, i,
                         ShapeToString(t->view_shape).c_str(), static_cast<long long>(rank));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ShapeMismatch(Plan& plan, const char* what, size_t i, const Shape& got, const Shape& want) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s[%zu] is %s; %s was expected", what, i, ShapeToString(got).c_str(),
                     ShapeToString(want).c_str());
}

// The bias of group i as a row broadcast over `rows`, or none.
ProductTerms BiasTerms(const std::vector<TensorRef>& biases, size_t i, int64_t rows, TensorRef& storage) {
  ProductTerms terms;
  if (biases.empty()) return terms;
  storage = BroadcastTo(Unsqueeze(biases[i], 0), {rows, biases[i].shape[0]});
  terms.beta = 1.0f;
  terms.bias = &storage;
  return terms;
}

// What V4 and V5 add to V3's arguments.
struct GroupedExtras {
  const char* y_name = "y";
  int64_t group_list_type = 0;       // 0: cumulative ends, 1: counts
  int inputs_before_group_list = 4;  // the quantisation lists (V4: and perTokenScale)
  int inputs_after_group_list = 0;   // V4: the activation inputs
  int outputs_after_y = 0;           // V4: activationFeatureOut, dynQuantScaleOut
  // V1 and V2: the cumulative ends as a host int array, not a device tensor.
  const aclIntArray* host_group_list = nullptr;
};

aclnnStatus PlanGrouped(Plan& plan, const aclTensorList* x, const aclTensorList* weight, const aclTensorList* bias,
                        const aclTensorList* scale, const aclTensorList* offset, const aclTensorList* antiquant_scale,
                        const aclTensorList* antiquant_offset, const aclTensor* group_list, int64_t split_item,
                        int64_t group_type, const aclTensorList* y, const GroupedExtras& extras) {
  const char* y_name = extras.y_name;
  if (scale != nullptr || offset != nullptr || antiquant_scale != nullptr || antiquant_offset != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "quantised grouped products (scaleOptional, offsetOptional, antiquantScaleOptional, "
                       "antiquantOffsetOptional) are not implemented on Canopy; pass null");
  }
  if (group_type == kSplitN) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupType 1 (split N) is not supported");
  if (group_type != kNoSplit && group_type != kSplitM && group_type != kSplitK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupType %lld is not -1, 0 or 2", static_cast<long long>(group_type));
  }
  if (split_item < 0 || split_item > 3) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "splitItem %lld is not 0, 1, 2 or 3",
                       static_cast<long long>(split_item));
  }
  const bool y_single = split_item >= 2;
  if (y_single && group_type == kNoSplit) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "splitItem 2 or 3 needs a groupType other than -1");
  }
  if (group_list != nullptr && (group_list->rank() != 1 || group_list->dtype != ACL_INT64)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupListOptional (%s %s) must be a 1-D INT64 tensor",
                       DtypeName(group_list->dtype), ShapeToString(group_list->view_shape).c_str());
  }
  if (x->tensors.empty()) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' is an empty list");
  // CANN's host code reads x's transpose flag from its first tensor's view: split K takes one x only as
  // the transpose of [k, m] storage, the other forms never transposed.
  const bool x_transposed = IsTransposedStorage(x->tensors[0]);
  if (group_type == kSplitK && x->tensors.size() == 1 && !x_transposed) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "with groupType 2 and one x, x must be a transposed view (of [k, m] storage)");
  }
  if (group_type != kSplitK && x_transposed) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "with groupType %lld, x can not be a transposed view",
                       static_cast<long long>(group_type));
  }
  if (group_list != nullptr && group_list->view_shape[0] > kMaxGroupListTensor) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupListOptional holds %lld values; at most %lld",
                       static_cast<long long>(group_list->view_shape[0]), static_cast<long long>(kMaxGroupListTensor));
  }
  const aclDataType dtype = x->tensors[0]->dtype;
  CANOPY_CHECK(plan.CheckDtype("x", dtype, kGroupedDtypes));
  const aclDataType bias_dtype = dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT;
  CANOPY_CHECK(CheckList(plan, "x", x, dtype, 2));
  CANOPY_CHECK(CheckList(plan, "weight", weight, dtype, 0));
  CANOPY_CHECK(CheckList(plan, y_name, y, dtype, 0));
  if (bias != nullptr) CANOPY_CHECK(CheckList(plan, "biasOptional", bias, bias_dtype, 0));
  const Tensors& xs = x->tensors;
  const Tensors& ws = weight->tensors;
  const Tensors& ys = y->tensors;

  // One product per list element: all three lists of one length.
  if (!y_single) {
    if (group_type == kSplitK || ws.size() != xs.size() || ys.size() != xs.size()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "with splitItem 0 or 1, x (%zu), weight (%zu) and %s (%zu) must be lists of one length and "
                         "groupType -1 or 0",
                         xs.size(), ws.size(), y_name, ys.size());
    }
  } else if (ys.size() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "with splitItem 2 or 3, %s must be one tensor, not %zu", y_name,
                       ys.size());
  }
  const bool separate = !y_single || xs.size() > 1;  // shapes known now: one product per group
  if (separate) {
    if (ws.size() != xs.size()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x (%zu) and weight (%zu) lists differ in length", xs.size(),
                         ws.size());
    }
    if (bias != nullptr && bias->tensors.size() != xs.size()) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "biasOptional holds %zu tensors for %zu groups", bias->tensors.size(),
                         xs.size());
    }
    int64_t rows = 0, n_all = -1;
    for (size_t i = 0; i < xs.size(); ++i) {
      const Shape& xsh = xs[i]->view_shape;
      const Shape& wsh = ws[i]->view_shape;
      if (wsh.size() != 2 || wsh[0] != xsh[1]) return ShapeMismatch(plan, "weight", i, wsh, {xsh[1], -1});
      if (y_single && n_all >= 0 && wsh[1] != n_all) return ShapeMismatch(plan, "weight", i, wsh, {xsh[1], n_all});
      n_all = wsh[1];
      if (!y_single && ys[i]->view_shape != Shape{xsh[0], wsh[1]}) {
        return ShapeMismatch(plan, y_name, i, ys[i]->view_shape, {xsh[0], wsh[1]});
      }
      if (bias != nullptr && bias->tensors[i]->view_shape != Shape{wsh[1]}) {
        return ShapeMismatch(plan, "biasOptional", i, bias->tensors[i]->view_shape, {wsh[1]});
      }
      rows += xsh[0];
    }
    if (y_single && ys[0]->view_shape != Shape{rows, n_all})
      return ShapeMismatch(plan, y_name, 0, ys[0]->view_shape, {rows, n_all});
    const std::vector<TensorRef> xr = plan.InputList(x, "x");
    const std::vector<TensorRef> wr = plan.InputList(weight, "weight");
    const std::vector<TensorRef> br = bias != nullptr ? plan.InputList(bias, "biasOptional") : std::vector<TensorRef>{};
    if (bias == nullptr) plan.SkipInput();
    for (int i = 0; i < extras.inputs_before_group_list; ++i) plan.SkipInput();  // the quantisation lists
    if (group_list != nullptr) {
      plan.Input(group_list, "groupListOptional");  // the lists' shapes give the groups
    } else {
      plan.SkipInput();
    }
    for (int i = 0; i < extras.inputs_after_group_list; ++i) plan.SkipInput();
    const std::vector<TensorRef> yr = plan.OutputList(y, y_name);
    for (int i = 0; i < extras.outputs_after_y; ++i) plan.SkipOutput();
    int64_t row = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const int64_t m = xr[i].shape[0];
      const TensorRef out = y_single ? Narrow(yr[0], 0, row, m) : yr[i];
      row += m;
      TensorRef bias_rows;
      CANOPY_CHECK(PlanProduct(plan, xr[i], wr[i], out, 0, BiasTerms(br, i, m, bias_rows)));
    }
    return ACLNN_SUCCESS;
  }

  // One x and one y: the group list splits M or K at run time.
  const aclIntArray* host_list = extras.host_group_list;
  if (group_list == nullptr && host_list == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupListOptional is required when x and %s are single tensors",
                       y_name);
  }
  const Shape& xsh = xs[0]->view_shape;
  const int64_t m = xsh[0], k = xsh[1];
  const int64_t groups =
      group_list != nullptr ? group_list->view_shape[0] : static_cast<int64_t>(host_list->values.size());
  kernels::GroupedGemmDesc desc;
  desc.groups = groups;
  desc.m = m;
  desc.k = k;
  if (group_type == kSplitK) {
    if (ws.size() != 1 || ws[0]->view_shape.size() != 2 || ws[0]->view_shape[0] != k) {
      return ShapeMismatch(plan, "weight", 0, ws[0]->view_shape, {k, -1});
    }
    if (bias != nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "biasOptional with groupType 2 is not implemented on Canopy");
    }
    desc.split_k = true;
    desc.n = ws[0]->view_shape[1];
    if (ys[0]->view_shape != Shape{groups, m, desc.n}) {
      return ShapeMismatch(plan, y_name, 0, ys[0]->view_shape, {groups, m, desc.n});
    }
  } else {
    const bool stacked = ws.size() == 1 && ws[0]->rank() == 3;
    const int64_t weight_groups = stacked ? ws[0]->view_shape[0] : static_cast<int64_t>(ws.size());
    if (weight_groups != groups) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "groupListOptional has %lld counts for %lld weights",
                         static_cast<long long>(groups), static_cast<long long>(weight_groups));
    }
    desc.n = stacked ? ws[0]->view_shape[2] : ws[0]->view_shape.back();
    for (size_t i = 0; i < ws.size(); ++i) {
      const Shape want = stacked ? Shape{groups, k, desc.n} : Shape{k, desc.n};
      if (ws[i]->view_shape != want) return ShapeMismatch(plan, "weight", i, ws[i]->view_shape, want);
    }
    if (ys[0]->view_shape != Shape{m, desc.n}) return ShapeMismatch(plan, y_name, 0, ys[0]->view_shape, {m, desc.n});
    if (bias != nullptr) {
      const bool one = bias->tensors.size() == 1 && bias->tensors[0]->view_shape == Shape{groups, desc.n};
      for (size_t i = 0; !one && i < bias->tensors.size(); ++i) {
        if (bias->tensors.size() != static_cast<size_t>(groups) || bias->tensors[i]->view_shape != Shape{desc.n}) {
          return ShapeMismatch(plan, "biasOptional", i, bias->tensors[i]->view_shape, {desc.n});
        }
      }
    }
  }
  const std::vector<TensorRef> xr = plan.InputList(x, "x");
  const std::vector<TensorRef> wr = plan.InputList(weight, "weight");
  const std::vector<TensorRef> br = bias != nullptr ? plan.InputList(bias, "biasOptional") : std::vector<TensorRef>{};
  if (bias == nullptr) plan.SkipInput();
  for (int i = 0; i < extras.inputs_before_group_list; ++i) plan.SkipInput();  // the quantisation lists
  TensorRef gl;
  if (group_list != nullptr) {
    gl = plan.Input(group_list, "groupListOptional");
  } else {  // the host values, written into the workspace for the kernel
    plan.SkipInput();
    gl = plan.Temporary(ACL_INT64, {groups});
    for (int64_t g = 0; g < groups; ++g) {
      plan.Fill(Select(gl, 0, g), ScalarValue::Integer(host_list->values[static_cast<size_t>(g)]));
    }
  }
  for (int i = 0; i < extras.inputs_after_group_list; ++i) plan.SkipInput();
  const std::vector<TensorRef> yr = plan.OutputList(y, y_name);
  for (int i = 0; i < extras.outputs_after_y; ++i) plan.SkipOutput();
  if (yr[0].NumElements() == 0) return ACLNN_SUCCESS;

  desc.x = plan.Contiguous(xr[0], ACL_FLOAT).buffer;
  if (desc.split_k) {
    desc.weight = plan.Contiguous(wr[0], ACL_FLOAT).buffer;
  } else {
    const TensorRef dense = plan.Temporary(ACL_FLOAT, {groups, k, desc.n});
    if (wr.size() == 1 && wr[0].rank() == 3) {
      plan.Copy(wr[0], dense);
    } else {
      for (size_t i = 0; i < wr.size(); ++i) plan.Copy(wr[i], Select(dense, 0, static_cast<int64_t>(i)));
    }
    desc.weight = dense.buffer;
    if (!br.empty()) {
      const TensorRef rows = plan.Temporary(ACL_FLOAT, {groups, desc.n});
      if (br.size() == 1 && br[0].rank() == 2) {
        plan.Copy(br[0], rows);
      } else {
        for (size_t i = 0; i < br.size(); ++i) plan.Copy(br[i], Select(rows, 0, static_cast<int64_t>(i)));
      }
      desc.bias = rows.buffer;
      desc.has_bias = true;
    }
  }
  desc.group_list = gl.buffer;
  desc.group_list_stride = gl.shape[0] > 1 ? gl.strides[0] : 1;
  desc.counts = extras.group_list_type == 1;
  const TensorRef result = plan.Temporary(ACL_FLOAT, yr[0].shape);
  // Rows past the last group (M split) are not computed and keep y's values, as CANN's kernel leaves them
  // (the V4 document: the part the group list does not name is not updated): y is read in first (16-bit
  // values round-trip through f32 exactly).
  if (!desc.split_k) plan.Copy(yr[0], result);
  desc.y = result.buffer;
  plan.AddStep(kernels::MakeGroupedGemmStep(desc));
  plan.Copy(result, yr[0]);
  return ACLNN_SUCCESS;
}

// V1: no groupType; -1 when x and y are both lists of several (or x, weight and y single), else 0 (M split).
aclnnStatus PlanGroupedMatmul(Plan& plan, const aclTensorList* x, const aclTensorList* weight,
                              const aclTensorList* bias, const aclTensorList* scale, const aclTensorList* offset,
                              const aclTensorList* antiquant_scale, const aclTensorList* antiquant_offset,
                              const aclIntArray* group_list, int64_t split_item, const aclTensorList* y) {
  const size_t xs = x->tensors.size(), ws = weight->tensors.size(), ys = y->tensors.size();
  const bool separated = (xs > 1 && ys > 1) || (xs == 1 && ys == 1 && ws == 1);
  if (ws == 1 && !(xs == 1 && ys == 1)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'weight' holds one tensor; V1 takes one weight per group (x and y single too "
                       "for one group)");
  }
  return PlanGrouped(plan, x, weight, bias, scale, offset, antiquant_scale, antiquant_offset, nullptr, split_item,
                     separated ? kNoSplit : kSplitM, y, GroupedExtras{.host_group_list = group_list});
}

aclnnStatus PlanGroupedMatmulV2(Plan& plan, const aclTensorList* x, const aclTensorList* weight,
                                const aclTensorList* bias, const aclTensorList* scale, const aclTensorList* offset,
                                const aclTensorList* antiquant_scale, const aclTensorList* antiquant_offset,
                                const aclIntArray* group_list, int64_t split_item, int64_t group_type,
                                const aclTensorList* y) {
  return PlanGrouped(plan, x, weight, bias, scale, offset, antiquant_scale, antiquant_offset, nullptr, split_item,
                     group_type, y, GroupedExtras{.host_group_list = group_list});
}

aclnnStatus PlanGroupedMatmulV3(Plan& plan, const aclTensorList* x, const aclTensorList* weight,
                                const aclTensorList* bias, const aclTensorList* scale, const aclTensorList* offset,
                                const aclTensorList* antiquant_scale, const aclTensorList* antiquant_offset,
                                const aclTensor* group_list, int64_t split_item, int64_t group_type,
                                const aclTensorList* y) {
  return PlanGrouped(plan, x, weight, bias, scale, offset, antiquant_scale, antiquant_offset, group_list, split_item,
                     group_type, y, GroupedExtras{});
}

aclnnStatus PlanGroupedMatmulV4(Plan& plan, const aclTensorList* x, const aclTensorList* weight,
                                const aclTensorList* bias, const aclTensorList* scale, const aclTensorList* offset,
                                const aclTensorList* antiquant_scale, const aclTensorList* antiquant_offset,
                                const aclTensorList* per_token_scale, const aclTensor* group_list,
                                const aclTensorList* activation_input, const aclTensorList* activation_quant_scale,
                                const aclTensorList* activation_quant_offset, int64_t split_item, int64_t group_type,
                                int64_t group_list_type, int64_t act_type, const aclTensorList* out,
                                const aclTensorList* /*activation_feature_out*/,
                                const aclTensorList* /*dyn_quant_scale_out*/) {
  if (per_token_scale != nullptr || activation_input != nullptr || activation_quant_scale != nullptr ||
      activation_quant_offset != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "quantised and activation-fused grouped products (perTokenScaleOptional, "
                       "activationInputOptional, activationQuantScaleOptional, activationQuantOffsetOptional) are not "
                       "implemented on Canopy; pass null");
  }
  if (act_type != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'actType' is %lld: fused activations are not implemented "
                       "on Canopy; pass 0",
                       static_cast<long long>(act_type));
  }
  if (group_list_type != 0 && group_list_type != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupListType' is %lld; it must be 0 or 1",
                       static_cast<long long>(group_list_type));
  }
  return PlanGrouped(plan, x, weight, bias, scale, offset, antiquant_scale, antiquant_offset, group_list, split_item,
                     group_type, out,
                     GroupedExtras{.y_name = "out",
                                   .group_list_type = group_list_type,
                                   .inputs_before_group_list = 5,
                                   .inputs_after_group_list = 3,
                                   .outputs_after_y = 2});
}

aclnnStatus PlanGroupedMatmulV5(Plan& plan, const aclTensorList* x, const aclTensorList* weight,
                                const aclTensorList* bias, const aclTensorList* scale, const aclTensorList* offset,
                                const aclTensorList* antiquant_scale, const aclTensorList* antiquant_offset,
                                const aclTensorList* per_token_scale, const aclTensor* group_list,
                                const aclTensorList* activation_input, const aclTensorList* activation_quant_scale,
                                const aclTensorList* activation_quant_offset, int64_t split_item, int64_t group_type,
                                int64_t group_list_type, int64_t act_type, const aclIntArray* /*tuning_config*/,
                                const aclTensorList* out, const aclTensorList* activation_feature_out,
                                const aclTensorList* dyn_quant_scale_out) {
  return PlanGroupedMatmulV4(plan, x, weight, bias, scale, offset, antiquant_scale, antiquant_offset, per_token_scale,
                             group_list, activation_input, activation_quant_scale, activation_quant_offset, split_item,
                             group_type, group_list_type, act_type, out, activation_feature_out, dyn_quant_scale_out);
}

// WeightNz's unquantised operands: x, weight and out of one half dtype (CANN's
// host code; FLOAT, which V5 takes, is rejected), k and n multiples of 16.
constexpr DtypeSet kGroupedNzDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kNzAlign = 16;

aclnnStatus CheckPlainList(Plan& plan, const char* name, const aclTensorList* list) {
  if (list == nullptr) return ACLNN_SUCCESS;
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    const std::string element = std::string(name) + "[" + std::to_string(i) + "]";
    CANOPY_CHECK(plan.CheckPlainFormat(element.c_str(), list->tensors[i]));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGroupedMatmulWeightNz(
    Plan& plan, const aclTensorList* x, const aclTensorList* weight, const aclTensorList* bias,
    const aclTensorList* scale, const aclTensorList* offset, const aclTensorList* antiquant_scale,
    const aclTensorList* antiquant_offset, const aclTensorList* per_token_scale, const aclTensor* group_list,
    const aclTensorList* activation_input, const aclTensorList* activation_quant_scale,
    const aclTensorList* activation_quant_offset, int64_t split_item, int64_t group_type, int64_t group_list_type,
    int64_t act_type, const aclIntArray* tuning_config, int64_t /*quant_group_size*/, const aclTensorList* out,
    const aclTensorList* activation_feature_out, const aclTensorList* dyn_quant_scale_out) {
  if (group_type == kSplitK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupType' is 2: the NZ-weight form does not split K");
  }
  // Only the weights may be FRACTAL_NZ.
  for (size_t i = 0; i < weight->tensors.size(); ++i) {
    if (weight->tensors[i]->format == ACL_FORMAT_FRACTAL_NZ) continue;
    const std::string element = "weight[" + std::to_string(i) + "]";
    CANOPY_CHECK(plan.CheckPlainFormat(element.c_str(), weight->tensors[i]));
  }
  for (const auto& [name, list] :
       {std::pair{"x", x}, std::pair{"biasOptional", bias}, std::pair{"scaleOptional", scale},
        std::pair{"offsetOptional", offset}, std::pair{"antiquantScaleOptional", antiquant_scale},
        std::pair{"antiquantOffsetOptional", antiquant_offset}, std::pair{"perTokenScaleOptional", per_token_scale},
        std::pair{"activationInputOptional", activation_input},
        std::pair{"activationQuantScaleOptional", activation_quant_scale},
        std::pair{"activationQuantOffsetOptional", activation_quant_offset}, std::pair{"out", out},
        std::pair{"activationFeatureOutOptional", activation_feature_out},
        std::pair{"dynQuantScaleOutOptional", dyn_quant_scale_out}}) {
    CANOPY_CHECK(CheckPlainList(plan, name, list));
  }
  if (group_list != nullptr) CANOPY_CHECK(plan.CheckPlainFormat("groupListOptional", group_list));
  // CANN checks the NZ dtypes and extents only when some x holds elements.
  bool empty = true;
  for (const aclTensor* t : x->tensors) empty = empty && t->NumElements() == 0;
  if (!empty && !x->tensors.empty() && !weight->tensors.empty() && !out->tensors.empty()) {
    const aclDataType dtype = x->tensors[0]->dtype;
    CANOPY_CHECK(plan.CheckDtype("x", dtype, kGroupedNzDtypes));
    if (weight->tensors[0]->dtype != dtype || out->tensors[0]->dtype != dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x (%s), weight (%s) and out (%s) must be of one dtype",
                         DtypeName(dtype), DtypeName(weight->tensors[0]->dtype), DtypeName(out->tensors[0]->dtype));
    }
    for (size_t i = 0; i < weight->tensors.size(); ++i) {
      const Shape& shape = weight->tensors[i]->view_shape;
      if (shape.size() < 2) continue;  // V5's checks name it
      const int64_t k = shape[shape.size() - 2], n = shape.back();
      if (k % kNzAlign != 0 || n % kNzAlign != 0) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight[%zu] %s: an NZ weight's k and n must be multiples of %lld",
                           i, ShapeToString(shape).c_str(), static_cast<long long>(kNzAlign));
      }
    }
  }
  return PlanGroupedMatmulV5(plan, x, weight, bias, scale, offset, antiquant_scale, antiquant_offset, per_token_scale,
                             group_list, activation_input, activation_quant_scale, activation_quant_offset, split_item,
                             group_type, group_list_type, act_type, tuning_config, out, activation_feature_out,
                             dyn_quant_scale_out);
}

}  // namespace

CANOPY_ACLNN_OP(GroupedMatmulV3, PlanGroupedMatmulV3,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_v3.h",
                          .dtypes = kGroupedDtypes,
                          .example = "(f32[2,2],f32[2,2]) (f32[2,2],f32[2,2]) - - - - - - 0 0 (f32[2,2],f32[2,2])"}),
                (const aclTensorList*, x), (const aclTensorList*, weight),
                (const aclTensorList*, biasOptional, optional), (const aclTensorList*, scaleOptional, optional),
                (const aclTensorList*, offsetOptional, optional),
                (const aclTensorList*, antiquantScaleOptional, optional),
                (const aclTensorList*, antiquantOffsetOptional, optional),
                (const aclTensor*, groupListOptional, optional), (int64_t, splitItem), (int64_t, groupType),
                (const aclTensorList*, y))

CANOPY_ACLNN_OP(
    GroupedMatmulV4, PlanGroupedMatmulV4,
    (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_v4.h",
              .dtypes = kGroupedDtypes,
              .example = "(f32[2,2],f32[2,2]) (f32[2,2],f32[2,2]) - - - - - - - - - - 0 0 0 0 "
                         "(f32[2,2],f32[2,2]) - -"}),
    (const aclTensorList*, x), (const aclTensorList*, weight), (const aclTensorList*, biasOptional, optional),
    (const aclTensorList*, scaleOptional, optional), (const aclTensorList*, offsetOptional, optional),
    (const aclTensorList*, antiquantScaleOptional, optional), (const aclTensorList*, antiquantOffsetOptional, optional),
    (const aclTensorList*, perTokenScaleOptional, optional), (const aclTensor*, groupListOptional, optional),
    (const aclTensorList*, activationInputOptional, optional),
    (const aclTensorList*, activationQuantScaleOptional, optional),
    (const aclTensorList*, activationQuantOffsetOptional, optional), (int64_t, splitItem), (int64_t, groupType),
    (int64_t, groupListType), (int64_t, actType), (aclTensorList*, out),
    (aclTensorList*, activationFeatureOutOptional, optional), (aclTensorList*, dynQuantScaleOutOptional, optional))

CANOPY_ACLNN_OP(
    GroupedMatmulV5, PlanGroupedMatmulV5,
    (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_v5.h",
              .dtypes = kGroupedDtypes,
              .example = "(f32[2,2],f32[2,2]) (f32[2,2],f32[2,2]) - - - - - - - - - - 0 0 0 0 - "
                         "(f32[2,2],f32[2,2]) - -"}),
    (const aclTensorList*, x), (const aclTensorList*, weight), (const aclTensorList*, biasOptional, optional),
    (const aclTensorList*, scaleOptional, optional), (const aclTensorList*, offsetOptional, optional),
    (const aclTensorList*, antiquantScaleOptional, optional), (const aclTensorList*, antiquantOffsetOptional, optional),
    (const aclTensorList*, perTokenScaleOptional, optional), (const aclTensor*, groupListOptional, optional),
    (const aclTensorList*, activationInputOptional, optional),
    (const aclTensorList*, activationQuantScaleOptional, optional),
    (const aclTensorList*, activationQuantOffsetOptional, optional), (int64_t, splitItem), (int64_t, groupType),
    (int64_t, groupListType), (int64_t, actType), (aclIntArray*, tuningConfigOptional, optional), (aclTensorList*, out),
    (aclTensorList*, activationFeatureOutOptional, optional), (aclTensorList*, dynQuantScaleOutOptional, optional))

CANOPY_ACLNN_OP(GroupedMatmul, PlanGroupedMatmul,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul.h",
                          .dtypes = kGroupedDtypes,
                          .example = "(f32[2,2],f32[2,2]) (f32[2,2],f32[2,2]) - - - - - - 0 (f32[2,2],f32[2,2])"}),
                (const aclTensorList*, x), (const aclTensorList*, weight),
                (const aclTensorList*, biasOptional, optional), (const aclTensorList*, scaleOptional, optional),
                (const aclTensorList*, offsetOptional, optional),
                (const aclTensorList*, antiquantScaleOptional, optional),
                (const aclTensorList*, antiquantOffsetOptional, optional),
                (const aclIntArray*, groupListOptional, optional), (int64_t, splitItem), (const aclTensorList*, y))

CANOPY_ACLNN_OP(GroupedMatmulV2, PlanGroupedMatmulV2,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_v2.h",
                          .dtypes = kGroupedDtypes,
                          .example = "(f32[2,2],f32[2,2]) (f32[2,2],f32[2,2]) - - - - - - 0 -1 (f32[2,2],f32[2,2])"}),
                (const aclTensorList*, x), (const aclTensorList*, weight),
                (const aclTensorList*, biasOptional, optional), (const aclTensorList*, scaleOptional, optional),
                (const aclTensorList*, offsetOptional, optional),
                (const aclTensorList*, antiquantScaleOptional, optional),
                (const aclTensorList*, antiquantOffsetOptional, optional),
                (const aclIntArray*, groupListOptional, optional), (int64_t, splitItem), (int64_t, groupType),
                (const aclTensorList*, y))

CANOPY_ACLNN_OP(
    GroupedMatmulWeightNz, PlanGroupedMatmulWeightNz,
    (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_weight_nz.h",
              .dtypes = kGroupedNzDtypes,
              .private_formats = true,
              .example = "(f16[2,16],f16[2,16]) (f16[16,16],f16[16,16]) - - - - - - - - - - 0 0 0 0 - 0 "
                         "(f16[2,16],f16[2,16]) - -"}),
    (const aclTensorList*, x), (const aclTensorList*, weight), (const aclTensorList*, biasOptional, optional),
    (const aclTensorList*, scaleOptional, optional), (const aclTensorList*, offsetOptional, optional),
    (const aclTensorList*, antiquantScaleOptional, optional), (const aclTensorList*, antiquantOffsetOptional, optional),
    (const aclTensorList*, perTokenScaleOptional, optional), (const aclTensor*, groupListOptional, optional),
    (const aclTensorList*, activationInputOptional, optional),
    (const aclTensorList*, activationQuantScaleOptional, optional),
    (const aclTensorList*, activationQuantOffsetOptional, optional), (int64_t, splitItem), (int64_t, groupType),
    (int64_t, groupListType), (int64_t, actType), (aclIntArray*, tuningConfigOptional, optional),
    (int64_t, quantGroupSize), (aclTensorList*, out), (aclTensorList*, activationFeatureOutOptional, optional),
    (aclTensorList*, dynQuantScaleOutOptional, optional))
