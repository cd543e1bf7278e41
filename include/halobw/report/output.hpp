// Where rank 0's results go. With --output, the file gets --format and stdout
// the table (unless --quiet); without it, stdout gets --format.
//
// The table streams, a row as each is measured. A file is only ever replaced
// whole: the document is written to a temporary file in the same folder and
// renamed over --output, after every row (a complete document whose status
// says the run is still going, so that a job killed from outside leaves the
// rows it measured) and at the end (with how the run ended). A run refused
// before measuring (exit 2) leaves an existing file untouched; one that began
// measuring and failed before its first row writes a document with no row. CSV and JSON on stdout
// are written once, whole, at the end. Every write, flush, close and rename is
// checked: a failure names the file and the OS error (exit 3).
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "halobw/base/failure.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/platform/terminal.hpp"
#include "halobw/report/results.hpp"

namespace halobw {

// Replaces the file at `path` with `text`: a regular file (or none yet) by a
// temporary file in its folder renamed over it, anything else (a device, a
// pipe) written in place. `name` is how errors name it ("--output r.json").
[[nodiscard]] Status replace_file(const std::string& path, const std::string& text, const std::string& name);

class Output {
 public:
  Output(Format format, std::optional<std::string> path, bool quiet, Progress* progress);

  // Whether --output can be written: its folder exists, is not in /sys or
  // /proc, and a file can be created in it (one is, and removed at once), and
  // it is not a folder itself; a device or a pipe is checked for writing only.
  [[nodiscard]] static Status check_target(const std::string& path);

  // The header and the columns; `warnings` go with the results however the run ends.
  [[nodiscard]] Status begin(const HeaderInfo& run, const Groups& groups, std::vector<std::string> warnings);
  void note(const std::string& line);  // a '# ...' line of the table
  [[nodiscard]] Status row(const Row& row);
  // How the run ended (the warnings of begin() are kept): the final
  // documents. Returns the first write failure of the run.
  [[nodiscard]] Status finish(RunStatus status);
  // The watchdog's thread, as the job is about to end: the final documents,
  // with the run failed for `reason`; best effort, never throws.
  void abandon(const std::string& reason, ExitCode code) noexcept;

 private:
  Status put(const std::string& text);  // to stdout, checked
  Status write_documents(bool final_write);
  Status finish_locked(RunStatus status);

  std::timed_mutex mutex_;
  Results results_;
  Format format_;
  std::optional<std::string> path_;
  bool table_on_stdout_;
  bool document_on_stdout_;   // CSV or JSON on stdout, written at the end
  bool checkpoints_ = false;  // --output is a regular file: rewritten after every row
  Progress* progress_;
  Status error_;  // the first write failure
  bool finished_ = false;
};

}  // namespace halobw
