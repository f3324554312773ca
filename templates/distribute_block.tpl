// redistc: distribute {{VAR}}[{{EXTENT_TEXT}}]({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current distribution, extent and communicator
#line {{LINE}} {{INPUT}}
[[maybe_unused]] redist::Distribution {{DIST_NAME}} = {{DIST_INIT}}; [[maybe_unused]] const std::int64_t {{EXTENT_NAME}} = static_cast<std::int64_t>({{EXTENT_TEXT}}); [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = {{COMM}};
#line {{NEXT_LINE}} {{INPUT}}
