// fuzz_hccl_rank_table: arbitrary bytes as a rank-table file, through the
// entry a client uses (HcclCommInitClusterInfo on a file holding them, rank
// 0 or 1 by the input's length, HCCL_CONNECT_TIMEOUT tiny so that a valid table cannot
// hang), and through libhccl's JSON reader directly.
//
// Checked besides "no crash, no leak, no undefined behaviour, no hang":
//  * HcclCommInitClusterInfo returns HCCL_SUCCESS (then the communicator is
//    destroyed) or one of the rank table's documented errors, never anything else;
//  * the JSON reader returns a value or throws HcclError(HCCL_E_PARA), nothing else.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "acl/acl.h"
#include "common/hccl_statuses.h"
#include "error.h"
#include "hccl/hccl.h"
#include "json.h"

namespace {

std::string TablePath() {
  static const std::string path = [] {
    std::string name = "/tmp/canopy_fuzz_rank_table_XXXXXX";
    const int fd = ::mkstemp(name.data());
    if (fd < 0) std::abort();
    ::close(fd);
    return name;
  }();
  return path;
}

void WriteTable(const uint8_t* data, size_t size) {
  // Owner-only, as a table holding "canopy_secret" must be.
  const int fd = ::open(TablePath().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) std::abort();
  size_t written = 0;
  while (written < size) {
    const ssize_t step = ::write(fd, data + written, size - written);
    if (step <= 0) std::abort();
    written += static_cast<size_t>(step);
  }
  ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  ::setenv("HCCL_CONNECT_TIMEOUT", "0.02", 1);
  ::unsetenv("CANOPY_HCCL_SECRET");
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)canopy::hccl::ParseJson(text, "fuzz input");
  } catch (const canopy::hccl::HcclError& error) {
    if (error.code() != HCCL_E_PARA) std::abort();
  }

  // Rank 0 listens, rank 1 connects to it (or is not in a one-rank table).
  const uint32_t rank = size % 2;
  WriteTable(data, size);
  HcclComm comm = nullptr;
  const HcclResult status = HcclCommInitClusterInfo(TablePath().c_str(), rank, &comm);
  canopy::fuzz::CheckMadeOrRefused("HcclCommInitClusterInfo", status, comm);
  return 0;
}
