// Where rank 0's results go: the text table, CSV (one header row, one row per
// size, the run's settings repeated on every row) or one JSON document, to
// stdout and/or a file, each row written and flushed as its size finishes.
// Every format is printed from the column table (columns.hpp) and the
// settings table below. Also the progress line on a terminal. Pure
// formatting plus file handling; no MPI.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "halobw/columns.hpp"
#include "halobw/report.hpp"
#include "halobw/settings.hpp"

namespace halobw {

// One run setting as the files carry it: a CSV column and/or a member of the
// JSON document's "run" object (program, version and commit go to "program").
struct Setting {
  const char* name;
  bool csv;
  bool json_run;
  enum class Type { text, integer, grid, int_list } type;
  std::string (*value)(const HeaderInfo&);
};
[[nodiscard]] const std::vector<Setting>& settings();
// The provenance: the last CSV columns, the same on every row of a run.
[[nodiscard]] const std::vector<Setting>& provenance();

// The CSV header row and one row: the settings, every column (empty where not
// measured), then the provenance; fields quoted as RFC 4180 has it where they
// hold a comma or a quote. No comment lines: any CSV reader opens it.
[[nodiscard]] std::string csv_header();
[[nodiscard]] std::string csv_row(const HeaderInfo& run, const Row& row, const Groups& groups);
// The JSON document's head (everything before the rows), one row, and the tail.
[[nodiscard]] std::string json_head(const HeaderInfo& run);
[[nodiscard]] std::string json_row(const Row& row, const Groups& groups);

// One destination: a stream and the format written to it.
class Sink {
 public:
  Sink(std::FILE* file, Format format, bool owned);
  ~Sink();
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;
  void begin(const HeaderInfo& run, const Groups& groups);
  void note(const std::string& line);  // a '# ...' line: tables only
  void row(const Row& row);
  void end();

 private:
  void put(const std::string& text);
  std::FILE* file_;
  Format format_;
  bool owned_;
  bool open_ = false;
  int rows_ = 0;
  HeaderInfo run_;
  Groups groups_;
};

// Rank 0's outputs for a run. With --output, the file gets --format and stdout
// the table (unless --quiet); without it, stdout gets --format.
class Output {
 public:
  Output() = default;
  // Opens `path` for writing (nullopt: none); returns the error text on failure.
  std::optional<std::string> open(Format format, const std::optional<std::string>& path, bool quiet);
  void begin(const HeaderInfo& run, const Groups& groups);
  void note(const std::string& line);
  void row(const Row& row);
  void end();

 private:
  std::vector<std::unique_ptr<Sink>> sinks_;
};

// "size k of n, N=..., ..." on stderr, rewritten in place, only where stderr
// is a terminal (the rank's own, or under mpiexec the launcher's); nothing at
// all in logs and pipes.
class Progress {
 public:
  explicit Progress(bool enabled);
  void show(const std::string& text);
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
};
[[nodiscard]] bool stderr_is_terminal();

}  // namespace halobw
