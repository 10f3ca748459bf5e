// Writes to a connection whose peer died raise SIGPIPE, which ends the
// process by default; Gloo's TCP pairs write without MSG_NOSIGNAL. A rank
// whose peer is killed must fail its operation with an error instead, so
// every thread that runs Gloo I/O holds SIGPIPE blocked while it does: the
// caller of a transport operation through this guard, and Gloo's event-loop
// thread, which inherits the mask of the thread that creates its device.
// The process's own disposition of SIGPIPE is left alone.
#pragma once

#include <pthread.h>
#include <signal.h>
#include <time.h>

namespace canopy::hccl {

class SigpipeGuard {
 public:
  SigpipeGuard() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
  }
  ~SigpipeGuard() {
    // A SIGPIPE raised meanwhile is ours: take it before unblocking, so that
    // it is not delivered afterwards.
    if (!was_pending_) {
      sigset_t pending;
      sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        const timespec now{0, 0};
        sigtimedwait(&pipe_, nullptr, &now);
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

 private:
  sigset_t pipe_;
  sigset_t previous_;
  bool was_pending_ = false;
};

}  // namespace canopy::hccl
