// Puts an HCCL operation on an aclrtStream. The operation runs as a host task
// (canopyLaunchHostTask: on a host thread, so that its network waits never
// stall the device's compute engine, and on the client's own thread when it
// synchronises the stream before a callback thread takes it): a failure
// becomes the stream's error at the next synchronisation, with the HCCL
// message in aclGetRecentErrMsg(), and the communicator's async error.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "communicator.h"

namespace canopy::hccl {

// Queues `work` (run with the communicator's transport) on `stream` and
// returns at once; HCCL_E_RUNTIME when the stream refuses it.
HcclResult Enqueue(const char* name, std::shared_ptr<Communicator> comm, aclrtStream stream,
                   std::function<void(Transport&)> work);

// Runs `work` with the communicator's transport on the calling thread, as a
// queued operation runs: not at all when the communicator failed before, and
// a failure becomes its asynchronous error. Returns the status; `message`
// receives the failure's text.
HcclResult RunNow(Communicator& comm, const std::function<void(Transport&)>& work, std::string& message);

}  // namespace canopy::hccl
