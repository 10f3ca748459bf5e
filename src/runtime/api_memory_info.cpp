// Memory allocation options, pointer attributes, host registration and the
// memory calls CANN pairs with a device synchronisation. A Canopy device's
// memory is host memory, so registering host memory makes it pinned (queued
// copies accept it) and its device address is its host address.
#include <unistd.h>

#include <cstring>

#include "api_common.h"
#include "common/c_boundary.h"
#include "memory_registry.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

// aclrtMallocConfig attributes: the module id only tags the allocation for
// CANN's logs; allocating on another device or with virtual-address flags is
// not something aclrtMalloc's memory can be.
aclError CheckMallocConfig(const char* function, const aclrtMallocConfig* cfg) {
  if (cfg == nullptr || cfg->numAttrs == 0) return ACL_SUCCESS;
  if (cfg->attrs == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'cfg' has %zu attributes but 'attrs' is null", function,
                cfg->numAttrs);
  }
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    // Read as the int it is stored as: a client may store any value there.
    static_assert(sizeof(aclrtMallocAttrType) == sizeof(int));
    int attr;
    std::memcpy(&attr, &cfg->attrs[i].attr, sizeof(attr));
    switch (attr) {
      case ACL_RT_MEM_ATTR_RSV:
      case ACL_RT_MEM_ATTR_MODULE_ID:
        break;
      case ACL_RT_MEM_ATTR_DEVICE_ID:
      case ACL_RT_MEM_ATTR_VA_FLAG:
        return NotSupported(function, "allocation attributes other than the module id (ACL_RT_MEM_ATTR_MODULE_ID)");
      default:
        return Fail(ACL_ERROR_INVALID_PARAM, "%s: cfg->attrs[%zu].attr (%d) is not an aclrtMallocAttrType", function, i,
                    attr);
    }
  }
  return ACL_SUCCESS;
}

aclError RegisterHost(const char* function, void* ptr, uint64_t size) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (ptr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'ptr' is null", function);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", function);
  const auto base = reinterpret_cast<uintptr_t>(ptr);
  if (size > UINTPTR_MAX - base) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: [%p, +%llu bytes) wraps around the address space", function, ptr,
                static_cast<unsigned long long>(size));
  }
  const Allocation allocation{base, static_cast<size_t>(size), -1, MemoryKind::kRegisteredHost, Runtime::Get().epoch()};
  if (!MemoryRegistry::Get().AddIfFree(allocation)) {
    return Fail(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                "%s: [%p, +%llu bytes) overlaps memory that is already registered or allocated by acl", function, ptr,
                static_cast<unsigned long long>(size));
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckMallocConfig(__func__, cfg));
  return aclrtMalloc(devPtr, size, policy);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocForTaskScheduler(void** /*devPtr*/, size_t /*size*/, aclrtMemMallocPolicy /*policy*/,
                                     aclrtMallocConfig* /*cfg*/) try {
  return NotSupported(__func__, "memory for a device task scheduler: Canopy's streams are scheduled on the host");
}
CANOPY_C_BOUNDARY_ACL

// aclrtFree already waits for the work queued before it (src/runtime/after_queued_work.h).
aclError aclrtFreeWithDevSync(void* devPtr) try { return aclrtFree(devPtr); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemFlush(void* /*devPtr*/, size_t /*size*/) try {
  return NotSupported(__func__, "the CPU's caches are coherent and not flushed on request");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemInvalidate(void* /*devPtr*/, size_t /*size*/) try {
  return NotSupported(__func__, "the CPU's caches are coherent and not invalidated on request");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetMemUsageInfo(int32_t /*deviceId*/, aclrtMemUsageInfo* /*memUsageInfo*/, size_t /*inputNum*/,
                              size_t* /*outputNum*/) try {
  return NotSupported(__func__, "per-module memory usage is not tracked; aclrtGetMemInfo reports the device's use");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(ptr);
  CANOPY_REQUIRE_NOT_NULL(attributes);
  *attributes = aclrtPtrAttributes{};
  attributes->pageSize = static_cast<uint32_t>(sysconf(_SC_PAGESIZE));
  const auto allocation = MemoryRegistry::Get().Find(ptr);
  if (!allocation) {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;  // plain (pageable) host memory
  } else if (IsPinnedHost(allocation->kind)) {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
  } else {
    attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attributes->location.id = static_cast<uint32_t>(allocation->device_id);
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCheckMemType(void** /*addrList*/, uint32_t /*size*/, uint32_t /*memType*/, uint32_t* /*checkResult*/,
                           uint32_t /*reserve*/) try {
  return NotSupported(__func__, "memory types of Ascend memory pools; use aclrtPointerGetAttributes");
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(ptr);
  if (pbase == nullptr && psize == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAddressRange: arguments 'pbase' and 'psize' are both null");
  }
  const auto allocation = MemoryRegistry::Get().Find(ptr);
  if (!allocation) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemGetAddressRange: argument 'ptr' (%p) is not inside memory acl allocated", ptr);
  }
  if (pbase != nullptr) *pbase = reinterpret_cast<void*>(allocation->base);
  if (psize != nullptr) *psize = allocation->size;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_RETURN_IF_ERROR(CheckMallocConfig(__func__, cfg));
  if (size > SIZE_MAX) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg: argument 'size' is too large");
  return aclrtMallocHost(ptr, static_cast<size_t>(size));
}
CANOPY_C_BOUNDARY_ACL

// aclrtFreeHost already waits for the work queued before it.
aclError aclrtFreeHostWithDevSync(void* hostPtr) try { return aclrtFreeHost(hostPtr); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) try {
  CANOPY_REQUIRE_NOT_NULL(devPtr);
  if (type != ACL_HOST_REGISTER_MAPPED) {
    return NotSupported(__func__, "registration types other than ACL_HOST_REGISTER_MAPPED");
  }
  CANOPY_RETURN_IF_ERROR(RegisterHost(__func__, ptr, size));
  *devPtr = ptr;  // the device reads and writes host memory where it is
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) try {
  constexpr uint32_t kKnown = ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED;
  if ((flag & ~kKnown) != 0) {
    return NotSupported(__func__, "registration flags other than ACL_HOST_REG_MAPPED and ACL_HOST_REG_PINNED");
  }
  return RegisterHost(__func__, ptr, size);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t /*flag: reserved*/) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(pHost);
  CANOPY_REQUIRE_NOT_NULL(pDevice);
  const auto allocation = MemoryRegistry::Get().Find(pHost);
  if (!allocation || !IsPinnedHost(allocation->kind)) {
    return Fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                "aclrtHostGetDevicePointer: argument 'pHost' (%p) is not inside registered or aclrtMallocHost memory",
                pHost);
  }
  *pDevice = pHost;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostUnregister(void* ptr) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(ptr);
  if (!MemoryRegistry::Get().Remove(ptr, MemoryKind::kRegisteredHost)) {
    return Fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                "aclrtHostUnregister: argument 'ptr' (%p) is not the start of memory registered with aclrtHostRegister",
                ptr);
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtHostMemMapCapabilities(uint32_t /*deviceId*/, aclrtHacType /*hacType*/,
                                     aclrtHostMemMapCapability* /*capabilities*/) try {
  return NotSupported(__func__, "host-memory mapping capabilities of Ascend hardware accelerators");
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
