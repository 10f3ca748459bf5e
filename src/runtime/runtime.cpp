#include "runtime.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <utility>

#include "caching_allocator.h"
#include "capture.h"
#include "checker.h"
#include "engine.h"
#include "error_message.h"
#include "event.h"
#include "host_callback_pool.h"
#include "stream.h"
#include "trace.h"

namespace canopy::runtime {
namespace {

// Parses "123", "64M", "16G" into bytes; 0 when malformed.
size_t ParseBytes(const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text) return 0;
  switch (*end) {
    case 'k':
    case 'K':
      return value << 10;
    case 'm':
    case 'M':
      return value << 20;
    case 'g':
    case 'G':
      return value << 30;
    case '\0':
      return value;
    default:
      return 0;
  }
}

size_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return size_t{8} << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size);
}

}  // namespace

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

RuntimeConfig RuntimeConfig::FromEnvironment() {
  // A device may use three quarters of the machine's memory unless told otherwise.
  constexpr size_t kDefaultShareNumerator = 3, kDefaultShareDenominator = 4;
  constexpr int32_t kMaxDevices = 64;
  RuntimeConfig config;
  if (const char* count = std::getenv("CANOPY_DEVICE_COUNT")) {
    config.device_count = std::clamp(std::atoi(count), 1, kMaxDevices);
  }
  if (const char* soc = std::getenv("CANOPY_SOC_NAME"); soc != nullptr && *soc != '\0') {
    config.soc_name = soc;
  }
  config.device_memory = PhysicalMemoryBytes() / kDefaultShareDenominator * kDefaultShareNumerator;
  if (const char* memory = std::getenv("CANOPY_DEVICE_MEMORY")) {
    if (size_t bytes = ParseBytes(memory); bytes > 0) config.device_memory = bytes;
  }
  return config;
}

// ---- Device ----------------------------------------------------------------

bool Device::Reserve(size_t bytes) {
  size_t used = used_memory_.load(std::memory_order_relaxed);
  do {
    if (bytes > total_memory_ - used) return false;
  } while (!used_memory_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void Device::Unreserve(size_t bytes) {
  // Never below zero, whatever a client frees.
  size_t used = used_memory_.load(std::memory_order_relaxed);
  size_t next;
  do {
    next = used >= bytes ? used - bytes : 0;
  } while (!used_memory_.compare_exchange_weak(used, next, std::memory_order_relaxed));
}

Device::Device(int32_t id, size_t total_memory)
    : id_(id), total_memory_(total_memory), engine_(std::make_shared<Engine>(id)) {}

Device::~Device() = default;

// ---- Context ---------------------------------------------------------------

Context::Context(std::shared_ptr<Device> device, bool primary, aclrtContext handle)
    : device_(std::move(device)), primary_(primary), handle_(handle) {
  default_stream_ = CreateStream(0, 0);
}

Context::~Context() = default;  // Teardown released the streams

void Context::Teardown() {
  std::vector<std::shared_ptr<Stream>> all;
  {
    std::lock_guard lock(mutex_);
    torn_down_ = true;
    all = streams_;
  }
  for (const auto& stream : all) {
    Runtime::Get().UnregisterStream(*stream);
    // Closed before its capture is forgotten: a call that resolved the stream
    // earlier and finds no capture any more is refused, not run eagerly.
    stream->Close();
    CaptureRegistry::Get().ForgetStream(*stream);
  }
  // Drain every stream before removing any: one may wait on another's event.
  for (const auto& stream : all) stream->Synchronize(-1, /*consume_error=*/false);
  for (const auto& stream : all) device_->engine().RemoveStream(stream.get());
  std::lock_guard lock(mutex_);
  streams_.clear();  // the default stream stays referenced: calls holding the context may still read it
}

void Context::SetSysParam(int opt, int64_t value) {
  std::lock_guard lock(mutex_);
  sys_params_[opt] = value;
}

bool Context::GetSysParam(int opt, int64_t& value) const {
  std::lock_guard lock(mutex_);
  if (!sys_params_[opt]) return false;
  value = *sys_params_[opt];
  return true;
}

std::vector<std::shared_ptr<Stream>> Context::streams() const {
  std::lock_guard lock(mutex_);
  return streams_;
}

std::shared_ptr<Stream> Context::CreateStream(uint32_t flags, uint32_t priority) {
  auto stream = std::make_shared<Stream>(device_->shared_engine(), this, device_->id(), flags, priority);
  // Complete (handle set, registered, on the engine) before Teardown can see it
  // in streams_: Teardown unregisters, closes and drains what it finds there.
  device_->engine().AddStream(stream);
  Runtime::Get().RegisterStream(stream);
  {
    std::lock_guard lock(mutex_);
    if (!torn_down_) {
      streams_.push_back(stream);
      return stream;
    }
  }
  // Teardown took its list of streams already: this one would never be drained.
  // Nobody has its handle yet; take it back.
  Runtime::Get().UnregisterStream(*stream);
  stream->Close();
  device_->engine().RemoveStream(stream.get());
  return nullptr;
}

bool Context::DestroyStream(const std::shared_ptr<Stream>& stream, bool discard_pending) {
  if (!Runtime::Get().UnregisterStream(*stream)) return false;
  stream->Close();  // before the capture is forgotten, as in Teardown
  CaptureRegistry::Get().ForgetStream(*stream);
  if (discard_pending) {
    // A task already running keeps the stream object alive until it returns;
    // device synchronisations wait for it. With none running, what the dropped
    // tasks own is released now rather than whenever the last owner (the engine's
    // snapshot of its streams, a report subscription) lets go of the stream.
    stream->DiscardPending();
    if (stream->Idle()) {
      stream->ReleaseDiscarded();
    } else {
      Runtime::Get().RetireStream(stream);
    }
  } else {
    stream->Synchronize(-1, /*consume_error=*/false);
  }
  device_->engine().RemoveStream(stream.get());
  std::lock_guard lock(mutex_);
  std::erase_if(streams_, [&](const auto& s) { return s == stream; });
  return true;
}

// ---- Runtime ---------------------------------------------------------------

namespace {
// The thread's current context and its handle: a context created later at the
// same address is not mistaken for a destroyed one.
struct CurrentContext {
  Context* context = nullptr;
  aclrtContext handle = nullptr;
};
// Handles look like pointers but are not canonical x86-64 addresses, so a
// client that dereferences one faults at once instead of reading garbage.
constexpr uintptr_t kHandleBase = uintptr_t{0xca} << 48;
constexpr uintptr_t kHandleStride = 16;
thread_local CurrentContext thread_current;
}  // namespace

Runtime& Runtime::Get() {
  static auto* runtime = new Runtime();  // never destroyed: threads may outlive main()
  return *runtime;
}

aclError Runtime::Initialize(bool implicitly) {
  Tracer::EnableFromEnvironment();
  Checker::ConfigureFromEnvironment();
  std::lock_guard lock(lifecycle_mutex);
  if (initialized()) {
    if (implicitly) return ACL_SUCCESS;
    if (std::exchange(implicitly_initialized_, false)) return ACL_SUCCESS;
    return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: acl is already initialized");
  }
  implicitly_initialized_ = implicitly;
  config_ = RuntimeConfig::FromEnvironment();
  std::vector<std::shared_ptr<Device>> devices;
  for (int32_t id = 0; id < config_.device_count; ++id) {
    devices.push_back(std::make_shared<Device>(id, config_.device_memory));
  }
  {
    std::unique_lock lock(devices_mutex_);
    devices_ = std::move(devices);
  }
  for (auto& value : sys_params) value.store(0);
  epoch_.fetch_add(1, std::memory_order_acq_rel);
  finalize_armed_ = true;
  initialized_.store(true, std::memory_order_release);
  return ACL_SUCCESS;
}

aclError Runtime::Finalize() {
  if (Tracer::Enabled()) Tracer::Get().Flush();
  std::vector<std::shared_ptr<Context>> contexts;
  {
    std::lock_guard lock(lifecycle_mutex);
    if (!initialized()) {
      if (!std::exchange(finalize_armed_, false)) {
        return Fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: acl is not initialized or already finalized");
      }
      return ACL_SUCCESS;
    }
    if (finalizing_) {
      return Fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: another thread is already finalizing acl");
    }
    // From here until the end no context can be created: the lock is let go
    // below while the streams drain.
    finalizing_ = true;
    std::vector<Context*> live;
    {
      std::shared_lock handles(handles_mutex_);
      for (const auto& [handle, context] : contexts_) live.push_back(context.get());
    }
    for (Context* context : live) {
      if (auto detached = DetachContext(context)) contexts.push_back(std::move(detached));
    }
  }
  // Tearing a context down drains its streams; host callbacks may still call the API meanwhile.
  for (const auto& context : contexts) context->Teardown();
  contexts.clear();
  // Joins the callback threads, outside the lock: a host function of a stream
  // destroyed with aclrtDestroyStreamForce may still be running and use the API.
  HostCallbackPool::Get().Shutdown();

  std::lock_guard lock(lifecycle_mutex);
  CachingAllocator::Get().ReleaseCached();
  {
    std::unique_lock handles(handles_mutex_);
    for (const auto& [handle, event] : events_) event->Release();
    events_.clear();
  }
  thread_current = {};
  finalize_armed_ = false;
  finalizing_ = false;
  implicitly_initialized_ = false;
  initialized_.store(false, std::memory_order_release);
  // Stop every engine before destroying any: an engine may still notify the
  // others (NotifyAllEngines takes devices_mutex_, so the engines are stopped
  // without it). A device a call still holds goes with that call's reference.
  std::vector<std::shared_ptr<Device>> devices;
  {
    std::shared_lock lock(devices_mutex_);
    devices = devices_;
  }
  for (auto& device : devices) device->engine().Stop();
  {
    std::unique_lock lock(devices_mutex_);
    devices_.clear();
  }
  return ACL_SUCCESS;
}

std::shared_ptr<Device> Runtime::device(int32_t id) {
  if (!initialized() || id < 0) return nullptr;
  std::shared_lock lock(devices_mutex_);
  if (id >= static_cast<int32_t>(devices_.size())) return nullptr;
  return devices_[id];
}

std::shared_ptr<Context> Runtime::current_context() {
  CurrentContext& current = thread_current;
  if (current.context == nullptr) return nullptr;
  {
    std::shared_lock lock(handles_mutex_);
    auto it = contexts_.find(current.handle);
    if (it != contexts_.end() && it->second.get() == current.context) return it->second;
  }
  current = {};
  return nullptr;
}

void Runtime::set_current_context(Context* context) {
  thread_current = {context, context != nullptr ? context->handle() : nullptr};
}

std::shared_ptr<Stream> Runtime::FindStream(aclrtStream handle) {
  if (handle == nullptr) {
    const auto context = this->current_context();
    return context != nullptr ? context->default_stream() : nullptr;
  }
  std::shared_lock lock(handles_mutex_);
  auto it = streams_.find(handle);
  return it != streams_.end() ? it->second : nullptr;
}

Event* Runtime::FindEventRetained(aclrtEvent handle) {
  std::shared_lock lock(handles_mutex_);
  auto it = events_.find(handle);
  if (it == events_.end()) return nullptr;
  it->second->Retain();
  return it->second;
}

std::shared_ptr<Context> Runtime::FindContext(aclrtContext handle) {
  std::shared_lock lock(handles_mutex_);
  auto it = contexts_.find(handle);
  return it != contexts_.end() ? it->second : nullptr;
}

void* Runtime::NewHandle() {
  const uint64_t index = next_handle_.fetch_add(1, std::memory_order_relaxed) + 1;
  return reinterpret_cast<void*>(kHandleBase + index * kHandleStride);
}

void Runtime::RegisterStream(const std::shared_ptr<Stream>& stream) {
  stream->set_handle(NewHandle());
  std::unique_lock lock(handles_mutex_);
  streams_[stream->handle()] = stream;
  std::erase_if(all_streams_, [](const auto& weak) { return weak.expired(); });
  all_streams_.push_back(stream);
}

std::vector<std::shared_ptr<Stream>> Runtime::StreamsThatMayRun() {
  std::vector<std::shared_ptr<Stream>> result;
  std::shared_lock lock(handles_mutex_);
  for (const auto& weak : all_streams_) {
    if (auto stream = weak.lock()) result.push_back(std::move(stream));
  }
  return result;  // released by the caller, outside the lock: the last reference may destroy a stream
}

bool Runtime::UnregisterStream(const Stream& stream) {
  std::unique_lock lock(handles_mutex_);
  return streams_.erase(stream.handle()) > 0;
}

aclrtEvent Runtime::RegisterEvent(Event* event) {
  aclrtEvent handle = NewHandle();
  std::unique_lock lock(handles_mutex_);
  events_[handle] = event;
  return handle;
}

Event* Runtime::UnregisterEvent(aclrtEvent handle) {
  std::unique_lock lock(handles_mutex_);
  auto it = events_.find(handle);
  if (it == events_.end()) return nullptr;
  Event* event = it->second;
  events_.erase(it);
  return event;
}

Context* Runtime::CreateContext(const char* function, const std::shared_ptr<Device>& device, bool primary) {
  if (finalizing_) {
    Fail(ACL_ERROR_UNINITIALIZE, "%s: aclFinalize is tearing down acl on another thread", function);
    return nullptr;
  }
  auto context = std::make_shared<Context>(device, primary, NewHandle());
  std::unique_lock lock(handles_mutex_);
  contexts_[context->handle()] = context;
  return context.get();
}

std::shared_ptr<Context> Runtime::DetachContext(Context* raw) {
  std::shared_ptr<Context> context;
  {
    std::unique_lock lock(handles_mutex_);
    auto it = contexts_.find(raw->handle());
    if (it == contexts_.end()) return nullptr;
    context = std::move(it->second);
    contexts_.erase(it);
  }
  Device& device = context->device();
  if (device.primary_context == raw) {
    device.primary_context = nullptr;
    device.primary_references = 0;
  }
  if (thread_current.context == raw) thread_current = {};
  return context;
}

std::vector<std::shared_ptr<Stream>> Runtime::StreamsOfDevice(int32_t device_id) {
  std::vector<std::shared_ptr<Stream>> result;
  std::shared_lock lock(handles_mutex_);
  for (const auto& [handle, stream] : streams_) {
    if (device_id < 0 || stream->device_id() == device_id) result.push_back(stream);
  }
  return result;
}

void Runtime::RetireStream(const std::shared_ptr<Stream>& stream) {
  std::lock_guard lock(retired_mutex_);
  stream->MarkRetired();
  retired_streams_.push_back({stream, stream.get(), stream->device_id()});
}

std::vector<std::shared_ptr<Stream>> Runtime::RetiredStreamsOfDevice(int32_t device_id) {
  const auto on_device = [&](const RetiredStream& entry) { return device_id < 0 || entry.device_id == device_id; };
  std::vector<std::shared_ptr<Stream>> result;
  std::unique_lock lock(retired_mutex_);
  for (const auto& entry : retired_streams_) {
    if (!on_device(entry)) continue;
    if (auto stream = entry.stream.lock(); stream != nullptr) result.push_back(std::move(stream));
  }
  // The others expired, before the loop or during it: their destructors are
  // running (or about to) on the threads that dropped the last references. They
  // are short and never wait for a stream; what they release is released once
  // they have forgotten the stream. The streams in `result` cannot expire now.
  retired_gone_.wait(lock, [&] {
    return std::none_of(retired_streams_.begin(), retired_streams_.end(),
                        [&](const RetiredStream& entry) { return on_device(entry) && entry.stream.expired(); });
  });
  return result;
}

void Runtime::ForgetRetiredStream(const Stream* stream) {
  {
    std::lock_guard lock(retired_mutex_);
    std::erase_if(retired_streams_, [&](const RetiredStream& entry) { return entry.address == stream; });
  }
  retired_gone_.notify_all();
}

void Runtime::NotifyAllEngines() {
  std::shared_lock lock(devices_mutex_);
  for (auto& device : devices_) device->engine().Notify();
}

}  // namespace canopy::runtime
