// Device and pinned host memory, copies and fills, synchronous and queued.
#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

#include "after_queued_work.h"
#include "api_common.h"
#include "caching_allocator.h"
#include "checker.h"
#include "common/c_boundary.h"
#include "copy_kernels.h"
#include "engine.h"
#include "memory_registry.h"

using namespace canopy::runtime;

namespace {

// Device memory is at least this aligned. CANN documents 64 bytes, but real
// devices hand out far coarser addresses and clients size their buffers on that
// (ggml-cann assumes 128): 512 covers them and every AVX-512 / AMX access.
constexpr size_t kDeviceAlignment = 512;
// Large blocks come straight from mmap: page aligned, zero-filled lazily, returned on free.
constexpr size_t kMmapThreshold = size_t{256} << 10;
// aclrtMemcpy2d limits from CANN's documentation.
constexpr size_t kMaxCopy2dWidth = 5000000;
constexpr size_t kMaxCopy2dHeight = size_t{5} << 20;

// CANN's size rounding: aclrtMalloc rounds the size up to a multiple of 32 bytes
// and adds 32, aclrtMallocAlign32 only rounds up. The padding is part of the
// allocation (accounted, registered, addressable), so a client that overruns its
// request by a few bytes behaves as on hardware. 0 when the size overflows.
enum class SizeRounding : uint8_t { kAlignUpPlus32, kAlignUp };
size_t RoundedAllocationSize(size_t size, SizeRounding rounding) {
  constexpr size_t kGranule = 32;
  const size_t extra = rounding == SizeRounding::kAlignUpPlus32 ? kGranule : 0;
  if (size > std::numeric_limits<size_t>::max() - kGranule - extra) return 0;
  return (size + kGranule - 1) / kGranule * kGranule + extra;
}

void* AllocateBytes(size_t size) {
  if (size >= kMmapThreshold) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    // Transparent huge pages where the system leaves them to madvise (Debian's
    // default): oneDNN's AMX and AVX-512 kernels streaming operands of tens of
    // MiB ran 8-20 % slower on 4 KiB pages (TLB misses; docs/perf.md, "Matmul
    // on AMX"). Only advice: a system without THP ignores it.
    madvise(p, size, MADV_HUGEPAGE);
    return p;
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

// aclrtFree does not wait for the device (CANN frees at once and so do we, as
// far as the client can tell). Work already queued may still touch the block,
// so the bytes go back to the system only once that work has passed the free.
void FreeAfterQueuedWork(const char* function, void* memory, size_t size) {
  RunAfterQueuedWork(function, [memory, size] { FreeBytes(memory, size); });
}

// ---- Allocation ---------------------------------------------------------------

// A synchronous copy or fill: on the current device's engine and its OpenMP
// team when a device is set (the caller's thread forks no team of its own:
// src/runtime/compute_team.h), else on the caller's thread alone.
void RunOnCurrentDevice(const std::function<void()>& work) {
  const auto context = Runtime::Get().current_context();
  if (context == nullptr) {
    work();
    return;
  }
  context->device().engine().RunBetweenTasks(work);
}

std::shared_ptr<Device> CurrentDevice(const char* function, aclError& status) {
  const auto context = Runtime::Get().current_context();
  if (context == nullptr) {
    status = Fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: no device is set on this thread (call aclrtSetDevice)", function);
    return nullptr;
  }
  status = ACL_SUCCESS;
  return context->shared_device();
}

// Every aclrtMemMallocPolicy value is accepted: CANN treats unknown ones as the default.
aclError MallocDevice(const char* function, void** devPtr, size_t requested, SizeRounding rounding) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'devPtr' is null", function);
  if (requested == 0) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", function);
  const size_t size = RoundedAllocationSize(requested, rounding);
  if (size == 0) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: argument 'size' (%zu) is too large", function, requested);
  }
  aclError status;
  const auto device = CurrentDevice(function, status);
  if (device == nullptr) return status;
  if (!device->Reserve(size)) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "%s: out of device memory: %zu bytes requested, %zu of %zu bytes free on device %d", function, size,
                device->total_memory() - device->used_memory(), device->total_memory(), device->id());
  }
  void* memory = AllocateBytes(size);
  if (memory == nullptr) {
    device->Unreserve(size);
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the host could not provide %zu bytes", function, size);
  }
  MemoryRegistry::Get().Add(
      {reinterpret_cast<uintptr_t>(memory), size, device->id(), MemoryKind::kDevice, Runtime::Get().epoch()});
  *devPtr = memory;
  return ACL_SUCCESS;
}

// ---- Copies -----------------------------------------------------------------

enum class Side : uint8_t {
  kDevice,      // inside a live device allocation (aclrtMalloc or a mapped range)
  kPinnedHost,  // inside an aclrtMallocHost allocation
  kPageable,    // any other host memory
};

Side SideOf(const void* pointer, size_t bytes) {
  const MemoryRegistry& registry = MemoryRegistry::Get();
  if (registry.IsDeviceRange(pointer, bytes)) return Side::kDevice;
  if (registry.IsPinnedHostRange(pointer, bytes)) return Side::kPinnedHost;
  return Side::kPageable;
}

struct CopyPlan {
  Side dst = Side::kPageable;
  Side src = Side::kPageable;
  bool host_to_host = false;  // neither side is device memory
  bool pageable() const { return dst == Side::kPageable || src == Side::kPageable; }
};

// Checker mode: the device sides of a queued copy, read and written.
aclError CheckQueuedCopy(const char* function, const std::shared_ptr<Stream>& stream, const CopyPlan& plan, void* dst,
                         size_t dst_span, const void* src, size_t src_span) {
  if (!Checker::Enabled()) return ACL_SUCCESS;
  MemoryAccess accesses[2];
  size_t count = 0;
  // Pinned host sides too: a replay of a captured copy must find them still allocated.
  if (plan.src != Side::kPageable) {
    accesses[count++] = {reinterpret_cast<uintptr_t>(src), src_span, false, "src", plan.src == Side::kPinnedHost};
  }
  if (plan.dst != Side::kPageable) {
    accesses[count++] = {reinterpret_cast<uintptr_t>(dst), dst_span, true, "dst", plan.dst == Side::kPinnedHost};
  }
  return Checker::Get().CheckTask(function, function, stream, accesses, count);
}

aclError CheckDeviceSide(const char* function, const char* argument, const void* pointer, size_t span, Side side) {
  if (side == Side::kDevice) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' [%p, +%zu bytes) is not inside a live device allocation",
              function, argument, pointer, span);
}

// A range that starts inside a live device or aclrtMallocHost block and runs
// past its end is an error whatever `kind` says: taken for pageable host memory,
// it would be copied past the block.
aclError CheckNotOverrunning(const char* function, const char* argument, const void* pointer, size_t span, Side side) {
  if (side != Side::kPageable || SideOf(pointer, 1) == Side::kPageable) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM,
              "%s: argument '%s' [%p, +%zu bytes) starts inside a live allocation and runs past its end", function,
              argument, pointer, span);
}

// Works out where each side lives and checks that the sides `kind` names as
// device memory are: a device pointer outside every live allocation is an error.
aclError PlanCopy(const char* function, aclrtMemcpyKind kind, void* dst, size_t dst_span, const void* src,
                  size_t src_span, bool allow_buffered, CopyPlan& plan) {
  plan.dst = SideOf(dst, dst_span);
  plan.src = SideOf(src, src_span);
  CANOPY_RETURN_IF_ERROR(CheckNotOverrunning(function, "dst", dst, dst_span, plan.dst));
  CANOPY_RETURN_IF_ERROR(CheckNotOverrunning(function, "src", src, src_span, plan.src));
  bool dst_device = false, src_device = false;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      break;
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      if (!allow_buffered) {
        return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%d) is not supported here", function,
                    static_cast<int>(kind));
      }
      dst_device = true;
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      dst_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      src_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      dst_device = src_device = true;
      break;
    case ACL_MEMCPY_DEFAULT:  // the direction follows from the addresses, as with unified addressing
      dst_device = plan.dst == Side::kDevice;
      src_device = plan.src == Side::kDevice;
      break;
    default:
      return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%d) is not a supported aclrtMemcpyKind", function,
                  static_cast<int>(kind));
  }
  if (dst_device) CANOPY_RETURN_IF_ERROR(CheckDeviceSide(function, "dst", dst, dst_span, plan.dst));
  if (src_device) CANOPY_RETURN_IF_ERROR(CheckDeviceSide(function, "src", src, src_span, plan.src));
  plan.host_to_host = !dst_device && !src_device;
  return ACL_SUCCESS;
}

// Shared checks of aclrtMemcpy and aclrtMemcpyAsync. `skip` is set when there is nothing to do.
aclError CheckCopy(const char* function, void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                   CopyPlan& plan, bool& skip) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  skip = count == 0;  // CANN returns at once, whatever the pointers
  if (skip) return ACL_SUCCESS;
  if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'dst' is null", function);
  if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'src' is null", function);
  if (count > destMax) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%zu) is larger than 'destMax' (%zu)", function,
                count, destMax);
  }
  CANOPY_RETURN_IF_ERROR(PlanCopy(function, kind, dst, count, src, count, /*allow_buffered=*/true, plan));
  skip = dst == src;
  return ACL_SUCCESS;
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
// A staged copy owns its source buffer.
void FreeStagedSource(void* payload) { std::free(const_cast<void*>(static_cast<CopyArgs*>(payload)->src)); }
int32_t RunFill(void* payload) {
  const auto& args = *static_cast<FillArgs*>(payload);
  ParallelFill(args.dst, args.value, args.count);
  return ACL_SUCCESS;
}
struct Fill32Args {
  void* dst;
  size_t count;  // 32-bit values
  uint32_t value;
};
int32_t RunFill32(void* payload) {
  const auto& args = *static_cast<Fill32Args*>(payload);
  auto* bytes = static_cast<unsigned char*>(args.dst);
  for (size_t i = 0; i < args.count; ++i) std::memcpy(bytes + i * sizeof(uint32_t), &args.value, sizeof(uint32_t));
  return ACL_SUCCESS;
}
int32_t RunCopy2d(void* payload) {
  const auto& a = *static_cast<Copy2dArgs*>(payload);
  ParallelCopy2d(a.dst, a.dst_pitch, a.src, a.src_pitch, a.width, a.height);
  return ACL_SUCCESS;
}

// Queued copies with pageable host memory cannot run later (the client may
// reuse the memory at once), so, as CANN does, they wait for the stream and
// copy before returning.
aclError DrainForPageableCopy(const char* function, Stream& stream) {
  // CANN's capture modes restrict these as they restrict aclrtMemcpy ("unsafe functions").
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckUnsafeCallAllowed(function));
  CANOPY_RETURN_IF_ERROR(CheckMayWait(function, stream));
  stream.Synchronize(-1, /*consume_error=*/false);  // failures stay for the next synchronisation
  return ACL_SUCCESS;
}

aclError CheckAsyncHostToHost(const char* function, const CopyPlan& plan) {
  if (!plan.host_to_host) return ACL_SUCCESS;
  return Fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a queued host-to-host copy is not supported; use aclrtMemcpy",
              function);
}

// ---- Fills ------------------------------------------------------------------

aclError CheckFill(const char* function, void* devPtr, size_t maxCount, size_t count, bool& skip) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  skip = count == 0;
  if (skip) return ACL_SUCCESS;
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'devPtr' is null", function);
  if (count > maxCount) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%zu) is larger than 'maxCount' (%zu)", function,
                count, maxCount);
  }
  // Memset accepts device memory and pinned host memory.
  if (SideOf(devPtr, count) == Side::kPageable) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s: argument 'devPtr' [%p, +%zu bytes) is not inside a live device or "
                "aclrtMallocHost allocation",
                function, devPtr, count);
  }
  return ACL_SUCCESS;
}

// aclrtMemsetD32: `count` 32-bit values, checked as the bytes they cover.
aclError CheckFill32(const char* function, void* ptr, size_t memSize, size_t count, bool& skip) {
  if (count > SIZE_MAX / sizeof(uint32_t)) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'N' (%zu) is too large", function, count);
  }
  return CheckFill(function, ptr, memSize, count * sizeof(uint32_t), skip);
}

// ---- 2-D copies ---------------------------------------------------------------

aclError CheckCopy2d(const char* function, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                     size_t height, aclrtMemcpyKind kind, CopyPlan& plan, bool& skip) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  skip = width == 0 || height == 0;
  if (skip) return ACL_SUCCESS;
  if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'dst' is null", function);
  if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'src' is null", function);
  if (width > dpitch || width > spitch) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'width' (%zu) exceeds 'dpitch' (%zu) or 'spitch' (%zu)",
                function, width, dpitch, spitch);
  }
  if (width > kMaxCopy2dWidth || height > kMaxCopy2dHeight) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "%s: width %zu x height %zu exceeds the limits (%zu x %zu)", function,
                width, height, kMaxCopy2dWidth, kMaxCopy2dHeight);
  }
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
      kind != ACL_MEMCPY_DEFAULT) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s: argument 'kind' (%d) must be HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE or "
                "DEFAULT",
                function, static_cast<int>(kind));
  }
  size_t dst_span, src_span;
  if (__builtin_mul_overflow(dpitch, height - 1, &dst_span) || __builtin_add_overflow(dst_span, width, &dst_span) ||
      __builtin_mul_overflow(spitch, height - 1, &src_span) || __builtin_add_overflow(src_span, width, &src_span)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s: pitch x height overflows the address space", function);
  }
  return PlanCopy(function, kind, dst, dst_span, src, src_span, /*allow_buffered=*/false, plan);
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/) try {
  return MallocDevice(__func__, devPtr, size, SizeRounding::kAlignUpPlus32);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/) try {
  return MallocDevice(__func__, devPtr, size, SizeRounding::kAlignUp);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/) try {
  return MallocDevice(__func__, devPtr, size, SizeRounding::kAlignUpPlus32);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFree(void* devPtr) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(devPtr);
  if (CachingAllocator::Get().Owns(devPtr)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtFree: argument 'devPtr' (%p) belongs to the stream-ordered pool; release it with "
                "canopyFreeAsync",
                devPtr);
  }
  if (Checker::Enabled()) {
    if (auto live = MemoryRegistry::Get().Find(devPtr, 1); live && live->base == reinterpret_cast<uintptr_t>(devPtr)) {
      CANOPY_RETURN_IF_ERROR(Checker::Get().CheckFree(__func__, live->base, live->size));
    }
  }
  auto allocation = MemoryRegistry::Get().Remove(devPtr, MemoryKind::kDevice);
  if (!allocation) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtFree: argument 'devPtr' (%p) is not the start of a live aclrtMalloc allocation "
                "(never allocated, already freed, or an interior pointer)",
                devPtr);
  }
  if (allocation->epoch == Runtime::Get().epoch()) {
    if (const auto device = Runtime::Get().device(allocation->device_id)) device->Unreserve(allocation->size);
  }
  FreeAfterQueuedWork(__func__, devPtr, allocation->size);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocHost(void** hostPtr, size_t size) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(hostPtr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: argument 'size' is 0");
  void* memory = AllocateBytes(size);
  if (memory == nullptr) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: the host could not provide %zu bytes", size);
  }
  MemoryRegistry::Get().Add({reinterpret_cast<uintptr_t>(memory), size, -1, MemoryKind::kHost, Runtime::Get().epoch()});
  *hostPtr = memory;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFreeHost(void* hostPtr) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(hostPtr);
  auto allocation = MemoryRegistry::Get().Remove(hostPtr, MemoryKind::kHost);
  if (!allocation) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtFreeHost: argument 'hostPtr' (%p) is not the start of a live aclrtMallocHost "
                "allocation",
                hostPtr);
  }
  FreeAfterQueuedWork(__func__, hostPtr, allocation->size);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) try {
  // Synchronous copies and fills are "unsafe" while a capture forbids them.
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckUnsafeCallAllowed(__func__));
  CopyPlan plan;
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckCopy(__func__, dst, destMax, src, count, kind, plan, skip));
  if (!skip) RunOnCurrentDevice([&] { ParallelCopy(dst, src, count); });
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) try {
  CopyPlan plan;
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckCopy(__func__, dst, destMax, src, count, kind, plan, skip));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (skip) return ACL_SUCCESS;
  CANOPY_RETURN_IF_ERROR(CheckAsyncHostToHost(__func__, plan));
  if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
    // The host data is staged now, so the caller may reuse its buffer at once.
    void* staged = std::malloc(count);
    if (staged == nullptr) {
      return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMemcpyAsync: cannot stage %zu bytes", count);
    }
    std::memcpy(staged, src, count);
    Task task = Task::Compute("aclrtMemcpyAsync", RunCopy, CopyArgs{dst, staged, count}, FreeStagedSource);
    const aclError status = Submit(__func__, *queue, task);
    if (status != ACL_SUCCESS) std::free(staged);
    return status;
  }
  if (plan.pageable()) {
    CANOPY_RETURN_IF_ERROR(DrainForPageableCopy(__func__, *queue));
    queue->engine().RunBetweenTasks([&] { ParallelCopy(dst, src, count); });
    return ACL_SUCCESS;
  }
  CANOPY_RETURN_IF_ERROR(CheckQueuedCopy(__func__, queue, plan, dst, count, src, count));
  Task task = Task::Compute("aclrtMemcpyAsync", RunCopy, CopyArgs{dst, src, count});
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) try {
  // Synchronous copies and fills are "unsafe" while a capture forbids them.
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckUnsafeCallAllowed(__func__));
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckFill(__func__, devPtr, maxCount, count, skip));
  if (!skip) RunOnCurrentDevice([&] { ParallelFill(devPtr, static_cast<uint8_t>(value), count); });
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) try {
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckFill(__func__, devPtr, maxCount, count, skip));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (skip) return ACL_SUCCESS;
  if (Checker::Enabled()) {
    const MemoryAccess access{reinterpret_cast<uintptr_t>(devPtr), count, true, "devPtr", /*host_allowed=*/true};
    CANOPY_RETURN_IF_ERROR(Checker::Get().CheckTask(__func__, __func__, queue, &access, 1));
  }
  Task task = Task::Compute("aclrtMemsetAsync", RunFill, FillArgs{devPtr, count, static_cast<uint8_t>(value)});
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

// Fills N 32-bit values; memSize is the destination's capacity in bytes.
aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N) try {
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckUnsafeCallAllowed(__func__));
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckFill32(__func__, ptr, memSize, N, skip));
  if (!skip) {
    Fill32Args args{ptr, N, value};
    RunOnCurrentDevice([&] { RunFill32(&args); });
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream) try {
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckFill32(__func__, ptr, memSize, N, skip));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (skip) return ACL_SUCCESS;
  if (Checker::Enabled()) {
    const MemoryAccess access{reinterpret_cast<uintptr_t>(ptr), N * sizeof(uint32_t), true, "ptr",
                              /*host_allowed=*/true};
    CANOPY_RETURN_IF_ERROR(Checker::Get().CheckTask(__func__, __func__, queue, &access, 1));
  }
  Task task = Task::Compute("aclrtMemsetD32Async", RunFill32, Fill32Args{ptr, N, value});
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) try {
  // Synchronous copies and fills are "unsafe" while a capture forbids them.
  CANOPY_RETURN_IF_ERROR(CaptureRegistry::Get().CheckUnsafeCallAllowed(__func__));
  CopyPlan plan;
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckCopy2d(__func__, dst, dpitch, src, spitch, width, height, kind, plan, skip));
  if (!skip) RunOnCurrentDevice([&] { ParallelCopy2d(dst, dpitch, src, spitch, width, height); });
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) try {
  CopyPlan plan;
  bool skip;
  CANOPY_RETURN_IF_ERROR(CheckCopy2d(__func__, dst, dpitch, src, spitch, width, height, kind, plan, skip));
  std::shared_ptr<Stream> queue;
  CANOPY_RETURN_IF_ERROR(ResolveStream(__func__, stream, queue));
  if (skip) return ACL_SUCCESS;
  CANOPY_RETURN_IF_ERROR(CheckAsyncHostToHost(__func__, plan));
  if (plan.pageable()) {
    CANOPY_RETURN_IF_ERROR(DrainForPageableCopy(__func__, *queue));
    queue->engine().RunBetweenTasks([&] { ParallelCopy2d(dst, dpitch, src, spitch, width, height); });
    return ACL_SUCCESS;
  }
  CANOPY_RETURN_IF_ERROR(
      CheckQueuedCopy(__func__, queue, plan, dst, dpitch * (height - 1) + width, src, spitch * (height - 1) + width));
  Task task = Task::Compute("aclrtMemcpy2dAsync", RunCopy2d, Copy2dArgs{dst, dpitch, src, spitch, width, height});
  return Submit(__func__, *queue, task);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
