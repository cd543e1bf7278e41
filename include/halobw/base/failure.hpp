// Exit codes and the one way a check reports failure: a Failure (exit code
// and one line of text), returned as Status (nothing, or the failure) or as
// Expected<T> (a value, or the failure). Ranks agree on a Status before the
// next collective (mpi.hpp: agree).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "halobw/base/names.hpp"

namespace halobw {

// The process exit codes, documented in the README.
enum class ExitCode : int {
  ok = 0,
  check_failed = 1,   // --check found a wrong cell
  bad_input = 2,      // rejected before anything was measured: options, layout, memory, environment
  runtime_error = 3,  // an MPI call or an allocation failed during the run
  timeout = 4,        // the watchdog found a wait longer than --timeout
};

[[nodiscard]] constexpr int exit_status(ExitCode c) { return static_cast<int>(c); }

// Every exit code, in order, and what it means in one line (--help lists them, as the README does).
template <>
struct Names<ExitCode> {
  static constexpr std::array<Spelling<ExitCode>, 5> list{{
      {"ok", ExitCode::ok, "every row measured (and, with --check, every ghost cell right)"},
      {"check_failed", ExitCode::check_failed,
       "--check found a wrong cell (one line names the rank, the piece and the cell)"},
      {"bad_input", ExitCode::bad_input,
       "bad input, refused before anything is measured (one line says what)"},
      {"runtime_error", ExitCode::runtime_error,
       "a failure during the run: an MPI call, an allocation, a write of the results"},
      {"timeout", ExitCode::timeout, "the watchdog: a wait lasted longer than --timeout"},
  }};
};

struct Failure {
  ExitCode code = ExitCode::bad_input;
  std::string message;  // one line, without the "halo-bandwidth: " prefix
};

// Nothing (all is well) or the failure.
using Status = std::optional<Failure>;

[[nodiscard]] inline Status fail(std::string message, ExitCode code = ExitCode::bad_input) {
  return Failure{code, std::move(message)};
}

// A value, or the failure that prevented it.
template <class T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}            // NOLINT(google-explicit-constructor)
  Expected(Failure failure) : v_(std::move(failure)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const T& value() const { return std::get<T>(v_); }
  [[nodiscard]] T& value() { return std::get<T>(v_); }
  [[nodiscard]] const T& operator*() const { return value(); }
  [[nodiscard]] const T* operator->() const { return &value(); }
  [[nodiscard]] const Failure& failure() const { return std::get<Failure>(v_); }
  // The failure as a Status (nothing when there is a value).
  [[nodiscard]] Status status() const { return ok() ? Status{} : Status{failure()}; }

 private:
  std::variant<T, Failure> v_;
};

}  // namespace halobw
