#include "runtime.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "engine.h"
#include "error_message.h"
#include "event.h"
#include "host_callback_pool.h"
#include "stream.h"

namespace canopy::runtime {
namespace {

thread_local Context* thread_current_context = nullptr;

// Parses "123", "64M", "16G" into bytes; 0 when malformed.
size_t ParseBytes(const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text) return 0;
  switch (*end) {
    case 'k': case 'K': return value << 10;
    case 'm': case 'M': return value << 20;
    case 'g': case 'G': return value << 30;
    case '\0': return value;
    default: return 0;
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
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
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

void Device::Unreserve(size_t bytes) { used_memory_.fetch_sub(bytes, std::memory_order_relaxed); }

Device::Device(int32_t id, size_t total_memory)
    : id_(id), total_memory_(total_memory), engine_(std::make_unique<Engine>(id)) {}

Device::~Device() = default;

// ---- Context ---------------------------------------------------------------

Context::Context(Device& device, bool primary) : device_(device), primary_(primary) {
  default_stream_ = CreateStream(0, 0);
}

Context::~Context() {
  for (const auto& stream : streams()) {
    stream->Synchronize(-1);
    device_.engine().RemoveStream(stream.get());
    Runtime::Get().UnregisterStream(stream.get());
  }
}

std::vector<std::shared_ptr<Stream>> Context::streams() const {
  std::lock_guard lock(mutex_);
  return streams_;
}

std::shared_ptr<Stream> Context::CreateStream(uint32_t flags, uint32_t priority) {
  auto stream = std::make_shared<Stream>(device_.engine(), this, device_.id(), flags, priority);
  {
    std::lock_guard lock(mutex_);
    streams_.push_back(stream);
  }
  device_.engine().AddStream(stream);
  Runtime::Get().RegisterStream(stream);
  return stream;
}

void Context::RemoveStream(const Stream* stream) {
  device_.engine().RemoveStream(stream);
  Runtime::Get().UnregisterStream(stream);
  std::lock_guard lock(mutex_);
  std::erase_if(streams_, [&](const auto& s) { return s.get() == stream; });
}

// ---- Runtime ---------------------------------------------------------------

Runtime& Runtime::Get() {
  static auto* runtime = new Runtime();  // never destroyed: threads may outlive main()
  return *runtime;
}

aclError Runtime::Initialize() {
  std::lock_guard lock(lifecycle_mutex);
  if (initialized()) {
    return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: acl is already initialized");
  }
  config_ = RuntimeConfig::FromEnvironment();
  devices_.clear();
  for (int32_t id = 0; id < config_.device_count; ++id) {
    devices_.push_back(std::make_unique<Device>(id, config_.device_memory));
  }
  initialized_.store(true, std::memory_order_release);
  return ACL_SUCCESS;
}

aclError Runtime::Finalize() {
  std::lock_guard lock(lifecycle_mutex);
  if (!initialized()) {
    return Fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: acl is not initialized or already finalized");
  }
  std::vector<const void*> contexts;
  {
    std::shared_lock handles(handles_mutex_);
    contexts.assign(contexts_.begin(), contexts_.end());
  }
  for (const void* context : contexts) DestroyContext(static_cast<Context*>(const_cast<void*>(context)));
  HostCallbackPool::Get().Shutdown();
  {
    std::unique_lock handles(handles_mutex_);
    for (const void* event : events_) static_cast<Event*>(const_cast<void*>(event))->Release();
    events_.clear();
  }
  thread_current_context = nullptr;
  initialized_.store(false, std::memory_order_release);
  devices_.clear();  // joins the engines; every stream has drained
  return ACL_SUCCESS;
}

Device* Runtime::device(int32_t id) {
  if (!initialized() || id < 0 || id >= static_cast<int32_t>(devices_.size())) return nullptr;
  return devices_[id].get();
}

Context* Runtime::current_context() {
  if (thread_current_context != nullptr && !IsLiveContext(thread_current_context)) {
    thread_current_context = nullptr;
  }
  return thread_current_context;
}

void Runtime::set_current_context(Context* context) { thread_current_context = context; }

std::shared_ptr<Stream> Runtime::FindStream(aclrtStream handle) {
  if (handle == nullptr) {
    Context* context = this->current_context();
    return context != nullptr ? context->default_stream() : nullptr;
  }
  std::shared_lock lock(handles_mutex_);
  auto it = streams_.find(handle);
  return it != streams_.end() ? it->second : nullptr;
}

Event* Runtime::FindEventRetained(aclrtEvent handle) {
  std::shared_lock lock(handles_mutex_);
  if (!events_.contains(handle)) return nullptr;
  auto* event = static_cast<Event*>(handle);
  event->Retain();
  return event;
}

bool Runtime::IsLiveContext(aclrtContext handle) {
  std::shared_lock lock(handles_mutex_);
  return contexts_.contains(handle);
}

void Runtime::RegisterStream(const std::shared_ptr<Stream>& stream) {
  std::unique_lock lock(handles_mutex_);
  streams_[stream.get()] = stream;
}

void Runtime::UnregisterStream(const Stream* stream) {
  std::unique_lock lock(handles_mutex_);
  streams_.erase(stream);
}

void Runtime::RegisterEvent(Event* event) {
  std::unique_lock lock(handles_mutex_);
  events_.insert(event);
}

Event* Runtime::UnregisterEvent(aclrtEvent handle) {
  std::unique_lock lock(handles_mutex_);
  if (events_.erase(handle) == 0) return nullptr;
  return static_cast<Event*>(handle);
}

Context* Runtime::CreateContext(Device& device, bool primary) {
  auto* context = new Context(device, primary);
  std::unique_lock lock(handles_mutex_);
  contexts_.insert(context);
  return context;
}

void Runtime::DestroyContext(Context* context) {
  {
    std::unique_lock lock(handles_mutex_);
    if (contexts_.erase(context) == 0) return;
  }
  Device& device = context->device();
  if (device.primary_context == context) {
    device.primary_context = nullptr;
    device.primary_references = 0;
  }
  if (thread_current_context == context) thread_current_context = nullptr;
  delete context;
}

std::vector<std::shared_ptr<Stream>> Runtime::StreamsOfDevice(int32_t device_id) {
  std::vector<std::shared_ptr<Stream>> result;
  std::shared_lock lock(handles_mutex_);
  for (const auto& [handle, stream] : streams_) {
    if (stream->device_id() == device_id) result.push_back(stream);
  }
  return result;
}

void Runtime::NotifyAllEngines() {
  for (auto& device : devices_) device->engine().Notify();
}

}  // namespace canopy::runtime
