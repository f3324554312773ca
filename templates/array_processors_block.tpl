// redistc: processors {{NAME}}({{EXTENTS_TEXT}}) on {{COMM_TEXT}}: a
// {{SHAPE}} arrangement, processes numbered {{ORDER_TEXT}}
#line {{LINE}} {{INPUT}}
[[maybe_unused]] const std::vector<std::int64_t> {{GRID_NAME}} = {{GRID_INIT}}; [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = ({{COMM_TEXT}});
#line {{NEXT_LINE}} {{INPUT}}
