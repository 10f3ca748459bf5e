// canopy_bad_inputs: calls the public API with the bad inputs the fuzzers
// exercise, one at a time, and prints what each returns as the markdown table
// of docs/reliability.md ("Bad inputs and what they return"). Run it to
// refresh the table: the table is measured, not written by hand.
#include <pthread.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_zero.h"
#include "canopy/canopy_runtime.h"

namespace {

constexpr size_t kMessageColumn = 90;
constexpr size_t kGranularity = size_t{2} << 20;

// One table row: the call, the bad input, the status and the message it left.
void Row(const char* call, const char* input, long long status) {
  const char* message = aclGetRecentErrMsg();
  std::string text = message != nullptr ? message : "(null)";
  for (char& c : text) {
    if (c == '|') c = '/';
    if (c == '\n') c = ' ';
  }
  // Addresses and thread ids differ from run to run: keep the table stable.
  std::string stable;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "0x") == 0 && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      stable += "0x…";
      for (i += 2; i + 1 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])); ++i) {
      }
    } else if (std::isdigit(static_cast<unsigned char>(text[i])) && i + 12 < text.size() &&
               std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i),
                           text.begin() + static_cast<std::ptrdiff_t>(i) + 12,
                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
      stable += "N";  // a thread id
      while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
    } else {
      stable += text[i];
    }
  }
  text = stable;
  if (text.size() > kMessageColumn) text = text.substr(0, kMessageColumn - 3) + "...";
  if (text.empty()) text = "*(no message)*";
  std::printf("| `%s` | %s | %lld | %s |\n", call, input, status, text.c_str());
}

void Section(const char* title) {
  std::printf("\n**%s**\n\n| call | bad input | returns | aclGetRecentErrMsg() |\n|---|---|---|---|\n", title);
}

// A pointer-status row for calls that return a handle: 0 means NULL came back.
long long Handle(const void* handle) { return handle == nullptr ? 0 : 1; }

void* device_buffer = nullptr;
constexpr size_t kBufferBytes = 4096;

aclTensor* Tensor(std::vector<int64_t> shape, aclDataType dtype, aclFormat format = ACL_FORMAT_ND) {
  const std::vector<int64_t> storage = {static_cast<int64_t>(kBufferBytes)};
  return aclCreateTensor(shape.data(), shape.size(), dtype, nullptr, 0, format, storage.data(), storage.size(),
                         device_buffer);
}

aclScalar* Scalar(float value) { return aclCreateScalar(&value, ACL_FLOAT); }

void MetaApi() {
  Section("Meta API (tensors, scalars, arrays, executors) — a NULL handle is shown as 0, a handle as 1");
  const int64_t dims[] = {2, 3};
  const int64_t negative[] = {2, -1};
  const int64_t strides[] = {-3, 1};
  const int64_t storage[] = {6};
  std::vector<int64_t> many(65, 1);
  aclTensor* t = nullptr;
  t = aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr);
  Row("aclCreateTensor", "viewDims NULL, viewDimsNum 2", Handle(t));
  t = aclCreateTensor(negative, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr);
  Row("aclCreateTensor", "a negative extent", Handle(t));
  t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, -1, ACL_FORMAT_ND, storage, 1, nullptr);
  Row("aclCreateTensor", "offset -1", Handle(t));
  t = aclCreateTensor(many.data(), many.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr);
  Row("aclCreateTensor", "rank 65", Handle(t));
  t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 1, nullptr);
  Row("aclCreateTensor", "storageDims NULL, storageDimsNum 1", Handle(t));
  t = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 3, ACL_FORMAT_ND, storage, 1, nullptr);
  Row("aclCreateTensor", "a negative stride (accepted)", Handle(t));
  aclDestroyTensor(t);
  t = aclCreateTensor(dims, 2, ACL_STRING, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr);
  Row("aclCreateTensor", "dtype ACL_STRING (accepted; ops refuse it)", Handle(t));
  aclDestroyTensor(t);
  t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, static_cast<aclFormat>(63), storage, 1, nullptr);
  Row("aclCreateTensor", "format 63, no such format (accepted)", Handle(t));
  aclDestroyTensor(t);
  float value = 1.0f;
  Row("aclCreateScalar", "value NULL", Handle(aclCreateScalar(nullptr, ACL_FLOAT)));
  Row("aclCreateScalar", "dtype ACL_STRING", Handle(aclCreateScalar(&value, ACL_STRING)));
  Row("aclCreateScalar", "dtype ACL_DT_UNDEFINED", Handle(aclCreateScalar(&value, ACL_DT_UNDEFINED)));
  aclScalar* odd = aclCreateScalar(&value, static_cast<aclDataType>(14));
  Row("aclCreateScalar", "dtype 14, no such dtype", Handle(odd));
  aclDestroyScalar(odd);
  Row("aclCreateIntArray", "value NULL, size 3", Handle(aclCreateIntArray(nullptr, 3)));
  Row("aclCreateFloatArray", "value NULL, size 3", Handle(aclCreateFloatArray(nullptr, 3)));
  Row("aclCreateTensorList", "value NULL, size 3", Handle(aclCreateTensorList(nullptr, 3)));
  int64_t* values = nullptr;
  uint64_t count = 0;
  Row("aclGetViewShape", "tensor NULL", aclGetViewShape(nullptr, &values, &count));
  aclTensor* real = Tensor({2, 3}, ACL_FLOAT);
  Row("aclGetViewStrides", "stridesNum NULL", aclGetViewStrides(real, &values, nullptr));
  Row("aclInitTensor", "tensor NULL",
      aclInitTensor(nullptr, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr));
  Row("aclInitTensor", "viewDims NULL, viewDimsNum 2",
      aclInitTensor(real, nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr));
  Row("aclDestroyTensor", "NULL", aclDestroyTensor(nullptr));
  Row("aclSetAclOpExecutorRepeatable", "executor NULL", aclSetAclOpExecutorRepeatable(nullptr));
  Row("aclDestroyAclOpExecutor", "executor NULL", aclDestroyAclOpExecutor(nullptr));
  Row("aclSetInputTensorAddr", "executor NULL", aclSetInputTensorAddr(nullptr, 0, real, device_buffer));
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnInplaceZeroGetWorkspaceSize(real, &workspace_size, &executor);
  aclSetAclOpExecutorRepeatable(executor);
  Row("aclSetInputTensorAddr", "index 5 of an op with 1 input",
      aclSetInputTensorAddr(executor, 5, real, device_buffer));
  Row("aclSetOutputTensorAddr", "tensor NULL", aclSetOutputTensorAddr(executor, 0, nullptr, device_buffer));
  aclTensor* destroyed = Tensor({2, 3}, ACL_FLOAT);
  aclDestroyTensor(destroyed);
  Row("aclSetOutputTensorAddr", "a destroyed tensor", aclSetOutputTensorAddr(executor, 0, destroyed, device_buffer));
  Row("aclDestroyTensor", "destroyed already", aclDestroyTensor(destroyed));
  aclDestroyAclOpExecutor(executor);
  Row("aclDestroyAclOpExecutor", "destroyed already", aclDestroyAclOpExecutor(executor));
  Row("aclSetInputTensorAddr", "a destroyed executor", aclSetInputTensorAddr(executor, 0, real, device_buffer));
  Row("aclnnInplaceZero", "a destroyed repeatable executor", aclnnInplaceZero(nullptr, 0, executor, nullptr));
  aclnnInplaceZeroGetWorkspaceSize(real, &workspace_size, &executor);
  aclnnInplaceZero(nullptr, 0, executor, nullptr);
  aclrtSynchronizeDevice();
  Row("aclnnInplaceZero", "a non-repeatable executor launched already",
      aclnnInplaceZero(nullptr, 0, executor, nullptr));
  int not_an_executor = 0;
  Row("aclDestroyAclOpExecutor", "a pointer no phase 1 returned",
      aclDestroyAclOpExecutor(reinterpret_cast<aclOpExecutor*>(&not_an_executor)));
  aclDestroyTensor(real);
}

void Ops() {
  Section("Ops, phase 1 (aclnnXxxGetWorkspaceSize) and phase 2");
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* f23 = Tensor({2, 3}, ACL_FLOAT);
  aclTensor* f32 = Tensor({3, 2}, ACL_FLOAT);
  aclTensor* f22 = Tensor({2, 2}, ACL_FLOAT);
  aclTensor* i23 = Tensor({2, 3}, ACL_INT32);
  aclTensor* u23 = Tensor({2, 3}, ACL_UINT16);
  aclTensor* s23 = Tensor({2, 3}, ACL_STRING);
  aclTensor* f9 = Tensor({1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT);
  aclTensor* nz = Tensor({2, 3}, ACL_FLOAT, ACL_FORMAT_FRACTAL_NZ);
  aclTensor* f1 = Tensor({1, 1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT);
  aclTensor* b23 = Tensor({2, 3}, ACL_BOOL);
  aclTensor* f234 = Tensor({2, 3, 4}, ACL_FLOAT);
  aclTensor* f34 = Tensor({3, 4}, ACL_FLOAT);
  aclTensor* f324 = Tensor({3, 2, 4}, ACL_FLOAT);
  aclScalar* one = Scalar(1.0f);
  uint16_t u16 = 1;
  aclScalar* u16_scalar = aclCreateScalar(&u16, ACL_UINT16);
  aclScalar* string_scalar = aclCreateScalar(&u16, ACL_INT16);
  const auto discard = [&](aclnnStatus status) {
    if (status == ACLNN_SUCCESS && ex != nullptr) {
      aclSetAclOpExecutorRepeatable(ex);
      aclDestroyAclOpExecutor(ex);
    }
    ex = nullptr;
    return status;
  };
  Row("aclnnAddGetWorkspaceSize", "self NULL", discard(aclnnAddGetWorkspaceSize(nullptr, f23, one, f23, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "alpha NULL", discard(aclnnAddGetWorkspaceSize(f23, f23, nullptr, f23, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "workspaceSize NULL",
      discard(aclnnAddGetWorkspaceSize(f23, f23, one, f23, nullptr, &ex)));
  Row("aclnnAddGetWorkspaceSize", "executor NULL", discard(aclnnAddGetWorkspaceSize(f23, f23, one, f23, &ws, nullptr)));
  Row("aclnnAddGetWorkspaceSize", "self UINT16", discard(aclnnAddGetWorkspaceSize(u23, u23, one, u23, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "self STRING", discard(aclnnAddGetWorkspaceSize(s23, f23, one, f23, &ws, &ex)));
  const int64_t reversed_strides[] = {-3, 1};
  const int64_t storage[] = {static_cast<int64_t>(kBufferBytes)};
  const int64_t dims23[] = {2, 3};
  aclTensor* reversed =
      aclCreateTensor(dims23, 2, ACL_FLOAT, reversed_strides, 3, ACL_FORMAT_ND, storage, 1, device_buffer);
  Row("aclnnAddGetWorkspaceSize", "self with a negative stride",
      discard(aclnnAddGetWorkspaceSize(reversed, f23, one, f23, &ws, &ex)));
  Row("aclnnInplaceFillScalarGetWorkspaceSize", "value NULL, selfRef with a negative stride (K16)",
      discard(aclnnInplaceFillScalarGetWorkspaceSize(reversed, nullptr, &ws, &ex)));
  aclDestroyTensor(reversed);
  const int64_t huge_dims[] = {16, std::numeric_limits<int64_t>::max()};
  const int64_t zero_strides[] = {0, 0};
  aclTensor* huge = aclCreateTensor(huge_dims, 2, ACL_FLOAT, zero_strides, 0, ACL_FORMAT_ND, storage, 1, device_buffer);
  Row("aclnnAddsGetWorkspaceSize", "self [16, 2^63-1] (stride 0): element count overflows",
      discard(aclnnAddsGetWorkspaceSize(huge, one, one, huge, &ws, &ex)));
  aclDestroyTensor(huge);
  Row("aclnnAddGetWorkspaceSize", "[2,3] + [3,2]", discard(aclnnAddGetWorkspaceSize(f23, f32, one, f23, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "out [2,2] for [2,3]",
      discard(aclnnAddGetWorkspaceSize(f23, f23, one, f22, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "rank 9", discard(aclnnAddGetWorkspaceSize(f9, f9, one, f9, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "FLOAT result into INT32 out",
      discard(aclnnAddGetWorkspaceSize(f23, f23, one, i23, &ws, &ex)));
  Row("aclnnAddGetWorkspaceSize", "BOOL + BOOL with a FLOAT alpha",
      discard(aclnnAddGetWorkspaceSize(b23, b23, one, b23, &ws, &ex)));
  Row("aclnnAddsGetWorkspaceSize", "FLOAT tensor, UINT16 scalar (accepted: the tensor's dtype wins)",
      discard(aclnnAddsGetWorkspaceSize(f23, u16_scalar, one, f23, &ws, &ex)));
  Row("aclnnCastGetWorkspaceSize", "dtype ACL_STRING",
      discard(aclnnCastGetWorkspaceSize(f23, ACL_STRING, f23, &ws, &ex)));
  Row("aclnnCastGetWorkspaceSize", "out [3,2] for [2,3]",
      discard(aclnnCastGetWorkspaceSize(f23, ACL_FLOAT, f32, &ws, &ex)));
  Row("aclnnInplaceCopyGetWorkspaceSize", "src [2,3] into selfRef [2,2]",
      discard(aclnnInplaceCopyGetWorkspaceSize(f22, f23, &ws, &ex)));
  Row("aclnnInplaceZeroGetWorkspaceSize", "selfRef STRING", discard(aclnnInplaceZeroGetWorkspaceSize(s23, &ws, &ex)));
  Row("aclnnInplaceZeroGetWorkspaceSize", "selfRef rank 9", discard(aclnnInplaceZeroGetWorkspaceSize(f9, &ws, &ex)));
  Row("aclnnInplaceFillScalarGetWorkspaceSize", "FLOAT selfRef, UINT16 value",
      discard(aclnnInplaceFillScalarGetWorkspaceSize(f23, u16_scalar, &ws, &ex)));
  Row("aclnnDivModGetWorkspaceSize", "mode 3", discard(aclnnDivModGetWorkspaceSize(f23, f23, 3, f23, &ws, &ex)));
  Row("aclnnMatmulGetWorkspaceSize", "[2,3] @ [2,3] (K mismatch)",
      discard(aclnnMatmulGetWorkspaceSize(f23, f23, f22, 0, &ws, &ex)));
  Row("aclnnMatmulGetWorkspaceSize", "INT32 operands",
      discard(aclnnMatmulGetWorkspaceSize(i23, f32, f22, 0, &ws, &ex)));
  Row("aclnnMatmulGetWorkspaceSize", "self FRACTAL_NZ",
      discard(aclnnMatmulGetWorkspaceSize(nz, f32, f22, 0, &ws, &ex)));
  Row("aclnnMatmulGetWorkspaceSize", "cubeMathType 5",
      discard(aclnnMatmulGetWorkspaceSize(f23, f32, f22, 5, &ws, &ex)));
  Row("aclnnMatmulGetWorkspaceSize", "rank 8 self", discard(aclnnMatmulGetWorkspaceSize(f1, f32, f22, 0, &ws, &ex)));
  Row("aclnnMmGetWorkspaceSize", "3-D self", discard(aclnnMmGetWorkspaceSize(f234, f34, f22, 0, &ws, &ex)));
  Row("aclnnBatchMatMulGetWorkspaceSize", "batch 2 with batch 3",
      discard(aclnnBatchMatMulGetWorkspaceSize(f234, f324, f234, 0, &ws, &ex)));
  Row("aclnnAddmmGetWorkspaceSize", "beta NULL",
      discard(aclnnAddmmGetWorkspaceSize(f22, f23, f32, nullptr, one, f22, 0, &ws, &ex)));
  Row("aclnnAddmmGetWorkspaceSize", "self rank 3",
      discard(aclnnAddmmGetWorkspaceSize(f234, f23, f32, one, one, f22, 0, &ws, &ex)));
  (void)string_scalar;

  // Phase 2.
  Row("aclnnAdd", "executor NULL", aclnnAdd(nullptr, 0, nullptr, nullptr));
  aclnnAddGetWorkspaceSize(f23, f23, one, f23, &ws, &ex);
  Row("aclnnAdd", "workspace NULL with workspaceSize 64", aclnnAdd(nullptr, 64, ex, nullptr));
  aclTensor* f23_int = Tensor({2, 3}, ACL_INT32);
  aclnnAddGetWorkspaceSize(f23, f23_int, one, f23, &ws, &ex);  // needs a workspace? (maybe 0)
  if (ws > 0) {
    Row("aclnnAdd", "workspaceSize smaller than phase 1 asked", aclnnAdd(device_buffer, ws - 1, ex, nullptr));
  } else {
    aclSetAclOpExecutorRepeatable(ex);
    aclDestroyAclOpExecutor(ex);
  }
  aclrtStream stale = nullptr;
  aclrtCreateStream(&stale);
  aclrtDestroyStream(stale);
  aclnnAddGetWorkspaceSize(f23, f23, one, f23, &ws, &ex);
  Row("aclnnAdd", "a destroyed stream", aclnnAdd(nullptr, 0, ex, stale));
  for (aclTensor* t : {f23, f32, f22, i23, u23, s23, f9, nz, f1, b23, f234, f34, f324, f23_int}) aclDestroyTensor(t);
  aclDestroyScalar(one);
  aclDestroyScalar(u16_scalar);
  aclDestroyScalar(string_scalar);
}

void NothingToDo(void*) {}

void Runtime() {
  Section("Runtime: memory and copies");
  void* p = nullptr;
  void* block = nullptr;
  aclrtMalloc(&block, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  std::vector<char> host(8192);
  Row("aclrtMalloc", "size 0", aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
  Row("aclrtMalloc", "devPtr NULL", aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST));
  Row("aclrtMalloc", "2^40 bytes (device has 256 MiB here)",
      aclrtMalloc(&p, size_t{1} << 40, ACL_MEM_MALLOC_HUGE_FIRST));
  Row("aclrtMalloc", "SIZE_MAX bytes", aclrtMalloc(&p, std::numeric_limits<size_t>::max(), ACL_MEM_MALLOC_HUGE_FIRST));
  Row("aclrtFree", "NULL", aclrtFree(nullptr));
  Row("aclrtFree", "an interior pointer", aclrtFree(static_cast<char*>(block) + 64));
  Row("aclrtFree", "a host pointer", aclrtFree(host.data()));
  void* twice = nullptr;
  aclrtMalloc(&twice, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtFree(twice);
  Row("aclrtFree", "the same pointer twice", aclrtFree(twice));
  Row("aclrtFreeHost", "a device pointer", aclrtFreeHost(block));
  Row("aclrtMallocHost", "size 0", aclrtMallocHost(&p, 0));
  Row("aclrtMemcpy", "count > destMax", aclrtMemcpy(block, 16, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy", "dst NULL", aclrtMemcpy(nullptr, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy", "count 0, dst and src NULL", aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy", "kind 6 (INNER_DEVICE_TO_DEVICE)",
      aclrtMemcpy(block, 16, block, 16, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  Row("aclrtMemcpy", "HOST_TO_DEVICE into host memory",
      aclrtMemcpy(host.data(), 16, host.data() + 64, 16, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy", "HOST_TO_DEVICE past the end of the block",
      aclrtMemcpy(static_cast<char*>(block) + 4090, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy", "DEVICE_TO_HOST from a freed block",
      aclrtMemcpy(host.data(), 16, twice, 16, ACL_MEMCPY_DEVICE_TO_HOST));
  Row("aclrtMemcpyAsync", "HOST_TO_HOST",
      aclrtMemcpyAsync(host.data(), 16, host.data() + 64, 16, ACL_MEMCPY_HOST_TO_HOST, nullptr));
  Row("aclrtMemset", "pageable host memory", aclrtMemset(host.data(), 16, 0, 16));
  Row("aclrtMemset", "count > maxCount", aclrtMemset(block, 16, 0, 32));
  Row("aclrtMemsetAsync", "a freed block", aclrtMemsetAsync(twice, 16, 0, 16, nullptr));
  Row("aclrtMemcpy2d", "width > dpitch", aclrtMemcpy2d(block, 8, host.data(), 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy2d", "height 6 Mi (limit 5 Mi)",
      aclrtMemcpy2d(block, 16, host.data(), 16, 16, size_t{6} << 20, ACL_MEMCPY_HOST_TO_DEVICE));
  Row("aclrtMemcpy2d", "spitch x height overflows",
      aclrtMemcpy2d(host.data(), 16, block, std::numeric_limits<size_t>::max() / 2, 16, 3, ACL_MEMCPY_DEVICE_TO_HOST));
  Row("aclrtMemcpy2d", "kind HOST_TO_HOST", aclrtMemcpy2d(block, 16, host.data(), 16, 16, 2, ACL_MEMCPY_HOST_TO_HOST));
  Row("canopyMallocAsync", "size 0", canopyMallocAsync(&p, 0, nullptr));
  Row("canopyFreeAsync", "a pointer the pool did not hand out", canopyFreeAsync(block, nullptr));

  Section("Runtime: streams, events, callbacks, devices, contexts");
  aclrtStream dead = nullptr;
  aclrtCreateStream(&dead);
  aclrtDestroyStream(dead);
  Row("aclrtSynchronizeStream", "a destroyed stream", aclrtSynchronizeStream(dead));
  Row("aclrtSynchronizeStreamWithTimeout", "timeout 0", aclrtSynchronizeStreamWithTimeout(nullptr, 0));
  Row("aclrtSynchronizeStreamWithTimeout", "timeout -2", aclrtSynchronizeStreamWithTimeout(nullptr, -2));
  Row("aclrtDestroyStream", "NULL (the default stream)", aclrtDestroyStream(nullptr));
  Row("aclrtDestroyStream", "a destroyed stream", aclrtDestroyStream(dead));
  Row("aclrtDestroyStreamForce", "a destroyed stream", aclrtDestroyStreamForce(dead));
  Row("aclrtStreamQuery", "status NULL", aclrtStreamQuery(nullptr, nullptr));
  Row("aclrtLaunchHostFunc", "fn NULL", aclrtLaunchHostFunc(nullptr, nullptr, nullptr));
  Row("aclrtLaunchHostFunc", "a destroyed stream", aclrtLaunchHostFunc(dead, NothingToDo, nullptr));
  aclrtEvent event = nullptr;
  Row("aclrtCreateEventWithFlag", "ACL_EVENT_IPC (only ExWithFlag takes it)", aclrtCreateEventWithFlag(&event, 0x40));
  Row("aclrtCreateEventWithFlag", "flag 0x80", aclrtCreateEventWithFlag(&event, 0x80));
  Row("aclrtCreateEvent", "event NULL", aclrtCreateEvent(nullptr));
  aclrtEvent stale_event = nullptr;
  aclrtCreateEvent(&stale_event);
  aclrtDestroyEvent(stale_event);
  Row("aclrtRecordEvent", "a destroyed event", aclrtRecordEvent(stale_event, nullptr));
  Row("aclrtRecordEvent", "event NULL", aclrtRecordEvent(nullptr, nullptr));
  aclrtEvent live = nullptr;
  aclrtCreateEvent(&live);
  Row("aclrtStreamWaitEvent", "a destroyed stream", aclrtStreamWaitEvent(dead, live));
  aclrtDestroyEvent(live);
  Row("aclrtDestroyEvent", "the same event twice", aclrtDestroyEvent(stale_event));
  Row("aclrtSynchronizeEventWithTimeout", "timeout 0", aclrtSynchronizeEventWithTimeout(stale_event, 0));
  aclrtEvent a = nullptr, b = nullptr;
  aclrtCreateEvent(&a);
  aclrtCreateEvent(&b);
  float ms = 0;
  Row("aclrtEventElapsedTime", "events never recorded", aclrtEventElapsedTime(&ms, a, b));
  Row("aclrtEventElapsedTime", "ms NULL", aclrtEventElapsedTime(nullptr, a, b));
  aclrtDestroyEvent(a);
  aclrtDestroyEvent(b);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  Row("aclrtLaunchCallback", "no thread subscribed to the stream",
      aclrtLaunchCallback(NothingToDo, nullptr, ACL_CALLBACK_BLOCK, stream));
  Row("aclrtLaunchCallback", "fn NULL", aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, stream));
  Row("aclrtProcessReport", "timeout 0", aclrtProcessReport(0));
  Row("aclrtProcessReport", "the thread is not subscribed (timeout 1 ms)", aclrtProcessReport(1));
  const auto self = static_cast<uint64_t>(pthread_self());
  aclrtSubscribeReport(self, stream);
  Row("aclrtSubscribeReport", "a second thread for the same stream", aclrtSubscribeReport(self + 1, stream));
  Row("aclrtProcessReport", "subscribed, nothing arrives (timeout 1 ms)", aclrtProcessReport(1));
  Row("aclrtUnSubscribeReport", "a thread that is not subscribed", aclrtUnSubscribeReport(self + 1, stream));
  aclrtUnSubscribeReport(self, stream);
  aclrtDestroyStream(stream);
  Row("aclrtSetDevice", "device 5 (2 devices)", aclrtSetDevice(5));
  Row("aclrtResetDevice", "device -1", aclrtResetDevice(-1));
  Row("aclrtResetDevice", "device 1, never set (CANN: error)", aclrtResetDevice(1));
  Row("aclrtGetDevice", "deviceId NULL", aclrtGetDevice(nullptr));
  int32_t can = 0;
  Row("aclrtDeviceCanAccessPeer", "device 0 with itself", aclrtDeviceCanAccessPeer(&can, 0, 0));
  Row("aclrtDeviceEnablePeerAccess", "flags 1", aclrtDeviceEnablePeerAccess(1, 1));
  Row("aclrtDeviceDisablePeerAccess", "peer access never enabled", aclrtDeviceDisablePeerAccess(1));
  aclrtContext current = nullptr;
  aclrtGetCurrentContext(&current);
  Row("aclrtDestroyContext", "the default context", aclrtDestroyContext(current));
  int word = 0;
  Row("aclrtDestroyContext", "not a context", aclrtDestroyContext(&word));
  Row("aclrtSetCurrentContext", "not a context", aclrtSetCurrentContext(&word));
  Row("aclrtCreateContext", "device 7", aclrtCreateContext(&current, 7));
  Row("aclrtSynchronizeDeviceWithTimeout", "timeout 0", aclrtSynchronizeDeviceWithTimeout(0));
  Row("aclrtSetSysParamOpt", "ACL_OPT_DETERMINISTIC = 9", aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 9));

  Section("Runtime: virtual memory");
  void* range = nullptr;
  Row("aclrtReserveMemAddress", "size 4 KiB (accepted: rounded up to 2 MiB)",
      aclrtReserveMemAddress(&range, 4096, 0, nullptr, 0));
  aclrtReleaseMemAddress(range);
  Row("aclrtReserveMemAddress", "size 0", aclrtReserveMemAddress(&range, 0, 0, nullptr, 0));
  Row("aclrtReserveMemAddress", "size SIZE_MAX",
      aclrtReserveMemAddress(&range, std::numeric_limits<size_t>::max(), 0, nullptr, 0));
  Row("aclrtReserveMemAddress", "flags 2", aclrtReserveMemAddress(&range, kGranularity, 0, nullptr, 2));
  Row("aclrtReserveMemAddress", "alignment 3", aclrtReserveMemAddress(&range, kGranularity, 3, nullptr, 0));
  aclrtReserveMemAddress(&range, 2 * kGranularity, 0, nullptr, 0);
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  aclrtDrvMemHandle handle = nullptr;
  Row("aclrtMallocPhysical", "flags 1", aclrtMallocPhysical(&handle, kGranularity, &prop, 1));
  Row("aclrtMallocPhysical", "size 0", aclrtMallocPhysical(&handle, 0, &prop, 0));
  Row("aclrtMallocPhysical", "prop NULL", aclrtMallocPhysical(&handle, kGranularity, nullptr, 0));
  aclrtPhysicalMemProp bad = prop;
  bad.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
  Row("aclrtMallocPhysical", "handleType POSIX", aclrtMallocPhysical(&handle, kGranularity, &bad, 0));
  bad = prop;
  bad.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
  Row("aclrtMallocPhysical", "location MANAGED", aclrtMallocPhysical(&handle, kGranularity, &bad, 0));
  bad = prop;
  bad.memAttr = ACL_DDR_MEM_HUGE;
  Row("aclrtMallocPhysical", "a DDR attribute on a device location",
      aclrtMallocPhysical(&handle, kGranularity, &bad, 0));
  bad = prop;
  bad.location.id = 7;
  Row("aclrtMallocPhysical", "device 7", aclrtMallocPhysical(&handle, kGranularity, &bad, 0));
  Row("aclrtMallocPhysical", "more than the device has", aclrtMallocPhysical(&handle, size_t{1} << 40, &prop, 0));
  aclrtMallocPhysical(&handle, kGranularity, &prop, 0);
  Row("aclrtMapMem", "offset 2 MiB", aclrtMapMem(range, kGranularity, kGranularity, handle, 0));
  Row("aclrtMapMem", "size other than the allocation's", aclrtMapMem(range, 2 * kGranularity, 0, handle, 0));
  Row("aclrtMapMem", "an address outside every reservation", aclrtMapMem(&word, kGranularity, 0, handle, 0));
  Row("aclrtMapMem", "an address 4 KiB into a slot",
      aclrtMapMem(static_cast<char*>(range) + 4096, kGranularity, 0, handle, 0));
  Row("aclrtMapMem", "handle not a physical allocation", aclrtMapMem(range, kGranularity, 0, &word, 0));
  aclrtMapMem(range, kGranularity, 0, handle, 0);
  Row("aclrtMapMem", "over an existing mapping", aclrtMapMem(range, kGranularity, 0, handle, 0));
  Row("aclrtReleaseMemAddress", "a range that is still mapped", aclrtReleaseMemAddress(range));
  Row("aclrtUnmapMem", "not a mapping", aclrtUnmapMem(&word));
  aclrtUnmapMem(range);
  aclrtFreePhysical(handle);
  Row("aclrtFreePhysical", "the same handle twice", aclrtFreePhysical(handle));
  aclrtReleaseMemAddress(range);
  Row("aclrtReleaseMemAddress", "the same range twice", aclrtReleaseMemAddress(range));
  aclrtFree(block);
}

}  // namespace

int main() {
  setenv("CANOPY_DEVICE_MEMORY", "256M", 0);
  setenv("CANOPY_DEVICE_COUNT", "2", 0);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtMalloc(&device_buffer, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
  (void)aclGetRecentErrMsg();
  MetaApi();
  Ops();
  Runtime();
  aclrtFree(device_buffer);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
