#include "spatial_args.h"

#include <string>

#include "nnopbase/meta_objects.h"

namespace canopy::ops {

const char* FormatName(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_ND:
      return "ND";
    case ACL_FORMAT_NCL:
      return "NCL";
    case ACL_FORMAT_NCHW:
      return "NCHW";
    case ACL_FORMAT_NHWC:
      return "NHWC";
    case ACL_FORMAT_NCDHW:
      return "NCDHW";
    case ACL_FORMAT_NDHWC:
      return "NDHWC";
    default:
      return "a private or unsupported format";
  }
}

aclFormat ChannelFirstFormat(int64_t rank) {
  switch (rank) {
    case 3:
      return ACL_FORMAT_NCL;
    case 4:
      return ACL_FORMAT_NCHW;
    case 5:
      return ACL_FORMAT_NCDHW;
    default:
      return ACL_FORMAT_UNDEFINED;
  }
}

aclnnStatus CheckFormat(Plan& plan, const char* name, const aclTensor* tensor, aclFormat format) {
  if (tensor->format == format) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has format %s (%d); a rank-%lld tensor here must be %s",
                     name, FormatName(tensor->format), static_cast<int>(tensor->format),
                     static_cast<long long>(tensor->rank()), FormatName(format));
}

aclnnStatus CheckIntArray(Plan& plan, const char* name, const aclIntArray* array, const std::vector<size_t>& lengths,
                          int64_t min_value) {
  bool length_ok = false;
  std::string allowed;
  for (size_t length : lengths) {
    length_ok = length_ok || array->values.size() == length;
    allowed += (allowed.empty() ? "" : " or ") + std::to_string(length);
  }
  if (!length_ok) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has %zu elements; it must have %s", name,
                       array->values.size(), allowed.c_str());
  }
  for (size_t i = 0; i < array->values.size(); ++i) {
    if (array->values[i] < min_value) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s'[%zu] is %lld; it must be at least %lld", name, i,
                         static_cast<long long>(array->values[i]), static_cast<long long>(min_value));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckNonEmptyFrom(Plan& plan, const char* name, const aclTensor* tensor, int64_t first) {
  for (int64_t d = first; d < tensor->rank(); ++d) {
    if (tensor->view_shape[d] <= 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s %s has an empty dim %lld; only the first may be empty", name,
                         ShapeToString(tensor->view_shape).c_str(), static_cast<long long>(d));
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
