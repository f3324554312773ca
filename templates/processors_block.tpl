// redistc: processors {{NAME}}({{EXTENT_TEXT}}) on {{COMM_TEXT}}
#line {{LINE}} {{INPUT}}
[[maybe_unused]] const std::int64_t {{EXTENT_NAME}} = static_cast<std::int64_t>({{EXTENT_TEXT}}); [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = ({{COMM_TEXT}});
#line {{NEXT_LINE}} {{INPUT}}
