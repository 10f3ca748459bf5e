// Copies beyond aclrtMemcpy/aclrtMemcpy2d: batches, descriptors, conditions and offsets, reductions,
// and value writes and waits on device memory.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "batched, descriptor-based, conditional and offset copies, reductions and value writes and waits are not "
    "supported; use aclrtMemcpy(Async), aclrtMemcpy2d(Async) or aclrtMemset(Async)";

}  // namespace

extern "C" {

aclError aclrtMemcpyAsyncWithCondition(void * /*dst*/, size_t /*destMax*/, const void * /*src*/, size_t /*count*/,
                                       aclrtMemcpyKind /*kind*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyBatch(void ** /*dsts*/, size_t * /*destMaxs*/, void ** /*srcs*/, size_t * /*sizes*/,
                          size_t /*numBatches*/, aclrtMemcpyBatchAttr * /*attrs*/, size_t * /*attrsIndexes*/,
                          size_t /*numAttrs*/, size_t * /*failIndex*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyBatchV2(void ** /*dsts*/, size_t * /*destMaxs*/, void ** /*srcs*/, size_t * /*sizes*/,
                            size_t /*numBatches*/, aclrtMemcpyBatchAttr * /*attrs*/, size_t * /*attrsIndexes*/,
                            size_t /*numAttrs*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyBatchAsync(void ** /*dsts*/, size_t * /*destMaxs*/, void ** /*srcs*/, size_t * /*sizes*/,
                               size_t /*numBatches*/, aclrtMemcpyBatchAttr * /*attrs*/, size_t * /*attrsIndexes*/,
                               size_t /*numAttrs*/, size_t * /*failIndex*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyBatchAsyncV2(void ** /*dsts*/, size_t * /*destMaxs*/, void ** /*srcs*/, size_t * /*sizes*/,
                                 size_t /*numBatches*/, aclrtMemcpyBatchAttr * /*attrs*/, size_t * /*attrsIndexes*/,
                                 size_t /*numAttrs*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind /*kind*/, size_t * /*descSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetMemcpyDesc(void * /*desc*/, aclrtMemcpyKind /*kind*/, void * /*srcAddr*/, void * /*dstAddr*/,
                            size_t /*count*/, void * /*config*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyAsyncWithDesc(void * /*desc*/, aclrtMemcpyKind /*kind*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyAsyncWithOffset(void ** /*dst*/, size_t /*destMax*/, size_t /*dstDataOffset*/,
                                    const void ** /*src*/, size_t /*count*/, size_t /*srcDataOffset*/,
                                    aclrtMemcpyKind /*kind*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtReduceAsync(void * /*dst*/, const void * /*src*/, uint64_t /*count*/, aclrtReduceKind /*kind*/,
                          aclDataType /*type*/, aclrtStream /*stream*/, void * /*reserve*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtValueWrite(void * /*devAddr*/, uint64_t /*value*/, uint32_t /*flag*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtValueWait(void * /*devAddr*/, uint64_t /*value*/, uint32_t /*flag*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
