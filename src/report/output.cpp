#include "halobw/report/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace halobw {

namespace {

Status os_error(const std::string& name, int err) {
  return fail(name + ": " + std::strerror(err), ExitCode::runtime_error);
}

// Every byte of `text` to `fd`, through short writes and signals.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// A device or a pipe (/dev/null, /dev/full, a FIFO): written in place, as it is.
Status write_in_place(const std::string& path, const std::string& text, const std::string& name) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return os_error(name, errno);
  const bool wrote = std::fputs(text.c_str(), f) >= 0 && std::fflush(f) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 && wrote) return os_error(name, errno);
  return wrote ? Status{} : os_error(name, err);
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

Status replace_file(const std::string& path, const std::string& text, const std::string& name) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) return write_in_place(path, text, name);
  // Through a symbolic link, the file it points at is replaced and the link kept.
  std::string target = path;
  if (exists) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) != nullptr) target = resolved;
  }
  const auto slash = target.find_last_of('/');
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string temp = folder_of(target) + "/." + base + ".XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return os_error(name, errno);
  int err = 0;
  const bool written =
      ::fchmod(fd, exists ? (st.st_mode & 07777) : new_file_mode()) == 0 && write_all(fd, text);
  // EINVAL from fsync: a file system that cannot sync, nothing lost.
  if (!written || (::fsync(fd) != 0 && errno != EINVAL)) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(temp.c_str(), target.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    return os_error(name, err);
  }
  return {};
}

Output::Output(Format format, std::optional<std::string> path, bool quiet, Progress* progress)
    : format_(format),
      path_(std::move(path)),
      table_on_stdout_(!quiet && (path_ || format == Format::table)),
      document_on_stdout_(!path_ && !quiet && format != Format::table),
      progress_(progress) {
  struct stat st {};
  checkpoints_ = path_ && (::stat(path_->c_str(), &st) != 0 || S_ISREG(st.st_mode));
}

namespace {

// /sys and /proc hold the kernel's files: root may open some for writing, and a
// result written there is lost or refused only once the first row is measured.
std::optional<std::string> kernel_folder(const std::string& folder) {
  char resolved[PATH_MAX];
  const std::string real = ::realpath(folder.c_str(), resolved) != nullptr ? resolved : folder;
  for (const char* root : {"/sys", "/proc"}) {
    const std::size_t n = std::strlen(root);
    if (real.compare(0, n, root) == 0 && (real.size() == n || real[n] == '/')) return root;
  }
  return std::nullopt;
}

// Whether a file can be created in `folder`: one is, and removed at once (as
// root, access() says yes where the file system or its rules still say no).
Status can_create_in(const std::string& folder, const std::string& name) {
  std::string probe = folder + "/.halobw-output-check.XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return fail(name + ": cannot create a file in " + folder + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

}  // namespace

Status Output::check_target(const std::string& path) {
  const std::string name = "--output " + path;
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists) {
    if (S_ISDIR(st.st_mode)) return fail(name + ": is a folder");
    if (::access(path.c_str(), W_OK) != 0) return fail(name + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return {};  // a device or a pipe: written in place
  }
  const std::string folder = folder_of(path);
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return fail(name + ": the folder " + folder + " does not exist (create it first: mkdir -p " + folder +
                ")");
  }
  if (const auto root = kernel_folder(folder)) {
    return fail(name + ": " + *root + " holds the kernel's files, not results: write into a folder of yours");
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return fail(name + ": cannot write in " + folder + ": " + std::strerror(errno));
  }
  return can_create_in(folder, name);
}

Status Output::put(const std::string& text) {
  if (progress_ != nullptr) progress_->clear();
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    if (!error_) error_ = os_error("standard output", errno);
  }
  return error_;
}

Status Output::begin(const HeaderInfo& run, const Groups& groups, std::vector<std::string> warnings) {
  const std::lock_guard<std::timed_mutex> lock(mutex_);
  results_.header = run;
  results_.groups = groups;
  results_.status.warnings = std::move(warnings);
  if (table_on_stdout_) put(format_header(run) + format_columns(groups));
  return error_;
}

void Output::note(const std::string& line) {
  const std::lock_guard<std::timed_mutex> lock(mutex_);
  if (table_on_stdout_) put(line + "\n");
}

namespace {

// A run refused before its first row (exit 2: bad input, memory, a method MPI
// cannot do) leaves --output as it was; one that began measuring and failed
// (--check, an MPI error, the watchdog) replaces it, with no row if need be, so
// that an older file never reads as this command's result.
bool measured_and_failed(const RunStatus& s) {
  return s.state == RunStatus::State::failed && s.exit_code != exit_status(ExitCode::bad_input);
}

}  // namespace

Status Output::write_documents(bool final_write) {
  const bool any = !results_.rows.empty();
  if (path_ && (final_write || checkpoints_) &&
      (any || (final_write && measured_and_failed(results_.status)))) {
    const std::string text = format_ == Format::json ? render_json(results_) : render_csv(results_);
    const Status s = replace_file(*path_, text, "--output " + *path_);
    if (s && !error_) error_ = s;
  }
  if (final_write && document_on_stdout_ && (any || results_.status.state == RunStatus::State::complete)) {
    put(format_ == Format::json ? render_json(results_) : render_csv(results_));
  }
  return error_;
}

Status Output::row(const Row& row) {
  const std::lock_guard<std::timed_mutex> lock(mutex_);
  results_.rows.push_back(row);
  if (table_on_stdout_) put(format_row(row, results_.groups));
  return write_documents(false);
}

Status Output::finish_locked(RunStatus status) {
  if (finished_) return error_;
  finished_ = true;
  status.warnings = std::move(results_.status.warnings);
  results_.status = std::move(status);
  const bool failed = results_.status.state == RunStatus::State::failed;
  if (table_on_stdout_ && failed) put(status_note(results_.status, results_.rows.size()) + "\n");
  Status written = write_documents(true);
  // A run that measured every row but could not write its results failed too, and its table says so.
  if (table_on_stdout_ && !failed && written) {
    RunStatus s;
    s.state = RunStatus::State::failed;
    s.exit_code = exit_status(written->code);
    s.reason = written->message;
    put(status_note(s, results_.rows.size()) + "\n");
  }
  return written;
}

Status Output::finish(RunStatus status) {
  const std::lock_guard<std::timed_mutex> lock(mutex_);
  return finish_locked(std::move(status));
}

void Output::abandon(const std::string& reason, ExitCode code) noexcept {
  try {
    std::unique_lock<std::timed_mutex> lock(mutex_, std::defer_lock);
    if (!lock.try_lock_for(std::chrono::seconds(2))) return;
    RunStatus s = results_.status;
    s.state = RunStatus::State::failed;
    s.exit_code = exit_status(code);
    s.reason = reason;
    (void)finish_locked(std::move(s));
  } catch (...) {
    // The job is ending: nothing more can be done for the file.
  }
}

}  // namespace halobw
