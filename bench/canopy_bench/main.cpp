// canopy-bench: correctness and performance of Canopy's aclnn ops through the
// public two-phase API, in the manner of oneDNN's benchdnn.
//
//   canopy-bench [options] problem... [options] problem...
//
// Options set state for every later problem; see --help.
#include <omp.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "driver.h"
#include "roofline.h"

namespace canopy_bench {
namespace {

constexpr int kMaxBatchDepth = 8;

void PrintHelp() {
  std::printf(
      "usage: canopy-bench [options] problem... (options apply to every later problem)\n"
      "  --driver=NAME        op family (default matmul):\n");
  PrintDrivers();
  std::printf(
      "  --op=A,B             ops of the driver (comma list)\n"
      "  --dt=f32,bf16,f16    dtypes (comma list); --sdt= / --ddt= source / destination dtypes of cast\n"
      "  --bias=n|mn          addmm bias shape: [N] (default) or [M, N]\n"
      "  --cube=0..4          cubeMathType of matmul ops and conv (default 0, KEEP_DTYPE; 1 "
      "ALLOW_FP32_DOWN_PRECISION,\n"
      "                       2 USE_FP16, 3 USE_HF32, 4 USE_FP32_ADD)\n"
      "  --mode=C|P           C: correctness against float64 on fresh random data; P: performance (default)\n"
      "  --reps=N --warmup=N  timed repetitions (median reported; overhead: rounds) and warm-up runs\n"
      "  --min-time=SEC       repeat short problems until each side ran this long (default 0.4)\n"
      "  --seed=N             fixed random data (0: fresh each problem; reproducers print the seed used)\n"
      "  --ref=on|off         run the standalone reference (oneDNN / plain loop) next to Canopy\n"
      "  --batch=FILE         read options and problems from FILE (one line each; # comments);\n"
      "                       settings return to their previous values after the file\n"
      "  --csv=FILE           one row per problem      --roofline=FILE.svg  roofline picture\n"
      "  --reset              settings back to defaults  --threads  print the thread count\n"
      "  --machine            measure and print the machine's peaks now (performance mode does it anyway)\n"
      "  --machine=skip       do not measure them (profiling under valgrind; no %% of peak, no roofline)\n");
}

bool StartsWith(const std::string& text, const char* prefix, std::string& value) {
  const size_t length = std::strlen(prefix);
  if (text.compare(0, length, prefix) != 0) return false;
  value = text.substr(length);
  return true;
}

bool ParseBool(const std::string& text) {
  if (text == "on" || text == "true" || text == "1") return true;
  if (text == "off" || text == "false" || text == "0") return false;
  Die("expected on or off, got '%s'", text.c_str());
}

int ParsePositive(const std::string& name, const std::string& text) {
  try {
    const int value = std::stoi(text);
    if (value > 0) return value;
  } catch (...) {
  }
  Die("%s needs a positive integer, got '%s'", name.c_str(), text.c_str());
}

class CommandLine {
 public:
  explicit CommandLine(Session& session) : session_(session) {}

  void Process(const std::vector<std::string>& tokens, const std::string& directory, int depth) {
    for (const std::string& token : tokens) ProcessOne(token, directory, depth);
  }

  void Finish() {
    // A driver whose problems have a natural default runs it when none was named.
    const Driver* driver = FindDriver(settings_.driver);
    if (problems_run_ == 0 && driver != nullptr && driver->default_problem != nullptr) {
      RunProblem(driver->default_problem);
    }
  }

  int problems_run() const { return problems_run_; }

 private:
  void ProcessOne(const std::string& token, const std::string& directory, int depth) {
    std::string value;
    if (token == "--help" || token == "-h") {
      PrintHelp();
      std::exit(0);
    } else if (token == "--reset") {
      settings_ = Settings{};
    } else if (token == "--machine") {
      MeasureMachineOnce();
    } else if (token == "--machine=skip") {
      // Under valgrind the measurement would take minutes and mean nothing.
      MachinePeak unmeasured;
      unmeasured.threads = omp_get_max_threads();
      unmeasured.measured = true;
      session_.set_machine(unmeasured);
    } else if (token == "--threads") {
      std::printf("threads: %d (omp_get_max_threads)\n", omp_get_max_threads());
    } else if (StartsWith(token, "--driver=", value)) {
      if (FindDriver(value) == nullptr) Die("unknown driver '%s'", value.c_str());
      if (value != settings_.driver) settings_.ops.clear();  // ops belong to a driver
      settings_.driver = value;
    } else if (StartsWith(token, "--op=", value)) {
      settings_.ops = SplitList(value);
    } else if (StartsWith(token, "--dt=", value)) {
      settings_.dtypes = SplitList(value);
      for (const auto& d : settings_.dtypes) DtypeOf(d);
    } else if (StartsWith(token, "--sdt=", value)) {
      settings_.src_dtypes = SplitList(value);
      for (const auto& d : settings_.src_dtypes) DtypeOf(d);
    } else if (StartsWith(token, "--ddt=", value)) {
      settings_.dst_dtypes = SplitList(value);
      for (const auto& d : settings_.dst_dtypes) DtypeOf(d);
    } else if (StartsWith(token, "--bias=", value)) {
      if (value != "n" && value != "mn") Die("--bias is n or mn, got '%s'", value.c_str());
      settings_.bias = value;
    } else if (StartsWith(token, "--cube=", value)) {
      if (value.size() != 1 || value[0] < '0' || value[0] > '4') Die("--cube is 0 to 4, got '%s'", value.c_str());
      settings_.cube_math_type = static_cast<int8_t>(value[0] - '0');
    } else if (StartsWith(token, "--mode=", value)) {
      if (value == "C" || value == "c" || value == "corr") {
        settings_.mode = Mode::kCorrectness;
      } else if (value == "P" || value == "p" || value == "perf") {
        settings_.mode = Mode::kPerformance;
      } else {
        Die("--mode is C or P, got '%s'", value.c_str());
      }
    } else if (StartsWith(token, "--reps=", value)) {
      settings_.repetitions = ParsePositive("--reps", value);
    } else if (StartsWith(token, "--warmup=", value)) {
      settings_.warmup = value == "0" ? 0 : ParsePositive("--warmup", value);
    } else if (StartsWith(token, "--min-time=", value)) {
      settings_.min_seconds = std::stod(value);
    } else if (StartsWith(token, "--seed=", value)) {
      settings_.seed = std::stoull(value);
    } else if (StartsWith(token, "--ref=", value)) {
      settings_.reference = ParseBool(value);
    } else if (StartsWith(token, "--csv=", value)) {
      session_.csv_path = value;
    } else if (StartsWith(token, "--roofline=", value)) {
      session_.roofline_path = value;
    } else if (StartsWith(token, "--batch=", value)) {
      RunBatch(value, directory, depth);
    } else if (token.rfind("--", 0) == 0) {
      Die("unknown option '%s' (see --help)", token.c_str());
    } else {
      RunProblem(token);
    }
  }

  void RunBatch(const std::string& name, const std::string& directory, int depth) {
    if (depth >= kMaxBatchDepth) Die("--batch files nest deeper than %d", kMaxBatchDepth);
    // A relative name is looked up next to the including batch file first, then here.
    std::string path = name;
    std::ifstream file;
    if (!directory.empty() && name.front() != '/') {
      path = directory + "/" + name;
      file.open(path);
    }
    if (!file.is_open()) {
      path = name;
      file.open(path);
    }
    if (!file.is_open()) Die("cannot read batch file '%s'", name.c_str());
    const std::string here = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/'));
    const Settings saved = settings_;
    std::string line;
    while (std::getline(file, line)) {
      line = line.substr(0, line.find('#'));
      std::istringstream words(line);
      std::vector<std::string> tokens;
      for (std::string word; words >> word;) tokens.push_back(word);
      Process(tokens, here, depth + 1);
    }
    settings_ = saved;
  }

  void MeasureMachineOnce() {
    if (session_.machine().measured) return;
    std::printf("measuring the machine...\n");
    std::fflush(stdout);
    // On the engine's thread, where the kernels and references fork their teams.
    MachinePeak machine;
    RunOnEngine([&] {
      machine = MeasureMachine();
      return 0.0;
    });
    session_.set_machine(machine);
    PrintMachine(session_.machine());
  }

  void RunProblem(const std::string& problem) {
    if (settings_.mode == Mode::kPerformance) MeasureMachineOnce();
    const Driver* driver = FindDriver(settings_.driver);
    driver->run(settings_, problem, session_);
    std::fflush(stdout);
    ++problems_run_;
  }

  Session& session_;
  Settings settings_;
  int problems_run_ = 0;
};

}  // namespace
}  // namespace canopy_bench

int main(int argc, char** argv) {
  using namespace canopy_bench;
  // A rank of the hccl driver: before anything of the bench starts.
  if (argc > 1 && std::strcmp(argv[1], "--hccl-worker") == 0) return RunHcclWorker(argc - 2, argv + 2);
  Session session;
  std::vector<std::string> tokens(argv + 1, argv + argc);
  std::printf("canopy-bench: threads %d (omp_get_max_threads)\n", omp_get_max_threads());
  AclSession::Get();
  CommandLine command_line(session);
  command_line.Process(tokens, "", 0);
  command_line.Finish();

  int passed = 0, failed = 0, skipped = 0;
  for (const Result& r : session.results()) {
    if (r.status == "ok") ++passed;
    if (r.status == "fail" || r.status == "error") ++failed;
    if (r.status == "skip") ++skipped;
  }
  std::printf("summary: %zu result(s): %d ok, %d failed, %d skipped\n", session.results().size(), passed, failed,
              skipped);
  session.WriteCsv();
  if (!session.roofline_path.empty()) WriteRoofline(session.roofline_path, session.machine(), session.results());
  return session.failures() > 0 ? 1 : 0;
}
