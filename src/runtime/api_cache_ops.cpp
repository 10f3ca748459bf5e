// Cache maintenance operations queued on streams (aclrtCmo*).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "cache maintenance operations are not supported: Canopy's device memory is host memory, coherent with the CPU";

}  // namespace

extern "C" {

aclError aclrtCmoAsync(void * /*src*/, size_t /*size*/, aclrtCmoType /*cmoType*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCmoAsyncWithBarrier(void * /*src*/, size_t /*size*/, aclrtCmoType /*cmoType*/, uint32_t /*barrierId*/,
                                  aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo * /*taskInfo*/, aclrtStream /*stream*/, uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCmoGetDescSize(size_t * /*size*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtCmoSetDesc(void * /*cmoDesc*/, void * /*src*/, size_t /*size*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCmoAsyncWithDesc(void * /*cmoDesc*/, aclrtCmoType /*cmoType*/, aclrtStream /*stream*/,
                               const void * /*reserve*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
