// What torch_npu and MindSpore do: open libopapi.so alone and find the meta API
// and the runtime through it (it must NEED libnnopbase and libascendcl).
#include <dlfcn.h>

#include <cstdio>
#include <initializer_list>

int main() {
  void* opapi = dlopen("libopapi.so", RTLD_NOW | RTLD_GLOBAL);
  if (opapi == nullptr) {
    std::fprintf(stderr, "dlopen(libopapi.so): %s\n", dlerror());
    return 1;
  }
  for (const char* symbol : {"aclCreateTensor", "aclDestroyTensor", "aclnnAddGetWorkspaceSize", "aclnnAdd",
                             "aclrtMalloc", "aclInit", "aclSetAclOpExecutorRepeatable"}) {
    if (dlsym(opapi, symbol) == nullptr) {
      std::fprintf(stderr, "dlsym(libopapi.so, %s) failed\n", symbol);
      return 1;
    }
  }
  std::printf("dlsym through libopapi.so: ok\n");
  return 0;
}
