// redistc: processors {{NAME}}({{EXTENTS_TEXT}}) on {{COMM_TEXT}}: a
// {{SHAPE}} arrangement, processes numbered {{ORDER_TEXT}}; evaluated at
// each use (namespace scope runs before main)
#line {{LINE}} {{INPUT}}
[[maybe_unused]] static std::vector<std::int64_t> {{GRID_NAME}}() { return {{GRID_INIT}}; } [[maybe_unused]] static MPI_Comm {{COMM_NAME}}() { return ({{COMM_TEXT}}); }
#line {{NEXT_LINE}} {{INPUT}}
