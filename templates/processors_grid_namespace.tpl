// redistc: processors {{NAME}}({{ROWS_TEXT}}, {{COLS_TEXT}}) on {{COMM_TEXT}}: a
// {{ROWS_TEXT}} x {{COLS_TEXT}} grid, process (i, j) is rank {{RANK_OF}};
// evaluated at each use (namespace scope runs before main)
#line {{LINE}} {{INPUT}}
[[maybe_unused]] static std::int64_t {{ROWS_NAME}}() { return static_cast<std::int64_t>({{ROWS_TEXT}}); } [[maybe_unused]] static std::int64_t {{COLS_NAME}}() { return static_cast<std::int64_t>({{COLS_TEXT}}); } [[maybe_unused]] static MPI_Comm {{COMM_NAME}}() { return ({{COMM_TEXT}}); }
#line {{NEXT_LINE}} {{INPUT}}
