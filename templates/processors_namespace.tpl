// redistc: processors {{NAME}}({{EXTENT_TEXT}}) on {{COMM_TEXT}}, evaluated
// at each use (namespace scope runs before main)
#line {{LINE}} {{INPUT}}
[[maybe_unused]] static std::int64_t {{EXTENT_NAME}}() { return static_cast<std::int64_t>({{EXTENT_TEXT}}); } [[maybe_unused]] static MPI_Comm {{COMM_NAME}}() { return ({{COMM_TEXT}}); }
#line {{NEXT_LINE}} {{INPUT}}
