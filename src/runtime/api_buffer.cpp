// Buffers (mbufs) of AI CPU data queues.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "buffers of AI CPU data queues are not supported: Canopy has no AI CPU";

}  // namespace

extern "C" {

aclError aclrtAllocBuf(aclrtMbuf * /*buf*/, size_t /*size*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtFreeBuf(aclrtMbuf /*buf*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetBufData(const aclrtMbuf /*buf*/, void ** /*dataPtr*/, size_t * /*size*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetBufDataLen(aclrtMbuf /*buf*/, size_t * /*len*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetBufDataLen(aclrtMbuf /*buf*/, size_t /*len*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetBufUserData(const aclrtMbuf /*buf*/, void * /*dataPtr*/, size_t /*size*/, size_t /*offset*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetBufUserData(aclrtMbuf /*buf*/, const void * /*dataPtr*/, size_t /*size*/, size_t /*offset*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCopyBufRef(const aclrtMbuf /*buf*/, aclrtMbuf * /*newBuf*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtAppendBufChain(aclrtMbuf /*headBuf*/, aclrtMbuf /*buf*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetBufChainNum(aclrtMbuf /*headBuf*/, uint32_t * /*num*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetBufFromChain(aclrtMbuf /*headBuf*/, uint32_t /*index*/, aclrtMbuf * /*buf*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
