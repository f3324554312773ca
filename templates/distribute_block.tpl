// redistc: distribute {{VAR}}[{{EXTENT_TEXT}}]({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current distribution, extent and communicator,
// whose values the ranks agree on here
#line {{LINE}} {{INPUT}}
[[maybe_unused]] const std::int64_t {{EXTENT_NAME}} = static_cast<std::int64_t>({{EXTENT_TEXT}}); [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = {{COMM}}; [[maybe_unused]] redist::Distribution {{DIST_NAME}} = {{DIST_INIT}};
#line {{NEXT_LINE}} {{INPUT}}
