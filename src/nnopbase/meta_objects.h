// The objects behind acl_meta.h's opaque handles. Plain data, shared by
// libnnopbase (which creates them) and libopapi (whose ops read them).
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensor {
  std::vector<int64_t> view_shape;
  std::vector<int64_t> strides;  // in elements, one per view dimension
  std::vector<int64_t> storage_shape;
  int64_t offset = 0;  // in elements, from `data` to the first view element
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  void* data = nullptr;  // storage base address

  int64_t rank() const { return static_cast<int64_t>(view_shape.size()); }
  int64_t NumElements() const {
    int64_t n = 1;
    for (int64_t d : view_shape) n *= d;
    return n;
  }
};

struct aclScalar {
  aclDataType dtype = ACL_DT_UNDEFINED;
  alignas(16) unsigned char value[16] = {};  // the host value, in `dtype`'s representation
};

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclFloatArray {
  std::vector<float> values;
};

struct aclBoolArray {
  std::vector<bool> values;
};

// Lists own their members: destroying the list destroys them.
struct aclTensorList {
  std::vector<aclTensor*> tensors;
};

struct aclScalarList {
  std::vector<aclScalar*> scalars;
};
