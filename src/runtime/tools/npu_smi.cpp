// npu-smi: the device table of CANN's npu-smi tool for Canopy's devices, so
// that scripts which read it (ggml's CMake takes the SoC name from the third
// field of line 7 of `npu-smi info` when SOC_TYPE is not given) work unchanged.
// It is a client of the public C API: the devices are the ones this
// environment (CANOPY_DEVICE_COUNT, CANOPY_DEVICE_MEMORY, CANOPY_SOC_NAME) gives
// every process. Canopy's devices live inside each client process, so other
// processes' memory use and the processes themselves cannot be listed; the
// table says so rather than reporting an idle device.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "acl/acl.h"

namespace {

// Column widths of the table (the cells between the '|' separators).
constexpr int kFirst = 27;
constexpr int kSecond = 15;
constexpr int kThird = 52;

std::string Border(char fill) {
  return "+" + std::string(kFirst, fill) + "+" + std::string(kSecond, fill) + "+" + std::string(kThird, fill) + "+";
}

void Row(const std::string& first, const std::string& second, const std::string& third) {
  std::printf("| %-*s| %-*s| %-*s|\n", kFirst - 1, first.c_str(), kSecond - 1, second.c_str(), kThird - 1,
              third.c_str());
}

void Wide(const std::string& text) {
  const int width = kFirst + kSecond + kThird + 2;
  std::printf("| %-*s|\n", width - 1, text.c_str());
}

std::string Columns(std::initializer_list<std::pair<std::string, int>> cells) {
  std::string out;
  for (const auto& [text, width] : cells) {
    std::string cell = text;
    if (static_cast<int>(cell.size()) < width) cell.append(width - cell.size(), ' ');
    out += cell;
  }
  return out;
}

int Usage() {
  std::fprintf(stderr,
               "usage: npu-smi info\n  prints the table of Canopy's devices (CANOPY_DEVICE_COUNT, "
               "CANOPY_DEVICE_MEMORY, CANOPY_SOC_NAME)\n");
  return 2;
}

int Fail(const char* call, aclError status) {
  std::fprintf(stderr, "npu-smi: %s failed (%d): %s\n", call, status, aclGetRecentErrMsg());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::strcmp(argv[1], "info") != 0) return Usage();
  if (const aclError status = aclInit(nullptr); status != ACL_SUCCESS) return Fail("aclInit", status);
  uint32_t count = 0;
  if (const aclError status = aclrtGetDeviceCount(&count); status != ACL_SUCCESS) {
    return Fail("aclrtGetDeviceCount", status);
  }
  // The table names the chip without the "Ascend" prefix (910B3 for Ascend910B3).
  std::string_view soc = aclrtGetSocName() != nullptr ? aclrtGetSocName() : "unknown";
  if (soc.substr(0, 6) == "Ascend") soc.remove_prefix(6);
  char package[] = "runtime";
  char version[128] = "unknown";
  (void)aclsysGetVersionStr(package, version);

  std::printf("%s\n", Border('-').c_str());
  Wide(Columns({{"npu-smi canopy-" + std::string(version), 33}, {"Version: canopy-" + std::string(version), 0}}));
  std::printf("%s\n", Border('-').c_str());
  Row("NPU   Name", "Health", Columns({{"Power(W)", 12}, {"Temp(C)", 18}, {"Hugepages-Usage(page)", 0}}));
  Row("Chip", "Bus-Id", Columns({{"AICore(%)", 12}, {"Memory-Usage(MB)", 18}, {"HBM-Usage(MB)", 0}}));
  std::printf("%s\n", Border('=').c_str());
  for (uint32_t device = 0; device < count; ++device) {
    int64_t total = 0;
    if (const aclError status = aclrtGetDeviceInfo(device, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &total);
        status != ACL_SUCCESS) {
      return Fail("aclrtGetDeviceInfo", status);
    }
    const std::string total_mb = std::to_string(total >> 20);
    // No sensors and no bus: NA. Memory: other processes' use is not visible here.
    Row(Columns({{std::to_string(device), 6}, {std::string(soc), 0}}), "OK",
        Columns({{"NA", 12}, {"NA", 18}, {"0    / 0", 0}}));
    Row("0", "NA", Columns({{"NA", 12}, {"0    / 0", 18}, {"NA / " + total_mb, 0}}));
    std::printf("%s\n", Border('=').c_str());
  }
  Row("NPU     Chip", "Process id", Columns({{"Process name", 26}, {"Process memory(MB)", 0}}));
  std::printf("%s\n", Border('=').c_str());
  for (uint32_t device = 0; device < count; ++device) {
    Wide("Processes of NPU " + std::to_string(device) + ": not visible (a Canopy device lives inside each process)");
  }
  std::printf("%s\n", Border('=').c_str());
  aclFinalize();
  return 0;
}
