// Device and pinned host memory, copies and fills, synchronous and queued.
#include <sys/mman.h>

#include <cstdlib>

#include "api_common.h"
#include "copy_kernels.h"
#include "memory_registry.h"

using namespace canopy::runtime;

namespace {

// Device memory is at least this aligned (cache line; AVX-512 loads).
constexpr size_t kDeviceAlignment = 64;
// Large blocks come straight from mmap: page aligned, zero-filled lazily, returned on free.
constexpr size_t kMmapThreshold = size_t{256} << 10;

void* AllocateBytes(size_t size) {
  if (size >= kMmapThreshold) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  void* p = nullptr;
  return posix_memalign(&p, kDeviceAlignment, size) == 0 ? p : nullptr;
}

void FreeBytes(void* p, size_t size) {
  if (size >= kMmapThreshold) {
    munmap(p, size);
  } else {
    std::free(p);
  }
}

Device* CurrentDevice(const char* function, aclError& status) {
  Context* context = Runtime::Get().current_context();
  if (context == nullptr) {
    status = Fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: no device is set on this thread (call aclrtSetDevice)",
                  function);
    return nullptr;
  }
  status = ACL_SUCCESS;
  return &context->device();
}

aclError MallocDevice(const char* function, void** devPtr, size_t size, int policy) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'devPtr' is null", function);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", function);
  if (policy < 0) return Fail(ACL_ERROR_INVALID_PARAM, "%s: policy %d is not valid", function, policy);
  aclError status;
  Device* device = CurrentDevice(function, status);
  if (device == nullptr) return status;
  if (!device->Reserve(size)) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "%s: out of device memory: %zu bytes requested, %zu of %zu bytes free on device %d",
                function, size, device->total_memory() - device->used_memory(),
                device->total_memory(), device->id());
  }
  void* memory = AllocateBytes(size);
  if (memory == nullptr) {
    device->Unreserve(size);
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the host could not provide %zu bytes", function, size);
  }
  MemoryRegistry::Get().Add({reinterpret_cast<uintptr_t>(memory), size, device->id(), MemoryKind::kDevice});
  *devPtr = memory;
  return ACL_SUCCESS;
}

// Checks that [pointer, pointer + count) is device memory when `device_side`.
aclError CheckSide(const char* function, const char* argument, const void* pointer, size_t count,
                   bool device_side) {
  if (!device_side || MemoryRegistry::Get().IsDeviceRange(pointer, count)) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM,
              "%s: argument '%s' [%p, +%zu bytes) is not inside a live device allocation", function,
              argument, pointer, count);
}

struct CopySides {
  bool dst_device;
  bool src_device;
};

aclError SidesOf(const char* function, aclrtMemcpyKind kind, const void* dst, const void* src, CopySides& sides) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: sides = {false, false}; return ACL_SUCCESS;
    case ACL_MEMCPY_HOST_TO_DEVICE: sides = {true, false}; return ACL_SUCCESS;
    case ACL_MEMCPY_DEVICE_TO_HOST: sides = {false, true}; return ACL_SUCCESS;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: sides = {true, true}; return ACL_SUCCESS;
    case ACL_MEMCPY_DEFAULT:
      // The runtime tells the sides apart by the registry, as unified addressing does.
      sides = {MemoryRegistry::Get().IsDeviceRange(dst, 1), MemoryRegistry::Get().IsDeviceRange(src, 1)};
      return ACL_SUCCESS;
    default:
      return Fail(ACL_ERROR_INVALID_PARAM, "%s: kind %d is not a supported aclrtMemcpyKind", function,
                  static_cast<int>(kind));
  }
}

aclError CheckCopy(const char* function, void* dst, size_t destMax, const void* src, size_t count,
                   aclrtMemcpyKind kind) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'dst' is null", function);
  if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'src' is null", function);
  if (count > destMax) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: count (%zu) is larger than destMax (%zu)", function,
                count, destMax);
  }
  CopySides sides;
  CANOPY_RETURN_IF_ERROR(SidesOf(function, kind, dst, src, sides));
  if (count == 0) return ACL_SUCCESS;
  CANOPY_RETURN_IF_ERROR(CheckSide(function, "dst", dst, count, sides.dst_device));
  return CheckSide(function, "src", src, count, sides.src_device);
}

struct CopyArgs {
  void* dst;
  const void* src;
  size_t count;
};
struct FillArgs {
  void* dst;
  size_t count;
  uint8_t value;
};
struct Copy2dArgs {
  void* dst;
  size_t dst_pitch;
  const void* src;
  size_t src_pitch;
  size_t width;
  size_t height;
};

int32_t RunCopy(void* payload) {
  const auto& args = *static_cast<CopyArgs*>(payload);
  ParallelCopy(args.dst, args.src, args.count);
  return ACL_SUCCESS;
}
int32_t RunFill(void* payload) {
  const auto& args = *static_cast<FillArgs*>(payload);
  ParallelFill(args.dst, args.value, args.count);
  return ACL_SUCCESS;
}
int32_t RunCopy2d(void* payload) {
  const auto& a = *static_cast<Copy2dArgs*>(payload);
  ParallelCopy2d(a.dst, a.dst_pitch, a.src, a.src_pitch, a.width, a.height);
  return ACL_SUCCESS;
}

aclError CheckFill(const char* function, void* devPtr, size_t maxCount, size_t count) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'devPtr' is null", function);
  if (count > maxCount) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: count (%zu) is larger than maxCount (%zu)", function,
                count, maxCount);
  }
  if (count == 0) return ACL_SUCCESS;
  // Memset accepts device memory and pinned host memory.
  if (!MemoryRegistry::Get().Find(devPtr, count)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s: argument 'devPtr' [%p, +%zu bytes) is not inside a live allocation", function,
                devPtr, count);
  }
  return ACL_SUCCESS;
}

aclError CheckCopy2d(const char* function, void* dst, size_t dpitch, const void* src, size_t spitch,
                     size_t width, size_t height, aclrtMemcpyKind kind) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'dst' is null", function);
  if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'src' is null", function);
  if (width > dpitch || width > spitch) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s: width (%zu) must not exceed dpitch (%zu) or spitch (%zu)", function, width,
                dpitch, spitch);
  }
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
      kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_HOST_TO_HOST && kind != ACL_MEMCPY_DEFAULT) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: kind %d is not supported", function, static_cast<int>(kind));
  }
  if (width == 0 || height == 0) return ACL_SUCCESS;
  CopySides sides;
  CANOPY_RETURN_IF_ERROR(SidesOf(function, kind, dst, src, sides));
  const size_t dst_span = dpitch * (height - 1) + width;
  const size_t src_span = spitch * (height - 1) + width;
  CANOPY_RETURN_IF_ERROR(CheckSide(function, "dst", dst, dst_span, sides.dst_device));
  return CheckSide(function, "src", src, src_span, sides.src_device);
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return MallocDevice(__func__, devPtr, size, static_cast<int>(policy));
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return MallocDevice(__func__, devPtr, size, static_cast<int>(policy));
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return MallocDevice(__func__, devPtr, size, static_cast<int>(policy));
}

aclError aclrtFree(void* devPtr) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(devPtr);
  auto allocation = MemoryRegistry::Get().Remove(devPtr, MemoryKind::kDevice);
  if (!allocation) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtFree: %p is not the start of a live aclrtMalloc allocation (never allocated, "
                "already freed, or an interior pointer)",
                devPtr);
  }
  FreeBytes(devPtr, allocation->size);
  if (Device* device = Runtime::Get().device(allocation->device_id)) device->Unreserve(allocation->size);
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(hostPtr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: argument 'size' is 0");
  void* memory = AllocateBytes(size);
  if (memory == nullptr) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: the host could not provide %zu bytes", size);
  }
  MemoryRegistry::Get().Add({reinterpret_cast<uintptr_t>(memory), size, -1, MemoryKind::kHost});
  *hostPtr = memory;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(hostPtr);
  auto allocation = MemoryRegistry::Get().Remove(hostPtr, MemoryKind::kHost);
  if (!allocation) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtFreeHost: %p is not the start of a live aclrtMallocHost allocation", hostPtr);
  }
  FreeBytes(hostPtr, allocation->size);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  CANOPY_RETURN_IF_ERROR(CheckCopy(__func__, dst, destMax, src, count, kind));
  ParallelCopy(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  CANOPY_RETURN_IF_ERROR(CheckCopy(__func__, dst, destMax, src, count, kind));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  queue->Enqueue(Task::Compute("aclrtMemcpyAsync", RunCopy, CopyArgs{dst, src, count}));
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  CANOPY_RETURN_IF_ERROR(CheckFill(__func__, devPtr, maxCount, count));
  ParallelFill(devPtr, static_cast<uint8_t>(value), count);
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  CANOPY_RETURN_IF_ERROR(CheckFill(__func__, devPtr, maxCount, count));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  queue->Enqueue(Task::Compute("aclrtMemsetAsync", RunFill,
                               FillArgs{devPtr, count, static_cast<uint8_t>(value)}));
  return ACL_SUCCESS;
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind) {
  CANOPY_RETURN_IF_ERROR(CheckCopy2d(__func__, dst, dpitch, src, spitch, width, height, kind));
  ParallelCopy2d(dst, dpitch, src, spitch, width, height);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  CANOPY_RETURN_IF_ERROR(CheckCopy2d(__func__, dst, dpitch, src, spitch, width, height, kind));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  queue->Enqueue(Task::Compute("aclrtMemcpy2dAsync", RunCopy2d,
                               Copy2dArgs{dst, dpitch, src, spitch, width, height}));
  return ACL_SUCCESS;
}

}  // extern "C"
