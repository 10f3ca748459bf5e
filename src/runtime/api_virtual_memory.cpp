// The virtual-memory API, for real: a reservation is PROT_NONE address space,
// a physical allocation is a memfd counted against device memory, and mapping
// puts the memfd's pages into the reservation with MAP_FIXED.
#include <sys/mman.h>
#include <unistd.h>

#include <limits>
#include <map>
#include <mutex>

#include "after_queued_work.h"
#include "api_common.h"
#include "common/c_boundary.h"
#include "memory_registry.h"

using namespace canopy::runtime;

namespace {

// Mapping granularity (huge-page sized, as on the NPU).
constexpr size_t kGranularity = size_t{2} << 20;

struct PhysicalAllocation {
  int fd = -1;
  size_t size = 0;
  int32_t device_id = -1;  // -1: host memory, not counted against a device
  uint32_t epoch = 0;      // Runtime::epoch() at allocation
  int mappings = 0;
  bool freed = false;  // aclrtFreePhysical came while mapped: release at the last unmap
};

// Gives the memory back: closes the memfd and returns the bytes to the device.
void ReleasePhysical(PhysicalAllocation* physical) {
  close(physical->fd);
  if (physical->device_id >= 0 && physical->epoch == Runtime::Get().epoch()) {
    if (const auto device = Runtime::Get().device(physical->device_id)) device->Unreserve(physical->size);
  }
  delete physical;
}

// Physical memory properties CANN accepts; DDR attributes only for host locations.
aclError CheckPhysicalProp(const aclrtPhysicalMemProp& prop) {
  if (prop.handleType != ACL_MEM_HANDLE_TYPE_NONE) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: prop->handleType (%d) must be ACL_MEM_HANDLE_TYPE_NONE",
                static_cast<int>(prop.handleType));
  }
  if (prop.allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMallocPhysical: prop->allocationType (%d) must be ACL_MEM_ALLOCATION_TYPE_PINNED",
                static_cast<int>(prop.allocationType));
  }
  const auto type = prop.location.type;
  if (type != ACL_MEM_LOCATION_TYPE_DEVICE && type != ACL_MEM_LOCATION_TYPE_HOST &&
      type != ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMallocPhysical: prop->location.type (%d) must be HOST, DEVICE or HOST_NUMA",
                static_cast<int>(type));
  }
  bool device_attr = false, host_attr = false;
  switch (prop.memAttr) {
    case ACL_MEM_NORMAL:
    case ACL_MEM_HUGE:
    case ACL_MEM_HUGE1G:
    case ACL_MEM_P2P_NORMAL:
    case ACL_MEM_P2P_HUGE:
    case ACL_MEM_P2P_HUGE1G:
      device_attr = host_attr = true;
      break;
    case ACL_HBM_MEM_HUGE:
    case ACL_HBM_MEM_NORMAL:
    case ACL_HBM_MEM_HUGE1G:
      device_attr = true;
      break;
    case ACL_DDR_MEM_HUGE:
    case ACL_DDR_MEM_NORMAL:
    case ACL_DDR_MEM_P2P_HUGE:
    case ACL_DDR_MEM_P2P_NORMAL:
      host_attr = true;
      break;
    default:
      break;
  }
  const bool on_device = type == ACL_MEM_LOCATION_TYPE_DEVICE;
  if (on_device ? device_attr : host_attr) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: prop->memAttr (%d) is not supported for a %s location",
              static_cast<int>(prop.memAttr), on_device ? "device" : "host");
}

void* MapNone(void* at, size_t size, bool fixed) {
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (fixed ? MAP_FIXED : 0);
  void* p = mmap(at, size, PROT_NONE, flags, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

struct Reservation {
  size_t size = 0;
  std::map<uintptr_t, std::pair<size_t, PhysicalAllocation*>> mappings;  // base -> (size, physical)
};

class VirtualMemory {
 public:
  static VirtualMemory& Get() {
    static auto* vm = new VirtualMemory();
    return *vm;
  }
  std::mutex mutex;
  std::map<uintptr_t, Reservation> reservations;  // base -> reservation
  std::map<const void*, PhysicalAllocation*> physicals;
  // Ranges unmapped while queued work may still touch them: they keep their
  // pages until that work has passed (Reprotect). The token tells a later unmap
  // of the same granules from this one.
  struct PendingUnmap {
    size_t size;
    uint64_t token;
  };
  std::map<uintptr_t, PendingUnmap> pending_unmaps;  // base -> pending
  uint64_t next_token = 0;

  // The reservation containing [address, address + size), or nullptr.
  Reservation* Containing(uintptr_t address, size_t size, uintptr_t& base) {
    auto it = reservations.upper_bound(address);
    if (it == reservations.begin()) return nullptr;
    --it;
    if (address - it->first > it->second.size || size > it->second.size - (address - it->first)) {
      return nullptr;
    }
    base = it->first;
    return &it->second;
  }

  // The deferred half of aclrtUnmapMem: makes [address, address + size) reserved,
  // inaccessible address space again, except granules mapped anew since or
  // unmapped again later (whose own re-protection is still to come). Nothing when
  // the reservation has been released (its deferred munmap covers the range).
  void Reprotect(uintptr_t address, uint64_t token) {
    std::lock_guard lock(mutex);
    const auto pending = pending_unmaps.find(address);
    if (pending == pending_unmaps.end() || pending->second.token != token) return;
    const size_t size = pending->second.size;
    pending_unmaps.erase(pending);
    uintptr_t base = 0;
    Reservation* reservation = Containing(address, size, base);
    if (reservation == nullptr) return;
    const auto keep = [&](uintptr_t granule) {
      auto mapping = reservation->mappings.upper_bound(granule);
      if (mapping != reservation->mappings.begin() &&
          granule < std::prev(mapping)->first + std::prev(mapping)->second.first) {
        return true;
      }
      for (const auto& [other, later] : pending_unmaps) {
        if (later.token > token && other <= granule && granule < other + later.size) return true;
      }
      return false;
    };
    uintptr_t run_begin = 0;
    size_t run_bytes = 0;
    for (uintptr_t granule = address; granule < address + size; granule += kGranularity) {
      if (!keep(granule)) {
        if (run_bytes == 0) run_begin = granule;
        run_bytes += kGranularity;
        continue;
      }
      if (run_bytes > 0) MapNone(reinterpret_cast<void*>(run_begin), run_bytes, true);
      run_bytes = 0;
    }
    if (run_bytes > 0) MapNone(reinterpret_cast<void*>(run_begin), run_bytes, true);
  }
};

bool IsMultipleOfGranularity(size_t value) { return value % kGranularity == 0; }

}  // namespace

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                                          size_t* granularity) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(prop);
  CANOPY_REQUIRE_NOT_NULL(granularity);
  if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity: option %d is not valid",
                static_cast<int>(option));
  }
  *granularity = kGranularity;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(virPtr);
  // Flags are reserved: 0, or 1 which CANN tolerates for compatibility.
  if (flags > 1) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: argument 'flags' (%llu) must be 0",
                static_cast<unsigned long long>(flags));
  }
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: argument 'size' is 0");
  const size_t align = alignment == 0 ? kGranularity : alignment;
  if ((align & (align - 1)) != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtReserveMemAddress: argument 'alignment' (%zu) must be 0 or a power of two", alignment);
  }
  // Any size is accepted (llama.cpp reserves the free memory, in bytes); the
  // range is rounded up to whole granules, the unit of mapping.
  if (size > std::numeric_limits<size_t>::max() - kGranularity - align) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtReserveMemAddress: cannot reserve %zu bytes", size);
  }
  size = (size + kGranularity - 1) / kGranularity * kGranularity;
  // Over-reserve, then trim to the requested alignment.
  void* raw = MapNone(expectPtr, size + align, false);
  if (raw == nullptr) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtReserveMemAddress: cannot reserve %zu bytes", size);
  }
  const auto raw_base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t base = (raw_base + align - 1) & ~(uintptr_t{align} - 1);
  if (base > raw_base) munmap(raw, base - raw_base);
  const uintptr_t tail = base + size;
  if (raw_base + size + align > tail) munmap(reinterpret_cast<void*>(tail), raw_base + size + align - tail);
  VirtualMemory& vm = VirtualMemory::Get();
  std::lock_guard lock(vm.mutex);
  vm.reservations[base] = Reservation{size, {}};
  *virPtr = reinterpret_cast<void*>(base);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtReleaseMemAddress(void* virPtr) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(virPtr);
  VirtualMemory& vm = VirtualMemory::Get();
  const auto base = reinterpret_cast<uintptr_t>(virPtr);
  size_t size = 0;
  {
    std::lock_guard lock(vm.mutex);
    auto it = vm.reservations.find(base);
    if (it == vm.reservations.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress: %p is not a reserved address", virPtr);
    }
    if (!it->second.mappings.empty()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtReleaseMemAddress: %zu mapping(s) are still inside the range; unmap them first",
                  it->second.mappings.size());
    }
    size = it->second.size;
    vm.reservations.erase(it);
    // The range's pending re-protections are moot: the deferred munmap below covers them.
    std::erase_if(vm.pending_unmaps,
                  [&](const auto& entry) { return entry.first >= base && entry.first < base + size; });
  }
  // Work queued before an unmap may still use the old pages: the address space
  // (and so no new reservation at it) is given back only after that work.
  RunAfterQueuedWork(__func__, [virPtr, size] { munmap(virPtr, size); });
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
                             uint64_t flags) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(handle);
  CANOPY_REQUIRE_NOT_NULL(prop);
  if (flags != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: argument 'flags' (%llu) must be 0",
                static_cast<unsigned long long>(flags));
  }
  if (size == 0 || !IsMultipleOfGranularity(size)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMallocPhysical: argument 'size' (%zu) must be a non-zero multiple of the "
                "granularity (%zu)",
                size, kGranularity);
  }
  CANOPY_RETURN_IF_ERROR(CheckPhysicalProp(*prop));
  std::shared_ptr<Device> device;
  if (prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
    const auto device_id = static_cast<int32_t>(prop->location.id);
    device = Runtime::Get().device(device_id);
    if (device == nullptr) {
      return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtMallocPhysical: prop->location.id (%d) is not a device",
                  device_id);
    }
    if (!device->Reserve(size)) {
      return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                  "aclrtMallocPhysical: out of device memory: %zu bytes requested, %zu free on "
                  "device %d",
                  size, device->total_memory() - device->used_memory(), device_id);
    }
  }
  const int fd = memfd_create("canopy-physical", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    if (fd >= 0) close(fd);
    if (device != nullptr) device->Unreserve(size);
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocPhysical: the host could not provide %zu bytes", size);
  }
  auto* physical =
      new PhysicalAllocation{fd, size, device != nullptr ? device->id() : -1, Runtime::Get().epoch(), 0, false};
  VirtualMemory& vm = VirtualMemory::Get();
  std::lock_guard lock(vm.mutex);
  vm.physicals[physical] = physical;
  *handle = physical;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(handle);
  VirtualMemory& vm = VirtualMemory::Get();
  std::lock_guard lock(vm.mutex);
  auto it = vm.physicals.find(handle);
  if (it == vm.physicals.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical: argument 'handle' (%p) is not a live physical allocation",
                handle);
  }
  PhysicalAllocation* physical = it->second;
  vm.physicals.erase(it);
  // Still mapped: CANN releases the memory when the last mapping goes.
  if (physical->mappings > 0) {
    physical->freed = true;
  } else {
    ReleasePhysical(physical);
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(virPtr);
  CANOPY_REQUIRE_NOT_NULL(handle);
  if (flags != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: argument 'flags' (%llu) must be 0",
                static_cast<unsigned long long>(flags));
  }
  VirtualMemory& vm = VirtualMemory::Get();
  std::lock_guard lock(vm.mutex);
  auto physical_it = vm.physicals.find(handle);
  if (physical_it == vm.physicals.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: handle %p is not a live physical allocation", handle);
  }
  PhysicalAllocation* physical = physical_it->second;
  // CANN maps a physical allocation whole: offset 0, size equal to its size.
  if (offset != 0 || size != physical->size) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMapMem: arguments 'size' (%zu) and 'offset' (%zu) must be the physical "
                "allocation's size (%zu) and 0",
                size, offset, physical->size);
  }
  const auto address = reinterpret_cast<uintptr_t>(virPtr);
  uintptr_t base = 0;
  Reservation* reservation = vm.Containing(address, size, base);
  if (reservation == nullptr || (address - base) % kGranularity != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMapMem: [%p, +%zu) is not a granularity-aligned range inside one reservation", virPtr, size);
  }
  auto next = reservation->mappings.lower_bound(address);
  const bool overlaps_next = next != reservation->mappings.end() && next->first < address + size;
  bool overlaps_previous = false;
  if (next != reservation->mappings.begin()) {
    auto previous = std::prev(next);
    overlaps_previous = previous->first + previous->second.first > address;
  }
  if (overlaps_next || overlaps_previous) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMapMem: [%p, +%zu) overlaps an existing mapping", virPtr, size);
  }
  void* mapped =
      mmap(virPtr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, physical->fd, static_cast<off_t>(offset));
  if (mapped == MAP_FAILED) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMapMem: mapping [%p, +%zu) failed", virPtr, size);
  }
  reservation->mappings[address] = {size, physical};
  ++physical->mappings;
  MemoryRegistry::Get().Add({address, size, physical->device_id, MemoryKind::kMapped, physical->epoch});
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtUnmapMem(void* virPtr) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(virPtr);
  VirtualMemory& vm = VirtualMemory::Get();
  const auto address = reinterpret_cast<uintptr_t>(virPtr);
  uint64_t token = 0;
  {
    std::lock_guard lock(vm.mutex);
    uintptr_t base = 0;
    Reservation* reservation = vm.Containing(address, 1, base);
    auto it = reservation != nullptr ? reservation->mappings.find(address) : decltype(reservation->mappings.end()){};
    if (reservation == nullptr || it == reservation->mappings.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem: %p is not the start of a mapping", virPtr);
    }
    const auto [size, physical] = it->second;
    MemoryRegistry::Get().Remove(virPtr, MemoryKind::kMapped);
    reservation->mappings.erase(it);
    token = ++vm.next_token;
    vm.pending_unmaps[address] = {size, token};
    // Closing the memfd now is safe: the pages stay until the range is re-protected.
    if (--physical->mappings == 0 && physical->freed) ReleasePhysical(physical);
  }
  // Queued work may still touch the range, and re-protecting it would make that
  // work fault: as aclrtFree, defer it until the work has passed, waiting for nothing.
  RunAfterQueuedWork(__func__, [address, token] { VirtualMemory::Get().Reprotect(address, token); });
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
