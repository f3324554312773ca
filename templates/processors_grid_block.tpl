// redistc: processors {{NAME}}({{ROWS_TEXT}}, {{COLS_TEXT}}) on {{COMM_TEXT}}: a
// {{ROWS_TEXT}} x {{COLS_TEXT}} grid, process (i, j) is rank {{RANK_OF}}
#line {{LINE}} {{INPUT}}
[[maybe_unused]] const std::int64_t {{ROWS_NAME}} = static_cast<std::int64_t>({{ROWS_TEXT}}); [[maybe_unused]] const std::int64_t {{COLS_NAME}} = static_cast<std::int64_t>({{COLS_TEXT}}); [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = ({{COMM_TEXT}});
#line {{NEXT_LINE}} {{INPUT}}
