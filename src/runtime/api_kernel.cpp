// Device binaries, kernel functions, kernel arguments, kernel launches and device symbols.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "device binaries and kernel launches are not supported: Canopy runs operators through aclnn, not device kernels";

}  // namespace

extern "C" {

aclError aclrtGetSymbolAddress(const void * /*symbol*/, void ** /*devPtr*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetSymbolSize(const void * /*symbol*/, size_t * /*size*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyFromSymbol(void * /*dst*/, size_t /*dstMax*/, const void * /*symbol*/, size_t /*count*/,
                               size_t /*offset*/, aclrtMemcpyKind /*kind*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyFromSymbolAsync(void * /*dst*/, size_t /*dstMax*/, const void * /*symbol*/, size_t /*count*/,
                                    size_t /*offset*/, aclrtMemcpyKind /*kind*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyToSymbol(const void * /*symbol*/, const void * /*src*/, size_t /*count*/, size_t /*offset*/,
                             aclrtMemcpyKind /*kind*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyToSymbolAsync(const void * /*symbol*/, const void * /*src*/, size_t /*count*/, size_t /*offset*/,
                                  aclrtMemcpyKind /*kind*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclrtBinary aclrtCreateBinary(const void * /*data*/, size_t /*dataLen*/) try {
  NotSupported(__func__, kReason);
  return nullptr;
}
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtDestroyBinary(aclrtBinary /*binary*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryLoad(const aclrtBinary /*binary*/, aclrtBinHandle * /*binHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryLoadFromFile(const char * /*binPath*/, aclrtBinaryLoadOptions * /*options*/,
                                 aclrtBinHandle * /*binHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryLoadFromData(const void * /*data*/, size_t /*length*/, const aclrtBinaryLoadOptions * /*options*/,
                                 aclrtBinHandle * /*binHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryUnLoad(aclrtBinHandle /*binHandle*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryGetFunction(const aclrtBinHandle /*binHandle*/, const char * /*kernelName*/,
                                aclrtFuncHandle * /*funcHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle /*binHandle*/, uint64_t /*funcEntry*/,
                                       aclrtFuncHandle * /*funcHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle /*binHandle*/, void ** /*binAddr*/, size_t * /*binSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtBinaryGetGlobal(aclrtBinHandle /*binHandle*/, const char * /*name*/, void ** /*dptr*/,
                              size_t * /*size*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtRegisterCpuFunc(const aclrtBinHandle /*handle*/, const char * /*funcName*/, const char * /*kernelName*/,
                              aclrtFuncHandle * /*funcHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFuncBySymbol(const void * /*symbol*/, aclrtFuncHandle * /*funcHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFunctionAddr(aclrtFuncHandle /*funcHandle*/, void ** /*aicAddr*/, void ** /*aivAddr*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFunctionSize(aclrtFuncHandle /*funcHandle*/, size_t * /*aicSize*/, size_t * /*aivSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFunctionName(aclrtFuncHandle /*funcHandle*/, uint32_t /*maxLen*/, char * /*name*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetFunctionAttribute(aclrtFuncHandle /*funcHandle*/, aclrtFuncAttribute /*attrType*/,
                                   int64_t * /*attrValue*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFunctionGetBinary(const aclrtFuncHandle /*funcHandle*/, aclrtBinHandle * /*binHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFunctionGetParamCount(const void * /*func*/, size_t * /*paramCount*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFunctionGetParamInfo(const void * /*func*/, size_t /*paramIndex*/, size_t * /*paramOffset*/,
                                   size_t * /*paramSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFunctionGetAvailDynUbufPerBlock(void * /*func*/, uint32_t /*flags*/, size_t * /*dynamicUbufSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle /*funcHandle*/, size_t * /*memSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle /*funcHandle*/, size_t /*userArgsSize*/,
                                   size_t * /*actualArgsSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsInit(aclrtFuncHandle /*funcHandle*/, aclrtArgsHandle * /*argsHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle /*funcHandle*/, aclrtArgsHandle /*argsHandle*/,
                                      void * /*userHostMem*/, size_t /*actualArgsSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsAppend(aclrtArgsHandle /*argsHandle*/, void * /*param*/, size_t /*paramSize*/,
                               aclrtParamHandle * /*paramHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle /*argsHandle*/, aclrtParamHandle * /*paramHandle*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle /*argsHandle*/, aclrtParamHandle /*paramHandle*/,
                                             size_t /*dataSize*/, void ** /*bufferAddr*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle /*argsHandle*/, aclrtParamHandle /*paramHandle*/, void * /*param*/,
                                   size_t /*paramSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtKernelArgsFinalize(aclrtArgsHandle /*argsHandle*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchKernel(aclrtFuncHandle /*funcHandle*/, uint32_t /*numBlocks*/, const void * /*argsData*/,
                           size_t /*argsSize*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchKernelV2(aclrtFuncHandle /*funcHandle*/, uint32_t /*numBlocks*/, const void * /*argsData*/,
                             size_t /*argsSize*/, aclrtLaunchKernelCfg * /*cfg*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle /*funcHandle*/, uint32_t /*numBlocks*/, aclrtStream /*stream*/,
                                     aclrtLaunchKernelCfg * /*cfg*/, aclrtArgsHandle /*argsHandle*/,
                                     void * /*reserve*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle /*funcHandle*/, uint32_t /*numBlocks*/, aclrtStream /*stream*/,
                                       aclrtLaunchKernelCfg * /*cfg*/, void * /*hostArgs*/, size_t /*argsSize*/,
                                       aclrtPlaceHolderInfo * /*placeHolderArray*/, size_t /*placeHolderNum*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchKernelWithArgsArray(void * /*func*/, uint32_t /*numBlocks*/, aclrtStream /*stream*/,
                                        aclrtLaunchKernelCfg * /*cfg*/, void ** /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchSIMTKernelWithArgsArray(void * /*func*/, dim3 /*gridDim*/, dim3 /*blockDim*/,
                                            size_t /*dynUbufSize*/, aclrtStream /*stream*/,
                                            aclrtLaunchKernelCfg * /*cfg*/, void ** /*args*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtLaunchSIMTKernelWithHostArgs(void * /*func*/, dim3 /*gridDim*/, dim3 /*blockDim*/, size_t /*dynUbufSize*/,
                                           aclrtStream /*stream*/, aclrtLaunchKernelCfg * /*cfg*/, void * /*hostArgs*/,
                                           size_t /*argsSize*/, aclrtPlaceHolderInfo * /*placeHolderArray*/,
                                           size_t /*placeHolderNum*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetHardwareSyncAddr(void ** /*addr*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo * /*taskInfo*/, const aclrtStream /*stream*/,
                             void * /*reserve*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
