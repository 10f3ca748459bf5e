// Managed (unified) memory.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "managed memory is not supported; use aclrtMalloc or aclrtMallocHost";

}  // namespace

extern "C" {

aclError aclrtMemAllocManaged(void ** /*ptr*/, uint64_t /*size*/, uint32_t /*flag*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemManagedAdvise(const void *const /*ptr*/, uint64_t /*size*/, aclrtMemManagedAdviseType /*advise*/,
                               aclrtMemManagedLocation /*location*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute /*attribute*/, const void * /*ptr*/, size_t /*size*/,
                                void * /*data*/, size_t /*dataSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute * /*attributes*/, size_t /*numAttributes*/,
                                 const void * /*ptr*/, size_t /*size*/, void ** /*data*/, size_t * /*dataSizes*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemManagedPrefetchAsync(const void * /*ptr*/, size_t /*size*/, aclrtMemManagedLocation /*location*/,
                                      uint32_t /*flags*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemManagedPrefetchBatchAsync(const void ** /*ptrs*/, size_t * /*sizes*/, size_t /*count*/,
                                           aclrtMemManagedLocation * /*prefetchLocs*/, size_t * /*prefetchLocIdxs*/,
                                           size_t /*numPrefetchLocs*/, uint64_t /*flags*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
