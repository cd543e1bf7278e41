// The environment the program reads, each variable named once: the user's
// overrides, what the launchers set, what every result file records, and the
// test hooks. Reading goes through an EnvLookup, so that tests can give any
// environment.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace halobw {

// Looks up an environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
[[nodiscard]] EnvLookup process_environment();

namespace env_var {
// The user's overrides (--help lists the first two; Cray MPICH's own switch
// is read as a hint of GPU-awareness).
constexpr const char* kProcGrid = "OPENPFC_FD_PROC_GRID";                // GX,GY,GZ: the process grid
constexpr const char* kAssumeGpuAware = "OPENPFC_ASSUME_GPU_AWARE_MPI";  // 0|1
constexpr const char* kMpichGpuSupport = "MPICH_GPU_SUPPORT_ENABLED";    // Cray MPICH's GPU support
// scripts/simulate: the platform file a simulated run's network comes from.
constexpr const char* kSimulatedPlatform = "HALOBW_SIMULATED_PLATFORM";
// scripts/simulate: that file's SHA-256 in hex (the launcher hashes the file it
// hands to smpirun; the program holds no hash code of its own).
constexpr const char* kSimulatedPlatformSha256 = "HALOBW_SIMULATED_PLATFORM_SHA256";

// What launchers set: the job's task count and this task's number.
constexpr const char* kTaskCounts[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS",
                                       "SLURM_NTASKS"};
constexpr const char* kTaskNumbers[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};

// What every result file records (rank 0's values): the overrides, the device
// visibility and the Slurm job.
constexpr const char* kRecorded[] = {kProcGrid,
                                     kAssumeGpuAware,
                                     kMpichGpuSupport,
                                     "CUDA_VISIBLE_DEVICES",
                                     "ROCR_VISIBLE_DEVICES",
                                     "HIP_VISIBLE_DEVICES",
                                     "SLURM_JOB_ID",
                                     "SLURM_JOB_NODELIST",
                                     "SLURM_NTASKS",
                                     "SLURM_TASKS_PER_NODE",
                                     "SLURM_LOCALID"};

// The test hooks (exchange/faults.hpp): not options, not in --help.
constexpr const char* kHookSkipSends = "HALOBW_TEST_HOOK_SKIP_SENDS";
constexpr const char* kHookBadPeer = "HALOBW_TEST_HOOK_BAD_PEER";
constexpr const char* kHookCorrupt = "HALOBW_TEST_HOOK_CORRUPT";
constexpr const char* kHookSlow = "HALOBW_TEST_HOOK_SLOW";
constexpr const char* kHookUnsynced = "HALOBW_TEST_HOOK_UNSYNCED";
constexpr const char* kHookFromRow = "HALOBW_TEST_HOOK_FROM_ROW";
}  // namespace env_var

}  // namespace halobw
