// What a run produced, as rank 0 keeps it: the settings, the rows measured so
// far and how the run ended; and the two file formats rendered whole from it
// (CSV and JSON). Pure formatting: a document is always rendered complete,
// whatever state the run is in, so that no reader ever sees one cut short.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "halobw/base/failure.hpp"
#include "halobw/report/columns.hpp"
#include "halobw/report/report.hpp"

namespace halobw {

// How the run ended, as the files record it.
struct RunStatus {
  enum class State {
    complete,    // every row measured; exit code 0
    failed,      // ended early with exit_code and reason; the rows are those measured before
    incomplete,  // still measuring when the document was written (the file of a run that was killed)
  };
  State state = State::incomplete;
  int exit_code = -1;                 // complete and failed: the process's exit code
  std::string reason;                 // failed: the one-line reason
  std::vector<std::string> warnings;  // e.g. that nothing crossed ranks
};
template <>
struct Names<RunStatus::State> {
  static constexpr std::array<Spelling<RunStatus::State>, 3> list{
      {{"complete", RunStatus::State::complete},
       {"failed", RunStatus::State::failed},
       {"incomplete", RunStatus::State::incomplete}}};
};

// Everything a result file holds.
struct Results {
  HeaderInfo header;
  Groups groups;
  std::vector<Row> rows;
  RunStatus status;
};

// The provenance: CSV columns after the measurements, the same on every row
// of a run (JSON holds them in "program" and "run"). The settings are in
// run_settings.hpp.
struct ProvenanceField {
  const char* name;
  std::string (*value)(const HeaderInfo&);
};
[[nodiscard]] const std::vector<ProvenanceField>& provenance();
// The status: the last CSV columns, the same on every row of a run.
[[nodiscard]] const std::vector<const char*>& status_columns();

// A CSV field as RFC 4180 has it: quoted when it holds a comma, a quote or a line break.
[[nodiscard]] std::string csv_field(const std::string& text);
// The CSV header row, and one row: the settings, every column (empty where not
// measured), the provenance, then the status. No comment lines: any CSV reader opens it.
[[nodiscard]] std::string csv_header();
[[nodiscard]] std::string csv_row(const Results& r, const Row& row);
// The whole CSV document: the header and every row.
[[nodiscard]] std::string render_csv(const Results& r);
// One row as a JSON object, and the whole JSON document.
[[nodiscard]] std::string json_row(const Row& row, const Groups& groups);
[[nodiscard]] std::string render_json(const Results& r);
// The table's closing note: how the run ended ("# run complete: ...", "# run failed (exit 1): ...").
[[nodiscard]] std::string status_note(const RunStatus& s, std::size_t rows);

}  // namespace halobw
