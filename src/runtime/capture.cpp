#include "capture.h"

#include <algorithm>
#include <cstring>

#include "error_message.h"
#include "event.h"
#include "runtime.h"
#include "stream.h"

namespace canopy::runtime {
namespace {

thread_local aclmdlRICaptureMode thread_capture_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

int32_t IndexOf(const CaptureSession& session, const Stream& stream) {
  const auto it = std::find(session.streams.begin(), session.streams.end(), &stream);
  return static_cast<int32_t>(it - session.streams.begin());
}

}  // namespace

ModelInstance::~ModelInstance() {
  for (CapturedTask& captured : tasks) {
    Task& task = captured.task;
    if (task.release != nullptr) task.release(task.PayloadPtr());
    if (task.event != nullptr) task.event->Release();
  }
  for (const auto& release : on_destroy) release();
}

CaptureRegistry& CaptureRegistry::Get() {
  static auto* registry = new CaptureRegistry();
  return *registry;
}

CaptureSession* CaptureRegistry::SessionOf(const Stream& stream) const {
  for (const auto& [member, session] : members_) {
    if (member == &stream) return session;
  }
  return nullptr;
}

void CaptureRegistry::Invalidate(CaptureSession& session) { session.invalidated = true; }

aclError CaptureRegistry::Begin(Stream& stream, aclmdlRICaptureMode mode) {
  std::lock_guard lock(mutex_);
  if (SessionOf(stream) != nullptr) {
    return Fail(ACL_ERROR_RT_STREAM_CAPTURED, "aclmdlRICaptureBegin: the stream is already capturing");
  }
  auto session = std::make_shared<CaptureSession>();
  session->model->handle = Runtime::Get().NewHandle();
  session->mode = mode;
  session->thread = std::this_thread::get_id();
  session->origin = &stream;
  session->streams.push_back(&stream);
  members_.emplace_back(&stream, session.get());
  sessions_.push_back(std::move(session));
  active_.fetch_add(1, std::memory_order_acq_rel);
  return ACL_SUCCESS;
}

aclError CaptureRegistry::End(Stream& stream, aclmdlRI* model) {
  std::shared_ptr<CaptureSession> session;
  {
    std::lock_guard lock(mutex_);
    CaptureSession* raw = SessionOf(stream);
    if (raw == nullptr) {
      return Fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "aclmdlRICaptureEnd: the stream is not capturing");
    }
    if (raw->origin != &stream) {
      return Fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                  "aclmdlRICaptureEnd: the capture was begun on another stream; end it there");
    }
    if (raw->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && raw->thread != std::this_thread::get_id()) {
      return Fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                  "aclmdlRICaptureEnd: a %s capture must be ended by the thread that began it",
                  raw->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ? "global" : "thread-local");
    }
    std::erase_if(members_, [&](const auto& member) { return member.second == raw; });
    const auto it = std::find_if(sessions_.begin(), sessions_.end(), [&](const auto& s) { return s.get() == raw; });
    session = std::move(*it);
    sessions_.erase(it);
    active_.fetch_sub(1, std::memory_order_acq_rel);
  }
  if (session->invalidated) {
    return Fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                "aclmdlRICaptureEnd: the capture was invalidated by an illegal call during capture");
  }
  // Every forked stream must end in a record that another captured stream waited on.
  const auto& tasks = session->model->tasks;
  for (int32_t index = 1; index < static_cast<int32_t>(session->streams.size()); ++index) {
    size_t last = 0;
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (tasks[i].stream_index == index) last = i;
    }
    bool joined = false;
    for (const auto& recorded : session->recorded_events) {
      if (recorded.stream_index != index || recorded.task_index < last) continue;
      for (size_t i = recorded.task_index + 1; i < tasks.size() && !joined; ++i) {
        joined = tasks[i].task.kind == TaskKind::kEventWait && tasks[i].task.event == recorded.event &&
                 tasks[i].stream_index != index;
      }
    }
    if (!joined) {
      return Fail(ACL_ERROR_RT_STREAM_UNJOINED,
                  "aclmdlRICaptureEnd: stream #%d joined the capture but its work was not joined back "
                  "(record an event on it and wait for it on the capturing stream)",
                  index);
    }
  }
  session->model->stream_count = static_cast<int32_t>(session->streams.size());
  *model = ModelTable::Get().Add(session->model);
  return ACL_SUCCESS;
}

aclError CaptureRegistry::GetInfo(Stream& stream, aclmdlRICaptureStatus* status, aclmdlRI* model) {
  std::lock_guard lock(mutex_);
  CaptureSession* session = SessionOf(stream);
  if (status != nullptr) {
    *status = session == nullptr     ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
              : session->invalidated ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                     : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  }
  // The model under construction is identified by its instance until the capture ends.
  if (model != nullptr) *model = session != nullptr ? session->model->handle : nullptr;
  return ACL_SUCCESS;
}

bool CaptureRegistry::Record(const char* function, Stream& stream, const Task& task, aclError* status) {
  if (!AnyActive()) return false;
  std::lock_guard lock(mutex_);
  CaptureSession* session = SessionOf(stream);
  if (session == nullptr) return false;
  if (session->invalidated) {
    *status = Fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture has been invalidated", function);
    return true;
  }
  CapturedTask captured;
  captured.task = task;
  captured.stream_index = IndexOf(*session, stream);
  const auto stashed = std::find_if(session->stashed.begin(), session->stashed.end(),
                                    [&](const auto& entry) { return entry.stream == &stream; });
  if (stashed != session->stashed.end()) {
    // The stash is the accesses checked just before this task's enqueue; a
    // launch refused after its check (an op that cannot be captured) leaves
    // one behind that a task of another name must not inherit.
    if (task.name != nullptr && stashed->op != nullptr && std::strcmp(task.name, stashed->op) == 0) {
      captured.op = stashed->op;
      captured.accesses = std::move(stashed->accesses);
    }
    session->stashed.erase(stashed);
  }
  session->model->tasks.push_back(std::move(captured));
  *status = ACL_SUCCESS;
  return true;
}

bool CaptureRegistry::StashAccesses(const Stream& stream, const char* op, const MemoryAccess* accesses, size_t count) {
  if (!AnyActive()) return false;
  std::lock_guard lock(mutex_);
  CaptureSession* session = SessionOf(stream);
  if (session == nullptr) return false;
  std::erase_if(session->stashed, [&](const auto& entry) { return entry.stream == &stream; });
  session->stashed.push_back({&stream, op, std::vector<MemoryAccess>(accesses, accesses + count)});
  return true;
}

bool CaptureRegistry::RecordEvent(const char* function, Stream& stream, TaskKind kind, Event* event,
                                  bool is_default_stream, aclError* status) {
  if (!AnyActive()) return false;
  std::lock_guard lock(mutex_);
  CaptureSession* session = SessionOf(stream);
  // The capture (if any) whose latest record of this event is the one a wait would see.
  CaptureSession* recorded_in = nullptr;
  const CaptureSession::RecordedEvent* record = nullptr;
  for (const auto& candidate : sessions_) {
    for (const auto& recorded : candidate->recorded_events) {
      if (recorded.event == event) {
        recorded_in = candidate.get();
        record = &recorded;
      }
    }
  }
  if (kind == TaskKind::kEventWait && session == nullptr && recorded_in != nullptr) {
    // A stream that waits on captured work joins the capture.
    if (is_default_stream) {
      Invalidate(*recorded_in);
      *status = Fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                     "%s: the default stream cannot join a capture; use a created stream", function);
      return true;
    }
    recorded_in->streams.push_back(&stream);
    members_.emplace_back(&stream, recorded_in);
    session = recorded_in;
  }
  if (session == nullptr) return false;
  if (session->invalidated) {
    *status = Fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture has been invalidated", function);
    return true;
  }
  Task task;
  task.kind = kind;
  task.name = function;
  task.event = event;
  event->Retain();  // the model's reference
  const int32_t index = IndexOf(*session, stream);
  const bool internal = kind == TaskKind::kEventWait && recorded_in == session && record != nullptr;
  CapturedTask captured;
  captured.task = task;
  captured.stream_index = index;
  captured.event_internal = internal;
  session->model->tasks.push_back(std::move(captured));
  if (kind == TaskKind::kEventRecord) {
    session->recorded_events.push_back({event, index, session->model->tasks.size() - 1});
  }
  *status = ACL_SUCCESS;
  return true;
}

void CaptureRegistry::ForgetStream(const Stream& stream) {
  if (!AnyActive()) return;
  std::shared_ptr<CaptureSession> dropped;  // released outside the lock: its model owns payloads
  {
    std::lock_guard lock(mutex_);
    CaptureSession* session = SessionOf(stream);
    if (session == nullptr) return;
    Invalidate(*session);
    if (session->origin == &stream) {
      std::erase_if(members_, [&](const auto& member) { return member.second == session; });
      const auto it =
          std::find_if(sessions_.begin(), sessions_.end(), [&](const auto& s) { return s.get() == session; });
      dropped = std::move(*it);
      sessions_.erase(it);
      active_.fetch_sub(1, std::memory_order_acq_rel);
    } else {
      std::erase_if(members_, [&](const auto& member) { return member.first == &stream; });
      for (Stream*& member : session->streams) {
        if (member == &stream) member = nullptr;
      }
    }
  }
}

bool CaptureRegistry::KeepUntilModelDestroyed(const Stream& stream, std::function<void()> release) {
  if (!AnyActive()) return false;
  std::lock_guard lock(mutex_);
  CaptureSession* session = SessionOf(stream);
  if (session == nullptr) return false;
  session->model->on_destroy.push_back(std::move(release));
  return true;
}

aclError CaptureRegistry::CheckStreamNotCapturing(const char* function, const Stream& stream) {
  if (!AnyActive()) return ACL_SUCCESS;
  std::lock_guard lock(mutex_);
  CaptureSession* session = SessionOf(stream);
  if (session == nullptr) return ACL_SUCCESS;
  Invalidate(*session);
  return Fail(ACL_ERROR_RT_STREAM_CAPTURED,
              "%s: the stream is capturing (aclmdlRICaptureBegin); this call is illegal during capture and "
              "has invalidated it",
              function);
}

aclError CaptureRegistry::CheckEventNotCaptured(const char* function, Event* event) {
  if (!AnyActive()) return ACL_SUCCESS;
  std::lock_guard lock(mutex_);
  for (const auto& session : sessions_) {
    for (const auto& recorded : session->recorded_events) {
      if (recorded.event != event) continue;
      Invalidate(*session);
      return Fail(ACL_ERROR_RT_EVENT_CAPTURED,
                  "%s: the event is recorded in an ongoing capture; this call is illegal during capture and "
                  "has invalidated it",
                  function);
    }
  }
  return ACL_SUCCESS;
}

aclError CaptureRegistry::CheckUnsafeCallAllowed(const char* function) {
  if (!AnyActive()) return ACL_SUCCESS;
  const aclmdlRICaptureMode thread_mode = thread_capture_mode;
  if (thread_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return ACL_SUCCESS;
  std::lock_guard lock(mutex_);
  const auto self = std::this_thread::get_id();
  for (const auto& session : sessions_) {
    const bool own = session->thread == self && session->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    const bool global = session->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    const bool forbidden = thread_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ? (global || own) : own;
    if (!forbidden) continue;
    Invalidate(*session);
    return Fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                "%s: synchronous copies and fills are illegal while a %s capture is active; the capture has "
                "been invalidated",
                function, global ? "global" : "thread-local");
  }
  return ACL_SUCCESS;
}

aclmdlRICaptureMode CaptureRegistry::ExchangeThreadMode(aclmdlRICaptureMode mode) {
  return std::exchange(thread_capture_mode, mode);
}

ModelTable& ModelTable::Get() {
  static auto* table = new ModelTable();
  return *table;
}

aclmdlRI ModelTable::Add(std::shared_ptr<ModelInstance> model) {
  std::lock_guard lock(mutex_);
  const aclmdlRI handle = model->handle;
  models_[handle] = std::move(model);
  return handle;
}

std::shared_ptr<ModelInstance> ModelTable::Find(aclmdlRI handle) {
  std::lock_guard lock(mutex_);
  const auto it = models_.find(handle);
  return it != models_.end() ? it->second : nullptr;
}

std::shared_ptr<ModelInstance> ModelTable::BeginReplay(aclmdlRI handle) {
  std::lock_guard lock(mutex_);
  const auto it = models_.find(handle);
  if (it == models_.end()) return nullptr;
  ++it->second->pending_replays;
  return it->second;
}

void ModelTable::EndReplay(ModelInstance& model) {
  std::lock_guard lock(mutex_);
  --model.pending_replays;
}

std::shared_ptr<ModelInstance> ModelTable::Remove(aclmdlRI handle, int32_t* pending) {
  std::lock_guard lock(mutex_);
  *pending = 0;
  const auto it = models_.find(handle);
  if (it == models_.end()) return nullptr;
  if (it->second->pending_replays > 0) {
    *pending = it->second->pending_replays;
    return nullptr;
  }
  auto model = std::move(it->second);
  models_.erase(it);
  return model;
}

}  // namespace canopy::runtime
