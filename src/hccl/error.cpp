#include "error.h"

#include <gloo/common/error.h>

#include <new>

#include "canopy/canopy_runtime.h"

namespace canopy::hccl {

namespace {
constexpr int kLogWarning = 2;
constexpr int kLogError = 3;
}  // namespace

HcclResult Report(const char* function, HcclResult code, const std::string& message) {
  const std::string text = std::string(function) + ": " + message;
  canopySetRecentErrMsg(text.c_str());
  if (canopyLogEnabled(kLogError) != 0) canopyLog(kLogError, "HCCL", text.c_str());
  return code;
}

void LogWarning(const std::string& message) {
  if (canopyLogEnabled(kLogWarning) != 0) canopyLog(kLogWarning, "HCCL", message.c_str());
}

namespace {

// StatusOfCurrentException's classification; building the message may itself
// run out of memory.
HcclResult Classify(std::string& message) {
  try {
    throw;
  } catch (const HcclError& error) {
    message = error.what();
    return error.code();
  } catch (const std::bad_alloc&) {
    message = "the host is out of memory";
    return HCCL_E_MEMORY;
  } catch (const gloo::IoException& error) {
    // Gloo reports a wait that ran out of time as an I/O failure "Timed out ...".
    const std::string what = error.what();
    if (what.find("imed out") != std::string::npos || what.find("timeout") != std::string::npos) {
      message = "a peer did not answer within the timeout: " + what;
      return HCCL_E_TIMEOUT;
    }
    message = "the connection to a peer failed: " + what;
    return HCCL_E_TCP_TRANSFER;
  } catch (const std::exception& error) {
    message = std::string("internal error: ") + error.what();
    return HCCL_E_INTERNAL;
  } catch (...) {
    message = "internal error (an unknown exception)";
    return HCCL_E_INTERNAL;
  }
}

}  // namespace

HcclResult StatusOfCurrentException(std::string& message) noexcept {
  try {
    return Classify(message);
  } catch (...) {
    message.clear();  // the host is out of memory: nothing left to say it with
    return HCCL_E_MEMORY;
  }
}

}  // namespace canopy::hccl

namespace canopy::hccl {
namespace {
struct CodeInfo {
  HcclResult code;
  const char* name;
  const char* text;
};
constexpr CodeInfo kCodes[] = {
    {HCCL_SUCCESS, "HCCL_SUCCESS", "success"},
    {HCCL_E_PARA, "HCCL_E_PARA", "parameter error"},
    {HCCL_E_PTR, "HCCL_E_PTR", "empty pointer"},
    {HCCL_E_MEMORY, "HCCL_E_MEMORY", "memory error"},
    {HCCL_E_INTERNAL, "HCCL_E_INTERNAL", "internal error"},
    {HCCL_E_NOT_SUPPORT, "HCCL_E_NOT_SUPPORT", "feature not supported"},
    {HCCL_E_NOT_FOUND, "HCCL_E_NOT_FOUND", "resource not found"},
    {HCCL_E_UNAVAIL, "HCCL_E_UNAVAIL", "resource unavailable"},
    {HCCL_E_SYSCALL, "HCCL_E_SYSCALL", "system call error"},
    {HCCL_E_TIMEOUT, "HCCL_E_TIMEOUT", "timeout"},
    {HCCL_E_OPEN_FILE_FAILURE, "HCCL_E_OPEN_FILE_FAILURE", "file cannot be opened"},
    {HCCL_E_TCP_CONNECT, "HCCL_E_TCP_CONNECT", "TCP connection failed"},
    {HCCL_E_ROCE_CONNECT, "HCCL_E_ROCE_CONNECT", "RoCE connection failed"},
    {HCCL_E_TCP_TRANSFER, "HCCL_E_TCP_TRANSFER", "TCP transfer failed"},
    {HCCL_E_ROCE_TRANSFER, "HCCL_E_ROCE_TRANSFER", "RoCE transfer failed"},
    {HCCL_E_RUNTIME, "HCCL_E_RUNTIME", "runtime call failed"},
    {HCCL_E_DRV, "HCCL_E_DRV", "driver call failed"},
    {HCCL_E_PROFILING, "HCCL_E_PROFILING", "profiling call failed"},
    {HCCL_E_CCE, "HCCL_E_CCE", "CCE call failed"},
    {HCCL_E_NETWORK, "HCCL_E_NETWORK", "network call failed"},
    {HCCL_E_AGAIN, "HCCL_E_AGAIN", "try again"},
    {HCCL_E_REMOTE, "HCCL_E_REMOTE", "remote error"},
    {HCCL_E_SUSPENDING, "HCCL_E_SUSPENDING", "communicator suspending"},
    {HCCL_E_OPRETRY_FAIL, "HCCL_E_OPRETRY_FAIL", "operation retry failed"},
    {HCCL_E_OOM, "HCCL_E_OOM", "out of memory"},
};
const CodeInfo* Lookup(HcclResult code) {
  for (const CodeInfo& info : kCodes) {
    if (info.code == code) return &info;
  }
  return nullptr;
}
}  // namespace

const char* ResultName(HcclResult code) {
  const CodeInfo* info = Lookup(code);
  return info != nullptr ? info->name : "HCCL_E_UNKNOWN";
}

const char* ResultText(HcclResult code) {
  const CodeInfo* info = Lookup(code);
  return info != nullptr ? info->text : "unknown error code";
}
}  // namespace canopy::hccl
